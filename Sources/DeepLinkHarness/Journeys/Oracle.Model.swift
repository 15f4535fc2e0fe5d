extension Oracle {
    /// The oracle's state while it walks a script. It keeps what it reads of the journey besides the
    /// events (the catalog's facts of both tap slots, the tap count), not the journey itself: a copy
    /// of the journey per expectation costs more than walking a short script.
    struct Model {
        let ttl: UInt32
        /// ``LinkCatalog/facts(_:)`` of tap slots 0 and 1.
        let facts: (LinkCatalog.Facts, LinkCatalog.Facts)
        let linkCount: UInt8
        let clipOnly: Bool
        var now: UInt32 = 0
        // Durable (the handoff store).
        var storePending: (Bool, Bool) = (false, false)
        var consumed: (Bool, Bool) = (false, false)
        var capturedAt: (UInt32, UInt32) = (0, 0)
        var tapTime: (UInt32, UInt32) = (0, 0)
        /// Whether `capturedAt` holds a capture (not just the tap's time).
        var captured: (Bool, Bool) = (false, false)
        // The process.
        var running = false
        var ready = false
        var loggedIn = false
        /// The account of the session (``LinkCatalog/accounts``), while `loggedIn`.
        var account: UInt8 = 0
        var resolverPending: (Bool, Bool) = (false, false)
        var crashArmed = false
        /// The router declines the next offer (once per journey, ``Journey/routerNotReady``).
        var routerDeclines: Bool
        /// The link the router declined: it waits, pending, for the next signal.
        var deferredSlot: UInt8?
        // Findings.
        var routedSlot: UInt8?
        var routeStep = -1
        var crashedSlot: UInt8?
        var crashStep = -1
        var sawSuperseded = false
        var sawExpired = false
        var rejection: RejectionReason?
        var sawOrganic = false
        var sawNotSet = false
        var refusedReplay = false
        var gateMasks: (UInt64, UInt64) = (0, 0)

        @inline(__always)
        init(journey: Journey, ttl: UInt32) {
            self.ttl = ttl
            self.facts = (LinkCatalog.facts(journey.links.0), LinkCatalog.facts(journey.links.1))
            self.linkCount = journey.linkCount
            self.clipOnly = journey.scenario.perturbation == .clipOnly
            self.routerDeclines = journey.routerNotReady
        }

        /// The facts of the link tapped in `slot` (0 or 1).
        func facts(slot: UInt8) -> LinkCatalog.Facts { slot == 0 ? facts.0 : facts.1 }

        func get(_ pair: (Bool, Bool), _ slot: UInt8) -> Bool { slot == 0 ? pair.0 : pair.1 }

        func set(_ pair: inout (Bool, Bool), _ slot: UInt8, _ value: Bool) {
            if slot == 0 { pair.0 = value } else { pair.1 = value }
        }

        func time(_ pair: (UInt32, UInt32), _ slot: UInt8) -> UInt32 { slot == 0 ? pair.0 : pair.1 }

        /// Inlined into ``Oracle/expect(_:)``'s loop, the model's one caller per event.
        @inline(__always)
        mutating func apply(_ event: JourneyEvent, step: Int) {
            now = event.atSeconds
            let slot = event.argument & 1
            switch event.kind {
            case .tap:
                if slot == 0 { tapTime.0 = now } else { tapTime.1 = now }
                if !get(captured, slot) {
                    if slot == 0 { capturedAt.0 = now } else { capturedAt.1 = now }
                }
            case .clipInvoked, .storeVisit, .install, .loginFailed, .clockJump, .clipboardCopy:
                break
            case .appDeleted:
                // The process dies; the container and its consumed marks go with the app (the next
                // install is a new install).
                running = false
                ready = false
                loggedIn = false
                resolverPending = (false, false)
                deferredSlot = nil
                storePending = (false, false)
                consumed = (false, false)
            case .clipDataPurged:
                storePending = (false, false)
                consumed = (false, false)
            case .clipHandoffWrite:
                // The clip validates before it writes: a payload it rejects is never stored.
                if case .reject(let reason) = facts(slot: slot).action {
                    rejection = reason
                    break
                }
                set(&storePending, slot, true)
                markCaptured(slot, at: now)
            case .launch:
                running = true
                // An armed crash belongs to the process it was armed in.
                crashArmed = false
                ready = false
                loggedIn = false
                resolverPending = (false, false)
                deferredSlot = nil
                // The app reads the container: every durable pending link is captured again.
                for pendingSlot: UInt8 in 0...1 where get(storePending, pendingSlot) && !get(consumed, pendingSlot) {
                    capture(slot: pendingSlot, step: step)
                }
            case .referrerFetch, .referrerRetry:
                guard running, event.referrerResult.delivered else { break }
                receiveReferrer(step: step)
            case .appReady:
                guard running else { break }
                ready = true
                deferredSlot = nil
                tryRoute(step: step)
            case .loginSucceeded, .sessionRestored:
                guard running else { break }
                loggedIn = true
                account = event.argument
                deferredSlot = nil
                tryRoute(step: step)
            case .logout:
                guard running else { break }
                loggedIn = false
                // A signal offers a declined link again (one that needs no login routes now).
                if deferredSlot != nil {
                    deferredSlot = nil
                    tryRoute(step: step)
                }
            case .kill:
                running = false
                ready = false
                loggedIn = false
                resolverPending = (false, false)
                deferredSlot = nil
            case .crashArmed:
                crashArmed = true
            case .universalLinkOpen:
                guard running else { break }
                // A signed link's nonce is single-use per install: opened again after the container
                // recorded it consumed, it is a replay (never routed again).
                if facts(slot: slot).singleUse, get(consumed, slot) {
                    rejection = .link(.replayed)
                    refusedReplay = true
                    break
                }
                // The warm path captures in memory; the capture time is the open.
                markCaptured(slot, at: now)
                capture(slot: slot, step: step)
            }
        }

        /// The app's screen appears within the step its router declined in: the app signals again (an
        /// event it already had) and the link is offered again.
        mutating func retryDeclined(step: Int) {
            guard running, deferredSlot != nil else { return }
            deferredSlot = nil
            tryRoute(step: step)
        }

        /// Play hands over the referrer of the latest store visit.
        mutating func receiveReferrer(step: Int) {
            // The latest tap's link (``Journey/latestLink``).
            let slot: UInt8 = linkCount >= 2 ? 1 : 0
            switch facts(slot: slot).action {
            case .organic: sawOrganic = true
            case .notSet: sawNotSet = true
            case .noPayload: break
            case .reject(let reason): rejection = reason
            case .route:
                // Same install-begin timestamp as before: a re-delivery, routed at most once per install.
                guard !get(consumed, slot) else { return }
                if get(storePending, slot) {
                    if !get(resolverPending, slot) { capture(slot: slot, step: step) }
                    return
                }
                set(&storePending, slot, true)
                // Play reports the click time: a referrer link's age counts from the tap.
                markCaptured(slot, at: slot == 0 ? tapTime.0 : tapTime.1)
                capture(slot: slot, step: step)
            }
        }

        mutating func capture(slot: UInt8, step: Int) {
            switch facts(slot: slot).action {
            case .reject(let reason):
                rejection = reason
                set(&storePending, slot, false)
                return
            case .organic, .notSet, .noPayload:
                set(&storePending, slot, false)
                return
            case .route:
                break
            }
            set(&resolverPending, slot, true)
            tryRoute(step: step)
        }

        mutating func markCaptured(_ slot: UInt8, at time: UInt32) {
            set(&captured, slot, true)
            if slot == 0 { capturedAt.0 = time } else { capturedAt.1 = time }
        }

        mutating func drop(_ slot: UInt8) {
            set(&resolverPending, slot, false)
            set(&storePending, slot, false)
        }

        mutating func tryRoute(step: Int) {
            guard running else { return }
            for slot: UInt8 in 0...1 where get(resolverPending, slot) {
                if Oracle.isExpired(capturedAt: time(capturedAt, slot), now: now, ttl: ttl) {
                    sawExpired = true
                    drop(slot)
                }
            }
            guard ready else { return }
            var newest: UInt8?
            for slot: UInt8 in 0...1 where get(resolverPending, slot) {
                if let current = newest, time(capturedAt, current) > time(capturedAt, slot) { continue }
                newest = slot
            }
            guard let slot = newest else { return }
            // Declined by the router: it (and every older link) waits for the next signal.
            if deferredSlot == slot { return }
            guard gateOpen(slot: slot) else { return }
            for other: UInt8 in 0...1 where other != slot && get(resolverPending, other) {
                sawSuperseded = true
                drop(other)
                set(&consumed, other, true)
            }
            set(&consumed, slot, true)
            drop(slot)
            if crashArmed {
                crashArmed = false
                crashedSlot = slot
                crashStep = step
                running = false
                ready = false
                loggedIn = false
                resolverPending = (false, false)
                return
            }
            if routerDeclines {
                // Not ready: the consumed mark is withdrawn and the link is pending again, in the
                // container and in the process, until the next signal.
                routerDeclines = false
                set(&consumed, slot, false)
                set(&storePending, slot, true)
                set(&resolverPending, slot, true)
                deferredSlot = slot
                return
            }
            routedSlot = slot
            routeStep = step
        }

        mutating func recordGates(step: Int) {
            guard running, ready, step < 64 else { return }
            let bit: UInt64 = 1 << UInt64(step)
            if gateOpen(slot: 0) { gateMasks.0 |= bit }
            if linkCount >= 2, gateOpen(slot: 1) { gateMasks.1 |= bit }
        }

        /// Whether the login part of the gate of the link in `slot` is open (`appReady` is checked
        /// apart): no login needed, or logged in, and for a link bound to an account, as that account.
        func gateOpen(slot: UInt8) -> Bool {
            let entry = facts(slot: slot)
            if let bound = entry.account { return loggedIn && account == bound }
            return !entry.needsLogin || loggedIn
        }

        func conclusion() -> Expectation {
            var expectation = Expectation(
                outcome: .noLink,
                targetSlot: nil,
                routeStep: routeStep,
                gateMasks: gateMasks,
                captureTimes: capturedAt,
                endedPending: false,
                refusedReplay: refusedReplay
            )
            if let slot = routedSlot {
                expectation.outcome = sawSuperseded ? .superseded : .routed
                expectation.otherLinkExpired = sawExpired
                expectation.targetSlot = slot
            } else if let slot = crashedSlot {
                expectation.outcome = .crashWindow
                expectation.targetSlot = slot
                expectation.crashStep = crashStep
            } else if sawExpired {
                expectation.outcome = .expired
            } else if let rejection {
                expectation.outcome = .rejected(rejection)
            } else if sawOrganic {
                expectation.outcome = .organic
            } else if sawNotSet {
                expectation.outcome = .notSet
            } else {
                // Still pending and unexpired: the script ended before the gate could decide.
                if !clipOnly {
                    for slot: UInt8 in 0...1
                    where (get(resolverPending, slot) || get(storePending, slot))
                        && !Oracle.isExpired(capturedAt: time(capturedAt, slot), now: now, ttl: ttl)
                    {
                        expectation.endedPending = true
                    }
                }
            }
            return expectation
        }
    }
}
