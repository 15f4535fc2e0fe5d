import DeepLinkCore
import DeepLinkHarness
import Foundation
import Testing

/// Runs the real `deeplink-bench` entry point with captured standard streams.
struct CapturedRun {
    var status: Int32
    var out: String
    var err: String

    /// - Parameter lines: standard input, each line ended with `\n`.
    init(_ arguments: [String], stdin lines: [[UInt8]] = []) {
        self.init(arguments, stdinBytes: lines.flatMap { $0 + [UInt8(ascii: "\n")] })
    }

    init(_ arguments: [String], stdinBytes: [UInt8]) {
        final class Buffers {
            var out = ""
            var err = ""
        }
        let buffers = Buffers()
        let io = CommandIO(
            stdout: { buffers.out += $0 },
            stderr: { buffers.err += $0 },
            stdin: LineReader(bytes: stdinBytes)
        )
        status = DeepLinkBench.main(arguments: arguments, io: io)
        out = buffers.out
        err = buffers.err
    }

    var outLines: [String] { out.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }
}

@Suite struct InspectCommandTests {
    @Test func printsReadableBreakdown() {
        let run = CapturedRun(["inspect", "utm_source=google&utm_medium=cpc+x&deeplink=%2Fproduct%2F42"])
        #expect(run.status == 0)
        #expect(run.err.isEmpty)
        #expect(
            run.out == """
                referrer "utm_source=google&utm_medium=cpc+x&deeplink=%2Fproduct%2F42" (59 bytes)
                fields (3):
                  1. name "utm_source" value "google"
                     raw "utm_source=google"
                  2. name "utm_medium" value "cpc x"
                     raw "utm_medium=cpc+x"
                  3. name "deeplink" value "/product/42"
                     raw "deeplink=%2Fproduct%2F42"
                payload ("deeplink") "/product/42"
                verdict link "/product/42"
                requires appReady

                """
        )
    }

    @Test func readableBreakdownShowsPlaceholdersDoubleEncodingAndLimits() {
        let run = CapturedRun([
            "inspect", "--max-input-bytes", "40", "utm_source=google-play&utm_medium=organic",
            "deeplink%3D%252Fa", "1234567", "utm_source=(not%20set)&utm_medium=(not%20set)",
        ])
        #expect(run.status == 0)
        #expect(
            run.out == """
                referrer "utm_source=google-play&utm_medium=organic" (41 bytes)
                verdict error (inputTooLong (41 bytes, limit 40))

                referrer "deeplink%3D%252Fa" (17 bytes)
                fields (1):
                  1. name "deeplink=%2Fa" value ""
                     raw "deeplink%3D%252Fa"
                double-encoded: decoded once to "deeplink=%2Fa" and parsed again
                fields after decoding (1):
                  1. name "deeplink" value "/a"
                     raw "deeplink=%2Fa"
                payload ("deeplink") "/a"
                verdict link "/a"
                requires appReady

                referrer "1234567" (7 bytes)
                fields (1):
                  1. name "1234567" value ""
                     raw "1234567"
                payload ("deeplink") none
                verdict noPayload (no payload field)

                referrer "utm_source=(not%20set)&utm_medium=(not%20set)" (45 bytes)
                verdict error (inputTooLong (45 bytes, limit 40))

                """
        )
        let organic = CapturedRun(["inspect", "--payload-key", "link", "utm_source=google-play&utm_medium=organic"])
        #expect(organic.out.hasSuffix("payload (\"link\") none\nverdict organic (Play placeholder: organic install)\n"))
    }

    @Test func jsonLinesAnswerEveryLineIncludingOverLimitAndInvalidUTF8() {
        let longLine = [UInt8](repeating: UInt8(ascii: "a"), count: 5000)
        let lines: [[UInt8]] = [
            Array("utm_source=google&deeplink=%2Fproduct%2F42".utf8),
            longLine,
            Array("utm_source=google-play&utm_medium=organic".utf8),
            Array("utm_source=(not%20set)&utm_medium=(not%20set)".utf8),
            Array("1234567".utf8),
            [0xFF, UInt8(ascii: "="), 0xC3, UInt8(ascii: "&"), UInt8(ascii: "q"), UInt8(ascii: "="), 0x01, 0x22, 0x5C],
            Array("a=%FF%C3%A9%0A%09&deeplink=".utf8),
            Array("utm_source%3Dx%26deeplink%3D%252Fcart%253Fid%253D1".utf8),
            [],
            // Sent as `&&=&x\ry\r\n`: the last CR is part of the line end (CRLF), the other is data.
            Array("&&=&x\ry\r".utf8),
        ]
        let run = CapturedRun(["inspect", "--jsonl"], stdin: lines)
        #expect(run.status == 0)
        #expect(run.err.isEmpty)
        let expected = [
            #"{"fields":[["utm_source","google"],["deeplink","/product/42"]],"payload":"/product/42","link":"/product/42","verdict":"link","reason":null,"requires":["appReady"]}"#,
            #"{"fields":[],"payload":null,"link":null,"verdict":"error","reason":"inputTooLong","requires":null}"#,
            #"{"fields":[["utm_source","google-play"],["utm_medium","organic"]],"payload":null,"link":null,"verdict":"organic","reason":null,"requires":null}"#,
            #"{"fields":[["utm_source","(not set)"],["utm_medium","(not set)"]],"payload":null,"link":null,"verdict":"notSet","reason":null,"requires":null}"#,
            #"{"fields":[["1234567",""]],"payload":null,"link":null,"verdict":"noPayload","reason":null,"requires":null}"#,
            #"{"fields":[["\#u{FFFD}","\#u{FFFD}"],["q","\u0001\"\\"]],"payload":null,"link":null,"verdict":"noPayload","reason":null,"requires":null}"#,
            #"{"fields":[["a","\#u{FFFD}é\n\t"],["deeplink",""]],"payload":"","link":null,"verdict":"rejected","reason":"empty","requires":null}"#,
            #"{"fields":[["utm_source=x&deeplink=%2Fcart%3Fid%3D1",""]],"payload":"/cart?id=1","link":"/cart?id=1","verdict":"link","reason":null,"requires":["appReady"]}"#,
            #"{"fields":[],"payload":null,"link":null,"verdict":"noPayload","reason":null,"requires":null}"#,
            #"{"fields":[["",""],["x\ry",""]],"payload":null,"link":null,"verdict":"noPayload","reason":null,"requires":null}"#,
        ]
        #expect(run.outLines.count == expected.count)
        for (actual, wanted) in zip(run.outLines, expected) { #expect(actual == wanted) }
    }

    @Test func jsonLinesReportTooManyFieldsAndKeepGoing() {
        let run = CapturedRun(
            ["inspect", "--jsonl", "--max-fields", "2"],
            stdin: [Array("a&b&c".utf8), Array("deeplink=%2Fok".utf8)]
        )
        #expect(
            run.outLines == [
                #"{"fields":[],"payload":null,"link":null,"verdict":"error","reason":"tooManyFields","requires":null}"#,
                #"{"fields":[["deeplink","/ok"]],"payload":"/ok","link":"/ok","verdict":"link","reason":null,"requires":["appReady"]}"#,
            ]
        )
    }

    @Test func jsonLinesNameRejectionsAndApplyValidatorOptions() {
        let lines: [[UInt8]] = [
            Array("deeplink=%2F..%2Fadmin".utf8),
            Array("deeplink=%2Fa%FF".utf8),
            Array("deeplink=https%3A%2F%2Fshop.example%2Fp%2F1".utf8),
            Array("deeplink=%2Fsettings".utf8),
        ]
        let defaults = CapturedRun(["inspect", "--jsonl"], stdin: lines)
        #expect(
            defaults.outLines == [
                #"{"fields":[["deeplink","/../admin"]],"payload":"/../admin","link":null,"verdict":"rejected","reason":"dotSegment","requires":null}"#,
                #"{"fields":[["deeplink","/a\#u{FFFD}"]],"payload":"/a\#u{FFFD}","link":null,"verdict":"rejected","reason":"invalidUTF8","requires":null}"#,
                #"{"fields":[["deeplink","https://shop.example/p/1"]],"payload":"https://shop.example/p/1","link":null,"verdict":"rejected","reason":"foreignHost","requires":null}"#,
                #"{"fields":[["deeplink","/settings"]],"payload":"/settings","link":"/settings","verdict":"link","reason":null,"requires":["appReady"]}"#,
            ]
        )
        let configured = CapturedRun(
            ["inspect", "--jsonl", "--allowed-hosts", "shop.example", "--routes", "/p/,/orders/"],
            stdin: Array(lines[2...])
        )
        #expect(
            configured.outLines == [
                #"{"fields":[["deeplink","https://shop.example/p/1"]],"payload":"https://shop.example/p/1","link":"/p/1","verdict":"link","reason":null,"requires":["appReady"]}"#,
                #"{"fields":[["deeplink","/settings"]],"payload":"/settings","link":null,"verdict":"rejected","reason":"unknownRoute","requires":null}"#,
            ]
        )
        let readable = CapturedRun(["inspect", "deeplink=%2F..%2Fadmin"])
        #expect(
            readable.out.hasSuffix(
                "payload (\"deeplink\") \"/../admin\"\nverdict rejected (\(LinkRejection.dotSegment))\n"
            )
        )
        #expect(readable.out.contains("verdict rejected (dotSegment: a . or .. path segment"))
    }

    /// The issue's four gate bypasses through the real command: each is refused or needs `loggedIn`
    /// under the example app's policy; an open link needs only `appReady`.
    @Test func jsonLinesShowWhatEachLinkRequires() throws {
        let referrers = [
            "deeplink=%2F%256Frders%2F42", "deeplink=%2Forders%3Fid%3D42", "deeplink=%2Forders",
            "deeplink=%2Forders%252F42", "deeplink=%2FOrders%2F42", "deeplink=%2Fproduct%2F42",
            "deeplink=%2Fproduct%2F1&deeplink=%2Forders%2F42", "deeplink=%2Forders%E2%80%AE", "deeplink=%2Forders%25",
        ]
        let run = CapturedRun(["inspect", "--jsonl"], stdin: referrers.map { Array($0.utf8) })
        #expect(run.status == 0 && run.err.isEmpty)
        let verdicts = try run.outLines.map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (object["link"] as? String, object["reason"] as? String, object["requires"] as? [String])
        }
        try #require(verdicts.count == referrers.count)
        let login = ["appReady", "loggedIn"]
        #expect(verdicts[0].0 == "/orders/42" && verdicts[0].2 == login, "an encoded letter is decoded, then gated")
        #expect(verdicts[1].0 == "/orders?id=42" && verdicts[1].2 == login)
        #expect(verdicts[2].0 == "/orders" && verdicts[2].2 == login)
        #expect(verdicts[3].0 == nil && verdicts[3].1 == "encodedDelimiter")
        #expect(verdicts[4].0 == "/Orders/42" && verdicts[4].2 == login, "case is kept, the gate folds it")
        #expect(verdicts[5].0 == "/product/42" && verdicts[5].2 == ["appReady"])
        #expect(verdicts[6].0 == nil && verdicts[6].1 == "duplicatePayloadKey")
        #expect(verdicts[7].0 == nil && verdicts[7].1 == "invisibleCharacter")
        #expect(verdicts[8].0 == nil && verdicts[8].1 == "malformedPercentEscape")
        for (index, verdict) in verdicts.enumerated() where verdict.0 == nil {
            #expect(run.outLines[index].hasSuffix(#""requires":null}"#))
        }
        let custom = CapturedRun(
            ["inspect", "--jsonl", "--login-prefixes", "/product/"],
            stdin: [Array("deeplink=%2FPRODUCT".utf8)]
        )
        #expect(custom.out.contains(#""requires":["appReady","loggedIn"]"#))
        let readable = CapturedRun(["inspect", "deeplink=%2F%256Frders%2F42"])
        #expect(readable.out.hasSuffix("verdict link \"/orders/42\"\nrequires appReady, loggedIn\n"))
    }

    @Test func helpAndUsageErrors() {
        let help = CapturedRun(["inspect", "--help"])
        #expect(help.status == 0)
        #expect(help.out.hasPrefix("OVERVIEW: Parse and validate Install Referrer strings"))
        #expect(help.out.contains("--jsonl"))
        #expect(CapturedRun(["--help"]).out.contains("inspect"))

        for arguments in [
            ["inspect", "--bogus", "a=1"], ["inspect"], ["inspect", "--jsonl", "a=1"],
            ["inspect", "--max-fields", "x", "a"], ["inspect", "--max-input-bytes", "9000", "a"],
            ["inspect", "--jsonl=1"], ["inspect", "--routes", "product", "a"],
            ["inspect", "--login-prefixes", "/a%2Fb", "a"], ["inspect", "--login-prefixes", "/a,/a/", "a"],
        ] {
            let run = CapturedRun(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.out.isEmpty, "\(arguments)")
            #expect(run.err.hasPrefix("error: inspect: "), "\(arguments)")
            #expect(run.err.filter { $0 == "\n" }.count == 1, "\(arguments): \(run.err)")
        }
        #expect(CapturedRun(["inspect", "--bogus"]).err == "error: inspect: unknown option '--bogus' (see --help)\n")
    }

    @Test func jsonStringEscaping() {
        #expect(JSONString.quoted("plain") == #""plain""#)
        #expect(JSONString.quoted("q\"b\\s/") == #""q\"b\\s/""#)
        #expect(JSONString.quoted("\n\r\t\u{08}\u{0C}\u{00}\u{1F}\u{7F}") == #""\n\r\t\b\f\u0000\u001f"# + "\u{7F}\"")
        #expect(JSONString.quoted("é😀\u{FFFD}\u{2028}") == "\"é😀\u{FFFD}\u{2028}\"")
        #expect(JSONString.quotedOrNull(nil) == "null")
    }
}
