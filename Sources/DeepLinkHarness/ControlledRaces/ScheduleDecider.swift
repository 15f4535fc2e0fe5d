/// The choices of one controlled race: which runnable logical thread runs at each schedule
/// point, from a ``ScheduleMode`` and the race's seed (random and PCT) or a prefix of choices
/// (exhaustive).
///
/// Thread safety: a value type; used under its race's lock.
struct ScheduleDecider: Sendable {
    private(set) var mode: ScheduleMode
    private var random: SplitMix64
    /// PCT: each thread's priority (higher runs); the change points, ascending (the first
    /// `changePointCount`: a depth has at most ``ScheduleMode/maximumDepth`` − 1), and the next
    /// one's step (`Int.max` past the last), so that a step between change points is one compare.
    /// Inline, not an array: every race's start cleared, filled and sorted one, through generic
    /// calls out of the hot code.
    private var priorities = InlineArray<3, Int>(repeating: 0)
    private var changePoints = ChangePoints(repeating: 0)
    private var changePointCount = 0
    /// The change points' storage; its count is how many a race can hold (a test checks the
    /// deepest pct fits).
    typealias ChangePoints = InlineArray<15, Int>
    static var changePointCapacity: Int { ChangePoints.count }
    private var nextChange = 0
    private var nextChangeStep = Int.max
    /// PCT: the last choice and the runnable set it was made from (0: none). Until the next change
    /// point the priorities stand, so the same set picks the same thread: most schedule points
    /// only compare the set.
    private var lastRunnable: UInt32 = 0
    private var lastChoice = 0
    /// Exhaustive: the choices to replay, the choices made and how many options each had.
    var prefix: [UInt8] = []
    private(set) var choices: [UInt8] = []
    private(set) var branching: [UInt8] = []

    /// A decider for a race of `threads` logical threads (at most ``RaceTurns/maximumThreads``),
    /// seeded from `seed` (derive it from the run's seed and the journey index so that sharding and
    /// thread counts do not change it).
    init(mode: ScheduleMode, seed: UInt64, threads: Int) {
        self.mode = mode
        random = SplitMix64(seed: 0, index: 0)
        restart(mode: mode, seed: seed, threads: threads)
    }

    /// Starts over as ``init(mode:seed:threads:)`` would, reusing its arrays' storage (a race a
    /// journey allocates nothing for); `prefix` is exhaustive's choices to replay.
    mutating func restart(mode: ScheduleMode, seed: UInt64, threads: Int, prefix: [UInt8] = []) {
        self.mode = mode
        random = SplitMix64(seed: seed ^ 0x5343_4845_4455_4C45, index: UInt64(threads))
        // Each array only when there is something to change: a race's start is short, and an
        // array's `removeAll` or assignment is not, even on an empty one.
        changePointCount = 0
        nextChange = 0
        nextChangeStep = .max
        lastRunnable = 0
        if !prefix.isEmpty || !self.prefix.isEmpty { self.prefix = prefix }
        if !choices.isEmpty {
            choices.removeAll(keepingCapacity: true)
            branching.removeAll(keepingCapacity: true)
        }
        if case .pct(let depth, let steps) = mode {
            // Initial priorities depth ... depth + n - 1, in a random order.
            for thread in 0..<threads { priorities[thread] = depth + thread }
            for index in stride(from: threads - 1, to: 0, by: -1) {
                priorities.swapAt(index, Int(random.next() % UInt64(index + 1)))
            }
            // Drawn in order, each put in place (an insertion sort of at most 15).
            for _ in 0..<min(max(0, depth - 1), changePoints.count) {
                let point = 1 + Int(random.next() % UInt64(steps))
                var position = changePointCount
                while position > 0, changePoints[position - 1] > point {
                    changePoints[position] = changePoints[position - 1]
                    position -= 1
                }
                changePoints[position] = point
                changePointCount += 1
            }
            nextChangeStep = changePointCount > 0 ? changePoints[0] : .max
        }
    }

    /// A racing journey's schedule seed: from the run's seed and the journey index alone, so that
    /// sharding and thread counts do not change it.
    static func seed(of journey: Journey) -> UInt64 {
        SplitMix64.mix(journey.seed ^ SplitMix64.mix(journey.index &+ 0x5343_4845_4455_4C45))
    }

    /// The thread to run at step `step` (1-based; 0 for the race's start), given the thread now
    /// running (`current`, or -1) and the runnable ones (a bit per thread, never empty).
    @inline(__always)
    mutating func choose(current: Int, runnable: UInt32, step: Int) -> Int {
        // PCT, the default, is chosen at every schedule point of a run: inline; the rest out of line.
        if case .pct = mode { return choosePCT(current: current, runnable: runnable, step: step) }
        return chooseOutOfLine(current: current, runnable: runnable, step: step)
    }

    @inline(never)
    private mutating func chooseOutOfLine(current: Int, runnable: UInt32, step: Int) -> Int {
        switch mode {
        case .os, .sequential:
            return current >= 0 && runnable & (1 << current) != 0 ? current : runnable.trailingZeroBitCount
        case .random:
            let count = runnable.nonzeroBitCount
            return Self.thread(atRank: Int(random.next() % UInt64(count)), in: runnable)
        case .pct:
            return choosePCT(current: current, runnable: runnable, step: step)
        case .exhaustive(let maxPoints):
            // Options: the running thread first (no preemption), then the others by number.
            var options: [Int] = []
            if current >= 0, runnable & (1 << current) != 0 { options.append(current) }
            var remaining = runnable
            while remaining != 0 {
                let thread = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                if thread != current { options.append(thread) }
            }
            guard options.count > 1, step <= maxPoints else { return options[0] }
            let index = choices.count
            let choice = index < prefix.count ? Int(prefix[index]) : 0
            choices.append(UInt8(choice))
            branching.append(UInt8(options.count))
            return options[min(choice, options.count - 1)]
        }
    }

    /// PCT: the runnable thread of the highest priority, after the change points up to `step`.
    @inline(__always)
    private mutating func choosePCT(current: Int, runnable: UInt32, step: Int) -> Int {
        // At the i-th change point the running thread drops to priority i (below every
        // initial one), so whatever it was about to do now waits for the others.
        if step >= nextChangeStep {
            while nextChange < changePointCount, changePoints[nextChange] <= step {
                if current >= 0 { priorities[current] = changePointCount - nextChange }
                nextChange += 1
            }
            nextChangeStep = nextChange < changePointCount ? changePoints[nextChange] : .max
            lastRunnable = 0
        }
        if runnable == lastRunnable { return lastChoice }
        var best = -1
        var remaining = runnable
        while remaining != 0 {
            let thread = remaining.trailingZeroBitCount
            remaining &= remaining - 1
            if best < 0 || priorities[thread] > priorities[best] { best = thread }
        }
        lastRunnable = runnable
        lastChoice = best
        return best
    }

    /// Exhaustive: the prefix of the next interleaving after this one (depth-first), or `nil`
    /// when every one was explored.
    func nextPrefix() -> [UInt8]? {
        var index = choices.count - 1
        while index >= 0 {
            if choices[index] + 1 < branching[index] {
                return Array(choices[..<index]) + [choices[index] + 1]
            }
            index -= 1
        }
        return nil
    }

    static func thread(atRank rank: Int, in set: UInt32) -> Int {
        var remaining = set
        for _ in 0..<rank { remaining &= remaining - 1 }
        return remaining.trailingZeroBitCount
    }
}
