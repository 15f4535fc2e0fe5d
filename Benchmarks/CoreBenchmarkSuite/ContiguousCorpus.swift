/// A corpus of byte inputs laid out back to back in one buffer, as inputs arrive in an app (a
/// referrer's bytes in a response buffer): handing one to a parser is a pointer and a count, not
/// an array to retain and release per operation (two atomic reference-count updates, which on a
/// ~40 ns parse are a fifth of what is timed and are no part of the parser's work).
///
/// Thread safety: immutable after `init`; read from any thread.
struct ContiguousCorpus: Sendable {
    private let storage: [UInt8]
    private let ranges: [Range<Int>]

    init(_ inputs: [[UInt8]]) {
        var storage: [UInt8] = []
        var ranges: [Range<Int>] = []
        for input in inputs {
            ranges.append(storage.count..<(storage.count + input.count))
            storage.append(contentsOf: input)
        }
        self.storage = storage
        self.ranges = ranges
    }

    var count: Int { ranges.count }

    /// Calls `body` with the corpus as a way to read each input by its index; the inputs are valid
    /// only inside `body`.
    func withInputs<R>(_ body: (Inputs) -> R) -> R {
        storage.withUnsafeBytes { all in
            ranges.withUnsafeBufferPointer { ranges in body(Inputs(all: all, ranges: ranges)) }
        }
    }

    /// The corpus's inputs by index, inside ``withInputs(_:)``.
    struct Inputs {
        let all: UnsafeRawBufferPointer
        let ranges: UnsafeBufferPointer<Range<Int>>

        subscript(index: Int) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: all[ranges[index]]) }
    }
}

/// ``measuringAllocations(_:_:)`` over a corpus of `count` inputs taken in turn (0, 1, …, count - 1,
/// 0, …): `body` gets the input's index, with no division per operation (a `%` costs more than some
/// of the work measured). Both sides of a comparison use it, so that they pay the same loop.
func measuringAllocations(_ operations: Int, cycling count: Int, _ body: (Int) -> Void) -> UInt64 {
    precondition(count > 0, "an empty corpus")
    var next = 0
    return measuringAllocations(operations) { _ in
        body(next)
        next = next + 1 == count ? 0 : next + 1
    }
}
