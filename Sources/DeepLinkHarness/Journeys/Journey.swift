/// One simulated user, from the tap on a link to the outcome: the world it lives in (platform,
/// links, background conditions for the fingerprint and clipboard strategies) and a script of
/// timestamped events that every strategy and the ``Oracle`` replay in order.
///
/// A journey is a fixed-size value (no heap allocation): ``JourneyGenerator`` builds it from
/// `(seed, index)` alone, so any journey regenerates on its own for replay and sharding.
///
/// Thread safety: a value type; `Sendable`.
package struct Journey: Sendable {
    /// The most events a journey can hold; the generator's scripts stay below it.
    package static let capacity = 48

    package var seed: UInt64
    package var index: UInt64
    package var scenario: ScenarioClass
    /// Catalog ids (``LinkCatalog``) of the tapped links, in tap order. For organic, not-set and
    /// bare-token installs `links[0]` is the referrer the store hands over without any tap.
    package var links: (UInt8, UInt8)
    /// How many of ``links`` were tapped (0, 1 or 2).
    package var linkCount: UInt8
    /// Background conditions that only some strategies see.
    package var world: JourneyWorld
    /// The perturbations composed on top of the scenario's own (see ``ExtraPerturbations``).
    package var extras: ExtraPerturbations = []
    /// Whether every built-in strategy meets the journey's first capture and the gate signal after
    /// it from two threads at once (an `exec:` strategy meets them in order).
    package var racing: Bool
    /// Whether the app's router is not ready the first time a link is offered to it (the screen
    /// is not there yet): it declines, and the link must be offered again at the next signal.
    /// Only `core`'s router can decline; the peers' navigation always takes the link.
    package var routerNotReady: Bool
    package var eventCount: Int
    package var events: InlineArray<48, JourneyEvent>

    package init(seed: UInt64, index: UInt64, scenario: ScenarioClass) {
        self.seed = seed
        self.index = index
        self.scenario = scenario
        self.links = (0, 0)
        self.linkCount = 0
        self.world = JourneyWorld()
        self.racing = false
        self.routerNotReady = false
        self.eventCount = 0
        self.events = InlineArray(repeating: JourneyEvent(.tap, at: 0))
    }

    /// The catalog id of the link the store or clip hands over: the last one tapped (Play keeps
    /// the referrer of the latest store visit; a clip's second handoff overwrites nothing but is
    /// newer), or the untapped referrer of an organic install.
    package var latestLink: UInt8 { linkCount >= 2 ? links.1 : links.0 }

    /// The catalog id of tap number `slot` (0 or 1).
    package func link(slot: UInt8) -> UInt8 { slot == 0 ? links.0 : links.1 }

    /// When tap `slot` last happened before step `limit` (the first event's time when there was no
    /// such tap). Play reports the click of the latest tap so far: a tap later in the script (the
    /// same link opened again) is not it.
    package func tapTime(slot: UInt8, before limit: Int) -> UInt32 {
        // Through a span: `events[step]` in a loop copies the whole inline array per iteration.
        Self.tapTime(slot: slot, before: limit, in: events.span, count: eventCount)
    }

    /// ``tapTime(slot:before:)`` over the span of a journey's events (the first `count`), for a
    /// caller that holds one already: taking the span of a borrowed journey copies its events.
    package static func tapTime(slot: UInt8, before limit: Int, in events: Span<JourneyEvent>, count: Int) -> UInt32 {
        guard count > 0 else { return 0 }
        var time = events[0].atSeconds
        var step = 0
        while step < min(limit, count) {
            let event = events[step]
            if event.kind == .tap, event.argument == slot { time = event.atSeconds }
            step += 1
        }
        return time
    }

    /// How many perturbations the journey composes: its scenario's (unless `none`) and the extras.
    package var perturbationCount: Int {
        (scenario.perturbation == .none ? 0 : 1) + extras.rawValue.nonzeroBitCount
    }

    /// Appends `event`; returns false (and drops it) when the script is full.
    @discardableResult
    package mutating func append(_ event: JourneyEvent) -> Bool {
        guard eventCount < Self.capacity else { return false }
        events[eventCount] = event
        eventCount += 1
        return true
    }

    /// Inserts `event` before position `position`; returns false when the script is full.
    @discardableResult
    package mutating func insert(_ event: JourneyEvent, at position: Int) -> Bool {
        guard eventCount < Self.capacity, position >= 0, position <= eventCount else { return false }
        var cursor = eventCount
        while cursor > position {
            events[cursor] = events[cursor - 1]
            cursor -= 1
        }
        events[position] = event
        eventCount += 1
        return true
    }

    /// The time of the last event, in seconds since the first tap (0 for an empty script).
    package var endSeconds: UInt32 { Self.endSeconds(in: events.span, count: eventCount) }

    /// ``endSeconds`` over the span of a journey's events (the first `count`), for a caller that
    /// holds one already: each access to a borrowed journey's events copies them.
    package static func endSeconds(in events: Span<JourneyEvent>, count: Int) -> UInt32 {
        count == 0 ? 0 : events[count - 1].atSeconds
    }
}
