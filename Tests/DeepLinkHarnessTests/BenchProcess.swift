import DeepLinkHarness
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The built `deeplink-bench` run as a real process, its standard streams redirected by the
/// shell (to `/dev/full`, from a directory, ...) as a user's would be.
struct BenchProcess {
    var status: Int32
    var out: String
    var err: String
    var seconds: Double

    /// The binary, when `swift build` has built it (see ``TrapSupervisorTests/benchBinary()``).
    static var binary: String? { TrapSupervisorTests.benchBinary() }

    /// Runs `deeplink-bench arguments` with standard input from `stdin` (a path; default
    /// /dev/null) and standard output to `stdout` (a path; default captured).
    static func run(_ arguments: [String], stdin: String = "/dev/null", stdout: String? = nil) throws -> BenchProcess {
        let root = ReportFixtures.temporaryDirectory("bench-process")
        defer { ReportFixtures.remove(root) }
        let outFile = stdout ?? root + "/stdout"
        let errFile = root + "/stderr"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // The paths come in through the environment: no quoting to get wrong.
        process.arguments =
            ["-c", #"exec "$0" "$@" < "$BENCH_IN" > "$BENCH_OUT" 2> "$BENCH_ERR""#]
            + [try #require(binary)] + arguments
        var environment = ProcessInfo.processInfo.environment
        environment["BENCH_IN"] = stdin
        environment["BENCH_OUT"] = outFile
        environment["BENCH_ERR"] = errFile
        process.environment = environment
        let start = Date()
        try process.run()
        process.waitUntilExit()
        let seconds = Date().timeIntervalSince(start)
        func text(_ path: String) -> String {
            String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
        }
        return BenchProcess(
            status: process.terminationStatus,
            out: stdout == nil ? text(outFile) : "",
            err: text(errFile),
            seconds: seconds
        )
    }

    /// The next line `descriptor` delivers within `seconds` (without its `\n`), or nil when it
    /// delivers none in time or ends first.
    static func readLine(_ descriptor: Int32, within seconds: Double) -> String? {
        var bytes: [UInt8] = []
        let deadline = Date().addingTimeInterval(seconds)
        while true {
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1_000))
            guard remaining > 0 else { return nil }
            var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, remaining) > 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
