import DeepLinkHarness
import Testing

@Suite struct ArgumentParserTests {
    static let quiet = Flag("--quiet", help: "q")
    static let seed = Option("--seed", value: "n", default: UInt64(7), as: .unsigned, help: "s")
    static let threads = Option("--threads", value: "T", as: .integer(in: 1...8), help: "t")
    static let rule = Option("--rule", value: "NAME", repeatedAs: .text, help: "r")
    let options = [quiet.spec, seed.spec, threads.spec, rule.spec]

    @Test func readsEachOptionAsItsDeclaredType() throws {
        let parsed = try ArgumentParser.parse(
            ["a", "--seed", "42", "--quiet", "--rule", "x", "--rule=y", "--", "--b"],
            options: options
        )
        #expect(parsed[Self.quiet])
        #expect(parsed[Self.seed] == 42)
        #expect(parsed[Self.threads] == nil)
        #expect(parsed[Self.rule] == ["x", "y"])
        #expect(parsed.positionals == ["a", "--b"])
        #expect(parsed.givenValues == ["--rule", "x", "--rule", "y", "--seed", "42"])
        #expect(parsed.givenFlags == ["--quiet"])
        let defaults = try ArgumentParser.parse(["--threads=8"], options: options)
        #expect(defaults[Self.seed] == 7)
        #expect(!defaults.contains(Self.seed))
        #expect(!defaults[Self.quiet])
        #expect(defaults[Self.threads] == 8)
        #expect(throws: CLIError.missingArgument("--seed n")) { try defaults.required(Self.seed) }
    }

    @Test func namesWhatIsWrong() {
        #expect(throws: CLIError.unknownOption("--nope")) { try ArgumentParser.parse(["--nope"], options: options) }
        #expect(throws: CLIError.missingValue(option: "--seed")) {
            try ArgumentParser.parse(["--seed"], options: options)
        }
        #expect(throws: CLIError.invalidValue(option: "--threads", value: "9", expected: "an integer in 1...8")) {
            try ArgumentParser.parse(["--threads", "9"], options: options)
        }
        #expect(throws: CLIError.invalidValue(option: "--seed", value: "-1", expected: "an unsigned 64-bit integer")) {
            try ArgumentParser.parse(["--seed=-1"], options: options)
        }
        #expect(throws: CLIError.invalidValue(option: "--quiet", value: "1", expected: "no value (a flag)")) {
            try ArgumentParser.parse(["--quiet=1"], options: options)
        }
    }

    /// Every command and subcommand accepts each of its options once, and `--help` lists them all.
    @Test func everyCommandDeclaresEachOptionOnce() {
        var commands = DeepLinkBench.commands
        commands += commands.flatMap { $0.subcommands }
        for command in commands {
            let configuration = command.configuration
            let names = configuration.options.map(\.name)
            #expect(Set(names).count == names.count, "\(configuration.name): \(names)")
            for name in names { #expect(configuration.help.contains("  \(name)"), "\(configuration.name) \(name)") }
        }
    }
}

@Suite struct AllocationCounterTests {
    @Test func jemallocCountsThisProcessAllocations() {
        // Under the sanitizers their runtime's allocator replaces jemalloc; .ci/run says so.
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        let bytes = AllocationCounter.bytesAllocated {
            let array = [UInt8](repeating: 1, count: 10_000)
            precondition(array.count == 10_000)
        }
        #expect(bytes >= 10_000)
    }

    @Test func readingTheCounterAllocatesNothing() {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        let first = AllocationCounter.threadAllocatedBytes()
        let second = AllocationCounter.threadAllocatedBytes()
        #expect(second == first)
        #expect(AllocationCounter.bytesAllocated {} == 0)
    }
}
