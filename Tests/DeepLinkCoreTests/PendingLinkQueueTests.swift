@_spi(Testing) import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

/// Single-threaded behaviour of `PendingLinkQueue`: order, edges, wrap-around, allocation.
@Suite struct PendingLinkQueueTests {
    /// Which dequeue the test exercises; all must behave identically on one thread.
    enum Consumer: CaseIterable, CustomTestStringConvertible {
        case multi
        case single
        case multiInto
        case singleInto
        case multiBorrowing
        case singleBorrowing

        var testDescription: String {
            switch self {
            case .multi: "tryDequeue()"
            case .single: "tryDequeueSingleConsumer()"
            case .multiInto: "tryDequeue(into:)"
            case .singleInto: "tryDequeueSingleConsumer(into:)"
            case .multiBorrowing: "tryDequeue { }"
            case .singleBorrowing: "tryDequeueSingleConsumer { }"
            }
        }

        /// A value no dequeue ever returns: the `into:` forms must leave it alone when empty.
        static let untouched = PendingLinkQueueTests.record(0xBAD)

        func dequeue(_ queue: PendingLinkQueue) -> PendingLink? {
            switch self {
            case .multi:
                return queue.tryDequeue()
            case .single:
                return queue.tryDequeueSingleConsumer()
            case .multiInto, .singleInto:
                var link = Self.untouched
                let dequeued =
                    self == .multiInto ? queue.tryDequeue(into: &link) : queue.tryDequeueSingleConsumer(into: &link)
                if !dequeued { #expect(link == Self.untouched, "an empty dequeue wrote into the link") }
                return dequeued ? link : nil
            case .multiBorrowing:
                return queue.tryDequeue { copy $0 }
            case .singleBorrowing:
                return queue.tryDequeueSingleConsumer { copy $0 }
            }
        }
    }

    /// Which enqueue the test exercises; both must store the same record.
    enum Producer: CaseIterable, CustomTestStringConvertible {
        case borrowing
        case copyingFrom

        var testDescription: String {
            switch self {
            case .borrowing: "tryEnqueue(_:)"
            case .copyingFrom: "tryEnqueue(copyingFrom:)"
            }
        }

        func enqueue(_ record: PendingLink, into queue: PendingLinkQueue) -> EnqueueResult {
            switch self {
            case .borrowing:
                return queue.tryEnqueue(record)
            case .copyingFrom:
                var variable = record
                let result = queue.tryEnqueue(copyingFrom: &variable)
                #expect(variable == record, "tryEnqueue(copyingFrom:) changed its argument")
                return result
            }
        }
    }

    /// Start positions: zero, just below the `UInt` wrap, and just below the signed boundary
    /// (where a wrong signed/unsigned comparison would break).
    static let startingPositions: [UInt] = [0, UInt.max - 2, UInt.max - 1_000, UInt(Int.max) - 3]

    static let template = DeepLink(validated: "/product/42?ref=queue")!

    static func record(_ id: UInt64) -> PendingLink {
        PendingLink(
            link: template,
            source: LinkSource.allCases[Int(id % UInt64(LinkSource.allCases.count))],
            capturedAtNanos: id &* 1_000,
            id: id,
            installBeginTimestamp: ~id
        )
    }

    @Test(arguments: Consumer.allCases, Producer.allCases)
    func fifoOrderSingleThreaded(consumer: Consumer, producer: Producer) throws {
        let queue = PendingLinkQueue(capacity: 8)
        #expect(queue.capacity == 8)
        #expect(queue.approximateCount == 0)
        for id in UInt64(0)..<8 {
            #expect(producer.enqueue(Self.record(id), into: queue) == .enqueued)
            #expect(queue.approximateCount == Int(id) + 1)
        }
        #expect(producer.enqueue(Self.record(99), into: queue) == .full)
        for id in UInt64(0)..<8 {
            let link = try #require(consumer.dequeue(queue))
            #expect(link == Self.record(id))
        }
        #expect(consumer.dequeue(queue) == nil)
        #expect(queue.approximateCount == 0)
        #expect(queue._quiescentInvariantViolation() == nil)
    }

    @Test func recordsRoundTripEveryField() throws {
        let queue = PendingLinkQueue(capacity: 2)
        let long = try #require(DeepLink(validated: "/" + String(repeating: "x", count: DeepLink.capacity - 1)))
        let original = PendingLink(
            link: long,
            source: .installReferrer,
            capturedAtNanos: .max,
            id: 0xDEAD_BEEF,
            installBeginTimestamp: 1_700_000_000
        )
        #expect(queue.tryEnqueue(original) == .enqueued)
        let copy = try #require(queue.tryDequeue())
        #expect(copy.link == long)
        #expect(copy.link.utf8Count == DeepLink.capacity)
        #expect(copy.source == .installReferrer)
        #expect(copy.capturedAtNanos == .max)
        #expect(copy.id == 0xDEAD_BEEF)
        #expect(copy.installBeginTimestamp == 1_700_000_000)
    }

    /// A slot copies only the bytes a record uses: a short record written over a long one (full
    /// link, attribution and account buffers) must read back as exactly the short record, and the
    /// long one written back over it as the long one, through every way out of the queue.
    @Test(arguments: Consumer.allCases, Producer.allCases)
    func aSlotReusedByRecordsOfOtherSizesHoldsExactlyTheLastOne(consumer: Consumer, producer: Producer) throws {
        let queue = PendingLinkQueue(capacity: 1)
        var attribution = LinkAttribution(clickTimestampSeconds: 1_700_000_123)
        var referrer = "utm_source=s&utm_campaign=" + String(repeating: "c", count: 100) + "&gclid=g"
        _ = referrer.withUTF8 { bytes in
            ReferrerParser().withReferrer(in: UnsafeRawBufferPointer(bytes)) { attribution.assign(from: $0) }
        }
        #expect(attribution.value(.utmCampaign)?.utf8.count == 100)
        let long = PendingLink(
            link: try #require(DeepLink(validated: "/" + String(repeating: "y", count: DeepLink.capacity - 1))),
            source: .installReferrer,
            capturedAtNanos: 9,
            id: 1,
            installBeginTimestamp: 77,
            attribution: attribution,
            account: try AccountID(validating: String(repeating: "a", count: AccountID.capacity))
        )
        let short = PendingLink(
            link: try #require(DeepLink(validated: "/p")),
            source: .appClip,
            capturedAtNanos: 3,
            id: 2
        )
        for record in [long, short, long, short] {
            #expect(producer.enqueue(record, into: queue) == .enqueued)
            let read = try #require(consumer.dequeue(queue))
            #expect(read == record)
            #expect(read.hashValue == record.hashValue)
            #expect(read.link.string == record.link.string)
            #expect(read.account == record.account)
            #expect(read.attribution.value(.utmCampaign) == record.attribution.value(.utmCampaign))
            #expect(read.attribution.clickTimestampSeconds == record.attribution.clickTimestampSeconds)
        }
    }

    /// Many laps with a varying fill level, so that every slot is reused in every phase and the
    /// positions (when started near the top) wrap past `UInt.max` and the signed boundary.
    @Test(arguments: Consumer.allCases, startingPositions)
    func wrapsAroundManyTimes(consumer: Consumer, startingPosition: UInt) throws {
        let capacity = 4
        let queue = PendingLinkQueue(capacity: capacity, startingPosition: startingPosition)
        var nextIn: UInt64 = 0
        var nextOut: UInt64 = 0
        for round in 0..<2_000 {
            let fill = round % (capacity + 1)
            for _ in 0..<fill {
                #expect(queue.tryEnqueue(Self.record(nextIn)) == .enqueued)
                nextIn += 1
            }
            if fill == capacity {
                #expect(queue.tryEnqueue(Self.record(.max)) == .full)
            }
            #expect(queue.approximateCount == fill)
            try #require(queue._quiescentInvariantViolation() == nil)
            while let link = consumer.dequeue(queue) {
                #expect(link.id == nextOut)
                #expect(link == Self.record(nextOut))
                nextOut += 1
            }
        }
        #expect(nextOut == nextIn)
        // 2000 rounds at an average fill of 2 lap a capacity-4 ring 1000 times.
        #expect(nextIn == 4_000)
        #expect(queue._quiescentInvariantViolation() == nil)
    }

    @Test(arguments: Consumer.allCases, startingPositions)
    func capacityOneAlternatesFullAndEmpty(consumer: Consumer, startingPosition: UInt) throws {
        let queue = PendingLinkQueue(capacity: 1, startingPosition: startingPosition)
        #expect(queue.capacity == 1)
        for id in UInt64(0)..<100 {
            #expect(consumer.dequeue(queue) == nil)
            #expect(queue.tryEnqueue(Self.record(id)) == .enqueued)
            #expect(queue.tryEnqueue(Self.record(.max)) == .full)
            #expect(queue.approximateCount == 1)
            let link = try #require(consumer.dequeue(queue))
            #expect(link.id == id)
            #expect(queue.approximateCount == 0)
        }
        #expect(queue._quiescentInvariantViolation() == nil)
    }

    @Test(arguments: Consumer.allCases, startingPositions)
    func capacityTwoKeepsOrderAcrossLaps(consumer: Consumer, startingPosition: UInt) throws {
        let queue = PendingLinkQueue(capacity: 2, startingPosition: startingPosition)
        var expected: UInt64 = 0
        var next: UInt64 = 0
        #expect(queue.tryEnqueue(Self.record(next)) == .enqueued)
        next += 1
        for _ in 0..<100 {
            // One in flight, add one (full), take one: the ring is never empty and slides by one.
            #expect(queue.tryEnqueue(Self.record(next)) == .enqueued)
            next += 1
            #expect(queue.tryEnqueue(Self.record(.max)) == .full)
            let link = try #require(consumer.dequeue(queue))
            #expect(link.id == expected)
            expected += 1
            #expect(queue.approximateCount == 1)
        }
        let last = try #require(consumer.dequeue(queue))
        #expect(last.id == expected)
        #expect(consumer.dequeue(queue) == nil)
        #expect(queue._quiescentInvariantViolation() == nil)
    }

    @Test(arguments: Consumer.allCases)
    func fullAndEmptyEdges(consumer: Consumer) throws {
        let queue = PendingLinkQueue(capacity: 16)
        #expect(consumer.dequeue(queue) == nil)
        #expect(consumer.dequeue(queue) == nil)
        for id in UInt64(0)..<16 {
            #expect(queue.tryEnqueue(Self.record(id)) == .enqueued)
        }
        // Repeated refusals change nothing.
        for _ in 0..<5 {
            #expect(queue.tryEnqueue(Self.record(.max)) == .full)
        }
        #expect(queue.approximateCount == 16)
        #expect(queue._quiescentInvariantViolation() == nil)
        // Freeing one slot admits exactly one more.
        #expect(try #require(consumer.dequeue(queue)).id == 0)
        #expect(queue.tryEnqueue(Self.record(16)) == .enqueued)
        #expect(queue.tryEnqueue(Self.record(.max)) == .full)
        for id in UInt64(1)...16 {
            #expect(try #require(consumer.dequeue(queue)).id == id)
        }
        #expect(consumer.dequeue(queue) == nil)
        #expect(queue.approximateCount == 0)
        #expect(queue._quiescentInvariantViolation() == nil)
    }

    /// The borrowing dequeues: `body` sees the oldest link in place, its result comes back, the
    /// link is removed even when `body` throws, and `body` may enqueue into the same queue.
    @Test(arguments: [false, true])
    func borrowingDequeueHandsTheSlotToTheBody(singleConsumer: Bool) throws {
        struct Refused: Error {}
        func dequeue<R>(
            _ queue: PendingLinkQueue,
            _ body: (borrowing PendingLink) throws(Refused) -> R
        ) throws(Refused) -> R? {
            singleConsumer ? try queue.tryDequeueSingleConsumer(body) : try queue.tryDequeue(body)
        }
        let queue = PendingLinkQueue(capacity: 2)
        var calls = 0
        #expect(try dequeue(queue) { _ in calls += 1 } == nil)
        #expect(calls == 0)
        #expect(queue.tryEnqueue(Self.record(1)) == .enqueued)
        #expect(queue.tryEnqueue(Self.record(2)) == .enqueued)
        // A throwing body still consumes the link.
        #expect(throws: Refused.self) {
            try dequeue(queue) { (_: borrowing PendingLink) throws(Refused) -> Int in throw Refused() }
        }
        #expect(queue.approximateCount == 1)
        // The body may refill the queue: its own slot is still claimed, so with capacity 2 exactly
        // one more link fits while it runs, and a second one waits for the body to finish.
        let results = try dequeue(queue) { link in
            (link.id, queue.tryEnqueue(Self.record(3)), queue.tryEnqueue(Self.record(4)))
        }
        #expect(results?.0 == 2)
        #expect(results?.1 == .enqueued)
        #expect(results?.2 == .full)
        #expect(try dequeue(queue) { $0 == Self.record(3) } == true)
        #expect(try dequeue(queue) { $0.id } == nil)
        #expect(queue._quiescentInvariantViolation() == nil)
    }

    @Test func bothDequeuesShareOnePosition() throws {
        let queue = PendingLinkQueue(capacity: 4)
        for id in UInt64(0)..<4 {
            #expect(queue.tryEnqueue(Self.record(id)) == .enqueued)
        }
        #expect(try #require(queue.tryDequeue()).id == 0)
        #expect(try #require(queue.tryDequeueSingleConsumer()).id == 1)
        #expect(try #require(queue.tryDequeue()).id == 2)
        #expect(try #require(queue.tryDequeueSingleConsumer()).id == 3)
        #expect(queue.tryDequeue() == nil)
        for id in UInt64(4)..<8 {
            #expect(queue.tryEnqueue(Self.record(id)) == .enqueued)
        }
        var link = Self.record(0)
        #expect(queue.tryDequeue(into: &link) && link.id == 4)
        #expect(queue.tryDequeueSingleConsumer(into: &link) && link.id == 5)
        #expect(queue.tryDequeue { $0.id } == 6)
        #expect(queue.tryDequeueSingleConsumer { $0.id } == 7)
        #expect(queue.tryDequeueSingleConsumer { $0.id } == nil)
        #expect(queue._quiescentInvariantViolation() == nil)
    }

    /// Producers write the tail, consumers the head: each must sit alone on its (128-byte,
    /// prefetch-pair) line, and the slots must start on lines of their own.
    @Test(arguments: [1, 2, 64])
    func headAndTailLiveOnSeparateCacheLines(capacity: Int) {
        let queue = PendingLinkQueue(capacity: capacity)
        let layout = queue._layoutAddresses()
        #expect(layout.enqueue % 128 == 0)
        #expect(layout.dequeue >= layout.enqueue + 128)
        #expect(layout.dequeue % 128 == 0)
        #expect(layout.firstSlot >= layout.dequeue + 128)
        #expect(layout.firstSlot % 64 == 0)
        if capacity > 1 {
            let stride = layout.secondSlot - layout.firstSlot
            #expect(stride % 64 == 0)
            #expect(Int(stride) >= MemoryLayout<PendingLink>.size + 8)
        }
    }

    /// The compact copy into a slot relies on the record's layout: every fixed field in one block,
    /// in one cache line of the slot (two lines for a typical record: the link's and this one).
    @Test func recordLayoutKeepsTheFixedFieldsInOneBlock() {
        #expect(PendingLink._compactLayoutViolation() == nil)
    }

    @Test func validatesCapacity() {
        for invalid in [0, -1, -4, 3, 6, 12, 1_000, PendingLinkQueue.maximumCapacity * 2, Int.max, Int.min] {
            #expect(!PendingLinkQueue.isValidCapacity(invalid), "capacity \(invalid)")
            #expect(PendingLinkQueue(validatingCapacity: invalid) == nil, "capacity \(invalid)")
        }
        for valid in [1, 2, 4, 1_024] {
            #expect(PendingLinkQueue(validatingCapacity: valid)?.capacity == valid)
        }
        #expect(PendingLinkQueue.isValidCapacity(PendingLinkQueue.maximumCapacity))
    }

    /// Dropping a queue that still holds links frees them and its storage (ASan checks the
    /// memory side).
    @Test func releasesAQueueThatStillHoldsLinks() {
        weak var released: PendingLinkQueue?
        do {
            let queue = PendingLinkQueue(capacity: 8, startingPosition: UInt.max - 3)
            for id in UInt64(0)..<6 {
                #expect(queue.tryEnqueue(Self.record(id)) == .enqueued)
            }
            #expect(queue.tryDequeue()?.id == 0)
            released = queue
        }
        #expect(released == nil)
    }

    @Test func enqueueAndDequeueAllocateNothing() throws {
        guard !Sanitizer.isActive else { return }
        try #require(AllocationCounter.isJemallocActive)
        let queue = PendingLinkQueue(capacity: 64)
        let record = Self.record(7)
        // Warm-up: first touches of code paths and of the slot memory.
        for _ in 0..<256 {
            _ = queue.tryEnqueue(record)
            _ = queue.tryDequeue()
        }
        var received: UInt64 = 0
        var scratch = Self.record(0)
        var capture = Self.record(7)
        var emptyAnswers = 0
        // The counter read itself may cost a constant few bytes (debug builds: 112 per pair of
        // reads), so compare against an empty measurement rather than against zero.
        let emptyStart = AllocationCounter.threadAllocatedBytes()
        let emptyEnd = AllocationCounter.threadAllocatedBytes()
        let counterOverhead = emptyEnd &- emptyStart
        let before = AllocationCounter.threadAllocatedBytes()
        do {
            for round in 0..<10_000 {
                _ = queue.tryEnqueue(record)
                _ = queue.tryEnqueue(copyingFrom: &capture)
                if let link = queue.tryDequeue() { received &+= link.id }
                switch round % 6 {
                case 0: if let link = queue.tryDequeueSingleConsumer() { received &+= link.id }
                case 1: if let link = queue.tryDequeue() { received &+= link.id }
                case 2: if queue.tryDequeue(into: &scratch) { received &+= scratch.id }
                case 3: if queue.tryDequeueSingleConsumer(into: &scratch) { received &+= scratch.id }
                case 4: received &+= queue.tryDequeue { $0.id } ?? 0
                default: received &+= queue.tryDequeueSingleConsumer { $0.id } ?? 0
                }
                _ = queue.approximateCount
            }
            // Full and empty answers must not allocate either.
            while queue.tryEnqueue(record) == .enqueued {}
            emptyAnswers += queue.tryEnqueue(copyingFrom: &capture) == .full ? 1 : 0
            while let link = queue.tryDequeue() { received &+= link.id }
            emptyAnswers += queue.tryDequeue(into: &scratch) ? 0 : 1
            emptyAnswers += queue.tryDequeueSingleConsumer(into: &scratch) ? 0 : 1
            emptyAnswers += queue.tryDequeue { $0.id } == nil ? 1 : 0
            emptyAnswers += queue.tryDequeueSingleConsumer { $0.id } == nil ? 1 : 0
        }
        let bytes = AllocationCounter.threadAllocatedBytes() &- before
        #expect(emptyAnswers == 5)
        // 40_000+ operations: a single allocation anywhere in them would show many times over.
        #expect(bytes == counterOverhead)
        #expect(counterOverhead < 1_024)
        #expect(received == 7 * (20_000 + 64))
    }
}
