import CoreBenchmarkSuite
import DeepLinkHarness
import Foundation

let quickFlag = Flag("--quick", help: "Shorter samples and smaller corpora; finishes in under 30 s.")
let filter = Option("--filter", value: "name", as: .text, help: "Run only benchmarks whose name contains this text.")
let out = Option.out.described(
    "Where to write the CSV (default Reports/bench/latest.csv; columns: Reports/README.md, bench/; "
        + "speedup_q1 and speedup_q3 are the quartiles of the per-pair speedups).",
    value: "file"
)
// The gate's flag names this mode too (InstructionCount starts it).
let instructions = Option(
    GateCommand.instructionsFlag.name,
    value: "n",
    as: .integer(in: 1...10_000_000, expected: "an integer 1...10000000"),
    help: "Run each single-thread subject (--filter: the one named exactly) N times, untimed, for callgrind."
)
let configuration = CommandConfiguration(
    name: "CoreBenchmarks",
    abstract: "Time DeepLinkCore against its peers, side by side in one run, and write a CSV.",
    usage: "swift run -c release CoreBenchmarks [--quick] [--filter NAME] [--out FILE] [--instructions N]",
    options: [quickFlag, filter, out, instructions]
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
if arguments[.help] {
    print(configuration.help, terminator: "")
    exit(0)
}
if let extra = arguments.positionals.first { fail(CLIError.unexpectedArgument(extra).message) }
if !LibcryptoAllocations.areCounted {
    let warning = "warning: libcrypto's allocations are not counted apart (its column reads 0)\n"
    FileHandle.standardError.write(Data(warning.utf8))
}
#if DEBUG
FileHandle.standardError.write(Data("warning: a debug build; times mean little (use -c release)\n".utf8))
#endif
if let operations = arguments[instructions] {
    InstructionProbe.run(operations: operations, only: arguments[filter]) { print("instructions: \($0)") }
    exit(0)
}
let quick = arguments[quickFlag]
let output = arguments[out] ?? "Reports/bench/latest.csv"
let results = CoreBenchmarkSuite.run(
    runner: quick ? .quick : BenchmarkRunner(),
    corpusSize: quick ? 200 : 1_000,
    filter: arguments[filter],
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
