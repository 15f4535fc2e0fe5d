import Foundation
import Synchronization

/// Threads that burn CPU beside a test's work: a machine under load, made on purpose.
enum CPUBurners {
    /// Burns `count` cores until `body` returns (at most `limitSeconds`, so a hung body cannot
    /// leave them spinning).
    static func beside<T>(count: Int, limitSeconds: Double = 120, _ body: () -> T) -> T {
        let stop = Atomic<Bool>(false)
        let done = Atomic<Int>(0)
        let deadline = Date().addingTimeInterval(limitSeconds)
        for _ in 0..<count {
            let thread = Thread {
                var value: UInt64 = 1
                while !stop.load(ordering: .relaxed), Date() < deadline {
                    for _ in 0..<100_000 { value = value &* 6_364_136_223_846_793_005 &+ 1 }
                }
                if value == 0 { print("") }
                done.add(1, ordering: .releasing)
            }
            thread.start()
        }
        defer {
            stop.store(true, ordering: .relaxed)
            while done.load(ordering: .acquiring) < count { usleep(1_000) }
        }
        return body()
    }
}
