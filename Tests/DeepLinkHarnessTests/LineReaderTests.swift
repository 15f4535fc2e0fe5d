import DeepLinkHarness
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite struct LineReaderTests {
    /// Every line of `bytes` read with limit `maxBytes`, the source handing out `chunk` bytes per
    /// read (1 puts every line end across a read boundary).
    static func lines(_ bytes: [UInt8], maxBytes: Int, chunk: Int = 1 << 16) throws -> [LineReader.Line] {
        var offset = 0
        let reader = LineReader { buffer in
            let count = min(chunk, buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            for index in 0..<count { buffer[index] = bytes[offset + index] }
            offset += count
            return count
        }
        var result: [LineReader.Line] = []
        while let line = try reader.nextLine(maxBytes: maxBytes) { result.append(line) }
        return result
    }

    static func complete(_ text: String) -> LineReader.Line { .complete(Array(text.utf8)) }

    @Test func crlfAndLfEndLinesAndABareCrIsData() throws {
        let input = Array("a=1\r\nb=2\nc\rd\r\n\r\n\nlast\r".utf8)
        for chunk in [1, 2, 3, 1 << 16] {
            #expect(
                try Self.lines(input, maxBytes: 100, chunk: chunk) == [
                    Self.complete("a=1"), Self.complete("b=2"), Self.complete("c\rd"), Self.complete(""),
                    Self.complete(""),
                    // At end of input without LF the CR is not a line end.
                    Self.complete("last\r"),
                ],
                "chunk \(chunk)"
            )
        }
        #expect(try Self.lines([], maxBytes: 10).isEmpty)
        #expect(try Self.lines(Array("x".utf8), maxBytes: 10) == [Self.complete("x")])
    }

    @Test func theLimitCountsTheLineWithoutItsLineEnd() throws {
        for chunk in [1, 3, 1 << 16] {
            let input = Array("abcd\nabcd\r\nabcde\nabcde\r\nabcdefghij\r\nok\n".utf8)
            #expect(
                try Self.lines(input, maxBytes: 4, chunk: chunk) == [
                    Self.complete("abcd"), Self.complete("abcd"), .tooLong(length: 5), .tooLong(length: 5),
                    .tooLong(length: 10), Self.complete("ok"),
                ],
                "chunk \(chunk)"
            )
        }
        #expect(
            try Self.lines(Array("\n\r\nx\n".utf8), maxBytes: 0) == [.complete([]), .complete([]), .tooLong(length: 1)]
        )
    }

    /// A 20 MB line without a newline: its length is counted, it is not held, and the reader
    /// stays usable (the next call says end of input).
    @Test func aHugeLineIsCountedNotHeld() throws {
        let size = 20 << 20
        var produced = 0
        let reader = LineReader { buffer in
            let count = min(buffer.count, size - produced)
            for index in 0..<count { buffer[index] = UInt8(ascii: "a") }
            produced += count
            return count
        }
        #expect(try reader.nextLine(maxBytes: 4_096) == .tooLong(length: size))
        #expect(try reader.nextLine(maxBytes: 4_096) == nil)
    }

    @Test func aReadErrorIsNamed() throws {
        let descriptor = open(NSTemporaryDirectory(), O_RDONLY | O_DIRECTORY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let reader = LineReader(fileDescriptor: descriptor)
        #expect(throws: StreamError(errno: EISDIR)) { try reader.nextLine(maxBytes: 10) }
        #expect(StreamError(errno: EISDIR).description == "Is a directory (errno \(EISDIR))")
    }

    @Test func inspectAnswersCRLFInputAndOverLongLinesInOrder() {
        var input = Array("deeplink=%2Fa\r\n".utf8)
        input += [UInt8](repeating: UInt8(ascii: "x"), count: 100_000)
        input += Array("\r\nutm_source=google-play&utm_medium=organic\r\n".utf8)
        let run = CapturedRun(["inspect", "--jsonl", "--max-input-bytes", "64"], stdinBytes: input)
        #expect(run.status == 0)
        #expect(run.err.isEmpty)
        #expect(
            run.outLines == [
                #"{"fields":[["deeplink","/a"]],"payload":"/a","link":"/a","verdict":"link","reason":null,"requires":["appReady"]}"#,
                #"{"fields":[],"payload":null,"link":null,"verdict":"error","reason":"inputTooLong","requires":null}"#,
                #"{"fields":[["utm_source","google-play"],["utm_medium","organic"]],"payload":null,"link":null,"verdict":"organic","reason":null,"requires":null}"#,
            ]
        )
    }
}
