#if canImport(Glibc)
import Glibc
#endif

/// Buffered writes to a file descriptor that remember the first failure: after a failed
/// `write(2)` (a full disk, `/dev/full`, an I/O error) the rest is dropped and ``failure`` says
/// why, so the command can report it instead of exiting 0 with its output lost.
///
/// Thread safety: not thread-safe; one writer belongs to one thread.
final class FileDescriptorWriter {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    /// The first write error, or nil.
    private(set) var failure: StreamError?

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) {
        guard failure == nil else { return }
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= 1 << 16 { flush() }
    }

    func write(bytes: [UInt8]) {
        guard failure == nil else { return }
        buffer.append(contentsOf: bytes)
        if buffer.count >= 1 << 16 { flush() }
    }

    func flush() {
        guard !buffer.isEmpty else { return }
        if failure == nil {
            failure = buffer.withUnsafeBytes { Self.writeAll($0, to: fileDescriptor) }
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes `text` whole; returns the error that stopped it, if any.
    @discardableResult
    static func writeAll(_ text: String, to fileDescriptor: Int32) -> StreamError? {
        var text = text
        return text.withUTF8 { writeAll(UnsafeRawBufferPointer($0), to: fileDescriptor) }
    }

    /// Writes `bytes` whole (retrying after EINTR and partial writes, waiting out EAGAIN on a
    /// non-blocking descriptor); returns the error that stopped it, if any.
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to fileDescriptor: Int32) -> StreamError? {
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                let error = errno
                if error == EINTR { continue }
                if error == EAGAIN {
                    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, -1)
                    continue
                }
                return StreamError(errno: error)
            }
            offset += written
        }
        return nil
    }
}
