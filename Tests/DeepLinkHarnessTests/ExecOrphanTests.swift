import DeepLinkHarness
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A `run` that is told to stop (SIGTERM, SIGINT, SIGHUP) or whose parent dies leaves no process
/// behind (its supervised worker, the exec children) and no state directory.
@Suite(.serialized) struct ExecOrphanTests {
    /// Every live process's parent, from `/proc/PID/stat` (never `cmdline`, whose read can block
    /// on another process's memory lock).
    static func parents() -> [Int32: Int32] {
        var result: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/stat"),
                let text = String(data: data, encoding: .utf8), let close = text.lastIndex(of: ")")
            else { continue }
            let fields = text[text.index(after: close)...].split(separator: " ")
            // A zombie has exited; it only waits to be reaped.
            guard fields.count > 1, fields[0] != "Z", let parent = Int32(fields[1]) else { continue }
            result[pid] = parent
        }
        return result
    }

    /// The live descendants of `root`.
    static func descendants(of root: Int32) -> Set<Int32> {
        let parents = parents()
        var found: Set<Int32> = []
        var changed = true
        while changed {
            changed = false
            for (pid, parent) in parents where !found.contains(pid) && (parent == root || found.contains(parent)) {
                found.insert(pid)
                changed = true
            }
        }
        return found
    }

    /// Whether `pid` is still a live process.
    static func isAlive(_ pid: Int32) -> Bool { parents()[pid] != nil }

    /// Waits up to `seconds` for `condition`.
    static func wait(seconds: Double, for condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(50_000)
        }
        return condition()
    }

    @Test(arguments: [SIGTERM, SIGINT, SIGHUP, SIGKILL])
    func aSignalledRunLeavesNoProcessAndNoStateBehind(signal: Int32) throws {
        let binary = try #require(ExecStrategyTests.benchBinary(), "deeplink-bench not built next to the tests")
        let marker = "orphan-check-\(getpid())-\(signal)-\(UInt32.random(in: 0...UInt32.max))"
        let directory = NSTemporaryDirectory() + marker
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let adapter = "python3 '\(ExecStrategyTests.script("rules_adapter.py"))' --bug \(marker)"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "run", "--journeys", "10000000", "--threads", "2", "--strategies", "exec:x", "--exec", "x=" + adapter,
            "--kill", "signal", "--exec-log-dir", directory, "--quiet", "--no-report",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The supervisor's worker and the worker's two adapters (and whatever they started).
        var seen: Set<Int32> = []
        let started = Self.wait(seconds: 60) {
            seen.formUnion(Self.descendants(of: process.processIdentifier))
            return Self.descendants(of: process.processIdentifier).count >= 3
        }
        #expect(started, "the worker and its adapters did not start")
        #expect(Self.wait(seconds: 30) { FileManager.default.fileExists(atPath: directory + "/state") })
        seen.formUnion(Self.descendants(of: process.processIdentifier))
        // SIGKILL stands for a parent that dies: the supervisor cannot clean up; its worker must.
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let gone = Self.wait(seconds: 20) { !seen.contains(where: Self.isAlive) }
        let survivors = seen.filter(Self.isAlive)
        #expect(gone, "left behind: \(survivors)")
        for pid in survivors { kill(pid, SIGKILL) }
        #expect(Self.wait(seconds: 10) { !FileManager.default.fileExists(atPath: directory + "/state") })
    }

    /// A run that ends normally removes its state directories too.
    @Test func aFinishedRunLeavesNoStateDirectory() throws {
        let binary = try #require(ExecStrategyTests.benchBinary(), "deeplink-bench not built next to the tests")
        let directory = NSTemporaryDirectory() + "state-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = [
            "run", "--journeys", "300", "--threads", "2", "--strategies", "exec:x",
            "--exec", "x=python3 '\(ExecStrategyTests.script("rules_adapter.py"))'", "--kill", "signal",
            "--exec-log-dir", directory, "--quiet", "--no-report",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: directory + "/state"))
        #expect(FileManager.default.fileExists(atPath: directory + "/x.w0.log"))
    }
}
