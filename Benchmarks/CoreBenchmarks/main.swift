import CoreBenchmarkSuite
import DeepLinkHarness
import Foundation

let configuration = CommandConfiguration(
    name: "CoreBenchmarks",
    abstract: "Time DeepLinkCore against its peers, side by side in one run, and write a CSV.",
    usage: "swift run -c release CoreBenchmarks [--quick] [--filter NAME] [--out FILE]",
    options: [
        .flag("--quick", help: "Shorter samples and smaller corpora; finishes in under 30 s."),
        OptionSpec("--filter", value: "name", help: "Run only benchmarks whose name contains this text."),
        OptionSpec("--out", value: "file", help: "Where to write the CSV (default Reports/bench/latest.csv)."),
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
let quick = arguments.has("--quick")
let output = arguments.string("--out") ?? "Reports/bench/latest.csv"
let results = CoreBenchmarkSuite.run(
    runner: quick ? .quick : BenchmarkRunner(),
    corpusSize: quick ? 200 : 1_000,
    filter: arguments.string("--filter"),
    progress: { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
)
print(CoreBenchmarkSuite.table(results), terminator: "")
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
