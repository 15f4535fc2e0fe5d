import DeepLinkHarness
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The CLI's standard streams as a real process sees them: long and slow input, a full stdout,
/// a directory as stdin.
@Suite struct StandardStreamsTests {
    static let available = !Sanitizer.isActive && BenchProcess.binary != nil

    /// One line of `megabytes` MB without a newline, in a file.
    static func longLineFile(_ root: String, megabytes: Int) throws -> String {
        let path = root + "/line-\(megabytes)mb"
        try Data(repeating: UInt8(ascii: "a"), count: megabytes << 20).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let tooLong =
        #"{"fields":[],"payload":null,"link":null,"verdict":"error","reason":"inputTooLong","requires":null}"#

    /// Reading stops buffering at --max-input-bytes and the time is linear in the input: 16
    /// times the bytes take well under 64 times as long (the quadratic reader took 256 times).
    @Test(.enabled(if: available)) func aLongLineIsAnsweredAtTheLimitInLinearTime() throws {
        let root = ReportFixtures.temporaryDirectory("long-line")
        defer { ReportFixtures.remove(root) }
        let small = try BenchProcess.run(["inspect", "--jsonl"], stdin: try Self.longLineFile(root, megabytes: 2))
        let large = try BenchProcess.run(["inspect", "--jsonl"], stdin: try Self.longLineFile(root, megabytes: 32))
        for run in [small, large] {
            #expect(run.status == 0, "\(run.err)")
            #expect(run.out == Self.tooLong + "\n")
            #expect(run.err.isEmpty)
        }
        #expect(large.seconds < 30, "32 MB took \(large.seconds) s")
        #expect(large.seconds < 64 * max(small.seconds, 0.01), "2 MB: \(small.seconds) s, 32 MB: \(large.seconds) s")
    }

    /// Fed one line at a time through a pipe, `inspect --jsonl` answers each line before the next
    /// arrives (stdout is flushed before every read of stdin).
    @Test(.enabled(if: available)) func slowInputIsAnsweredLineByLine() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(BenchProcess.binary))
        process.arguments = ["inspect", "--jsonl"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let answers = output.fileHandleForReading.fileDescriptor
        input.fileHandleForWriting.write(Data("a=1\n".utf8))
        let first = BenchProcess.readLine(answers, within: 20)
        let noPayload = #"{"fields":[["a","1"]],"payload":null,"link":null,"verdict":"noPayload","reason":null,"#
        #expect(first == noPayload + #""requires":null}"#)
        input.fileHandleForWriting.write(Data("deeplink=%2Fb\r\n".utf8))
        let second = BenchProcess.readLine(answers, within: 20)
        let link = #"{"fields":[["deeplink","/b"]],"payload":"/b","link":"/b","verdict":"link","reason":null,"#
        #expect(second == link + #""requires":["appReady"]}"#)
        try input.fileHandleForWriting.close()
        #expect(BenchProcess.readLine(answers, within: 20) == nil)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test(.enabled(if: available)) func aDirectoryAsStandardInputIsANamedError() throws {
        let run = try BenchProcess.run(["inspect", "--jsonl"], stdin: NSTemporaryDirectory())
        #expect(run.status == 2)
        #expect(run.out.isEmpty)
        #expect(
            run.err
                == "error: inspect: cannot read standard input: Is a directory (errno \(EISDIR)). Give --jsonl "
                + "referrers one per line on standard input, e.g. deeplink-bench inspect --jsonl < referrers.txt\n"
        )
    }

    static let fullStdout =
        "error: cannot write standard output: No space left on device (errno \(ENOSPC)); its output is lost. Free "
        + "space on the device it goes to, or redirect it to a file or pipe that accepts writes.\n"

    /// inspect, run and gate with stdout on /dev/full: the lost output is reported, exit 2.
    @Test(.enabled(if: available && FileManager.default.fileExists(atPath: "/dev/full")))
    func aFullStandardOutputIsReportedWithExitTwo() throws {
        let root = ReportFixtures.temporaryDirectory("dev-full")
        defer { ReportFixtures.remove(root) }
        let referrers = root + "/referrers"
        try Data("a=1\ndeeplink=%2Fx\n".utf8).write(to: URL(fileURLWithPath: referrers))
        let inspectLines = try BenchProcess.run(["inspect", "--jsonl"], stdin: referrers, stdout: "/dev/full")
        let inspectReadable = try BenchProcess.run(["inspect", "a=1"], stdout: "/dev/full")
        let run = try BenchProcess.run(
            ["run", "--journeys", "500", "--threads", "1", "--quiet", "--no-report", "--out", root + "/run"],
            stdout: "/dev/full"
        )
        try ReportWriter.write(GateTests.standardReport(), to: root + "/base")
        try ReportWriter.write(GateTests.standardReport(), to: root + "/cur")
        let gate = try BenchProcess.run(
            ["gate", "--baseline", root + "/base", "--current", root + "/cur", "--no-report"],
            stdout: "/dev/full"
        )
        for (name, result) in [
            ("inspect --jsonl", inspectLines), ("inspect", inspectReadable), ("run", run), ("gate", gate),
        ] {
            #expect(result.status == 2, "\(name): \(result.err)")
            #expect(result.err == Self.fullStdout, "\(name)")
        }
        // The files were written; only the console output was lost.
        #expect(FileManager.default.fileExists(atPath: root + "/run/summary.csv"))
        #expect(FileManager.default.fileExists(atPath: root + "/cur/gate.csv"))
    }
}
