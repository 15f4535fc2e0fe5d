import Foundation

/// The deterministic measure behind `gate --instructions`: instructions executed per operation,
/// and level-1 instruction-cache misses per operation, counted by valgrind's callgrind (exact on
/// these machines: two runs of one binary agree) for a fixed small workload, so a gate on a noisy
/// shared runner can still catch a slower core, or one whose hot code no longer fits the cache.
///
/// The instruction cache is simulated with a fixed geometry (``i1Cache``), not the host's, so the
/// miss count does not depend on which CPU counts it: 32 KiB (the level-1 instruction cache of this
/// project's machine type) with 64-byte lines, *fully associative*. An 8-way cache's misses depend
/// on which lines share a set, that is on where the linker put each function, so a change to code
/// the workload never runs moved them (Reports/README.md has the measurement). A fully associative
/// cache misses only on how many distinct lines the workload runs, and in which order, so its count
/// moves when the hot code grows or shrinks, which is what the gate is for.
///
/// Workloads (one row of `instructions.csv` each):
/// - `journey-core`: `journeys` `core` journeys (1 thread, race share 0, seed 1), counted inside
///   `CoreStrategy.run` only (callgrind `--toggle-collect`): the core and the strategy's driving
///   of it, not the harness around it;
/// - each single-thread `CoreBenchmarks` subject, `operations` operations inside
///   `InstructionProbe.measure` (`CoreBenchmarks --instructions N`; the two-thread benchmarks
///   spin for each other, so their counts follow the scheduler and are left out).
///
/// Thread safety: stateless; ``measure(_:io:)`` starts child processes and blocks.
package enum InstructionCount {
    package static let file = "instructions.csv"

    package static let columns: [CSVWriter.Column] = [
        .init("workload", .text), .init("operations", .numeric), .init("instructions", .numeric),
        .init("instructions_per_op", .numeric), .init("i1_misses", .numeric), .init("i1_misses_per_op", .numeric),
        .init("i1_cache", .text),
    ]

    /// The simulated level-1 instruction cache, as callgrind's `--I1` takes it (size, associativity,
    /// line size): 32 KiB of 64-byte lines in one fully associative set of 512. It is written into
    /// every row, so counts simulated differently are refused rather than compared.
    package static let i1Cache = "32768,512,64"

    /// callgrind's cache simulation: ``i1Cache``, a 32 KiB 8-way level-1 data cache and an 8 MiB
    /// 16-way last level (callgrind requires all three; only the instruction misses are read).
    static let cacheGeometry = ["--cache-sim=yes", "--I1=\(i1Cache)", "--D1=32768,8,64", "--LL=8388608,16,64"]

    /// How much the I1 misses per operation may grow beyond the tolerance, absolutely: a workload
    /// whose hot loop fits the cache misses only on code it runs the first time (well under one
    /// miss per operation), and such a count may double when a rarely run path moves.
    package static let i1MissAllowancePerOp = 1.0

    /// Set in a counted child's environment: its run wakes only at the watchdog's limit
    /// (``RunConfiguration/pollNanos``). callgrind simulates one cache for all threads, and the
    /// waiting thread's wakes, as many as the wall time allowed, evicted the journeys' code: the
    /// misses grew with the machine's load.
    package static let countedVariable = "DEEPLINK_COUNTED"

    /// The journey workload's name.
    package static let journeyWorkload = "journey-core"

    /// The function callgrind counts in the journey workload (`CoreStrategy.run`, mangled).
    static let coreRunSymbol =
        "$s15DeepLinkHarness12CoreStrategyV3run_4into7metricsyAA7JourneyV_AA0E11ObservationVzAA19OperationHistogramsVztF"
    /// The function callgrind counts in a benchmark workload (`InstructionProbe.measure` and its
    /// specialisations).
    static let probeSymbol = "$s18CoreBenchmarkSuite16InstructionProbeO7measure_10operations*"

    /// One workload's count.
    ///
    /// Thread safety: a value type.
    package struct Row: Sendable, Equatable {
        package var workload: String
        package var operations: UInt64
        package var instructions: UInt64
        /// Level-1 instruction-cache misses (callgrind `I1mr`).
        package var i1Misses: UInt64
        /// The instruction cache the misses were simulated with (``InstructionCount/i1Cache``).
        package var i1Cache: String

        package init(
            workload: String,
            operations: UInt64,
            instructions: UInt64,
            i1Misses: UInt64,
            i1Cache: String = InstructionCount.i1Cache
        ) {
            self.workload = workload
            self.operations = operations
            self.instructions = instructions
            self.i1Misses = i1Misses
            self.i1Cache = i1Cache
        }

        /// Instructions per operation (0 with no operations).
        package var perOperation: Double { Self.perOperation(instructions, operations) }

        /// Level-1 instruction-cache misses per operation (0 with no operations).
        package var i1MissesPerOperation: Double { Self.perOperation(i1Misses, operations) }

        private static func perOperation(_ count: UInt64, _ operations: UInt64) -> Double {
            operations == 0 ? 0 : Double(count) / Double(operations)
        }
    }

    /// What to measure.
    ///
    /// Thread safety: a value type.
    package struct Workload: Sendable {
        /// The `deeplink-bench` binary measured; `CoreBenchmarks` is looked up beside it.
        package var executable: String
        package var journeys: UInt64 = 20_000
        package var operations: UInt64 = 2_000
        /// `--core-faults` for the journey run (the gate's test plants `slowPath`).
        package var coreFaults: CoreStrategy.Faults = []
        /// Count the `CoreBenchmarks` subjects too (`--no-benchmarks` turns it off, for tests).
        package var benchmarks = true

        package init(executable: String) { self.executable = executable }
    }

    /// Counts every workload. Errors: valgrind or CoreBenchmarks missing, a child that fails.
    package static func measure(_ workload: Workload, io: CommandIO) throws(ReportError) -> [Row] {
        let valgrind = try findValgrind()
        let scratch = NSTemporaryDirectory() + "/deeplink-instructions-\(getpid())"
        try? FileManager.default.removeItem(atPath: scratch)
        guard (try? FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)) != nil
        else { throw .cannotWrite(path: scratch, reason: "cannot create a scratch directory") }
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        var arguments = [
            "run", RunCommand.journeys.name, String(workload.journeys), RunCommand.threads.name, "1",
            Option.raceShare.name, "0", Option.seed.name, "1", Option.strategies.name, "core", Flag.quiet.name,
            Flag.noReport.name, Option.out.name, scratch + "/run",
            // No warm-up: its journeys run inside CoreStrategy.run too, and would be counted.
            RunCommand.warmup.name, "0",
        ]
        if !workload.coreFaults.isEmpty { arguments += [Option.coreFaults.name, workload.coreFaults.names] }
        io.err("gate: counting instructions of \(workload.journeys) core journeys under callgrind\n")
        let journey = try callgrind(
            valgrind,
            symbol: coreRunSymbol,
            command: [workload.executable] + arguments,
            output: scratch + "/journey.out"
        )
        var rows = [
            Row(
                workload: journeyWorkload,
                operations: workload.journeys,
                instructions: journey.instructions,
                i1Misses: journey.i1Misses
            )
        ]
        guard workload.benchmarks else { return rows }
        let benchmarks = ReportReader.parentDirectory(of: workload.executable) + "/CoreBenchmarks"
        guard FileManager.default.isExecutableFile(atPath: benchmarks) else {
            throw .cannotRead(
                path: benchmarks,
                reason: "no CoreBenchmarks beside \(workload.executable); build it: swift build -c release --product "
                    + "CoreBenchmarks"
            )
        }
        // CoreBenchmarks names its counting mode as the gate does.
        let countingMode = GateCommand.instructionsFlag.name
        let listing = try run([benchmarks, countingMode, "1"], output: nil)
        let names = listing.split(separator: "\n").compactMap { line in
            line.hasPrefix("instructions: ") ? String(line.dropFirst("instructions: ".count)) : nil
        }
        for name in names {
            io.err("gate: counting instructions of \(name) (\(workload.operations) operations) under callgrind\n")
            let count = try callgrind(
                valgrind,
                symbol: probeSymbol,
                command: [benchmarks, countingMode, String(workload.operations), "--filter", name],
                output: scratch + "/\(name).out"
            )
            rows.append(
                Row(
                    workload: name,
                    operations: workload.operations,
                    instructions: count.instructions,
                    i1Misses: count.i1Misses
                )
            )
        }
        return rows
    }

    /// instructions.csv of `rows`.
    package static func csv(_ rows: [Row]) throws -> String {
        var writer = CSVWriter(columns: columns)
        for row in rows {
            try writer.append([
                row.workload, String(row.operations), String(row.instructions),
                ReportSchema.decimal(row.perOperation, digits: 2), String(row.i1Misses),
                ReportSchema.decimal(row.i1MissesPerOperation, digits: 2), row.i1Cache,
            ])
        }
        return writer.text
    }

    /// Writes `rows` into `directory` as one sealed unit (instructions.csv and manifest.json).
    package static func write(_ rows: [Row], to directory: String, commandLine: [String]) throws {
        let manifest = RunManifest.current(commandLine: commandLine)
        try SealedDirectory.write([(file, Array(try csv(rows).utf8))], manifest: manifest, to: directory)
    }

    /// The counts recorded in `directory` (a sealed instructions directory, or a baseline holding
    /// one as `instructions/`), verified.
    package static func read(_ directory: String) throws(ReportError) -> [Row] {
        let nested = ReportReader.path("instructions", in: directory)
        let path =
            FileManager.default.fileExists(atPath: ReportReader.path(ReportSchema.manifestFile, in: nested))
            ? nested : directory
        let sealed = try SealedDirectory.open(path, requiring: [file])
        let table = try sealed.table(file)
        let filePath = ReportReader.path(file, in: path)
        var rows: [Row] = []
        try ReportReader.checked(filePath) { () throws(CSVError) in
            try table.require(columns.map(\.name))
            for row in table.rows.indices {
                rows.append(
                    Row(
                        workload: CSVWriter.unneutralised(try table.string("workload", row: row)),
                        operations: try table.unsigned("operations", row: row),
                        instructions: try table.unsigned("instructions", row: row),
                        i1Misses: try table.unsigned("i1_misses", row: row),
                        i1Cache: CSVWriter.unneutralised(try table.string("i1_cache", row: row))
                    )
                )
            }
        }
        guard !rows.isEmpty else {
            throw .inconsistent(path: filePath, reason: "no workload rows; record it again (make baseline)")
        }
        return rows
    }

    /// Two hard checks per baseline workload: fails when its instructions per operation grew by
    /// more than `tolerance` (a fraction), when its I1 misses per operation grew by more than
    /// `tolerance` and by more than ``i1MissAllowancePerOp``, or when it is missing. Different
    /// operation counts, or misses of different simulated caches, are not comparable (exit 2).
    package static func compare(
        baseline: [Row],
        current: [Row],
        tolerance: Double
    ) throws(ReportError)
        -> [RegressionGate.Check]
    {
        var checks: [RegressionGate.Check] = []
        let limit = ReportSchema.decimal(tolerance * 100, digits: 2) + "%"
        for before in baseline {
            func check(
                _ metric: String,
                _ baseline: Double,
                current: Double,
                _ verdict: RegressionGate.Verdict,
                _ detail: String
            ) -> RegressionGate.Check {
                RegressionGate.Check(
                    strategy: before.workload,
                    metric: metric,
                    kind: .hard,
                    baseline: baseline,
                    current: current,
                    verdict: verdict,
                    detail: detail
                )
            }
            guard let now = current.first(where: { $0.workload == before.workload }) else {
                let detail = "workload missing from the current count"
                checks.append(check("instructions_per_op", before.perOperation, current: 0, .fail, detail))
                continue
            }
            guard now.operations == before.operations else {
                throw .incompatible(
                    "\(before.workload): the baseline counted \(before.operations) operations, this count "
                        + "\(now.operations); count the same workload (the defaults, as make baseline does)"
                )
            }
            guard now.i1Cache == before.i1Cache else {
                throw .incompatible(
                    "\(before.workload): the baseline simulated the instruction cache as \(before.i1Cache) "
                        + "(size,ways,line), this count as \(now.i1Cache); record the baseline again (make baseline)"
                )
            }
            let grown = now.perOperation > before.perOperation * (1 + tolerance)
            checks.append(
                check(
                    "instructions_per_op",
                    before.perOperation,
                    current: now.perOperation,
                    grown ? .fail : .pass,
                    grown ? "more instructions per operation than the baseline + \(limit)" : "within +\(limit)"
                )
            )
            let missLimit = before.i1MissesPerOperation * (1 + tolerance) + i1MissAllowancePerOp
            let missed = now.i1MissesPerOperation > missLimit
            let allowance = ReportSchema.decimal(i1MissAllowancePerOp, digits: 0)
            checks.append(
                check(
                    "i1_misses_per_op",
                    before.i1MissesPerOperation,
                    current: now.i1MissesPerOperation,
                    missed ? .fail : .pass,
                    missed
                        ? "more I1 misses per operation than the baseline + \(limit) + \(allowance)"
                        : "within +\(limit) + \(allowance)"
                )
            )
        }
        return checks
    }

    /// valgrind on PATH, or a named error saying how to install it.
    static func findValgrind() throws(ReportError) -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/valgrind"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw .cannotRead(
            path: "valgrind",
            reason: "valgrind is not installed (gate --instructions counts with callgrind); run make deps, or "
                + "sudo apt-get install -y valgrind"
        )
    }

    /// What callgrind counted inside the collected function.
    package struct Count: Equatable {
        package var instructions: UInt64
        package var i1Misses: UInt64

        package init(instructions: UInt64, i1Misses: UInt64) {
            self.instructions = instructions
            self.i1Misses = i1Misses
        }
    }

    /// Runs `command` under callgrind (cache simulated, ``cacheGeometry``) counting only inside
    /// `symbol`; returns its instruction and I1 miss totals.
    static func callgrind(
        _ valgrind: String,
        symbol: String,
        command: [String],
        output: String
    ) throws(ReportError)
        -> Count
    {
        _ = try run(
            [valgrind, "--tool=callgrind", "--callgrind-out-file=\(output)", "--toggle-collect=\(symbol)"]
                + cacheGeometry + command,
            output: nil,
            environment: countedEnvironment(for: command)
        )
        guard let text = try? String(contentsOfFile: output, encoding: .utf8) else {
            throw .cannotRead(path: output, reason: "callgrind wrote no profile")
        }
        let count = try totals(inProfile: text, path: output)
        // Nothing collected: the function is not in the binary under that name (renamed, its
        // signature changed, or inlined away).
        guard count.instructions > 0 else {
            throw .cannotRead(
                path: output,
                reason: "callgrind counted no instructions inside \(symbol): the function was renamed or "
                    + "changed its signature; update InstructionCount's symbol (nm the binary)"
            )
        }
        return count
    }

    /// The `Ir` and `I1mr` totals of a callgrind profile: its `events:` line names the columns of
    /// its `totals:` (or `summary:`) line.
    package static func totals(inProfile text: String, path: String) throws(ReportError) -> Count {
        var events: [Substring] = []
        for line in text.split(separator: "\n") {
            if line.hasPrefix("events:") {
                events = Array(line.split(separator: " ").dropFirst())
                continue
            }
            guard line.hasPrefix("totals:") || line.hasPrefix("summary:") else { continue }
            let values = line.split(separator: " ").dropFirst().map { UInt64($0) }
            func value(of event: String) -> UInt64? {
                guard let index = events.firstIndex(of: Substring(event)), index < values.count else { return nil }
                return values[index]
            }
            guard let instructions = value(of: "Ir"), let misses = value(of: "I1mr") else {
                throw .cannotRead(
                    path: path,
                    reason: "callgrind's profile has no Ir and I1mr totals (events: \(events.joined(separator: " ")))"
                )
            }
            return Count(instructions: instructions, i1Misses: misses)
        }
        throw .cannotRead(path: path, reason: "no 'totals:' line in callgrind's profile")
    }

    /// The environment variable that pads a counted child's strings (``countedEnvironment(for:)``).
    package static let paddingVariable = "DEEPLINK_STACK_PADDING"
    /// What the padding evens out: a page, the span glibc's `memcpy` looks at when it picks a path.
    package static let stackLayoutPeriod = 4096

    /// The environment a counted `command` runs with: the same variables whoever starts the gate
    /// (a shell, `make`, CI), and a padding variable that brings the bytes of `command`'s arguments,
    /// its path (the kernel's `AT_EXECFN`) and these variables to a multiple of
    /// ``stackLayoutPeriod``.
    ///
    /// Why: those strings sit at the top of the child's stack, so their length moves every stack
    /// address below them, and `memcpy` takes a different number of instructions for other
    /// alignments of its buffers (records are copied on the stack). Measured: the `journey`
    /// benchmark's count over 2,000 journeys moved by up to 18,600 (0.10%) as an unrelated
    /// variable's length went from 0 to 128 bytes, in steps of 32; `make gate-hard` (whose `make`
    /// adds variables) and a shell's `gate --record` disagreed by that much. Under valgrind the
    /// stack's top is fixed, so these strings are all that move it: padded, every workload's count
    /// agreed within 21 instructions over parent environments 0-75 bytes longer and binaries under
    /// paths of 24 and 60 bytes.
    package static func countedEnvironment(for command: [String]) -> [String: String] {
        var environment = [
            "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
            TrapSupervisor.supervisedVariable: "1",
            countedVariable: "1",
            // Swift seeds its hashing per process: a dictionary or set lookup then probes a different
            // number of slots from run to run (0.17% drift over 500 debug-build journeys). Fixed
            // seeds make two counts of one binary agree.
            "SWIFT_DETERMINISTIC_HASHING": "1",
            paddingVariable: "",
        ]
        // Each string ends in a NUL; a variable is stored as NAME=VALUE.
        let arguments = command.reduce(0) { $0 + $1.utf8.count + 1 } + (command.first?.utf8.count ?? 0) + 1
        let variables = environment.reduce(0) { $0 + $1.key.utf8.count + 1 + $1.value.utf8.count + 1 }
        let remainder = (arguments + variables) % stackLayoutPeriod
        environment[paddingVariable] = String(
            repeating: "x",
            count: (stackLayoutPeriod - remainder) % stackLayoutPeriod
        )
        return environment
    }

    /// Runs `command` (in process, unsupervised: the child's journeys run in it, where callgrind
    /// counts them) with `environment` and returns its stdout; a non-zero exit is an error naming
    /// the command.
    static func run(
        _ command: [String],
        output: String?,
        environment: [String: String] = countedEnvironment(for: [])
    ) throws(ReportError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .cannotRead(path: command[0], reason: "cannot start it: \(error.localizedDescription)")
        }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .incompatible(
                "\(command.joined(separator: " ")) exited with status \(process.terminationStatus); run it by hand "
                    + "to see why"
            )
        }
        return String(decoding: data, as: UTF8.self)
    }
}
