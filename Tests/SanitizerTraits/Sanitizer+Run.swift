public import AllocationCounting

#if canImport(Glibc)
import Glibc
#endif

/// Test-only, so here and not beside `isActive` in AllocationCounting: code added to the release
/// binary, even unused, moves the journey's hot code, and `gate --instructions` counts its I1 misses.
extension Sanitizer {
    /// The ThreadSanitizer run (`DEEPLINK_SANITIZER=thread`, set by `.ci/run`).
    public static var isThread: Bool { declared == "thread" }

    private static var declared: String? {
        getenv("DEEPLINK_SANITIZER").map { String(cString: $0) }
    }
}
