import DeepLinkHarness
import Testing

@Suite struct LatencyHistogramsTests {
    @Test func recordsInPlaceWithoutAllocating() {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        var perThread = LatencyHistograms()
        let overhead = AllocationCounter.bytesAllocated {}
        let bytes = AllocationCounter.bytesAllocated {
            var value: UInt64 = 1
            while value < 1 << 40 {
                perThread.record(.parse, value)
                perThread.record(.gateOpenToRoute, value &* 3)
                perThread.record(.journey, value &* 7)
                value = value &* 2 &+ 1
            }
        }
        #expect(bytes == overhead, "recording allocated \(bytes &- overhead) bytes")
        #expect(perThread.parse.count == 40 && perThread.journey.count == 40 && perThread.validate.count == 0)
    }

    @Test func mergeAndDictionaryUseReportNames() {
        var first = LatencyHistograms()
        var second = LatencyHistograms()
        first.record(.enqueue, 10)
        second.record(.enqueue, 20)
        second.record(.validate, 5)
        first.merge(second)
        let dictionary = first.dictionary
        #expect(Set(dictionary.keys) == Set(Metric.all))
        #expect(dictionary["enqueue"]?.count == 2 && dictionary["enqueue"]?.max == 20)
        #expect(dictionary["validate"]?.count == 1)
        #expect(LatencyHistograms.Metric.allCases.map(\.name) == Metric.all)
    }
}
