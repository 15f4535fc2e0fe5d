extension JourneyGenerator {
    /// Writes one journey's script. Times advance monotonically through `now`.
    struct Builder {
        var journey: Journey
        var random: SplitMix64
        let shares: JourneyGenerator.Shares
        let ttl: UInt32
        let window: UInt32
        var now: UInt32 = 0
        /// The user's saved session (login state that survives a relaunch).
        var loggedIn = false
        /// The account of that session (``LinkCatalog/accounts``), restored with it.
        var sessionAccount = LinkCatalog.linkAccount
        /// The latest time the script reached (the clock may be set back).
        var highWater: UInt32 = 0

        init(journey: Journey, random: SplitMix64, shares: JourneyGenerator.Shares, ttl: UInt32, window: UInt32) {
            self.journey = journey
            self.random = random
            self.shares = shares
            self.ttl = ttl
            self.window = window
        }

        var perturbation: Perturbation { journey.scenario.perturbation }
        var extras: ExtraPerturbations { journey.extras }
        var platform: Platform { journey.scenario.platform }

        /// Inlined: at each call site the kind and the delay are constants, so the session switch and
        /// the delay's width fold away.
        @inline(__always)
        mutating func emit(_ kind: JourneyEvent.Kind, _ argument: UInt8 = 0, after delay: ClosedRange<UInt32>) {
            now &+= random.uniform(delay)
            journey.append(JourneyEvent(kind, argument, at: now))
            switch kind {
            case .loginSucceeded, .sessionRestored:
                loggedIn = true
                sessionAccount = argument
            case .logout, .appDeleted: loggedIn = false
            case .tap, .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .launch, .referrerFetch, .referrerRetry,
                .appReady, .loginFailed, .kill, .crashArmed, .clockJump, .universalLinkOpen, .clipboardCopy,
                .clipDataPurged:
                break
            }
            highWater = max(highWater, now)
        }

        /// The device clock is set back by one hour to two days (never before 0).
        mutating func setClockBack() {
            now -= min(now, random.uniform(3_600...172_800))
            journey.append(JourneyEvent(.clockJump, JourneyEvent.clockBack, at: now))
        }

        /// The clock jumps past the time-to-live (from the latest time seen: the clock may have been
        /// set back).
        mutating func jumpPastTTL() {
            now = max(now, highWater) &+ ttl
            emit(.clockJump, after: 3_600...86_400)
        }

        mutating func chooseLinks() {
            switch perturbation {
            case .forged:
                // One in five: the genuine signed link, opened again once routed (a replay).
                journey.links.0 = random.chance(0.2) ? LinkCatalog.signedLink : random.element(LinkCatalog.forgedLinks)
            case .hostile:
                journey.links.0 = random.element(
                    platform == .android ? LinkCatalog.hostileLinks : LinkCatalog.hostileURLLinks
                )
            case .gateBypass:
                journey.links.0 = random.element(
                    platform == .android ? LinkCatalog.gateBypassLinks : LinkCatalog.gateBypassURLLinks
                )
            case .organic:
                journey.links.0 = LinkCatalog.organic
            case .notSet:
                journey.links.0 = LinkCatalog.notSet
            case .bareToken:
                journey.links.0 = LinkCatalog.bareToken
            case .doubleEncoded:
                journey.links.0 = LinkCatalog.doubleEncoded
            case .otherAccount:
                journey.links.0 = random.element(LinkCatalog.accountLinks)
            case .logout, .lateLogin, .loginFailed:
                // The perturbation matters for links behind the login gate; mostly pick those.
                journey.links.0 = random.element(random.chance(0.8) ? LinkCatalog.loginLinks : LinkCatalog.openLinks)
            case .none, .noLogin, .kill, .crashWindow, .duplicateDelivery, .secondTap, .clockJump, .referrerDelayed,
                .referrerUnavailable, .referrerDisconnected, .featureNotSupported, .clipOnly:
                let pool = random.chance(shares.loginLinkShare) ? LinkCatalog.loginLinks : LinkCatalog.openLinks
                journey.links.0 = random.element(pool)
                if perturbation == .secondTap {
                    // Another destination; half the time one behind the other gate (a login link after
                    // an open one, or the reverse): the newer link waits for its own gate.
                    let otherGate = random.chance(0.5)
                    let secondPool =
                        otherGate
                        ? (pool == LinkCatalog.loginLinks ? LinkCatalog.openLinks : LinkCatalog.loginLinks) : pool
                    var second = random.element(secondPool)
                    while second == journey.links.0 { second = random.element(secondPool) }
                    journey.links.1 = second
                }
            }
            switch perturbation {
            case .organic, .notSet, .bareToken: journey.linkCount = 0
            case .secondTap: journey.linkCount = 2
            case .none, .lateLogin, .loginFailed, .noLogin, .logout, .kill, .crashWindow, .duplicateDelivery,
                .clockJump, .hostile, .doubleEncoded, .referrerDelayed, .referrerUnavailable, .referrerDisconnected,
                .featureNotSupported, .clipOnly, .gateBypass, .otherAccount, .forged:
                journey.linkCount = 1
            }
        }

        /// Which `count` perturbations to compose on top of the journey's own (fewer when fewer apply).
        mutating func chooseExtras(count: Int) {
            // Most journeys compose none: no candidate list to build then.
            guard count > 0 else { return }
            var candidates = ExtraPerturbations.Candidates(platform: platform, perturbation: perturbation)
            var count = count
            while count > 0, candidates.count > 0 {
                let index = Int(random.next() % UInt64(candidates.count))
                journey.extras.insert(candidates.remove(at: index))
                count -= 1
            }
        }

        mutating func chooseWorld() {
            var world = JourneyWorld()
            if random.chance(shares.sharedIPShare), random.chance(shares.collisionShare) {
                world.fingerprintCollision = true
                var other = random.element(LinkCatalog.routableLinks)
                while journey.linkCount > 0, LinkCatalog.sameDestination(other, journey.latestLink) {
                    other = random.element(LinkCatalog.routableLinks)
                }
                world.collidingLink = other
            }
            world.ipChanged = random.chance(shares.ipChangeShare)
            world.pasteDeclined = platform == .ios && random.chance(shares.pasteDeclineShare)
            world.privateRelay = platform == .ios && random.chance(shares.privateRelayShare)
            world.clipboardCleared = random.chance(shares.clipboardClearedShare)
            journey.world = world
        }

        var needsLogin: Bool { LinkCatalog.facts(journey.latestLink).needsLogin }

        mutating func build() {
            chooseLinks()
            chooseWorld()
            switch platform {
            case .installed: buildInstalled()
            case .ios, .android: buildInstall()
            }
            if perturbation == .forged, journey.links.0 == LinkCatalog.signedLink {
                // The same signed link, tapped and opened again later: its nonce was used.
                emit(.tap, 0, after: 30...600)
                emit(.universalLinkOpen, 0, after: 1...2)
            }
        }

        /// Warm path: the app is installed and running when the link is tapped.
        mutating func buildInstalled() {
            emit(.launch, after: 0...0)
            emit(.appReady, after: 1...2)
            let alreadyLoggedIn = perturbation == .logout || random.chance(shares.alreadyLoggedInShare)
            if alreadyLoggedIn { emit(.sessionRestored, LinkCatalog.linkAccount, after: 0...1) }
            if perturbation == .logout { emit(.logout, after: 10...600) }
            emit(.tap, 0, after: 10...600)
            emit(.universalLinkOpen, 0, after: 1...2)
            if !loggedIn { loginPlan() }
            finishPending()
        }

        /// Deferred path: tap, store, install, first launch.
        mutating func buildInstall() {
            let android = platform == .android
            if journey.linkCount > 0 {
                tapAndCapture(slot: 0)
                if journey.linkCount == 2 {
                    now &+= random.uniform(20...300)
                    tapAndCapture(slot: 1)
                }
            }
            if perturbation == .clipOnly { return }
            let latestSlot: UInt8 = journey.linkCount == 2 ? 1 : 0
            if !android { emit(.storeVisit, latestSlot, after: 3...20) }
            if random.chance(shares.interveningCopyShare) { emit(.clipboardCopy, after: 1...60) }
            emit(.install, after: extras.contains(.delayedInstall) ? 3_600...259_200 : 20...180)
            if extras.contains(.clipDataPurged) { emit(.clipDataPurged, after: 1...600) }
            if extras.contains(.reinstall) {
                // Deleted unopened, installed again: from a new tap (iOS) or the same listing (Android).
                emit(.appDeleted, after: 60...3_600)
                if android {
                    emit(.storeVisit, latestSlot, after: 10...600)
                } else if journey.linkCount > 0 {
                    tapAndCapture(slot: latestSlot)
                    emit(.storeVisit, latestSlot, after: 3...20)
                }
                emit(.install, after: 20...180)
            }
            let jumpBeforeLaunch = perturbation == .clockJump && (!needsLogin || random.chance(0.5))
            if jumpBeforeLaunch { jumpPastTTL() }
            let launchIndex = journey.eventCount
            emit(.launch, after: 1...60)
            if perturbation == .crashWindow { emit(.crashArmed, after: 0...0) }
            switch perturbation {
            case .referrerDelayed:
                emit(.appReady, after: 1...3)
                loginPlan()
                emit(.referrerFetch, ReferrerResult.okDelayed.rawValue, after: 5...120)
            case .logout:
                if android && random.chance(0.5) {
                    // The link arrives first and waits for appReady; a login and a logout come before
                    // it: the logout closes the gate the login had opened.
                    emit(.referrerFetch, ReferrerResult.ok.rawValue, after: 0...2)
                    emit(.loginSucceeded, after: 1...5)
                    emit(.logout, after: 1...30)
                    emit(.appReady, after: 1...3)
                } else {
                    emit(.appReady, after: 1...3)
                    emit(.loginSucceeded, after: 10...60)
                    emit(.logout, after: 10...600)
                    if android { emit(.referrerFetch, ReferrerResult.okDelayed.rawValue, after: 1...30) }
                }
                if random.chance(0.6) { emit(.loginSucceeded, after: 30...900) }
            case .referrerUnavailable:
                emit(.referrerFetch, ReferrerResult.serviceUnavailable.rawValue, after: 0...2)
                emit(.appReady, after: 1...3)
                loginPlan()
                relaunch()
            case .referrerDisconnected:
                emit(.referrerFetch, ReferrerResult.serviceDisconnected.rawValue, after: 0...2)
                emit(.referrerRetry, ReferrerResult.ok.rawValue, after: 1...5)
                emit(.appReady, after: 1...3)
                loginPlan()
            case .featureNotSupported:
                emit(.referrerFetch, ReferrerResult.featureNotSupported.rawValue, after: 0...2)
                emit(.appReady, after: 1...3)
                loginPlan()
            case .otherAccount:
                // Somebody else's session first (the link waits for alice); half the time they log out
                // and alice logs in.
                emit(.referrerFetch, ReferrerResult.ok.rawValue, after: 0...2)
                emit(.appReady, after: 1...3)
                emit(.loginSucceeded, LinkCatalog.otherAccount, after: 5...120)
                if random.chance(0.5) {
                    emit(.logout, after: 10...600)
                    emit(.loginSucceeded, LinkCatalog.linkAccount, after: 5...120)
                }
            case .none, .lateLogin, .loginFailed, .noLogin, .kill, .crashWindow, .duplicateDelivery, .secondTap,
                .clockJump, .hostile, .organic, .notSet, .bareToken, .doubleEncoded, .clipOnly, .gateBypass, .forged:
                if android { emit(.referrerFetch, ReferrerResult.ok.rawValue, after: 0...2) }
                emit(.appReady, after: 1...3)
                if perturbation == .clockJump && !jumpBeforeLaunch { jumpPastTTL() }
                loginPlan()
            }
            if extras.contains(.clockBackwards) { setClockBack() }
            if extras.contains(.kill) { insertKill(after: launchIndex) }
            if extras.contains(.duplicateDelivery) {
                for _ in 0..<random.uniform(1...3) { relaunch() }
            }
            switch perturbation {
            case .duplicateDelivery:
                for _ in 0..<random.uniform(1...3) { relaunch() }
            case .kill:
                insertKill(after: launchIndex)
            case .crashWindow:
                relaunch()
            case .none, .lateLogin, .loginFailed, .noLogin, .logout, .secondTap, .clockJump, .hostile, .forged,
                .organic, .notSet, .bareToken, .doubleEncoded, .referrerDelayed, .referrerUnavailable,
                .referrerDisconnected, .featureNotSupported, .clipOnly, .gateBypass, .otherAccount:
                break
            }
            finishPending()
        }

        /// The web tap, and on iOS the clip run and its handoff write; on Android the store visit.
        mutating func tapAndCapture(slot: UInt8) {
            emit(.tap, slot, after: 0...5)
            switch platform {
            case .ios:
                // The clip card skipped: straight to the App Store, nothing written.
                guard !extras.contains(.clipSkipped) else { break }
                emit(.clipInvoked, slot, after: 1...3)
                emit(.clipHandoffWrite, slot, after: 0...2)
            case .android:
                emit(.storeVisit, slot, after: 1...5)
            case .installed:
                emit(.universalLinkOpen, slot, after: 1...2)
            }
        }

        /// Login after the app is ready, as the perturbation says.
        mutating func loginPlan() {
            switch perturbation {
            case .noLogin:
                break
            case .lateLogin:
                emit(.loginSucceeded, after: 1_800...14_400)
            case .loginFailed:
                emit(.loginFailed, after: 10...120)
                if random.chance(0.5) { emit(.loginSucceeded, after: 30...600) }
            case .gateBypass:
                // Half the users of a gated link never log in: a gate the link slips past routes it anyway.
                if random.chance(needsLogin ? 0.5 : shares.optionalLoginShare) { emit(.loginSucceeded, after: 5...120) }
            case .none, .logout, .kill, .crashWindow, .duplicateDelivery, .secondTap, .clockJump, .hostile, .organic,
                .notSet, .bareToken, .doubleEncoded, .referrerDelayed, .referrerUnavailable, .referrerDisconnected,
                .featureNotSupported, .clipOnly, .otherAccount, .forged:
                if needsLogin || random.chance(shares.optionalLoginShare) { emit(.loginSucceeded, after: 5...120) }
            }
        }

        /// The process ends and starts again: restore the session, fetch the referrer, get ready.
        mutating func relaunch() {
            emit(.kill, after: 30...3_600)
            appendLaunchSequence()
        }

        mutating func appendLaunchSequence() {
            emit(.launch, after: 1...60)
            if loggedIn { emit(.sessionRestored, sessionAccount, after: 0...1) }
            if platform == .android { emit(.referrerFetch, ReferrerResult.ok.rawValue, after: 0...2) }
            emit(.appReady, after: 1...3)
        }

        /// A kill at a random step after the first launch, followed by a relaunch; later events keep
        /// their order (their times shift by the relaunch's duration).
        mutating func insertKill(after launchIndex: Int) {
            let position = Int(random.uniform(UInt32(launchIndex + 1)...UInt32(journey.eventCount)))
            let (sessionAtCut, accountAtCut, start) = session(before: position)
            var time = start
            var cursor = position
            func put(_ kind: JourneyEvent.Kind, _ argument: UInt8, _ delay: ClosedRange<UInt32>) {
                time &+= random.uniform(delay)
                journey.insert(JourneyEvent(kind, argument, at: time), at: cursor)
                cursor += 1
            }
            put(.kill, 0, 1...600)
            put(.launch, 0, 1...30)
            if sessionAtCut { put(.sessionRestored, accountAtCut, 0...1) }
            if platform == .android { put(.referrerFetch, ReferrerResult.ok.rawValue, 0...2) }
            put(.appReady, 0, 1...3)
            let shift = time - start
            for index in cursor..<journey.eventCount { journey.events[index].atSeconds &+= shift }
            now = journey.endSeconds
        }

        /// The saved session as of step `position` (login events before it replayed), and the time of
        /// the event before it.
        func session(before position: Int) -> (loggedIn: Bool, account: UInt8, time: UInt32) {
            // Through a span: `journey.events[index]` in a loop copies the inline array.
            let events = journey.events.span
            var loggedIn = false
            var account = LinkCatalog.linkAccount
            for index in 0..<position {
                switch events[index].kind {
                case .loginSucceeded, .sessionRestored:
                    loggedIn = true
                    account = events[index].argument
                case .logout, .appDeleted: loggedIn = false
                case .tap, .clipInvoked, .clipHandoffWrite, .storeVisit, .install, .launch, .referrerFetch,
                    .referrerRetry, .appReady, .loginFailed, .kill, .crashArmed, .clockJump, .universalLinkOpen,
                    .clipboardCopy, .clipDataPurged:
                    break
                }
            }
            return (loggedIn, account, position == 0 ? 0 : events[position - 1].atSeconds)
        }

        /// Journeys whose link can still be pending at the end (no login, logout without a new login,
        /// failed login) end with the clock past the time-to-live, so the expected outcome is decided.
        mutating func finishPending() {
            switch perturbation {
            case .noLogin, .loginFailed, .logout, .gateBypass:
                if !loggedIn && needsLogin {
                    jumpPastTTL()
                    emit(.appReady, after: 0...1)
                }
            case .otherAccount:
                // Alice never logged in: her link must expire, never route for somebody else.
                if sessionAccount != LinkCatalog.linkAccount {
                    jumpPastTTL()
                    emit(.appReady, after: 0...1)
                }
            case .none, .lateLogin, .kill, .crashWindow, .duplicateDelivery, .secondTap, .clockJump, .hostile, .forged,
                .organic, .notSet, .bareToken, .doubleEncoded, .referrerDelayed, .referrerUnavailable,
                .referrerDisconnected, .featureNotSupported, .clipOnly:
                break
            }
        }
    }
}
