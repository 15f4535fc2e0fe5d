#if canImport(Glibc)
import Glibc
#endif

/// The fatal-signal handler of a supervised run: writes `strategy journey` of the trapping
/// thread's beacon to the supervisor's trap file, then dies of the same signal.
///
/// Thread safety: ``install(trapFile:)`` runs once, before the workers start; the handler only
/// reads what it set up.
enum TrapHandler {
    nonisolated(unsafe) static var installed = false
    nonisolated(unsafe) static var beaconKey = pthread_key_t()
    /// The trap file's path, NUL-terminated, allocated once (the handler must not allocate).
    nonisolated(unsafe) static var trapFile: UnsafeMutablePointer<CChar>?

    static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// Installs the handler for the fatal signals (once per process).
    static func install(trapFile path: String) {
        guard !installed else { return }
        trapFile = strdup(path)
        pthread_key_create(&beaconKey, nil)
        installed = true
        for signal in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = TrapHandler.handle
            // SA_RESETHAND is 0x80000000: the sign bit of the C int.
            action.sa_flags = Int32(truncatingIfNeeded: SA_RESETHAND)
            sigaction(signal, &action, nil)
        }
    }

    /// The calling thread's beacon (to hand to a helper thread), or nil.
    static func currentBeacon() -> UnsafeMutableRawPointer? {
        installed ? pthread_getspecific(beaconKey) : nil
    }

    /// Makes `beacon` (from ``currentBeacon()``) the calling thread's too.
    static func adopt(_ beacon: UnsafeMutableRawPointer?) {
        guard installed, let beacon else { return }
        pthread_setspecific(beaconKey, beacon)
    }

    static let handle: @convention(c) (Int32) -> Void = { signal in
        if let raw = pthread_getspecific(TrapHandler.beaconKey), let path = TrapHandler.trapFile {
            let beacon = Unmanaged<WorkerBeacon>.fromOpaque(raw).takeUnretainedValue()
            var digits: (UInt64, UInt64) = (
                UInt64(beacon.strategy.load(ordering: .relaxed)), beacon.journey.load(ordering: .relaxed)
            )
            // "strategy journey\n", formatted on the stack (no allocation in a signal handler).
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
                var length = 0
                func put(_ value: inout UInt64) {
                    var reversed: (UInt64, Int) = (0, 0)
                    repeat {
                        reversed.0 = reversed.0 &* 10 &+ value % 10
                        reversed.1 += 1
                        value /= 10
                    } while value > 0
                    for _ in 0..<reversed.1 {
                        buffer[length] = UInt8(ascii: "0") + UInt8(reversed.0 % 10)
                        reversed.0 /= 10
                        length += 1
                    }
                }
                put(&digits.0)
                buffer[length] = UInt8(ascii: " ")
                length += 1
                put(&digits.1)
                buffer[length] = UInt8(ascii: "\n")
                length += 1
                let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
                if descriptor >= 0 {
                    _ = write(descriptor, buffer.baseAddress, length)
                    close(descriptor)
                }
            }
        }
        // SA_RESETHAND restored the default action: die of the same signal.
        raise(signal)
    }
}
