#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the tests run under a sanitizer, as `.ci/run` declares with `DEEPLINK_SANITIZER`: the
/// sanitizers replace jemalloc, so allocation counts are skipped only then.
///
/// Thread safety: reads the environment; call from any thread.
public enum Sanitizer {
    public static var isActive: Bool {
        guard let value = getenv("DEEPLINK_SANITIZER") else { return false }
        return value.pointee != 0
    }
}
