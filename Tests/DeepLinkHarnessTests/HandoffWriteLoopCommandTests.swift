import DeepLinkCore
import DeepLinkHarness
import Foundation
import Testing

@Suite struct HandoffWriteLoopCommandTests {
    /// Runs `deeplink-bench` in process; returns (status, stdout, stderr).
    func run(_ arguments: [String]) -> (Int32, String, String) {
        var out = ""
        var err = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { err += $0 })
        let status = DeepLinkBench.main(arguments: arguments, io: io)
        return (status, out, err)
    }

    @Test func writesAndConsumesThenReports() throws {
        let directory = NSTemporaryDirectory() + "/handoff-loop-\(UInt64.random(in: 0...UInt64.max))"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, out, err) = run(["handoff-write-loop", "--dir", directory, "--count", "5", "--consume-every", "2"])
        #expect(status == 0, "\(err)")
        #expect(out == "saved 1\nsaved 2\nconsumed 2\nsaved 3\nsaved 4\nconsumed 4\nsaved 5\n")
        let store = try FileHandoffStore(directory: directory)
        let load = try store.loadPending()
        #expect(load.pending == [1, 3, 5].map { HandoffWriteLoopCommand.record(id: $0) })
        #expect(store.wasConsumed(HandoffWriteLoopCommand.record(id: 4)))
    }

    @Test func recordsVaryAndStayValid() {
        let lengths = Set((1...600).map { HandoffWriteLoopCommand.record(id: UInt64($0)).link.utf8Count })
        #expect(lengths.count > 400)
        #expect(HandoffWriteLoopCommand.record(id: 448).link.utf8Count <= DeepLink.capacity)
        #expect(HandoffWriteLoopCommand.record(id: 448).link.string.hasPrefix("/product/448?"))
    }

    @Test func usageErrorsAreOneLineAndExit2() {
        let (missing, _, missingErr) = run(["handoff-write-loop"])
        #expect(missing == 2)
        #expect(missingErr == "error: handoff-write-loop: missing argument: --dir <directory>\n")
        let (extra, _, _) = run(["handoff-write-loop", "--dir", "/tmp/x", "surplus"])
        #expect(extra == 2)
        let (badCount, _, _) = run(["handoff-write-loop", "--dir", "/tmp/x", "--count", "0"])
        #expect(badCount == 2)
        let (help, helpOut, _) = run(["handoff-write-loop", "--help"])
        #expect(help == 0)
        #expect(helpOut.contains("(internal)"))
    }
}
