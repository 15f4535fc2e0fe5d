#if canImport(Glibc)
import Glibc
#endif

/// Whether this process runs under a sanitizer, as declared by `DEEPLINK_SANITIZER` (set by
/// `.ci/run` for `swift test --sanitize=…` runs). Allocation-count assertions need jemalloc as the
/// allocator and the sanitizers replace it, so those assertions are skipped only when this is set.
public enum Sanitizer {
    public static var isActive: Bool {
        guard let value = getenv("DEEPLINK_SANITIZER") else { return false }
        return value.pointee != 0
    }
}
