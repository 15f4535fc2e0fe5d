import DeepLinkCore

// The journey's steps as the example app lives them. Each returns how many steps it delivered: 2
// when it started the journey's race, which delivers the next step's signal with it.
extension CoreStrategy {
    /// The App Clip writes its invocation URL into the container (signed links checked against
    /// the container's consumed marks first).
    mutating func clipWrite(
        url id: UInt8,
        slot: UInt8,
        at nowNanos: UInt64,
        _ observation: inout StrategyObservation,
        _ metrics: inout OperationHistograms
    ) {
        let start = stopwatch.now()
        var rejection = CoreStrategy.urlBytes.withBytes(Int(id)) { url in
            capture.clipWrite(url: url, into: store, atNanos: nowNanos, id: 1 + UInt64(slot))
        }
        metrics.validate.record(stopwatch.nanos(since: start))
        if let refused = rejection {
            guard note(refused, &observation) else {
                // A link that validated was checked in the container, signed or not.
                if ExampleAppCapture.isSignatureRejection(refused) { install.storeUntouched = false }
                return
            }
            rejection = Self.homeRoute.withBytes(0) { url in
                capture.clipWrite(url: url, into: store, atNanos: nowNanos, id: 1 + UInt64(slot))
            }
        }
        install.storeUntouched = false
        if rejection == nil { install.containerExists = true }
    }

    /// A launch: the previous process (if any) dies; the next one finds what the container kept.
    mutating func launch(raced: RacingPair?, journey: Journey, _ observation: inout StrategyObservation) -> Int {
        resolver.relaunch()
        if hooks.relaunchForgetsContainer && install.launched {
            store.reset()
        } else if !install.storeUntouched {
            store.relaunchInPlace()
        }
        install.storeUntouched = false
        process.restart()
        install.containerExists = true
        install.processRunning = true
        install.launched = true
        if let raced {
            deliver(raced, journey: journey, capture: .launch)
            return 2
        }
        if let loaded = try? resolver.launch(), loaded > 0 { observation.paths.insert(.launchBatch) }
        hooks.afterLaunch(resolver)
        return 1
    }

    /// Play's Install Referrer delivers the journey's latest referrer to the running app; its
    /// link's capture time is the tap's. Re-deliveries come under new ids (the install-begin
    /// timestamp dedupes them).
    mutating func referrer(
        _ id: UInt8,
        tapNanos: UInt64,
        raced: RacingPair?,
        _ journey: Journey,
        _ observation: inout StrategyObservation,
        _ metrics: inout OperationHistograms
    ) -> Int {
        let installBegin = hooks.installBeginTimestamp(install.installBegin)
        let deliveryID = 100 &+ install.deliveries &+ 1
        let verdict: ReferrerVerdict?
        var delivered = 1
        if let raced {
            let burst = CaptureBurst(
                call: .referrer,
                payload: Self.referrerBytes.bytes(Int(id)),
                capturedAtNanos: tapNanos,
                id: deliveryID,
                installBeginTimestamp: installBegin,
                copies: Self.burstCopies,
                newIDs: true
            )
            verdict = race(raced, journey: journey, burst)
            delivered = 2
        } else {
            let start = stopwatch.now()
            verdict = CoreStrategy.referrerBytes.withBytes(Int(id)) { referrer in
                capture.referrer(
                    referrer,
                    into: resolver,
                    clickNanos: tapNanos,
                    id: deliveryID,
                    installBeginTimestamp: installBegin
                )
            }
            metrics.parse.record(stopwatch.nanos(since: start))
        }
        switch verdict {
        case .link:
            install.deliveries &+= 1
        case .rejected(let rejection):
            let linked = ExampleAppCapture.isSignatureRejection(rejection)
            guard note(rejection, &observation) || linked else { break }
            install.deliveries &+= 1
            guard hooks.capturesRejected else { break }
            var attribution = Self.referrerAttributions[Int(id)]
            attribution.clickTimestampSeconds = tapNanos / 1_000_000_000
            _ = Self.homeRoute.withBytes(0) { url in
                capture.link(
                    url,
                    source: .installReferrer,
                    into: resolver,
                    atNanos: tapNanos,
                    id: 100 &+ install.deliveries,
                    installBeginTimestamp: installBegin,
                    attribution: attribution
                )
            }
        case .error(let error):
            observation.reject(RejectionReason(error))
        case .organic, .notSet, .noPayload, nil:
            break  // the resolver reported the install
        }
        return delivered
    }

    /// A universal link opens the running app (read again, it keeps its id).
    mutating func universalLink(
        _ id: UInt8,
        slot: UInt8,
        at nowNanos: UInt64,
        raced: RacingPair?,
        _ journey: Journey,
        _ observation: inout StrategyObservation,
        _ metrics: inout OperationHistograms
    ) -> Int {
        let captureID = 200 + UInt64(slot)
        let rejection: LinkRejection?
        var delivered = 1
        if let raced {
            let burst = CaptureBurst(
                call: .link(.universalLink),
                payload: Self.urlBytes.bytes(Int(id)),
                capturedAtNanos: nowNanos,
                id: captureID,
                copies: Self.burstCopies,
                newIDs: false
            )
            if case .rejected(let refused) = race(raced, journey: journey, burst) {
                rejection = refused
            } else {
                rejection = nil
            }
            delivered = 2
        } else {
            let start = stopwatch.now()
            rejection = CoreStrategy.urlBytes.withBytes(Int(id)) { url in
                capture.link(url, into: resolver, atNanos: nowNanos, id: captureID)
            }
            metrics.validate.record(stopwatch.nanos(since: start))
        }
        guard let rejection, note(rejection, &observation) else { return delivered }
        _ = Self.homeRoute.withBytes(0) { url in
            capture.link(url, into: resolver, atNanos: nowNanos, id: captureID)
        }
        return delivered
    }

    /// The app signals an event; a route it opens is timed from the signal.
    mutating func signal(
        _ signal: AppEvent,
        _ observation: inout StrategyObservation,
        _ metrics: inout OperationHistograms
    ) {
        if case .loggedOut = signal, resolver.pendingCount > 0 { observation.paths.insert(.logoutClosedGate) }
        let routesBefore = router.count
        let start = stopwatch.now()
        resolver.signal(signal)
        if router.count > routesBefore {
            metrics.gateOpenToRoute.record(
                stopwatch.nanos(from: start, to: router.lastRouteReading.load(ordering: .relaxed))
            )
        }
    }

    /// Notes a rejection in the observation (a signature's with its decision path); returns
    /// whether the link is captured anyway (only under ``Faults/routeRejected``).
    mutating func note(_ rejection: LinkRejection, _ observation: inout StrategyObservation) -> Bool {
        if ExampleAppCapture.isSignatureRejection(rejection) {
            observation.paths.insert(rejection == .replayed ? .nonceReplayed : .signatureRejected)
        }
        observation.reject(hooks.rejectionReason(.link(rejection)))
        return hooks.capturesRejected
    }
}
