#if canImport(Glibc)
import Glibc
#endif

/// What the process used and what it runs on: peak resident memory, the CPU model, the number of
/// cores and the allocator. Read from Linux's `/proc` and `getrusage`; every reader falls back to
/// a stated default instead of failing.
///
/// Thread safety: all members may be called from any thread.
package enum ResourceUsage {
    /// The peak resident set size of this process in bytes: `VmHWM` from `/proc/self/status`, or
    /// `getrusage`'s `ru_maxrss` (KiB on Linux) when that file cannot be read.
    package static func peakRSSBytes() -> UInt64 {
        if let status = readTextFile("/proc/self/status"), let kib = kibibytes(field: "VmHWM", in: status) {
            return kib * 1024
        }
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return UInt64(Swift.max(usage.ru_maxrss, 0)) * 1024
    }

    /// The current resident set size in bytes (`VmRSS`), 0 when unknown.
    package static func currentRSSBytes() -> UInt64 {
        guard let status = readTextFile("/proc/self/status"), let kib = kibibytes(field: "VmRSS", in: status) else {
            return 0
        }
        return kib * 1024
    }

    /// The CPU model (`model name` in `/proc/cpuinfo`; on ARM, `Hardware` or `CPU implementer`/`CPU
    /// part`), or the machine name from `uname`, or "unknown".
    package static func cpuModel() -> String {
        if let cpuinfo = readTextFile("/proc/cpuinfo") {
            for key in ["model name", "Hardware", "Processor", "cpu model"] {
                if let value = field(key, in: cpuinfo), !value.isEmpty { return value }
            }
            if let implementer = field("CPU implementer", in: cpuinfo), let part = field("CPU part", in: cpuinfo) {
                return "implementer \(implementer) part \(part)"
            }
        }
        var names = utsname()
        guard uname(&names) == 0 else { return "unknown" }
        let machine = withUnsafeBytes(of: &names.machine) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        return machine.isEmpty ? "unknown" : machine
    }

    /// Online processor cores (`sysconf(_SC_NPROCESSORS_ONLN)`), at least 1.
    package static func coreCount() -> Int {
        Swift.max(Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))), 1)
    }

    /// "jemalloc <version>" when jemalloc serves this process's allocations, else "system".
    package static func allocator() -> String {
        guard AllocationCounter.isJemallocActive, let version = AllocationCounter.jemallocVersion else {
            return "system"
        }
        return "jemalloc \(version)"
    }

    /// The value after `key` and `:` on the first line starting with `key`, trimmed.
    static func field(_ key: String, in text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix(key) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingSpaces()
            guard name == key else { continue }
            return String(line[line.index(after: colon)...].trimmingSpaces())
        }
        return nil
    }

    /// A `/proc/self/status` size field such as `VmHWM:   1234 kB`, in KiB.
    static func kibibytes(field key: String, in status: String) -> UInt64? {
        guard let value = field(key, in: status) else { return nil }
        let digits = value.prefix { $0.isASCII && $0.isNumber }
        return UInt64(digits)
    }

    /// The whole file as UTF-8 text (invalid bytes repaired), or nil. `/proc` files report size 0,
    /// so this reads until end of file.
    static func readTextFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
            if bytes.count > 16 << 20 { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" || last == "\r" { result.removeLast() }
        return result
    }
}
