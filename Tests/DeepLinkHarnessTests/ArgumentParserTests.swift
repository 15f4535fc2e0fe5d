import DeepLinkHarness
import Testing

@Suite struct ArgumentParserTests {
    let options: [OptionSpec] = [
        .flag("--quiet", help: "q"),
        OptionSpec("--seed", value: "n", help: "s"),
    ]

    @Test func parsesFlagsValuesAndPositionals() throws {
        let parsed = try ArgumentParser.parse(["a", "--seed", "42", "--quiet", "--", "--b"], options: options)
        #expect(parsed.has("--quiet"))
        #expect(parsed.string("--seed") == "42")
        #expect(parsed.positionals == ["a", "--b"])
        let inline = try ArgumentParser.parse(["--seed=1_000"], options: options)
        #expect(try inline.integer("--seed", in: 0...10_000) == 1000)
    }

    @Test func namesWhatIsWrong() {
        #expect(throws: CLIError.unknownOption("--nope")) { try ArgumentParser.parse(["--nope"], options: options) }
        #expect(throws: CLIError.missingValue(option: "--seed")) {
            try ArgumentParser.parse(["--seed"], options: options)
        }
        #expect(throws: CLIError.self) {
            try ArgumentParser.parse(["--seed", "x"], options: options).integer("--seed", in: 0...1)
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
