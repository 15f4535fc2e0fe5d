import Foundation

/// `gate --instructions`: counts the fixed workload (``InstructionCount``) with this binary (or
/// `--executable`), writes the counts to `--current DIR` (or only to `--record DIR`), and
/// compares them with `--baseline DIR`'s (its `instructions/`). Growth of instructions or I1
/// misses per operation above `--instruction-tolerance` (default 2 %; I1 misses get one more per
/// operation) fails, exit 1; a disturbed machine cannot move the counts, so there is no
/// inconclusive verdict.
///
/// Thread safety: a value type run by one thread.
public struct InstructionGate: Sendable {
    /// `--record DIR`: count into DIR and compare nothing.
    public var record: String?
    public var tolerancePercent: Double
    public var workload: InstructionCount.Workload
    public var commandLine: [String]

    public init(arguments: ParsedArguments) throws(CLIError) {
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        record = arguments.string("--record")
        if record == nil {
            guard arguments.string("--baseline")?.isEmpty == false else { throw .missingArgument("--baseline DIR") }
            guard arguments.string("--current")?.isEmpty == false else { throw .missingArgument("--current DIR") }
        }
        tolerancePercent = try arguments.double("--instruction-tolerance", in: 0...1000) ?? 2
        let executable =
            arguments.string("--executable")
            ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        workload = InstructionCount.Workload(executable: executable)
        if let journeys = try arguments.integer("--instruction-journeys", in: 1...10_000_000) {
            workload.journeys = UInt64(journeys)
        }
        if let operations = try arguments.integer("--instruction-operations", in: 1...10_000_000) {
            workload.operations = UInt64(operations)
        }
        workload.coreFaults = arguments.string("--core-faults")
        workload.benchmarks = !arguments.has("--no-benchmarks")
        commandLine = ["deeplink-bench", "gate", "--instructions"] + (workload.benchmarks ? [] : ["--no-benchmarks"])
        for (name, values) in arguments.repeated.sorted(by: { $0.key < $1.key }) {
            for value in values { commandLine += [name, value] }
        }
    }

    /// Counts, writes and (without `--record`) judges; returns the exit status.
    public func run(baseline: String, current: String, io: CommandIO) throws -> Int32 {
        // Before counting (minutes under callgrind): the output must be writable.
        try OutputDirectory.check(current, replacingReport: true)
        let before = record == nil ? try InstructionCount.read(baseline) : []
        let rows = try InstructionCount.measure(workload, io: io)
        try InstructionCount.write(rows, to: current, commandLine: commandLine)
        guard record == nil else {
            io.out("gate: recorded instruction counts of \(rows.count) workloads in \(current)/\n")
            return 0
        }
        let checks = try InstructionCount.compare(
            baseline: before,
            current: rows,
            tolerance: tolerancePercent / 100
        )
        io.out(GateCommand.table(checks))
        let failures = checks.filter { $0.verdict == .fail }
        if failures.isEmpty {
            io.out("gate: PASS (\(checks.count) instruction and I1 miss counts within +\(tolerancePercent)%)\n")
            return 0
        }
        let names = failures.map { "\(JSONString.escaped($0.strategy)) (\($0.metric))" }.joined(separator: ", ")
        io.out("gate: FAIL: instructions or I1 misses per operation grew: \(names)\n")
        return 1
    }
}
