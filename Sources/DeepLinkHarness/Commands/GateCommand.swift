import Foundation

/// `deeplink-bench gate`: compares a run with a baseline (see ``RegressionGate``), prints a table
/// and writes `gate.csv`. Exit 0 pass, 1 regression, 2 usage or input error.
///
/// Thread safety: a value type run by one thread (``launcher`` is `@Sendable`).
package struct GateCommand: BenchCommand {
    package static let configuration = CommandConfiguration(
        name: "gate",
        abstract: "Compare a run with a baseline: correctness and allocation fail hard, timing is noise-aware.",
        usage: "gate --baseline DIR[,DIR...] --current DIR[,DIR...] [--time-tolerance PCT] [--repetitions N]\n"
            + "       gate --instructions (--baseline DIR --current DIR | --record DIR) [--instruction-tolerance PCT]",
        discussion: """
            A DIR is a report directory, or a directory of repetition subdirectories (each a report).
            Hard failures: any core violation; bytes_per_journey above the baseline (+0.5 B slack).
            Timing (journeys_per_s, p50/p99 latencies): with two or more runs per side, a bootstrap
            95% confidence interval of the regression decides pass / fail / inconclusive; with one
            run per side timing is always inconclusive (reported, not failing). An inconclusive check is
            explained on stdout (the noise measured against the tolerance, and what was judged
            instead); the verdict line is a bare PASS only when every timing check judged.
            --repetitions N first runs this binary N times with the baseline's command line
            (from its manifest.json) into CURRENT/rep-1..N.
            Runs on different hosts (CPU model, cores, allocator) are refused unless
            --allow-host-mismatch or --hard-only (the hard checks do not depend on the machine). Writes gate.csv. Exit 0 pass, 1 regression, 2 usage or input error.
            --instructions counts instructions and level-1 instruction-cache misses per operation
            under valgrind's callgrind (instruction cache simulated: 32 KiB, fully associative, so
            that where the linker puts code does not move the count; a fixed workload: core
            journeys and each single-thread CoreBenchmarks subject), writes them to CURRENT (or
            --record DIR) and fails when one grew above the baseline's instructions/ by more than
            --instruction-tolerance (default 2%; I1 misses by that and one more per operation).
            """,
        options: [
            Option.baseline, current, timeTolerance, repetitions,
            Option.out.described("Where to write gate.csv, created if new (default: --current, or its first DIR)."),
            allowHostMismatch, hardOnly, format, instructionsFlag, InstructionGate.record,
            InstructionGate.tolerance, InstructionGate.journeys, InstructionGate.operations,
            InstructionGate.executable, InstructionGate.noBenchmarks,
            Option.coreFaults.described("Miswire the counted core (tests: slowPath)."), Flag.noReport,
        ]
    )

    static let current = Option(
        "--current",
        value: "DIR",
        as: .text,
        help: "Current report directories (comma-separated)."
    )
    static let timeTolerance = Option(
        "--time-tolerance",
        value: "pct",
        default: 10,
        as: .number(in: 0...1000),
        help: "Tolerated timing regression in percent (default 10)."
    )
    static let repetitions = Option(
        "--repetitions",
        value: "n",
        default: 0,
        as: .integer(in: 1...1000),
        help: "Run the current binary N times into --current first."
    )
    static let allowHostMismatch = Flag(
        "--allow-host-mismatch",
        help: "Compare even if CPU model, cores or allocator differ."
    )
    static let hardOnly = Flag("--hard-only", help: "Only the deterministic checks (for noisy CI machines).")
    /// What `gate` prints on stdout.
    enum Format: String, CaseIterable, Sendable {
        case text, markdown
    }
    static let format = Option(
        "--format",
        value: "text|markdown",
        default: Format.text,
        as: .oneOf,
        help: "stdout: the verdict table (text) or summary.md."
    )
    /// Also the counting mode of CoreBenchmarks, which ``InstructionCount`` starts.
    package static let instructionsFlag = Flag(
        "--instructions",
        help: "Gate on callgrind instruction counts instead of a run."
    )

    /// The file of verdicts the gate writes.
    package static let file = "gate.csv"

    package var baseline: String
    package var current: String
    package var tolerancePercent: Double
    package var repetitions: Int
    package var output: String?
    package var allowHostMismatch: Bool
    package var hardOnly: Bool
    /// `--format markdown`: print summary.md instead of the verdict table.
    package var markdown = false
    /// `--no-report`: skip report.html and summary.md.
    package var noReport = false
    /// Runs `deeplink-bench` with the given arguments and returns its exit status; by default this
    /// process's own executable. Replaceable for tests and embedders.
    package var launcher: @Sendable ([String]) -> Int32 = GateCommand.launchSelf

    /// `--instructions`: the instruction-count gate (nil for the run gate).
    package var instructions: InstructionGate?

    package init(arguments: ParsedArguments) throws(CLIError) {
        output = arguments[.out]
        if arguments[Self.instructionsFlag] {
            let instructions = try InstructionGate(arguments: arguments)
            self.instructions = instructions
            baseline = arguments[.baseline] ?? ""
            current = arguments[Self.current] ?? instructions.record ?? ""
            tolerancePercent = 10
            repetitions = 0
            allowHostMismatch = false
            hardOnly = true
            noReport = true
            return
        }
        guard let baseline = arguments[.baseline], !baseline.isEmpty else {
            throw .missingArgument(Option.baseline.spec.usage)
        }
        guard let current = arguments[Self.current], !current.isEmpty else {
            throw .missingArgument(Self.current.spec.usage)
        }
        if let extra = arguments.positionals.first { throw .unexpectedArgument(extra) }
        self.baseline = baseline
        self.current = current
        tolerancePercent = arguments[Self.timeTolerance]
        repetitions = arguments[Self.repetitions]
        allowHostMismatch = arguments[Self.allowHostMismatch]
        hardOnly = arguments[Self.hardOnly]
        markdown = arguments[Self.format] == .markdown
        noReport = arguments[.noReport]
    }

    package mutating func run(io: CommandIO) throws -> Int32 {
        if let instructions {
            do {
                return try instructions.run(baseline: baseline, current: current, io: io)
            } catch let error as ReportError {
                io.err("error: gate: \(error)\n")
                return 2
            }
        }
        do {
            // Before any repetition runs or anything is read: gate.csv must have somewhere to go.
            try OutputDirectory.check(reportDirectory, replacingReport: false)
            let status = try gate(io: markdown ? io.stdoutToStderr : io)
            return finishReport(status: status, io: io)
        } catch let error as ReportError {
            io.err("error: gate: \(error)\n")
            return 2
        }
    }

    private func gate(io: CommandIO) throws -> Int32 {
        let baselineDirectories = try GateInput.directories(baseline)
        if repetitions > 0 { try repeatRun(baselineDirectory: baselineDirectories.first ?? baseline, io: io) }
        let currentDirectories = try GateInput.directories(current, repetitions: repetitions > 0 ? repetitions : nil)
        try GateInput.checkComparable(baseline: baselineDirectories, current: currentDirectories)
        let baselineManifests = try baselineDirectories.map(ReportReader.readManifest)
        let currentManifests = try currentDirectories.map(ReportReader.readManifest)
        var differences: [String] = []
        for manifest in baselineManifests.dropFirst() + currentManifests {
            for difference in GateInput.hostDifferences(baselineManifests[0], manifest)
            where !differences.contains(difference) {
                differences.append(difference)
            }
        }
        if !differences.isEmpty {
            let list = JSONString.escaped(differences.joined(separator: "; "))
            // The hard checks (violations, racing bytes, bytes per journey) do not depend on the
            // machine; only timing verdicts need the baseline's machine type.
            if hardOnly {
                io.out("note: host differs from the baseline (\(list)); hard checks only, no timing verdicts\n")
            } else if !allowHostMismatch {
                io.err("error: gate: host mismatch (\(list)); timings are not comparable. ")
                io.err("Rerun on the baseline's machine type or pass --allow-host-mismatch.\n")
                return 2
            } else {
                let warning = "WARNING: HOST MISMATCH (\(list)): comparing anyway because of --allow-host-mismatch\n"
                io.err(warning)
                io.out(warning)
            }
        }
        let baselineValues = try baselineDirectories.map(GateInput.values)
        let currentValues = try currentDirectories.map(GateInput.values)
        let gate = RegressionGate(timeTolerance: tolerancePercent / 100, hardOnly: hardOnly)
        let checks = gate.evaluate(baseline: baselineValues, current: currentValues)

        // The verdict is printed only once everything it rests on is written: a verdict followed
        // by "cannot write gate.csv" would tell a CI log two different stories.
        try OutputDirectory.create(reportDirectory)
        try ReportWriter.writeFile(try Self.csv(checks), named: Self.file, in: reportDirectory)
        let reportLine = noReport ? "" : ReportCommand.attach(to: reportDirectory, io: io)
        io.out(Self.table(checks))
        io.out(Self.doubts(checks))
        let failures = checks.filter { $0.verdict == .fail }
        let sides = "baseline: \(baselineDirectories.count) run(s), current: \(currentDirectories.count) run(s)"
        if failures.isEmpty {
            io.out("gate: \(RegressionGate.verdict(of: checks)) (\(checks.count) checks; \(sides))\n")
        } else {
            let names = failures.map { JSONString.escaped("\($0.strategy) \($0.metric)") }.joined(separator: ", ")
            io.out("gate: FAIL: \(names) (\(sides))\n")
        }
        io.out(reportLine)
        return failures.isEmpty ? 0 : 1
    }

    private func repeatRun(baselineDirectory: String, io: CommandIO) throws {
        let manifest = try ReportReader.readManifest(baselineDirectory)
        for repetition in 1...repetitions {
            let out = (current as NSString).appendingPathComponent("rep-\(repetition)")
            let arguments = try GateInput.repetitionArguments(from: manifest, out: out)
            io.err(
                "gate: repetition \(repetition)/\(repetitions): deeplink-bench \(arguments.joined(separator: " "))\n"
            )
            let status = launcher(arguments)
            guard status == 0 else {
                throw ReportError.incompatible("repetition \(repetition) exited with status \(status)")
            }
        }
    }

    /// The verdict table printed on stdout. Strategy and metric names come from report files, so
    /// they are escaped as `inspect` escapes text (``JSONString/escaped(_:)``): an ESC or CR/LF in
    /// a name cannot drive the terminal or forge a row.
    static func table(_ checks: [RegressionGate.Check]) -> String {
        let header = ["strategy", "metric", "kind", "baseline", "current", "change", "verdict"]
        var rows = [header]
        for check in checks {
            rows.append([
                JSONString.escaped(check.strategy), JSONString.escaped(check.metric), check.kind.rawValue,
                number(check.baseline), number(check.current),
                check.changePercent.map { ($0 >= 0 ? "+" : "") + ReportSchema.decimal($0, digits: 2) + "%" } ?? "n/a",
                check.verdict.rawValue.uppercased(),
            ])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        var text = ""
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - cell.count)
            }
            var line = cells.joined(separator: "  ")
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }

    /// gate.csv (columns documented in Reports/README.md).
    static func csv(_ checks: [RegressionGate.Check]) throws -> String {
        var writer = CSVWriter(columns: [
            .init("strategy", .text), .init("metric", .text), .init("kind", .text), .init("baseline", .numeric),
            .init("current", .numeric), .init("change_pct", .numeric), .init("verdict", .text),
            .init("detail", .text),
        ])
        for check in checks {
            try writer.append([
                check.strategy, check.metric, check.kind.rawValue, number(check.baseline), number(check.current),
                check.changePercent.map { ReportSchema.decimal($0, digits: 2) } ?? "", check.verdict.rawValue,
                check.detail,
            ])
        }
        return writer.text
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? ReportSchema.decimal(value, digits: 0) : ReportSchema.decimal(value, digits: 2)
    }

    /// Runs this process's executable (`/proc/self/exe`) with `arguments`, its stdout and stderr
    /// both sent to this process's stderr; returns its exit status (127 when it cannot start).
    @Sendable package static func launchSelf(_ arguments: [String]) -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        // The child's summary goes to stderr: stdout carries only the gate's own table.
        process.standardOutput = FileHandle.standardError
        do {
            try process.run()
        } catch {
            return 127
        }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
