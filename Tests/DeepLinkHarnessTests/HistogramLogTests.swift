import Foundation
import Testing

@testable import DeepLinkHarness

/// latency.hlog: HdrHistogram's encoding pieces against known values, and the whole file read by
/// HdrHistogram's own Python package (when Tests/HdrHistogram/check_hlog.sh has installed it).
@Suite struct HistogramLogTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let python = root + "/.build/hdrh-venv/bin/python"
    /// Written by Tests/HdrHistogram/check_hlog.sh once the venv is complete.
    static let installed = root + "/.build/hdrh-venv/installed"

    @Test func encodingPiecesMatchTheirSpecifications() {
        // RFC 1950's Adler-32 of "Wikipedia" (its worked example).
        #expect(HistogramLog.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        func zigZag(_ value: Int64) -> [UInt8] {
            var bytes: [UInt8] = []
            HistogramLog.appendZigZag(value, to: &bytes)
            return bytes
        }
        #expect(zigZag(0) == [0])
        #expect(zigZag(-1) == [1])
        #expect(zigZag(1) == [2])
        #expect(zigZag(64) == [0x80, 0x01])
        #expect(zigZag(-300) == [0xD7, 0x04])
        #expect(zigZag(.min) == [UInt8](repeating: 0xFF, count: 9))

        let data = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let stream = HistogramLog.zlibStored(data)
        #expect(Array(stream.prefix(7)) == [0x78, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x00])
        let second = 2 + 5 + 65_535
        #expect(Array(stream[second..<second + 5]) == [0x01, 0x71, 0x11, 0x8E, 0xEE])
        #expect(stream.count == 2 + 5 + 65_535 + 5 + 4_465 + 4)
        #expect(Array(stream.suffix(4)) == withUnsafeBytes(of: HistogramLog.adler32(data).bigEndian) { Array($0) })

        // The V2 header: cookie, payload length, offset 0, 3 digits, lowest 1, highest 2^46 − 1.
        var histogram = Histogram()
        histogram.record(5, times: 3)
        histogram.record(5_000)
        let encoded = HistogramLog.encoded(histogram)
        #expect(Array(encoded.prefix(4)) == [0x1C, 0x84, 0x93, 0x13])
        #expect(Array(encoded[12..<16]) == [0, 0, 0, 3])
        #expect(Array(encoded[16..<24]) == [0, 0, 0, 0, 0, 0, 0, 1])
        #expect(Array(encoded[24..<32]) == [0, 0, 0x3F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        // Counts: five zeros (run of −5), 3 at value 5, zeros up to 5,000's index, then 1.
        let payload = Array(encoded[40...])
        #expect(Array(payload.prefix(2)) == [0x09, 0x06])
        #expect(payload.last == 0x02)
    }

    /// The whole file, read by HdrHistogram's Python package: every interval agrees with
    /// latency.csv; a latency.csv that disagrees is caught.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: installed)))
    func hdrhReadsEveryIntervalAsLatencyCSVSaysIt() throws {
        let directory = ReportFixtures.temporaryDirectory("hlog")
        defer { ReportFixtures.remove(directory) }
        var core = ReportFixtures.strategy("core", latencyScale: 37)
        var racing = Histogram()
        for value in 1...500 { racing.record(UInt64(value) * 12_345) }
        racing.record(Histogram.highestTrackableValue + 99)
        core.histograms[Metric.journeyRacing] = racing
        try ReportWriter.write(
            ReportFixtures.report(strategies: [core, ReportFixtures.strategy("exec:x-y.z")]),
            to: directory
        )
        func check() throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Self.python)
            process.arguments = [Self.root + "/Tests/HdrHistogram/check_hlog.py", directory]
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            try process.run()
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, output)
        }
        let good = try check()
        #expect(good.status == 0, "\(good.output)")
        #expect(good.output.contains("core/journey_racing: count 501"), "\(good.output)")
        #expect(good.output.contains("exec:x-y.z/journey: count 10000"), "\(good.output)")

        let path = directory + "/" + ReportSchema.latencyFile
        let text = try String(contentsOfFile: path, encoding: .utf8)
        try Data(text.replacingOccurrences(of: ",501\r\n", with: ",502\r\n").utf8).write(to: URL(fileURLWithPath: path))
        let bad = try check()
        #expect(bad.status == 1)
        #expect(bad.output.contains("error: core/journey_racing"), "\(bad.output)")
    }
}
