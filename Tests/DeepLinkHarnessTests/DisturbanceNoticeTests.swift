import DeepLinkHarness
import Foundation
import Testing

/// Issue 35 item 3: a disturbed run or capacity sweep says so, with what was measured, on the
/// terminal, at the top of report.html and of summary.md; a quiet one does not.
@Suite struct DisturbanceNoticeTests {
    /// Five runnable threads besides ours on two cores: disturbed whatever the run's threads.
    static let busy = ScriptedDisturbanceSource([
        DisturbanceReading(stealNanos: 0, involuntarySwitches: 0, runnable: 6, ownRunnable: 1)
    ])
    static let quiet = ScriptedDisturbanceSource([
        DisturbanceReading(stealNanos: 0, involuntarySwitches: 0, runnable: 0, ownRunnable: 0)
    ])
    static let measured = "5.00 other runnable threads on average"

    static func outputs(_ out: String, in directory: String) throws -> [String: String] {
        // The terminal's notice is folded into lines of at most 100 columns: read it unfolded.
        var texts = ["terminal": out.replacingOccurrences(of: "\n  ", with: " ")]
        for file in [ReportCommand.htmlFile, ReportCommand.markdownFile] {
            texts[file] = try String(contentsOfFile: directory + "/" + file, encoding: .utf8)
        }
        return texts
    }

    @Test(arguments: [true, false]) func aRunSaysItWasDisturbed(disturbed: Bool) throws {
        let out = RunCommandTests.directory("notice")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let parsed = try ArgumentParser.parse(
            ["--journeys", "300", "--threads", "1", "--strategies", "core,naive", "--quiet", "--out", out],
            options: RunCommand.configuration.options
        )
        var command = try RunCommand(arguments: parsed)
        command.configurationToRun.disturbanceSource = disturbed ? Self.busy : Self.quiet
        var text = ""
        _ = try command.run(io: CommandIO(stdout: { text += $0 }, stderr: { _ in }))
        for (place, content) in try Self.outputs(text, in: out) {
            #expect(content.contains("disturbed: ") == disturbed, "\(place)")
            #expect(content.contains(Self.measured) == disturbed, "\(place)")
            #expect(content.contains(DisturbanceNotice.consequence) == disturbed, "\(place)")
        }
        if disturbed {
            // Before the numbers it qualifies: above the table, at the top of the page and summary.
            let terminal = try #require(text.range(of: "disturbed: "))
            #expect(text[..<terminal.lowerBound].split(separator: "\n").isEmpty, "\(text)")
            let page = try String(contentsOfFile: out + "/" + ReportCommand.htmlFile, encoding: .utf8)
            let notice = try #require(page.range(of: "class=\"disturbed\""))
            let headline = try #require(page.range(of: "id=\"headline\""))
            #expect(notice.lowerBound < headline.lowerBound)
            let summary = try String(contentsOfFile: out + "/" + ReportCommand.markdownFile, encoding: .utf8)
            let line = try #require(summary.split(separator: "\n").firstIndex { $0.contains("disturbed: ") })
            let table = try #require(summary.split(separator: "\n").firstIndex { $0.hasPrefix("| strategy") })
            #expect(line < table)
        }
    }

    @Test(arguments: [true, false]) func aCapacitySweepSaysItWasDisturbed(disturbed: Bool) throws {
        let out = RunCommandTests.directory("capacity-notice")
        defer { try? FileManager.default.removeItem(atPath: out) }
        let parsed = try ArgumentParser.parse(
            [
                "--quick", "--max-threads", "1", "--step-ms", "10", "--max-rate", "4000", "--slo-p99-ns",
                "3600000000000", "--out", out, "--quiet",
            ],
            options: CapacityCommand.configuration.options
        )
        var command = try CapacityCommand(arguments: parsed)
        command.sweep.disturbanceSource = disturbed ? Self.busy : Self.quiet
        var text = ""
        #expect(try command.run(io: CommandIO(stdout: { text += $0 }, stderr: { _ in })) == 0)
        for (place, content) in try Self.outputs(text, in: out) {
            #expect(content.contains("disturbed: 1 of 1 steps: ") == disturbed, "\(place): \(content.prefix(600))")
            #expect(content.contains(Self.measured) == disturbed, "\(place)")
        }
        let manifest = try ReportReader.readManifest(out)
        #expect(manifest.disturbance?.disturbed == disturbed)
    }

    @Test func manyReasonsAreCountedNotAllListed() throws {
        var disturbance = Disturbance()
        for index in 1...6 { disturbance.mark("reason \(index)") }
        let text = try #require(DisturbanceNotice.text(disturbance, steps: (3, 9)))
        #expect(
            text.hasPrefix("disturbed: 3 of 9 steps: reason 1; reason 2; reason 3; reason 4; and 2 more reasons — ")
        )
        #expect(DisturbanceNotice.text(Disturbance()) == nil)
        #expect(DisturbanceNotice.terminalText(Disturbance()) == nil)
        #expect(DisturbanceNotice.text(nil) == nil)
    }

    /// The terminal's notice fits 100 columns and says, unfolded, exactly what the page says.
    @Test func theTerminalNoticeIsFoldedToOneHundredColumns() throws {
        let disturbance = Disturbance(
            disturbed: true,
            reasons: [
                "534 involuntary context switches per thread-second (threshold 50)",
                "17.36 other runnable threads on average, 0 cores free (threshold +0.5)",
            ]
        )
        let text = try #require(DisturbanceNotice.text(disturbance))
        let folded = try #require(DisturbanceNotice.terminalText(disturbance, width: 60))
        #expect(folded.split(separator: "\n").count > 1)
        for line in folded.split(separator: "\n") { #expect(line.count <= 60, "\(line)") }
        #expect(folded.replacingOccurrences(of: "\n  ", with: " ") == text)
    }
}
