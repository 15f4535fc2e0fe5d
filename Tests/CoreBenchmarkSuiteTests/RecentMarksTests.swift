import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

@testable import CoreBenchmarkSuite

/// The benchmark store's keyed marks must answer exactly what a scan of the last 64 marks with
/// ``CaptureIdentity/isSameCapture(as:)`` answers.
@Suite struct RecentMarksTests {
    @Test func keyedLookupsAgreeWithAScanOfTheLastMarks() {
        var generator = SeededGenerator(seed: 0x5EED)
        var marks = RecentMarks()
        // The model: the ring's live marks, oldest first.
        var model: [CaptureIdentity?] = []
        var written = 0
        for step in 0..<20_000 {
            // Few distinct keys, so that ids and timestamps collide, repeat and get removed often.
            let identity = CaptureIdentity(
                id: generator.next() % 97,
                installBeginTimestamp: generator.next() % 3 == 0 ? 0 : generator.next() % 41
            )
            switch generator.next() % 4 {
            case 0, 1:
                marks.insert(identity)
                if written >= RecentMarks.capacity { model.removeFirst() }
                model.append(identity)
                written += 1
            case 2:
                marks.remove(identity)
                for index in model.indices where model[index] == identity { model[index] = nil }
            default:
                break
            }
            let expected = model.contains { $0.map { identity.isSameCapture(as: $0) } ?? false }
            #expect(marks.containsSameCapture(as: identity) == expected, "step \(step)")
            if marks.containsSameCapture(as: identity) != expected { return }
        }
    }
}
