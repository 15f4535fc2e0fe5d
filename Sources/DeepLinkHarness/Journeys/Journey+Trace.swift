extension Journey {
    /// The event trace on one line: `tap(product)@0; clipInvoked(product)@1; …` (times in seconds
    /// of virtual time since the first tap). Used in violations.csv and by `replay`.
    package var trace: String {
        var parts: [String] = []
        parts.reserveCapacity(eventCount)
        for step in 0..<eventCount {
            let event = events[step]
            parts.append("\(describe(event))@\(event.atSeconds)")
        }
        return parts.joined(separator: "; ")
    }

    /// `kind(argument)` for one event.
    package func describe(_ event: JourneyEvent) -> String {
        switch event.kind {
        case .tap, .clipInvoked, .clipHandoffWrite, .storeVisit, .universalLinkOpen:
            return "\(event.kind.name)(\(LinkCatalog.entry(link(slot: event.argument & 1)).name))"
        case .clockJump:
            return event.argument == JourneyEvent.clockBack ? "clockJump(back)" : "clockJump"
        case .referrerFetch, .referrerRetry:
            let result = event.referrerResult
            guard result.delivered else { return "\(event.kind.name)(\(result.name))" }
            return "\(event.kind.name)(\(result.name):\(LinkCatalog.entry(latestLink).name))"
        case .install, .launch, .appReady, .loginSucceeded, .loginFailed, .sessionRestored, .logout, .kill,
            .crashArmed, .clipboardCopy, .appDeleted, .clipDataPurged:
            return event.kind.name
        }
    }

    /// The background conditions in words (empty when none apply).
    package var worldDescription: String {
        var parts: [String] = []
        if world.fingerprintCollision {
            parts.append("fingerprint collision with \(LinkCatalog.entry(world.collidingLink).name)")
        }
        if world.ipChanged { parts.append("IP changed before launch") }
        if world.pasteDeclined { parts.append("paste prompt declined") }
        if world.privateRelay { parts.append("browser behind iCloud Private Relay") }
        if world.clipboardCleared { parts.append("clipboard cleared before launch") }
        if !extras.isEmpty { parts.append("also: " + extras.names.joined(separator: ", ")) }
        if racing { parts.append("racing delivery (core)") }
        if routerNotReady { parts.append("router not ready at the first offer (core)") }
        return parts.joined(separator: ", ")
    }
}
