import Foundation

/// `gate --instructions`: counts the fixed workload (``InstructionCount``) with this binary (or
/// `--executable`), writes the counts to `--current DIR` (or only to `--record DIR`), and
/// compares them with `--baseline DIR`'s (its `instructions/`). Growth of instructions or I1
/// misses per operation above `--instruction-tolerance` (default 2 %; I1 misses get one more per
/// operation) fails, exit 1; a disturbed machine cannot move the counts, so there is no
/// inconclusive verdict.
///
/// Thread safety: a value type run by one thread.
package struct InstructionGate: Sendable {
    /// `--record DIR`: count into DIR and compare nothing.
    package var record: String?
    package var tolerancePercent: Double
    package var workload: InstructionCount.Workload
    package var commandLine: [String]

    static let record = Option(
        "--record",
        value: "dir",
        as: .text,
        help: "With --instructions: count and write DIR only (make baseline)."
    )
    static let tolerance = Option(
        "--instruction-tolerance",
        value: "pct",
        default: 2,
        as: .number(in: 0...1000),
        help: "Tolerated growth of instructions and I1 misses in percent (default 2)."
    )
    static let journeys = Option(
        "--instruction-journeys",
        value: "n",
        as: .integer(in: 1...10_000_000),
        help: "Core journeys counted (default 20000)."
    )
    static let operations = Option(
        "--instruction-operations",
        value: "n",
        as: .integer(in: 1...10_000_000),
        help: "Operations per benchmark (default 2000)."
    )
    static let executable = Option(
        "--executable",
        value: "path",
        as: .text,
        help: "The deeplink-bench binary counted (default: this one)."
    )
    static let noBenchmarks = Flag("--no-benchmarks", help: "With --instructions: count the core journeys only.")

    package init(arguments: ParsedArguments) throws(CLIError) {
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        record = arguments[Self.record]
        if record == nil {
            guard arguments[.baseline]?.isEmpty == false else { throw .missingArgument(Option.baseline.spec.usage) }
            guard arguments[GateCommand.current]?.isEmpty == false else {
                throw .missingArgument(GateCommand.current.spec.usage)
            }
        }
        tolerancePercent = arguments[Self.tolerance]
        workload = InstructionCount.Workload(
            executable: arguments[Self.executable]
                ?? URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        )
        if let journeys = arguments[Self.journeys] { workload.journeys = UInt64(journeys) }
        if let operations = arguments[Self.operations] { workload.operations = UInt64(operations) }
        workload.coreFaults = arguments[.coreFaults]
        workload.benchmarks = !arguments[Self.noBenchmarks]
        commandLine =
            ["deeplink-bench", "gate", GateCommand.instructionsFlag.name]
            + (workload.benchmarks ? [] : [Self.noBenchmarks.name]) + arguments.givenValues
    }

    /// Counts, writes and (without `--record`) judges; returns the exit status.
    package func run(baseline: String, current: String, io: CommandIO) throws -> Int32 {
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
