@_spi(Testing) import DeepLinkCore
import DeepLinkCoreTestSupport
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Many threads on one `PendingLinkQueue`: every record arrives exactly once, intact, and in each
/// producer's order as seen by each consumer. Runs under ThreadSanitizer in CI.
///
/// ThreadSanitizer note: with this toolchain TSan skips the accesses of `memcpy` (how Swift copies
/// a `PendingLink` into and out of a slot) unless `TSAN_OPTIONS=ignore_interceptors_accesses=0`
/// is set; only then does it check the payload ordering (verified: a producer publishing with a
/// relaxed store, or a consumer freeing with one, is reported). Run:
///
///     DEEPLINK_SANITIZER=thread TSAN_OPTIONS=ignore_interceptors_accesses=0 \
///         swift test --sanitize=thread --scratch-path .build/tsan --filter PendingLinkQueue
@Suite struct PendingLinkQueueStressTests {
    /// Records moved in normal runs (the issue demands at least 10 million); sanitizer runs are
    /// 5-15x slower on 2 cores, so they move fewer: the outcome of bad interleavings is this test's
    /// own check, and the plain run's 10 million drive it. ThreadSanitizer flags any two conflicting
    /// accesses without a happens-before edge, whether or not that interleaving went wrong, and
    /// AddressSanitizer checks every access to the ring; a quarter of a million serves both (every
    /// slot of every ring here is reused hundreds of times).
    static var recordCount: Int { Sanitizer.isActive ? 250_000 : 10_000_000 }

    /// A stuck or lost record fails the test at this deadline instead of hanging CI.
    static let timeLimit: Duration = .seconds(300)

    /// Which dequeue the consumers use.
    enum DequeueForm: Sendable, CustomTestStringConvertible {
        /// `tryDequeue()` / `tryDequeueSingleConsumer()`.
        case returning
        /// `tryDequeue(into:)` / `tryDequeueSingleConsumer(into:)`.
        case into
        /// `tryDequeue { }` / `tryDequeueSingleConsumer { }`, checking the record in its slot.
        case borrowing

        var testDescription: String {
            switch self {
            case .returning: "returning"
            case .into: "into"
            case .borrowing: "borrowing"
            }
        }
    }

    @Test func manyProducersManyConsumers() throws {
        // Starting just below the wrap, so the positions cross `UInt.max` mid-run.
        let report = try StressRun.run(
            producers: 2,
            consumers: 2,
            recordCount: Self.recordCount,
            capacity: 256,
            startingPosition: UInt.max - UInt(Self.recordCount / 2),
            singleConsumer: false
        )
        try report.verify()
    }

    @Test func threeProducersTwoConsumersOnATinyRing() throws {
        // Capacity 2: producers and consumers collide on the same slots all the time.
        let report = try StressRun.run(
            producers: 3,
            consumers: 2,
            recordCount: Self.recordCount / 10,
            capacity: 2,
            startingPosition: 0,
            singleConsumer: false
        )
        try report.verify()
    }

    /// The same runs through the copy-into and borrowing dequeues (the payload read happens in a
    /// different place: straight into the consumer's variable, or inside the consumer's closure
    /// before the slot is freed).
    @Test(arguments: [DequeueForm.into, .borrowing])
    func manyProducersManyConsumersWithoutReturnedCopies(form: DequeueForm) throws {
        let report = try StressRun.run(
            producers: 2,
            consumers: 2,
            recordCount: Self.recordCount / 4,
            capacity: 16,
            startingPosition: UInt.max - UInt(Self.recordCount / 8),
            singleConsumer: false,
            form: form
        )
        try report.verify()
    }

    @Test(arguments: [DequeueForm.into, .borrowing])
    func manyProducersSingleConsumerWithoutReturnedCopies(form: DequeueForm) throws {
        let report = try StressRun.run(
            producers: 3,
            consumers: 1,
            recordCount: Self.recordCount / 4,
            capacity: 16,
            startingPosition: 0,
            singleConsumer: true,
            form: form
        )
        try report.verify()
    }

    @Test func manyProducersSingleConsumer() throws {
        let report = try StressRun.run(
            producers: 3,
            consumers: 1,
            recordCount: Self.recordCount / 2,
            capacity: 64,
            startingPosition: UInt.max - UInt(Self.recordCount / 4),
            singleConsumer: true
        )
        try report.verify()
    }
}

/// One stress run: producers on dedicated threads enqueue `producer << 32 | sequence` ids;
/// consumers on dedicated threads dequeue and check each record against its id.
private struct StressRun {
    typealias DequeueForm = PendingLinkQueueStressTests.DequeueForm

    /// What one consumer saw.
    struct ConsumerReport: Sendable {
        /// Bit `producer * perProducer + sequence` is set for every record received.
        var received: [UInt64]
        var count = 0
        var failures: [String] = []
    }

    let producers: Int
    let perProducer: Int
    var consumerReports: [ConsumerReport]
    var producerFailures: [String]

    static func links(producers: Int) -> [DeepLink] {
        // Different lengths, so a record torn between two producers' writes shows.
        (0..<producers).map { DeepLink(validated: "/p/\($0)/" + String(repeating: "z", count: $0 * 37))! }
    }

    static func record(producer: Int, sequence: Int, link: DeepLink) -> PendingLink {
        let id = UInt64(producer) << 32 | UInt64(sequence)
        return PendingLink(
            link: link,
            source: LinkSource.allCases[producer % LinkSource.allCases.count],
            capturedAtNanos: id &* 0x9E37_79B9_7F4A_7C15,
            id: id,
            installBeginTimestamp: ~id
        )
    }

    static func run(
        producers: Int,
        consumers: Int,
        recordCount: Int,
        capacity: Int,
        startingPosition: UInt,
        singleConsumer: Bool,
        form: DequeueForm = .returning
    ) throws -> StressRun {
        precondition(!singleConsumer || consumers == 1)
        let perProducer = recordCount / producers
        let queue = PendingLinkQueue(capacity: capacity, startingPosition: startingPosition)
        let shared = Shared(producers: producers, consumers: consumers)
        let links = Self.links(producers: producers)
        let deadline = ContinuousClock.now + PendingLinkQueueStressTests.timeLimit

        var threads: [Thread] = []
        for producer in 0..<producers {
            threads.append(
                Thread {
                    var failure: String?
                    var sequence = 0
                    let link = links[producer]
                    while sequence < perProducer {
                        let record = Self.record(producer: producer, sequence: sequence, link: link)
                        switch queue.tryEnqueue(record) {
                        case .enqueued:
                            sequence += 1
                        case .full:
                            if ContinuousClock.now > deadline || shared.abort.load(ordering: .relaxed) {
                                failure = "producer \(producer) stopped at \(sequence)/\(perProducer): deadline"
                                shared.abort.store(true, ordering: .relaxed)
                                sequence = perProducer
                            } else {
                                sched_yield()
                            }
                        }
                    }
                    shared.producerFinished(producer, failure: failure)
                }
            )
        }
        for consumer in 0..<consumers {
            threads.append(
                Thread {
                    let report = Self.consume(
                        queue: queue,
                        shared: shared,
                        producers: producers,
                        perProducer: perProducer,
                        links: links,
                        singleConsumer: singleConsumer,
                        form: form,
                        deadline: deadline
                    )
                    shared.consumerFinished(consumer, report: report)
                }
            )
        }
        for thread in threads { thread.start() }
        // Every thread checks the deadline itself; the margin only covers a thread that never
        // got scheduled.
        while shared.finishedThreads < producers + consumers {
            try #require(ContinuousClock.now < deadline + .seconds(30), "stress threads did not finish")
            // A snapshot while others move the positions: stale, but never out of range.
            let count = queue.approximateCount
            #expect(count >= 0 && count <= capacity)
            usleep(2_000)
        }
        #expect(queue.approximateCount == 0)
        #expect(queue.tryDequeue() == nil)
        #expect(queue._quiescentInvariantViolation() == nil)
        let (reports, producerFailures) = shared.results
        return StressRun(
            producers: producers,
            perProducer: perProducer,
            consumerReports: reports,
            producerFailures: producerFailures
        )
    }

    static func consume(
        queue: PendingLinkQueue,
        shared: Shared,
        producers: Int,
        perProducer: Int,
        links: [DeepLink],
        singleConsumer: Bool,
        form: DequeueForm,
        deadline: ContinuousClock.Instant
    ) -> ConsumerReport {
        var report = ConsumerReport(received: [UInt64](repeating: 0, count: (producers * perProducer + 63) / 64))
        var lastSequence = [Int](repeating: -1, count: producers)
        let linkCounts = links.map(\.utf8Count)

        func check(_ record: PendingLink) {
            let producer = Int(record.id >> 32)
            let sequence = Int(record.id & 0xFFFF_FFFF)
            guard producer < producers, sequence < perProducer else {
                report.failures.append("unknown id \(record.id)")
                return
            }
            if sequence <= lastSequence[producer] {
                report.failures.append("producer \(producer): \(sequence) after \(lastSequence[producer])")
            }
            lastSequence[producer] = sequence
            let bit = producer * perProducer + sequence
            if report.received[bit / 64] & (1 << UInt64(bit % 64)) != 0 {
                report.failures.append("id \(record.id) received twice by one consumer")
            }
            report.received[bit / 64] |= 1 << UInt64(bit % 64)
            report.count += 1
            let intact =
                record.capturedAtNanos == record.id &* 0x9E37_79B9_7F4A_7C15
                && record.installBeginTimestamp == ~record.id
                && record.source == LinkSource.allCases[producer % LinkSource.allCases.count]
                && record.link.utf8Count == linkCounts[producer]
                // Full byte comparison is slow in debug builds; sample it.
                && (sequence % 1_024 != 0 || record.link == links[producer])
            if !intact {
                report.failures.append("record \(record.id) torn or corrupted")
            }
        }

        var scratch = Self.record(producer: 0, sequence: 0, link: links[0])
        /// Dequeues one record and checks it; false when the queue was empty.
        func dequeueAndCheck() -> Bool {
            switch (form, singleConsumer) {
            case (.returning, false):
                guard let record = queue.tryDequeue() else { return false }
                check(record)
            case (.returning, true):
                guard let record = queue.tryDequeueSingleConsumer() else { return false }
                check(record)
            case (.into, false):
                guard queue.tryDequeue(into: &scratch) else { return false }
                check(scratch)
            case (.into, true):
                guard queue.tryDequeueSingleConsumer(into: &scratch) else { return false }
                check(scratch)
            case (.borrowing, false):
                return queue.tryDequeue { check($0) } != nil
            case (.borrowing, true):
                return queue.tryDequeueSingleConsumer { check($0) } != nil
            }
            return true
        }

        while report.failures.count < 10 {
            if dequeueAndCheck() { continue }
            if shared.allProducersFinished {
                // Acquired after every producer's last publish: an empty answer now means empty.
                while report.failures.count < 10, dequeueAndCheck() {}
                break
            }
            if ContinuousClock.now > deadline || shared.abort.load(ordering: .relaxed) {
                report.failures.append("consumer stopped after \(report.count) records: deadline")
                shared.abort.store(true, ordering: .relaxed)
                break
            }
            sched_yield()
        }
        return report
    }

    /// Checks the union of all consumers' receipts: every id exactly once, nothing else.
    func verify() throws {
        #expect(producerFailures.isEmpty, "\(producerFailures)")
        for (index, report) in consumerReports.enumerated() {
            #expect(report.failures.isEmpty, "consumer \(index): \(report.failures)")
        }
        try #require(!consumerReports.isEmpty)
        let total = producers * perProducer
        #expect(consumerReports.reduce(0) { $0 + $1.count } == total)
        var duplicates = 0
        var missing = 0
        for word in 0..<consumerReports[0].received.count {
            var union: UInt64 = 0
            for report in consumerReports {
                duplicates += (union & report.received[word]).nonzeroBitCount
                union |= report.received[word]
            }
            let bitsInWord = min(64, total - word * 64)
            let expected: UInt64 = bitsInWord == 64 ? .max : (1 << UInt64(bitsInWord)) - 1
            missing += (expected & ~union).nonzeroBitCount
        }
        #expect(duplicates == 0, "ids received by two consumers")
        #expect(missing == 0, "ids never received")
        if consumerReports.count > 1 {
            // Not a correctness requirement, but a run where one consumer got everything would
            // not have tested consumer-consumer races.
            let busiest = consumerReports.map(\.count).max() ?? 0
            if busiest == total {
                print("note: one consumer received every record; consumer races were not exercised")
            }
        }
    }
}

/// State shared by a run's threads: the abort flag, completion counts, and the reports.
///
/// Only atomics and per-thread boxes: `Synchronization.Mutex` is built on futexes inside an
/// uninstrumented library, so ThreadSanitizer cannot see its ordering and reports false races.
private final class Shared: Sendable {
    let abort = Atomic<Bool>(false)
    private let producerCount: Int
    private let threadCount: Int
    private let producersDone = Atomic<Int>(0)
    private let threadsDone = Atomic<Int>(0)
    private let producerFailures: [ResultBox<String>]
    private let consumerReports: [ResultBox<StressRun.ConsumerReport>]

    init(producers: Int, consumers: Int) {
        producerCount = producers
        threadCount = producers + consumers
        producerFailures = (0..<producers).map { _ in ResultBox() }
        consumerReports = (0..<consumers).map { _ in ResultBox() }
    }

    /// Release: everything this producer enqueued (and its failure) happens before a consumer
    /// or the test that acquires the counts.
    func producerFinished(_ producer: Int, failure: String?) {
        producerFailures[producer].value = failure
        producersDone.add(1, ordering: .releasing)
        threadsDone.add(1, ordering: .releasing)
    }

    var allProducersFinished: Bool {
        producersDone.load(ordering: .acquiring) == producerCount
    }

    func consumerFinished(_ consumer: Int, report: StressRun.ConsumerReport) {
        consumerReports[consumer].value = report
        threadsDone.add(1, ordering: .releasing)
    }

    var finishedThreads: Int { threadsDone.load(ordering: .acquiring) }

    /// Read only after ``finishedThreads`` reached the thread count (acquire).
    var results: ([StressRun.ConsumerReport], [String]) {
        precondition(finishedThreads == threadCount)
        return (consumerReports.compactMap(\.value), producerFailures.compactMap(\.value))
    }
}

/// One thread's result: written once by that thread before a releasing increment of a counter,
/// read by the test only after acquiring the final count (hence `@unchecked Sendable`).
private final class ResultBox<Value>: @unchecked Sendable {
    var value: Value?
}
