#if canImport(Glibc)
import Glibc
#endif

/// Readings from Linux: `/proc/stat`, `getrusage`, `/proc/loadavg` and `/proc/self/task`. A file
/// that cannot be read counts as zero (a machine without `/proc` looks undisturbed, and says so
/// by its zero readings).
///
/// Thread safety: stateless.
package struct ProcDisturbanceSource: DisturbanceSource {
    package init() {}

    package func read() -> DisturbanceReading {
        DisturbanceReading(
            stealNanos: Self.stealNanos(stat: ResourceUsage.readTextFile("/proc/stat") ?? ""),
            involuntarySwitches: Self.involuntarySwitches(),
            runnable: Self.runnable(loadavg: ResourceUsage.readTextFile("/proc/loadavg") ?? ""),
            ownRunnable: Self.ownRunnableThreads()
        )
    }

    package func hostSpeedNanos() -> Double? { HostSpeedProbe.measure() }

    /// The `steal` field (the 8th number) of `/proc/stat`'s aggregate `cpu` line, converted from
    /// clock ticks (`sysconf(_SC_CLK_TCK)`) to nanoseconds; 0 when absent.
    static func stealNanos(stat: String) -> UInt64 {
        guard let line = stat.split(separator: "\n").first(where: { $0.hasPrefix("cpu ") }) else { return 0 }
        let fields = line.split(separator: " ").dropFirst()
        guard fields.count >= 8, let ticks = UInt64(fields[fields.startIndex + 7]) else { return 0 }
        let perSecond = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        let (nanos, overflow) = ticks.multipliedReportingOverflow(by: 1_000_000_000 / perSecond)
        return overflow ? .max : nanos
    }

    /// The running count of `/proc/loadavg` (`0.50 0.40 0.30 RUNNING/TOTAL LASTPID`); 0 when absent.
    static func runnable(loadavg: String) -> Int {
        let fields = loadavg.split(separator: " ")
        guard fields.count >= 4, let slash = fields[3].firstIndex(of: "/") else { return 0 }
        return Int(fields[3][..<slash]) ?? 0
    }

    /// This process's involuntary switches, less those its own racing threads booked
    /// (``RaceSwitches``): a run's races preempt the run itself.
    static func involuntarySwitches() -> UInt64 {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        let all = UInt64(max(0, usage.ru_nivcsw))
        let own = RaceSwitches.total
        return all > own ? all - own : 0
    }

    /// Threads of this process in state `R` (running or runnable), the reading thread included.
    static func ownRunnableThreads() -> Int {
        guard let directory = opendir("/proc/self/task") else { return 0 }
        defer { closedir(directory) }
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name.first?.isNumber == true,
                let stat = ResourceUsage.readTextFile("/proc/self/task/\(name)/stat")
            else { continue }
            // `PID (COMM) STATE …`: the command may hold spaces and parentheses, so the state is
            // the first field after the last ')'.
            guard let close = stat.lastIndex(of: ")") else { continue }
            if stat[stat.index(after: close)...].drop(while: { $0 == " " }).first == "R" { count += 1 }
        }
        return count
    }
}
