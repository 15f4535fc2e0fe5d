#if canImport(Glibc)
import Glibc
#endif

/// A failed `read(2)` or `write(2)` on a standard stream (EINTR is retried, never reported): its
/// `errno`, shown as `strerror` and the number, e.g. `Is a directory (errno 21)`.
///
/// Thread safety: an immutable value.
package struct StreamError: Error, Equatable, Sendable, CustomStringConvertible {
    package var errno: Int32

    package init(errno: Int32) { self.errno = errno }

    package var description: String { String(cString: strerror(errno)) + " (errno \(errno))" }
}
