import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension RunManifest {
    /// `git rev-parse HEAD` in the current directory if git answers with a commit hash, else the
    /// `DEEPLINK_COMMIT` environment variable if set, else "unknown".
    static func currentCommit() -> String {
        if let commit = gitHead() { return commit }
        if let value = ProcessInfo.processInfo.environment["DEEPLINK_COMMIT"], !value.isEmpty { return value }
        return "unknown"
    }

    private static func gitHead() -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "rev-parse", "HEAD"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let isHash = text.count >= 40 && text.utf8.allSatisfy { (48...57).contains($0) || (97...102).contains($0) }
        return isHash ? text : nil
    }

    /// Nanoseconds since the Unix epoch (wall clock).
    static func nowNanosecondsSinceEpoch() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `2026-11-30T22:41:37.123Z` for a time in nanoseconds since the Unix epoch (UTC).
    package static func iso8601(nanosecondsSinceEpoch: UInt64) -> String {
        var seconds = time_t(nanosecondsSinceEpoch / 1_000_000_000)
        let millis = (nanosecondsSinceEpoch / 1_000_000) % 1000
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(width - text.count, 0)) + text
        }
        let date = "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))"
        let time = "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
        return "\(date)T\(time).\(pad(Int32(millis), 3))Z"
    }
}
