import DeepLinkHarness
import Foundation
import Testing

/// Python's `urllib.parse.parse_qsl(line, keep_blank_values=True)`, run as an independent reference.
enum PythonReference {
    /// The `python3` on `PATH`, if any.
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/python3"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }()

    static let script = """
        import json, sys
        from urllib.parse import parse_qsl
        for line in json.load(open(sys.argv[1], encoding="utf-8")):
            print(json.dumps([list(pair) for pair in parse_qsl(line, keep_blank_values=True)]))
        """

    /// `parse_qsl` of every line, as lists of `[name, value]`.
    static func parseQSL(_ lines: [String]) throws -> [[[String]]] {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("parse_qsl-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        let json = "[" + lines.map(JSONString.quoted).joined(separator: ",") + "]"
        try Data(json.utf8).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable))
        process.arguments = ["-c", script, file.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return try String(decoding: data, as: UTF8.self).split(separator: "\n").map { line in
            try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [[String]])
        }
    }
}

/// Random valid-UTF-8 referrers (no `\n`) built from pieces that stress the grammar: separators,
/// `+`, valid and invalid escapes (including escapes that decode to invalid UTF-8), control
/// characters, quotes and non-ASCII text.
func randomUTF8Referrer(using generator: inout SplitMix64) -> String {
    let pieces = [
        "&", "&", "=", "=", "+", "%", "%2", "%zz", "%41", "%2B", "%26", "%3D", "%25", "%C3%A9", "%FF", "%E2%82",
        "%F0%80%80", "%ED%A0%80", "%E2%82%AC", "%F0%9F%98%80", "é", "😀", "\u{7F}", "\t", "\r", "\u{01}", "\"", "\\",
        " ", "a", "b", "key", "deeplink", "utm_source", "/x", "%0A", "%00",
    ]
    let count = Int.random(in: 0...12, using: &generator)
    var line = ""
    for _ in 0..<count { line += pieces.randomElement(using: &generator)! }
    return line
}

@Suite struct InspectPythonAgreementTests {
    @Test(.enabled(if: PythonReference.executable != nil, "python3 is not on PATH"))
    func jsonLinesFieldsMatchPythonParseQSL() throws {
        var generator = SplitMix64(seed: 2026)
        var lines = [
            "utm_source=google&utm_medium=cpc&deeplink=%2Fproduct%2F42", "", "&&", "a", "=", "==", "a=b=c", "+%2B+",
            "%", "%%41", "x=%FF%C3", "a=%E2%82%41", "k=caf%C3%A9+cr%C3%A8me", "%F0%80%80=%ED%A0%80",
        ]
        for _ in 0..<2000 { lines.append(randomUTF8Referrer(using: &generator)) }

        let run = CapturedRun(["inspect", "--jsonl"], stdin: lines.map { Array($0.utf8) })
        #expect(run.status == 0)
        let ours = try run.outLines.map { line in
            let object = try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(object["fields"] as? [[String]])
        }
        // inspect reads lines ended by LF or CRLF, so a line's trailing CR is its line end, not data.
        let python = try PythonReference.parseQSL(lines.map { $0.hasSuffix("\r") ? String($0.dropLast()) : $0 })
        try #require(ours.count == lines.count)
        try #require(python.count == lines.count)
        var mismatches = 0
        for index in lines.indices {
            // Compare scalars, not Strings: String equality would forgive canonically equivalent text.
            let mine = ours[index].map { $0.map { Array($0.unicodeScalars) } }
            let theirs = python[index].map { $0.map { Array($0.unicodeScalars) } }
            if mine != theirs {
                mismatches += 1
                if mismatches <= 5 {
                    Issue.record(
                        "line \(JSONString.quoted(lines[index])): \(ours[index]) vs parse_qsl \(python[index])"
                    )
                }
            }
        }
        #expect(mismatches == 0)
    }
}
