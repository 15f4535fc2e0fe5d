import CThreadAffinity

/// Pins the two threads of a two-thread benchmark to two different CPUs, so that the producer and
/// the consumer never share one: where they did, each waited a time slice for the other, and the
/// comparison measured the scheduler.
///
/// Thread safety: each call changes only the calling thread's affinity.
enum CPUPinning {
    /// The first two CPUs the calling thread may run on (the producer's and the consumer's), or
    /// `nil` with fewer.
    static func twoCPUs() -> (producer: Int32, consumer: Int32)? {
        var saved = deeplink_affinity()
        guard deeplink_affinity_save(&saved) == 0 else { return nil }
        let first = deeplink_affinity_cpu(&saved, 0)
        let second = deeplink_affinity_cpu(&saved, 1)
        guard first >= 0, second >= 0 else { return nil }
        return (first, second)
    }

    /// Pins the calling thread to `cpu` (nothing when `nil`); returns its affinity before, for
    /// ``restore(_:)``.
    static func pin(toCPU cpu: Int32?) -> deeplink_affinity? {
        guard let cpu else { return nil }
        var saved = deeplink_affinity()
        guard deeplink_affinity_save(&saved) == 0, deeplink_affinity_pin(cpu) == 0 else { return nil }
        return saved
    }

    /// Gives the calling thread back the affinity ``pin(toCPU:)`` returned.
    static func restore(_ saved: deeplink_affinity?) {
        guard var saved else { return }
        _ = deeplink_affinity_restore(&saved)
    }
}
