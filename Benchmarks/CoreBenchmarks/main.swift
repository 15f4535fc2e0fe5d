import CoreBenchmarkSuite
import DeepLinkHarness
import Foundation

let configuration = CommandConfiguration(
    name: "CoreBenchmarks",
    abstract: "Time DeepLinkCore against its peers, side by side in one run, and write a CSV.",
    usage: "swift run -c release CoreBenchmarks [--quick] [--filter NAME] [--out FILE] [--instructions N]",
    options: [
        .flag("--quick", help: "Shorter samples and smaller corpora; finishes in under 30 s."),
        OptionSpec("--filter", value: "name", help: "Run only benchmarks whose name contains this text."),
        OptionSpec(
            "--out",
            value: "file",
            help: "Where to write the CSV (default Reports/bench/latest.csv; columns: Reports/README.md, bench/; "
                + "speedup_q1 and speedup_q3 are the quartiles of the per-pair speedups)."
        ),
        OptionSpec(
            "--instructions",
            value: "n",
            help: "Run each single-thread subject (--filter: the one named exactly) N times, untimed, for callgrind."
        ),
    ]
)

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: CoreBenchmarks: \(message)\n".utf8))
    exit(2)
}

let arguments: ParsedArguments
do {
    arguments = try ArgumentParser.parse(Array(CommandLine.arguments.dropFirst()), options: configuration.options)
} catch {
    fail(error.message)
}
if arguments.has("--help") {
    print(configuration.help, terminator: "")
    exit(0)
}
if let extra = arguments.positionals.first { fail(CLIError.unexpectedArgument(extra).message) }
#if DEBUG
FileHandle.standardError.write(Data("warning: a debug build; times mean little (use -c release)\n".utf8))
#endif
if let text = arguments.string("--instructions") {
    guard let operations = Int(text), (1...10_000_000).contains(operations) else {
        fail(CLIError.invalidValue(option: "--instructions", value: text, expected: "an integer 1...10000000").message)
    }
    InstructionProbe.run(operations: operations, only: arguments.string("--filter")) { print("instructions: \($0)") }
    exit(0)
}
let quick = arguments.has("--quick")
let output = arguments.string("--out") ?? "Reports/bench/latest.csv"
let results = CoreBenchmarkSuite.run(
    runner: quick ? .quick : BenchmarkRunner(),
    corpusSize: quick ? 200 : 1_000,
    filter: arguments.string("--filter"),
    progress: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
)
print(CoreBenchmarkSuite.table(results), terminator: "")
print(CoreBenchmarkSuite.machineNotes(results), terminator: "")
let directory = ReportReader.parentDirectory(of: output)
do {
    if directory != "." {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }
    try CoreBenchmarkSuite.csv(results).write(toFile: output, atomically: true, encoding: .utf8)
} catch {
    fail("cannot write \(output): \(error.localizedDescription)")
}
print("wrote \(output)")
