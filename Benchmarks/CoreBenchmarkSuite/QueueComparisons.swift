import DeepLinkCore
import Foundation
import Synchronization

/// What the queue benchmarks need of a bounded ring: the lock-free queue and its locked peers.
///
/// Each ring enqueues and dequeues with its own cheapest API for what the loops do (stamp the
/// operation's id into the caller's record, enqueue a copy of it, take the oldest record and read
/// its id): the locked rings copy the record in and return it (the optimiser then reads only the
/// id out of the slot); the queue copies the record's bytes in use straight from the caller's
/// variable into its slot and lends the consumer the slot.
protocol BenchmarkRing: AnyObject, Sendable {
    /// Sets `link.id` to `id` and enqueues a copy of `link`; `false` when the ring is full.
    func push(_ link: inout PendingLink, id: UInt64) -> Bool
    /// Removes the oldest record and returns its id, or `nil` when the ring is empty.
    func popID() -> UInt64?
}

extension PendingLinkQueue: BenchmarkRing {
    func push(_ link: inout PendingLink, id: UInt64) -> Bool {
        link.id = id
        return tryEnqueue(copyingFrom: &link) == .enqueued
    }
    func popID() -> UInt64? { tryDequeueSingleConsumer { $0.id } }
}

extension MutexRing: BenchmarkRing {
    func push(_ link: inout PendingLink, id: UInt64) -> Bool {
        link.id = id
        return tryEnqueue(link)
    }
    func popID() -> UInt64? { tryDequeue()?.id }
}

extension PthreadRing: BenchmarkRing {
    func push(_ link: inout PendingLink, id: UInt64) -> Bool {
        link.id = id
        return tryEnqueue(link)
    }
    func popID() -> UInt64? { tryDequeue()?.id }
}

enum QueueComparisons {
    static let capacity = 1024

    static var template: PendingLink {
        PendingLink(
            link: DeepLink(validated: "/product/42?ref=share")!,
            source: .installReferrer,
            capturedAtNanos: 1,
            id: 0
        )
    }

    static func all() -> [Comparison] {
        let template = Self.template
        let queue = PendingLinkQueue(capacity: capacity)
        let mutexRing = MutexRing(capacity: capacity, filler: template)
        let pthreadRing = PthreadRing(capacity: capacity, filler: template)
        return [
            Comparison(
                benchmark: "queue-1thread",
                subject: BenchmarkSide("PendingLinkQueue") { singleThread(queue, template: template, operations: $0) },
                peer: BenchmarkSide("Mutex ring") { singleThread(mutexRing, template: template, operations: $0) }
            ),
            Comparison(
                benchmark: "queue-1thread-pthread",
                subject: BenchmarkSide("PendingLinkQueue") { singleThread(queue, template: template, operations: $0) },
                peer: BenchmarkSide("pthread_mutex ring") {
                    singleThread(pthreadRing, template: template, operations: $0)
                }
            ),
            Comparison(
                benchmark: "queue-2threads",
                subject: BenchmarkSide("PendingLinkQueue") { twoThreads(queue, template: template, operations: $0) },
                peer: BenchmarkSide("Mutex ring") { twoThreads(mutexRing, template: template, operations: $0) },
                threads: 2
            ),
            Comparison(
                benchmark: "queue-2threads-pthread",
                subject: BenchmarkSide("PendingLinkQueue") { twoThreads(queue, template: template, operations: $0) },
                peer: BenchmarkSide("pthread_mutex ring") {
                    twoThreads(pthreadRing, template: template, operations: $0)
                },
                threads: 2
            ),
        ]
    }

    /// One enqueue and one dequeue per operation on the calling thread.
    static func singleThread<Ring: BenchmarkRing>(_ ring: Ring, template: PendingLink, operations: Int) -> UInt64 {
        var checksum: UInt64 = 0
        var link = template
        let bytes = measuringAllocations(operations) { index in
            _ = ring.push(&link, id: UInt64(truncatingIfNeeded: index))
            checksum &+= ring.popID() ?? 0
        }
        blackHole(checksum)
        return bytes
    }

    /// A producer thread enqueues `operations` records while the calling thread dequeues them;
    /// the cost per record includes the cross-core hand-over. Both threads wait for each other
    /// through ``RingWait``, the same policy for every ring.
    ///
    /// The producer's byte count lives in an object this thread owns and frees: the producer holds
    /// it unretained. (Captured directly, it sat in the closure's context, which the producer
    /// thread frees after `signal()`; ThreadSanitizer, which cannot see Swift's reference counts,
    /// reported that free against this thread's read.)
    static func twoThreads<Ring: BenchmarkRing>(_ ring: Ring, template: PendingLink, operations: Int) -> UInt64 {
        // Both threads reach the ring unretained: held strongly, each operation retained and
        // released it, and the two threads' writes to its reference count bounced the object's
        // first cache line between the cores on every operation. `ring` outlives both loops.
        let shared = Unmanaged.passUnretained(ring)
        let producerBytes = ProducerBytes()
        let unretained = Unmanaged.passUnretained(producerBytes)
        let done = DispatchSemaphore(value: 0)
        let notEmpty = RingWait()
        let notFull = RingWait()
        let cpus = CPUPinning.twoCPUs()
        let previous = CPUPinning.pin(toCPU: cpus?.consumer)
        defer { CPUPinning.restore(previous) }
        let producer = Thread {
            _ = CPUPinning.pin(toCPU: cpus?.producer)
            var link = template
            let bytes = measuringAllocations(operations) { index in
                notFull.retry {
                    shared._withUnsafeGuaranteedRef { $0.push(&link, id: UInt64(truncatingIfNeeded: index)) }
                }
                notEmpty.wake()
            }
            unretained.takeUnretainedValue().value.store(bytes, ordering: .releasing)
            done.signal()
        }
        producer.start()
        var checksum: UInt64 = 0
        let consumerBytes = measuringAllocations(operations) { _ in
            notEmpty.retry {
                guard let id = shared._withUnsafeGuaranteedRef({ $0.popID() }) else { return false }
                checksum &+= id
                return true
            }
            notFull.wake()
        }
        done.wait()
        blackHole(checksum)
        return withExtendedLifetime(producerBytes) { consumerBytes &+ producerBytes.value.load(ordering: .acquiring) }
    }
}

/// The producer thread's allocation count in ``QueueComparisons/twoThreads(_:template:operations:)``.
///
/// Thread safety: an atomic; written by the producer, read by the consumer after it finished.
final class ProducerBytes: Sendable {
    let value = Atomic<UInt64>(0)
}
