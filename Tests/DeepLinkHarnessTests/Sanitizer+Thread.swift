import DeepLinkHarness
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension Sanitizer {
    /// Whether this is the ThreadSanitizer run (`DEEPLINK_SANITIZER=thread`, set by `.ci/run`).
    static var isThread: Bool {
        guard let value = getenv("DEEPLINK_SANITIZER") else { return false }
        return String(cString: value) == "thread"
    }
}

extension Trait where Self == ConditionTrait {
    /// For a suite whose tests start no thread (no run, no race: report pages, gate tables, merges of
    /// fixtures): the ThreadSanitizer run skips it, having no race to find there at 5-15x the time;
    /// the plain run and the AddressSanitizer run keep it.
    static var startsNoThread: Self {
        .disabled(if: Sanitizer.isThread, "starts no thread: nothing for ThreadSanitizer to check")
    }
}
