import CRaceFiber
import DeepLinkCore

#if canImport(Glibc)
import Glibc
#endif

/// The harness's ``ScheduleController``, installed once per process: it finds the calling
/// thread's ``ControlledRace`` in a C thread-local (`deeplink_race_current`) and forwards the
/// core's schedule points to it; threads outside a race pass straight through.
///
/// Thread safety: stateless apart from the thread-local, which each thread sets for itself.
final class ControlledScheduling: ScheduleController {
    /// The one instance, installed on first use.
    static let shared: ControlledScheduling = {
        let scheduling = ControlledScheduling()
        ScheduleHook.install(scheduling)
        return scheduling
    }()

    private init() {}

    /// Makes the calling thread logical thread `thread` of `race` (`nil`: no race), until the
    /// next call. The race must outlive the setting.
    func enter(_ race: ControlledRace?, as thread: Int) {
        guard let race else {
            deeplink_race_current_set(nil)
            return
        }
        let raw = UnsafeMutableRawPointer(Unmanaged.passUnretained(race).toOpaque())
        // The low bits of an object address are zero: the logical thread rides in them.
        deeplink_race_current_set(raw + thread)
    }

    /// The calling thread's race and its logical thread; `nil` outside a race. Unretained (the race
    /// outlives its setting), and reached through `_withUnsafeGuaranteedRef`, so that no schedule
    /// point pays a retain and a release of it.
    @inline(__always)
    private func current() -> (race: Unmanaged<ControlledRace>, thread: Int)? {
        guard let raw = deeplink_race_current_get() else { return nil }
        let thread = Int(bitPattern: UInt(bitPattern: raw) & 7)
        return (Unmanaged<ControlledRace>.fromOpaque(raw - thread), thread)
    }

    func reach(_ point: SchedulePoint) {
        guard let (race, thread) = current() else { return }
        race._withUnsafeGuaranteedRef { $0.reach(point, thread: thread) }
    }

    func lock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        guard let (race, thread) = current() else {
            pthread_mutex_lock(mutex)
            return
        }
        race._withUnsafeGuaranteedRef { $0.lock(mutex, thread: thread) }
    }

    func unlock(_ mutex: UnsafeMutablePointer<pthread_mutex_t>) {
        guard let (race, thread) = current() else {
            pthread_mutex_unlock(mutex)
            return
        }
        race._withUnsafeGuaranteedRef { $0.unlock(mutex, thread: thread) }
    }

    func plants(_ fault: ConcurrencyFault) -> Bool {
        guard let (race, _) = current() else { return false }
        return race._withUnsafeGuaranteedRef { $0.plants(fault) }
    }
}
