import DeepLinkCore
import DeepLinkCoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Kills a writer process (`handoff-crash-writer`, a test-support executable) with SIGKILL at random instants and
/// checks that the store it leaves behind is whole: every record complete or absent, every link the
/// writer saved still pending or consumed (never lost), never both.
@Suite struct FileHandoffStoreCrashTests {
    /// `handoff-crash-writer`, built by `swift build --build-tests` next to the test binary
    /// (`.build/<triple>/debug/`); `DEEPLINK_CRASH_WRITER` overrides.
    static func writerBinary() -> String? {
        if let override = ProcessInfo.processInfo.environment["DEEPLINK_CRASH_WRITER"] { return override }
        let directories = [
            Bundle.main.bundlePath,
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path,
        ]
        return directories.map { $0 + "/handoff-crash-writer" }.first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
    }

    struct ChildRun {
        var saved: Set<UInt64> = []
        var consumed: Set<UInt64> = []
    }

    /// Starts the writer on `directory`, kills it after `delayMicroseconds`, returns what it
    /// reported as done.
    func runAndKill(binary: String, directory: String, delayMicroseconds: UInt32) throws -> ChildRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--dir", directory, "--consume-every", "2", "--slow-writes"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        usleep(delayMicroseconds)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? output.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        var run = ChildRun()
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard words.count == 2, let id = UInt64(words[1]) else { continue }
            if words[0] == "saved" { run.saved.insert(id) }
            if words[0] == "consumed" { run.consumed.insert(id) }
        }
        return run
    }

    @Test func writerRefusesBadArgumentsByName() throws {
        let binary = try #require(Self.writerBinary(), "handoff-crash-writer not found next to the test binary")
        for (arguments, message) in [
            ([String](), "missing argument: --dir <directory>"),
            (["--dir"], "--dir needs a value"),
            (["--dir", "/tmp/x", "--count", "0"], "--count: '0' is not a whole number in 1...2147483647"),
            (["--dir", "/tmp/x", "--consume-every", "-1"], "--consume-every: '-1' is not a whole number"),
            (["--dir", "/tmp/x", "surplus"], "unexpected argument 'surplus'"),
        ] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = arguments
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 2, "\(arguments)")
            #expect(text.hasPrefix("error: handoff-crash-writer: \(message)"), "\(arguments): \(text)")
        }
    }

    @Test func killedWriterLeavesCompleteRecordsOrNone() throws {
        let binary = try #require(
            Self.writerBinary(),
            "handoff-crash-writer not found next to the test binary (\(Bundle.main.bundlePath)); run `swift build --build-tests` (or `swift test`), which builds it"
        )
        let root = try HandoffTestDirectory()
        defer { root.remove() }
        // The kill window scales with how long the writer takes to start and write one record
        // here (debug, sanitizer builds and machine load differ a lot): kills land in start-up,
        // in the first record and in the few dozen operations after it.
        var firstRecord = Duration.seconds(1)
        for attempt in 0..<2 {  // the faster of two: the first launch may be cold
            let probeStart = ContinuousClock.now
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: binary)
            probe.arguments = [
                "--dir", root.file("probe-\(attempt)"), "--count", "1", "--slow-writes",
            ]
            probe.standardOutput = FileHandle.nullDevice
            try probe.run()
            probe.waitUntilExit()
            #expect(probe.terminationStatus == 0, "the writer must run: \(binary)")
            firstRecord = min(firstRecord, ContinuousClock.now - probeStart)
        }
        let windowMicroseconds = UInt64(firstRecord / .microseconds(1)) + 30_000
        var generator = SeededGenerator(seed: 0xC0FF_EE00_2026)
        let iterations = 200
        let deadline = ContinuousClock.now + .seconds(120)
        var killsAfterFirstSave = 0
        var killsMidWrite = 0  // a temporary file was left behind
        var interruptedConsumes = 0  // pending record and consumed marker both on disk
        var inFlightRecordsPresent = 0  // saved completely, killed before reporting it
        var recordsChecked = 0

        for iteration in 0..<iterations {
            try #require(ContinuousClock.now < deadline, "crash test exceeded its deadline at iteration \(iteration)")
            let directory = root.file("run-\(iteration)")
            let delay = UInt32(1_000 + generator.next() % windowMicroseconds)
            let run = try runAndKill(binary: binary, directory: directory, delayMicroseconds: delay)
            guard FileManager.default.fileExists(atPath: directory) else {
                #expect(run.saved.isEmpty, "the writer reported saves but its directory is missing")
                continue
            }
            let rawNames = try FileManager.default.contentsOfDirectory(atPath: directory)
            if rawNames.contains(where: { $0.hasPrefix(".tmp.") }) { killsMidWrite += 1 }
            let markedIDs = Set(rawNames.compactMap { name in name.hasPrefix("consumed-id-") ? name : nil })
            if rawNames.contains(where: { name in
                name.hasPrefix("pending-") && markedIDs.contains(name.replacing("pending-", with: "consumed-id-"))
            }) {
                interruptedConsumes += 1
            }
            if !run.saved.isEmpty { killsAfterFirstSave += 1 }

            let store = try FileHandoffStore(directory: directory)
            let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            #expect(!names.contains { $0.hasPrefix(".tmp.") }, "opening the store removes the dead writer's temp files")
            let load = try store.loadPending()
            #expect(load.skipped.isEmpty, "run \(iteration): unreadable records \(load.skipped)")
            var pendingIDs: Set<UInt64> = []
            for pending in load.pending {
                #expect(pending == CrashWriterRecords.record(id: pending.id), "run \(iteration): record differs")
                pendingIDs.insert(pending.id)
            }
            let lastSaved = run.saved.max() ?? 0
            let inFlight = lastSaved + 1
            if pendingIDs.contains(inFlight) { inFlightRecordsPresent += 1 }
            #expect(pendingIDs.allSatisfy { $0 <= inFlight }, "run \(iteration): a record the writer never started")
            for id in 1...inFlight + 1 {
                let isPending = pendingIDs.contains(id)
                let isConsumed = store.wasConsumed(CrashWriterRecords.record(id: id).identity)
                #expect(!(isPending && isConsumed), "run \(iteration), id \(id): both pending and consumed")
                if run.saved.contains(id) {
                    #expect(isPending || isConsumed, "run \(iteration), id \(id): saved, then lost")
                }
                if run.consumed.contains(id) {
                    #expect(isConsumed, "run \(iteration), id \(id): reported consumed, not marked")
                }
                if id % 2 == 1 || id >= inFlight {
                    #expect(!isConsumed, "run \(iteration), id \(id): consumed but the writer never consumed it")
                }
                recordsChecked += 1
            }
            // Recovery is stable: a second look finds the same pending set and no half-consumed file.
            #expect(Set(try store.loadPending().pending.map(\.id)) == pendingIDs)
            root.removeItem("run-\(iteration)")
        }
        print(
            "FileHandoffStore crash test: \(iterations) kills within \(windowMicroseconds / 1_000) ms of start, "
                + "\(killsAfterFirstSave) after the first save, "
                + "\(killsMidWrite) mid-write (temp file left), \(interruptedConsumes) mid-consume, "
                + "\(inFlightRecordsPresent) with a complete unreported record, \(recordsChecked) ids checked"
        )
        #expect(killsAfterFirstSave >= iterations / 5, "many kills should land while the writer is writing")
    }
}

extension HandoffTestDirectory {
    func removeItem(_ name: String) { try? FileManager.default.removeItem(atPath: file(name)) }
}
