import DeepLinkHarness
import Foundation
import Testing

/// Issue 15 part 3: `gate --instructions` passes the unchanged core and catches a slowed one
/// (`--core-faults slowPath`), on counts that repeat exactly enough.
@Suite(.serialized) struct InstructionGateTests {
    /// valgrind is installed and the binary is not a sanitizer build (ASan and TSan binaries do not
    /// run under valgrind; the plain `make test` run covers this suite).
    static var valgrind: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind") && !Sanitizer.isActive
    }

    static func gate(_ arguments: [String]) -> GateTests.Outcome { GateTests.gate(["--instructions"] + arguments) }

    @Test(.enabled(if: valgrind && BenchProcess.binary != nil))
    func aSlowedCoreFailsAndTheUnchangedOnePasses() throws {
        let root = ReportFixtures.temporaryDirectory("instruction-gate")
        defer { ReportFixtures.remove(root) }
        let common = [
            "--executable", try #require(BenchProcess.binary), "--instruction-journeys", "500", "--no-benchmarks",
        ]
        let recorded = Self.gate(["--record", root + "/base"] + common)
        #expect(recorded.status == 0, "\(recorded.err)")
        let baseline = try InstructionCount.read(root + "/base")
        #expect(baseline.map(\.workload) == [InstructionCount.journeyWorkload])
        #expect(baseline[0].operations == 500 && baseline[0].instructions > 500 * 1_000)

        // The second count runs beside two CPU-burning threads: a count must not follow the
        // machine's load (its misses did, while the run's waiting thread woke every 100 ms).
        let same = CPUBurners.beside(count: 2, limitSeconds: 600) {
            Self.gate(["--baseline", root + "/base", "--current", root + "/same"] + common)
        }
        #expect(same.status == 0, "\(same.out)\(same.err)")
        #expect(same.out.contains("gate: PASS"))
        let again = try InstructionCount.read(root + "/same")
        // Two counts of one binary agree. This is the debug binary over 500 journeys, whose counts
        // drift by up to ~0.2% (three records: 276,257, 275,760 and 276,256 per journey), most likely
        // because time-dependent work runs inside the counted function (the strategy's latency
        // histograms record measured times; not yet confirmed); the
        // release binary over the gate's 20,000 journeys agrees within 0.005% (the closing note of
        // issue 15 has the command). 0.5% keeps a wide margin below the slowed core's +10%.
        let drift = abs(again[0].perOperation - baseline[0].perOperation) / baseline[0].perOperation
        #expect(drift < 0.005, "drift \(drift)")
        // The simulated cache's misses repeat as well (a fixed geometry, the same addresses), but
        // they follow the instruction drift above at a few times its size. The limit is half the
        // gate's default tolerance (2%) plus its allowance of one per operation.
        #expect(baseline[0].i1Misses > 0)
        let missDrift = abs(again[0].i1MissesPerOperation - baseline[0].i1MissesPerOperation)
        let missLimit = 0.01 * baseline[0].i1MissesPerOperation + InstructionCount.i1MissAllowancePerOp
        #expect(missDrift <= missLimit, "I1 drift \(missDrift) of \(baseline[0].i1MissesPerOperation)")

        let slowed = Self.gate(
            ["--baseline", root + "/base", "--current", root + "/slow", "--core-faults", "slowPath"] + common
        )
        #expect(slowed.status == 1, "\(slowed.out)\(slowed.err)")
        #expect(slowed.out.contains("gate: FAIL: instructions or I1 misses per operation grew: journey-core"))
        #expect(slowed.out.contains("journey-core (instructions_per_op)"))
        // A generous tolerance lets the same slowdown through: the threshold is what decides.
        let tolerated = Self.gate(
            [
                "--baseline", root + "/base", "--current", root + "/tolerated", "--core-faults", "slowPath",
                "--instruction-tolerance", "50",
            ] + common
        )
        #expect(tolerated.status == 0, "\(tolerated.out)\(tolerated.err)")
    }

    /// A counted child's stack layout does not depend on who starts the gate: its environment is
    /// a fixed set of variables, padded so that its arguments, its path and its variables fill
    /// whole pages (their length moved `memcpy`'s instruction count by 0.1%).
    @Test func countedChildrenGetOneEnvironmentPaddedToWholePages() {
        let period = InstructionCount.stackLayoutPeriod
        let commands = [
            ["/usr/bin/true"],
            ["/tmp/b/CoreBenchmarks", "--instructions", "2000", "--filter", "journey"],
            [
                "/a/much/longer/directory/name/for/the/binaries/deeplink-bench", "run", "--journeys", "20000",
                "--out", "/tmp/deeplink-instructions-4242/run",
            ],
            [String(repeating: "p", count: 5_000), "x"],
        ]
        var paddings = Set<Int>()
        for command in commands {
            let environment = InstructionCount.countedEnvironment(for: command)
            #expect(
                Set(environment.keys)
                    == [
                        "PATH", "SWIFT_DETERMINISTIC_HASHING", "DEEPLINK_SUPERVISED", InstructionCount.countedVariable,
                        InstructionCount.paddingVariable,
                    ]
            )
            #expect(environment["SWIFT_DETERMINISTIC_HASHING"] == "1")
            let arguments = command.reduce(0) { $0 + $1.utf8.count + 1 } + command[0].utf8.count + 1
            let variables = environment.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 2 }
            #expect((arguments + variables) % period == 0, "\(command[0].prefix(40))")
            #expect(environment[InstructionCount.paddingVariable]!.utf8.count < period)
            paddings.insert(environment[InstructionCount.paddingVariable]!.utf8.count)
        }
        // The padding is what evens the commands out: it differs between them.
        #expect(paddings.count == commands.count)
    }

    @Test func comparisonRules() throws {
        let base = [InstructionCount.Row(workload: "journey-core", operations: 100, instructions: 100_000, i1Misses: 0)]
        func verdict(_ instructions: UInt64) throws -> RegressionGate.Verdict? {
            let current = [
                InstructionCount.Row(workload: "journey-core", operations: 100, instructions: instructions, i1Misses: 0)
            ]
            return try InstructionCount.compare(baseline: base, current: current, tolerance: 0.02).first?.verdict
        }
        #expect(try verdict(102_000) == .pass)
        #expect(try verdict(102_001) == .fail)
        #expect(try verdict(50_000) == .pass)
        let missing = try InstructionCount.compare(baseline: base, current: [], tolerance: 0.02)
        #expect(missing.map(\.verdict) == [.fail])
        #expect(throws: ReportError.self) {
            try InstructionCount.compare(
                baseline: base,
                current: [InstructionCount.Row(workload: "journey-core", operations: 99, instructions: 1, i1Misses: 0)],
                tolerance: 0.02
            )
        }
    }

    /// I1 misses per operation are gated like instructions, plus an absolute allowance of one miss
    /// per operation (a loop that fits the cache misses only on code it runs the first time).
    @Test func i1MissRules() throws {
        let base = [
            InstructionCount.Row(workload: "journey", operations: 100, instructions: 100_000, i1Misses: 20_000),
            InstructionCount.Row(workload: "queue-1thread", operations: 100, instructions: 10_000, i1Misses: 10),
        ]
        func verdicts(journey: UInt64, queue: UInt64) throws -> [RegressionGate.Verdict] {
            let current = [
                InstructionCount.Row(workload: "journey", operations: 100, instructions: 100_000, i1Misses: journey),
                InstructionCount.Row(workload: "queue-1thread", operations: 100, instructions: 10_000, i1Misses: queue),
            ]
            return try InstructionCount.compare(baseline: base, current: current, tolerance: 0.02)
                .filter { $0.metric == "i1_misses_per_op" }.map(\.verdict)
        }
        // 200 per op: + 2 % is 204, + 1 more is 205 (20,500 over 100 operations).
        #expect(try verdicts(journey: 20_500, queue: 10) == [.pass, .pass])
        #expect(try verdicts(journey: 20_501, queue: 10) == [.fail, .pass])
        // 0.1 per op may grow to 1.102, not beyond.
        #expect(try verdicts(journey: 20_000, queue: 110) == [.pass, .pass])
        #expect(try verdicts(journey: 20_000, queue: 111) == [.pass, .fail])
        #expect(try verdicts(journey: 5_000, queue: 0) == [.pass, .pass])
    }

    /// Misses simulated with another instruction cache (an 8-way baseline from before the cache
    /// became fully associative) are refused, not compared: one binary's two counts differ.
    @Test func anotherSimulatedCacheIsRefused() throws {
        let eightWay = [
            InstructionCount.Row(
                workload: "journey",
                operations: 100,
                instructions: 100_000,
                i1Misses: 17_200,
                i1Cache: "32768,8,64"
            )
        ]
        let now = [InstructionCount.Row(workload: "journey", operations: 100, instructions: 100_000, i1Misses: 14_000)]
        #expect(now[0].i1Cache == InstructionCount.i1Cache)
        #expect(throws: ReportError.self) {
            try InstructionCount.compare(baseline: eightWay, current: now, tolerance: 0.02)
        }
        let same = try InstructionCount.compare(baseline: now, current: now, tolerance: 0.02)
        #expect(same.map(\.verdict) == [.pass, .pass])
    }

    /// The totals come from the columns the profile's `events:` line names, in its order.
    @Test func profileTotalsAreReadByEventName() throws {
        let profile = """
            version: 1
            events: Ir Dr Dw I1mr D1mr D1mw ILmr DLmr DLmw
            fn=(1) main
            0 5 1 1 1 0 0 1 0 0
            totals: 1234 500 400 17 3 2 9 1 1
            """
        #expect(
            try InstructionCount.totals(inProfile: profile, path: "p")
                == InstructionCount.Count(instructions: 1_234, i1Misses: 17)
        )
        let withoutCacheSimulation = "events: Ir\nsummary: 99\n"
        #expect(throws: ReportError.self) { try InstructionCount.totals(inProfile: withoutCacheSimulation, path: "p") }
        #expect(throws: ReportError.self) { try InstructionCount.totals(inProfile: "events: Ir I1mr\n", path: "p") }
    }

    @Test func aMissingBaselineIsANamedError() {
        let root = ReportFixtures.temporaryDirectory("instruction-gate-missing")
        defer { ReportFixtures.remove(root) }
        let result = Self.gate(["--baseline", root + "/nothing", "--current", root + "/cur"])
        #expect(result.status == 2)
        #expect(result.err.contains("error: gate:"), "\(result.err)")
        let usage = Self.gate(["--current", root + "/cur"])
        #expect(usage.status == 2)
        #expect(usage.err.contains("--baseline"), "\(usage.err)")
    }
}
