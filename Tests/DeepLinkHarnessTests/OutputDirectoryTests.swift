import DeepLinkHarness
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Every command that writes a directory checks it before working, and the gate prints its
/// verdict only once gate.csv is written.
@Suite struct OutputDirectoryTests {
    static func bench(_ arguments: [String]) -> (status: Int32, out: String, err: String, seconds: Double) {
        var out = ""
        var err = ""
        let io = CommandIO(stdout: { out += $0 }, stderr: { err += $0 })
        let start = Date()
        let status = DeepLinkBench.main(arguments: arguments, io: io)
        return (status, out, err, Date().timeIntervalSince(start))
    }

    /// Paths no command can write to, and the start of the error each gets.
    static func unusable(_ root: String) throws -> [(path: String, error: String)] {
        let file = root + "/a-file"
        try Data("x".utf8).write(to: URL(fileURLWithPath: file))
        var cases = [
            (file, "cannot create directory \(file): it exists and is a regular file, not a directory; give --out"),
            (file + "/below", "cannot create directory \(file)/below: \(file) is a regular file, not a directory"),
            (
                "/proc/deeplink-bench-x",
                "cannot create directory /proc/deeplink-bench-x: no directory can be created in /proc"
            ),
        ]
        // Root may write anywhere: a read-only directory only stops other users.
        if geteuid() != 0 {
            let locked = root + "/locked"
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: true)
            chmod(locked, 0o555)
            cases.append((locked, "cannot write \(locked): no file can be created in it (Permission denied"))
            cases.append(
                (locked + "/new", "cannot create directory \(locked)/new: no directory can be created in \(locked)")
            )
        }
        return cases
    }

    /// Parents of relative and absolute paths; a one-character relative name (which traps in
    /// Foundation's `deletingLastPathComponent`) has the working directory as its parent.
    @Test func parentDirectories() throws {
        let cases = [
            ("m", "."), ("ab", "."), ("m/", "."), ("a/m", "a"), ("a//m/", "a"), ("/m", "/"), ("/", "/"),
            ("/a/b/c", "/a/b"), ("./m", "."),
        ]
        for (path, parent) in cases {
            #expect(ReportReader.parentDirectory(of: path) == parent, "\(path)")
        }
        // A relative one-letter --out is checked, not trapped on (it does not exist here).
        #expect(!FileManager.default.fileExists(atPath: "m"))
        try OutputDirectory.check("m", replacingReport: true)
        try OutputDirectory.check("m", replacingReport: false)
    }

    @Test(arguments: [false, true])
    func checkNamesWhatItFound(replacingReport: Bool) throws {
        let root = ReportFixtures.temporaryDirectory("output-check-\(replacingReport)")
        defer { ReportFixtures.remove(root) }
        for (path, expected) in try Self.unusable(root) {
            #expect(throws: ReportError.self) { try OutputDirectory.check(path, replacingReport: replacingReport) }
            do {
                try OutputDirectory.check(path, replacingReport: replacingReport)
            } catch {
                #expect("\(error)".hasPrefix(expected), "\(path): \(error)")
            }
        }
        // Usable: an existing directory, a new one (with new parents); the probe leaves nothing.
        try OutputDirectory.check(root + "/existing-empty", replacingReport: false)
        try FileManager.default.createDirectory(atPath: root + "/existing-empty", withIntermediateDirectories: true)
        try OutputDirectory.check(root + "/existing-empty", replacingReport: replacingReport)
        try OutputDirectory.check(root + "/new/deeper", replacingReport: replacingReport)
        #expect(!FileManager.default.fileExists(atPath: root + "/new"))
        // A directory holding other files takes files (gate.csv beside a run), but a report never
        // replaces it whole.
        #expect(FileManager.default.createFile(atPath: root + "/existing-empty/notes.txt", contents: Data("x".utf8)))
        if replacingReport {
            #expect(throws: ReportError.self) {
                try OutputDirectory.check(root + "/existing-empty", replacingReport: true)
            }
        } else {
            try OutputDirectory.check(root + "/existing-empty", replacingReport: false)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted().allSatisfy { !$0.hasPrefix(".") })
    }

    /// `run --out` unusable: refused before the first journey (a 200,000-journey run would take
    /// many seconds; the refusal takes none, and nothing is written).
    @Test(.enabled(if: !Sanitizer.isActive && BenchProcess.binary != nil))
    func runRefusesAnUnusableOutBeforeTheFirstJourney() throws {
        let root = ReportFixtures.temporaryDirectory("run-out")
        defer { ReportFixtures.remove(root) }
        for (path, error) in try Self.unusable(root) {
            let run = try BenchProcess.run(["run", "--journeys", "200000", "--threads", "1", "--out", path])
            #expect(run.status == 2, "\(path): \(run.err)")
            #expect(run.out.isEmpty)
            #expect(run.err.hasPrefix("error: run: " + error), "\(run.err)")
            #expect(run.err.filter { $0 == "\n" }.count == 1, "\(run.err)")
            #expect(run.seconds < 5, "\(path): \(run.seconds) s")
        }
    }

    @Test func gateMergeAndCapacityRefuseAnUnusableOutBeforeWorking() throws {
        let root = ReportFixtures.temporaryDirectory("other-out")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(GateTests.standardReport(), to: root + "/base")
        try ReportWriter.write(GateTests.standardReport(), to: root + "/cur")
        for (path, error) in try Self.unusable(root) {
            let commands: [(String, [String])] = [
                ("gate", ["gate", "--baseline", root + "/base", "--current", root + "/cur", "--out", path]),
                // --repetitions would run the baseline's command line first: refused before that.
                ("gate", ["gate", "--baseline", root + "/base", "--current", path, "--repetitions", "2"]),
                ("merge", ["merge", "--out", path, root + "/base"]),
                // A full sweep takes minutes; the refusal comes first.
                ("capacity", ["capacity", "--out", path, "--quiet"]),
            ]
            for (name, arguments) in commands {
                let result = Self.bench(arguments)
                #expect(result.status == 2, "\(arguments): \(result.err)")
                #expect(result.out.isEmpty, "\(arguments)")
                #expect(result.err.hasPrefix("error: \(name): " + error), "\(result.err)")
                #expect(result.seconds < 5, "\(arguments): \(result.seconds) s")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: root + "/cur/gate.csv"))
    }

    /// gate.csv cannot be written (a directory stands in its place): exit 2 and no verdict on
    /// stdout, since the verdict is printed only after everything is written.
    @Test func gatePrintsNoVerdictWhenGateCSVCannotBeWritten() throws {
        let root = ReportFixtures.temporaryDirectory("gate-csv")
        defer { ReportFixtures.remove(root) }
        try ReportWriter.write(GateTests.standardReport(), to: root + "/base")
        try ReportWriter.write(GateTests.standardReport(), to: root + "/cur")
        try FileManager.default.createDirectory(atPath: root + "/cur/gate.csv", withIntermediateDirectories: true)
        let result = Self.bench(["gate", "--baseline", root + "/base", "--current", root + "/cur"])
        #expect(result.status == 2)
        #expect(result.out.isEmpty, "\(result.out)")
        #expect(result.err.hasPrefix("error: gate: cannot write \(root)/cur/gate.csv"), "\(result.err)")
        #expect(!result.err.contains("PASS") && !result.err.contains("FAIL"))

        // Once it can be written, the verdict comes last, after the report's path.
        try FileManager.default.removeItem(atPath: root + "/cur/gate.csv")
        let passing = Self.bench(["gate", "--baseline", root + "/base", "--current", root + "/cur"])
        #expect(passing.status == 0, "\(passing.err)")
        let lines = passing.out.split(separator: "\n")
        #expect(lines.dropLast().last?.hasPrefix("gate: PASS") == true, "\(passing.out)")
        #expect(lines.last?.hasPrefix("report.html: ") == true, "\(passing.out)")
    }
}
