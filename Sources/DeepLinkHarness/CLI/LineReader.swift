#if canImport(Glibc)
import Glibc
#endif

/// Reads lines of arbitrary bytes from a byte source (standard input, or bytes in tests), in
/// linear time and bounded memory: a line ends at LF or CRLF (the CR is part of the line end; a
/// CR anywhere else is part of the line); the last line may have no terminator. A line longer
/// than the caller's limit is not buffered: the reader keeps its first bytes only, skips to the
/// next line end and reports the line as ``Line/tooLong(length:)``.
///
/// Thread safety: not thread-safe; one reader belongs to one thread.
package final class LineReader {
    /// One line read.
    package enum Line: Equatable, Sendable {
        /// The line's bytes, without its line end.
        case complete([UInt8])
        /// A line longer than the limit, and its length in bytes (without its line end).
        case tooLong(length: Int)
    }

    /// Fills the buffer: the number of bytes read, 0 at end of input, or `-errno`.
    private let source: (UnsafeMutableRawBufferPointer) -> Int
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    private var atEnd = false

    /// A reader of `source`, which fills the buffer it is given and returns the number of bytes
    /// read, 0 at end of input, or `-errno`.
    package init(source: @escaping (UnsafeMutableRawBufferPointer) -> Int) {
        self.source = source
    }

    /// A reader of `bytes` (for tests and embedders).
    package convenience init(bytes: [UInt8]) {
        var offset = 0
        self.init { buffer in
            let count = min(buffer.count, bytes.count - offset)
            guard count > 0 else { return 0 }
            bytes.withUnsafeBytes {
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + count]))
            }
            offset += count
            return count
        }
    }

    /// A reader of file descriptor `fileDescriptor`; `beforeRead` runs before every `read(2)`
    /// (the CLI flushes standard output there, so answers go out before the process waits for
    /// more input).
    package convenience init(fileDescriptor: Int32, beforeRead: @escaping () -> Void = {}) {
        self.init { buffer in
            beforeRead()
            while true {
                let count = read(fileDescriptor, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                if errno != EINTR { return -Int(errno) }
            }
        }
    }

    /// The next line, or `nil` at end of input. A line of more than `maxBytes` bytes (without its
    /// line end) is ``Line/tooLong(length:)``; at most `maxBytes + 1` of its bytes are held.
    ///
    /// - Complexity: O(length of the line): every input byte is looked at once.
    package func nextLine(maxBytes: Int) throws(StreamError) -> Line? {
        let limit = max(0, maxBytes)
        var line: [UInt8] = []
        var length = 0
        var lastByte: UInt8?
        var readAny = false
        func take(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            // One byte past the limit is kept: it may be the CR of a CRLF.
            let room = limit + 1 - line.count
            if room > 0 {
                line.append(contentsOf: buffer[range.lowerBound..<min(range.upperBound, range.lowerBound + room)])
            }
            length += range.count
            lastByte = buffer[range.upperBound - 1]
        }
        while true {
            if start == end {
                guard !atEnd else { return readAny ? Self.line(line, length: length, limit: limit) : nil }
                let count = buffer.withUnsafeMutableBytes { source($0) }
                if count < 0 { throw StreamError(errno: Int32(clamping: -count)) }
                if count == 0 { atEnd = true }
                start = 0
                end = min(count, buffer.count)
                continue
            }
            readAny = true
            let newline = buffer[start..<end].firstIndex(of: UInt8(ascii: "\n"))
            take(start..<(newline ?? end))
            guard let newline else {
                start = end
                continue
            }
            start = newline + 1
            if lastByte == UInt8(ascii: "\r") {
                length -= 1
                if line.count > length { line.removeLast() }
            }
            return Self.line(line, length: length, limit: limit)
        }
    }

    private static func line(_ bytes: [UInt8], length: Int, limit: Int) -> Line {
        length > limit ? .tooLong(length: length) : .complete(bytes)
    }
}
