import AllocationCounting
public import Testing

/// The traits by which a suite leaves a sanitizer run that has nothing to find in it. One place for
/// the rule of which run keeps what: the plain `make test` run keeps every suite.
extension Trait where Self == ConditionTrait {
    /// For a suite whose tests start no thread (no run, no race: report pages, property sweeps of the
    /// parser and the validator, documentation checks): the ThreadSanitizer run skips it, having no
    /// race to find there at 5-15x the time; the plain run and the AddressSanitizer run keep it.
    public static var startsNoThread: Self {
        .disabled(if: Sanitizer.isThread, "starts no thread: nothing for ThreadSanitizer to check")
    }

    /// For a suite whose subject is a verdict over report files (the gate, merges, the report
    /// command): safe Swift that starts no thread, so neither sanitizer has anything of its own to
    /// find there, and the runs it starts for its fixtures take the paths that the run suites
    /// already take under both sanitizers. Only the plain run keeps it.
    public static var judgesReportFiles: Self {
        .disabled(
            if: Sanitizer.isActive,
            "judges report files in safe Swift: nothing for a sanitizer that the run suites miss"
        )
    }
}
