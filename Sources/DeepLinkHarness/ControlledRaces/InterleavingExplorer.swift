package import DeepLinkCore

/// Exhaustive exploration of a small race, for tests: every interleaving of the first
/// `maxPoints` schedule points of some inputs delivered to a resolver from logical threads of
/// their own (depth-first over the scheduler's choices, each execution a fresh scenario replayed
/// from its prefix of choices).
///
/// Thread safety: ``explore(maxPoints:plants:scenario:check:)`` runs on the calling thread (and
/// the race's own partner threads); call it from one thread at a time per scenario.
package enum InterleavingExplorer {
    /// One input of a scenario's logical thread.
    package enum Input: Sendable {
        /// `copies` captures of the App Clip URL `url` under id `id` (the example app's capture
        /// call, ``ExampleAppCapture``), captured at time 0 on the resolver's clock.
        case captures(StaticString, id: UInt64, copies: Int)
        /// A signal (`appReady`, a login, …).
        case signal(AppEvent)
        /// A launch's load of the store.
        case launch

        var raceInput: RaceInput {
            switch self {
            case .captures(let url, let id, let copies):
                .captures(
                    CaptureBurst(
                        call: .link(.appClip),
                        payload: UnsafeRawBufferPointer(start: url.utf8Start, count: url.utf8CodeUnitCount),
                        capturedAtNanos: 0,
                        id: id,
                        copies: copies,
                        newIDs: false
                    )
                )
            case .signal(let event): .signal(event)
            case .launch: .launch
            }
        }
    }

    /// Runs every interleaving: `scenario` builds fresh state and returns the resolver and one
    /// input per logical thread (1 to 3); `check` runs after each execution with its number
    /// (from 0) and how it hung, if it did. Returns the number of interleavings explored.
    @discardableResult
    package static func explore(
        maxPoints: Int,
        plants faults: [ConcurrencyFault] = [],
        scenario: () -> (LinkResolver, [Input]),
        check: (_ execution: Int, _ hang: ScheduleHang?) -> Void
    ) -> Int {
        let race = ControlledRace()
        defer { race.stop() }
        var bits: UInt8 = 0
        for fault in faults { bits |= 1 << fault.rawValue }
        var prefix: [UInt8] = []
        var executions = 0
        while true {
            let (resolver, inputs) = scenario()
            precondition((1...RaceTurns.maximumThreads).contains(inputs.count), "a race has 1 to 3 inputs")
            race.run(
                on: resolver,
                inputs[0].raceInput,
                inputs.count > 1 ? inputs[1].raceInput : nil,
                inputs.count > 2 ? inputs[2].raceInput : nil,
                schedule: .exhaustive(maxPoints: maxPoints),
                seed: 0,
                prefix: prefix,
                faults: bits
            )
            check(executions, race.hang)
            executions += 1
            guard let next = race.lastDecider.nextPrefix() else { return executions }
            prefix = next
        }
    }
}
