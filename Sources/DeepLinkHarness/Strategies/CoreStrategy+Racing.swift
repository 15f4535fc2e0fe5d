import DeepLinkCore

// A racing journey's capture: its record is built as the public capture calls build theirs
// (validated, then authenticated against the resolver's signing), then delivered as a burst of
// copies, at once with the next step's signal, through the resolver's raw capture.
extension CoreStrategy {
    /// Validates a universal link into the scratch record and authenticates it; returns whether
    /// it is captured (a rejection is noted).
    mutating func prepareUniversalLink(
        _ id: UInt8,
        slot: UInt8,
        at nowNanos: UInt64,
        _ observation: inout StrategyObservation,
        _ metrics: inout OperationHistograms
    ) -> Bool {
        let start = stopwatch.now()
        let rejection = CoreStrategy.urlBytes.withBytes(Int(id)) { validator.validate($0, into: &scratch.link) }
        metrics.validate.record(stopwatch.nanos(since: start))
        if let rejection, !noteInScratch(rejection, &observation) { return false }
        fillScratch(source: .universalLink, capturedAtNanos: nowNanos, id: 200 + UInt64(slot))
        return authenticateScratch(&observation)
    }

    /// Reads a referrer into the scratch record (its link, campaign and account) and
    /// authenticates it; returns whether it is captured. A referrer without a link goes to the
    /// resolver (which reports organic and not-set installs as decisions), a rejection is noted.
    mutating func prepareReferrer(
        _ id: UInt8,
        tapNanos: UInt64,
        installBegin: UInt64,
        _ observation: inout StrategyObservation,
        _ metrics: inout OperationHistograms
    ) -> Bool {
        let start = stopwatch.now()
        let accountKey = configuration.referrerAccountKey
        let parser = capture.parser
        let validator = capture.validator
        let verdict = CoreStrategy.referrerBytes.withBytes(Int(id)) { bytes in
            parser.read(bytes, validator: validator, accountKey: accountKey, into: &scratch)
        }
        metrics.parse.record(stopwatch.nanos(since: start))
        switch verdict {
        case .link: break
        case .organic: resolver.captureLinkless(.organic, attribution: scratch.attribution)
        case .notSet: resolver.captureLinkless(.notSet, attribution: scratch.attribution)
        case .noPayload: resolver.captureLinkless(.noPayload, attribution: scratch.attribution)
        case .rejected(let rejection):
            guard noteInScratch(rejection, &observation) else { return false }
        case .error(let error):
            observation.reject(Self.rejectionReason(for: error))
        }
        switch verdict {
        case .organic, .notSet, .noPayload, .error: return false
        case .link, .rejected: break
        }
        install.deliveries &+= 1
        fillScratch(
            source: .installReferrer,
            capturedAtNanos: tapNanos,
            id: 100 &+ install.deliveries,
            installBeginTimestamp: installBegin
        )
        return authenticateScratch(&observation)
    }

    /// The validator of the example app.
    var validator: LinkValidator { capture.validator }

    /// Sets the scratch record's capture fields (its link is already validated into it).
    mutating func fillScratch(
        source: LinkSource,
        capturedAtNanos: UInt64,
        id: UInt64,
        installBeginTimestamp: UInt64 = 0
    ) {
        scratch.source = source
        scratch.capturedAtNanos = capturedAtNanos
        scratch.id = id
        scratch.installBeginTimestamp = installBeginTimestamp
        // A referrer's campaign and account were read into the scratch record; other sources carry
        // neither.
        if source == .installReferrer {
            scratch.attribution.clickTimestampSeconds = capturedAtNanos / 1_000_000_000
        } else {
            scratch.attribution = LinkAttribution()
            scratch.account = nil
        }
    }

    /// Checks the scratch record's signature as the public capture calls do; a rejection is
    /// noted. Returns whether it is captured.
    mutating func authenticateScratch(_ observation: inout StrategyObservation) -> Bool {
        guard let rejection = resolver.authenticate(&scratch) else { return true }
        return noteInScratch(rejection, &observation)
    }

    /// ``note(_:_:)``, and a link captured anyway becomes the scratch record's home route.
    mutating func noteInScratch(_ rejection: LinkRejection, _ observation: inout StrategyObservation) -> Bool {
        guard note(rejection, &observation) else { return false }
        scratch.link = DeepLink(validated: "/")!
        return true
    }

    /// Delivers the scratch record as a burst, raced against the pair's signal. Returns 2: the
    /// signal's step is delivered too.
    mutating func race(_ pair: RacingPair, journey: Journey) -> Int {
        // Referrer re-deliveries come under new ids (the timestamp dedupes them); a clip or
        // universal link read again keeps its id, and so does a signed link, whose id is its
        // nonce on every delivery (authenticated on each).
        let signed = LinkCatalog.entry(journey.latestLink).singleUse
        let newIDs = scratch.source == .installReferrer && !signed
        let mine = CaptureBurst(link: scratch, copies: Self.burstCopies, newIDs: newIDs, idOffset: 0)
        var theirs = mine
        theirs.idOffset = 500
        if journey.index & 2 == 0 {
            // The capture races the gate signal; a second capture source (clip and referrer,
            // two handlers) then delivers the same link: two producers at once.
            deliver(pair, journey: journey, capture: .captures(mine), theirs: .signalThenCaptures(pair.signal, theirs))
        } else {
            // The capture races the gate signal, and the app's navigation hands the link in
            // again from inside the route: those captures meet a queue nobody drains.
            router.reentry.arm(resolver, theirs)
            deliver(pair, journey: journey, capture: .captures(mine))
            router.reentry.disarm()
        }
        return 2
    }

    /// Runs `capture` on this thread and the pair's signal on the partner thread, at once.
    mutating func deliver(_ pair: RacingPair, journey: Journey, capture: RaceInput, theirs: RaceInput? = nil) {
        // Any route during the race is attributed to the later of the two steps.
        router.step.store(pair.capture + 1, ordering: .relaxed)
        racedAt = pair.capture
        clock.set(nanos: UInt64(journey.events[pair.capture + 1].atSeconds) &* 1_000_000_000)
        // Who partners the race (fibers, the paired worker, or a partner thread) is the race
        // machinery's choice (``RaceDelivery``).
        race(capture, theirs ?? .signal(pair.signal), journey: journey)
        if journey.events[pair.capture].kind == .launch { hooks.afterLaunch(resolver) }
    }
}
