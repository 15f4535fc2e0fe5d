import DeepLinkCore
import DeepLinkCoreTestSupport
import Testing

/// Per-account links: a link that names an account routes only after that account's login; any
/// other login holds it (a named decision), and nothing is lost.
@Suite struct AccountBoundLinkTests {
    typealias F = ResolverFixtures

    static let alice = try! AccountID(validating: "alice")
    static let bob = try! AccountID(validating: "u-1842@example.org")

    static func bound(_ path: String, id: UInt64, to account: AccountID = alice) -> PendingLink {
        var link = F.link(path, id: id)
        link.account = account
        return link
    }

    @Test func accountIDsAreNarrowAndNamed() throws {
        #expect(Self.alice.string == "alice")
        #expect(try AccountID(validating: String(repeating: "a", count: AccountID.capacity)).utf8Count == 64)
        #expect(throws: AccountID.ValidationError.empty) { try AccountID(validating: "") }
        #expect(throws: AccountID.ValidationError.tooLong(count: 65)) {
            try AccountID(validating: String(repeating: "a", count: 65))
        }
        #expect(throws: AccountID.ValidationError.invalidByte(0x20, offset: 3)) {
            try AccountID(validating: "bob smith")
        }
        // Two spellings of one name must not both be ids: no non-ASCII, no case folding.
        #expect(throws: AccountID.ValidationError.invalidByte(0xC3, offset: 1)) { try AccountID(validating: "jörg") }
        #expect(try AccountID(validating: "Alice") != Self.alice)
        #expect("\(AccountID.ValidationError.invalidByte(0x20, offset: 3))".contains("offset 3"))
    }

    @Test func aBoundLinkRoutesOnlyForItsOwnAccount() {
        var machine = F.machine()
        let invite = Self.bound("/product/7", id: 1)
        _ = machine.drain(machine.signal(.appReady, now: 0), now: 0)
        // An open path, but bound: it needs a login.
        let captured = machine.drain(machine.capture(invite, now: 0, consumedBefore: false), now: 0)
        #expect(captured == [.waitForGate(invite, missing: .loggedIn)])
        // Another account: held, reported once.
        #expect(machine.drain(machine.signal(.loggedInAs(Self.bob), now: 0), now: 0) == [.holdForAccount(invite)])
        #expect(machine.drain(machine.tick(now: 1), now: 1) == [])
        #expect(machine.loggedInAccount == Self.bob)
        // A session that names nobody opens no bound link either.
        #expect(machine.drain(machine.signal(.loggedIn, now: 1), now: 1) == [])
        #expect(machine.loggedInAccount == nil)
        #expect(machine.pendingCount == 1)
        // Logout, then the right account.
        _ = machine.drain(machine.signal(.loggedOut, now: 2), now: 2)
        #expect(machine.drain(machine.signal(.loggedInAs(Self.alice), now: 3), now: 3) == [.route(invite)])
        #expect(machine.pendingCount == 0)
    }

    @Test func unboundLinksRouteForAnyLoginAndLogoutClearsTheAccount() {
        var machine = F.machine()
        let order = F.link("/orders/7", id: 1)
        _ = machine.drain(machine.signal(.appReady, now: 0), now: 0)
        _ = machine.drain(machine.capture(order, now: 0, consumedBefore: false), now: 0)
        #expect(machine.drain(machine.signal(.loggedInAs(Self.bob), now: 0), now: 0) == [.route(order)])
        _ = machine.drain(machine.signal(.loggedOut, now: 0), now: 0)
        #expect(machine.loggedInAccount == nil)
        #expect(machine.satisfiedEvents == .appReady)
    }

    @Test func aHeldLinkHoldsOlderLinksBehindItAndTheRightLoginRoutesTheNewest() {
        var machine = F.machine()
        let older = F.link("/product/1", id: 1, at: 0)
        let invite = Self.bound("/product/2", id: 2)
        _ = machine.drain(machine.signal(.loggedInAs(Self.bob), now: 0), now: 0)
        _ = machine.drain(machine.capture(older, now: 0, consumedBefore: false), now: 0)
        var later = invite
        later.capturedAtNanos = 5
        _ = machine.drain(machine.capture(later, now: 5, consumedBefore: false), now: 5)
        // Latest wins: the newest is held for alice, so the older open link waits behind it.
        #expect(machine.drain(machine.signal(.appReady, now: 6), now: 6) == [.holdForAccount(later)])
        #expect(machine.pendingCount == 2)
        let login = machine.drain(machine.signal(.loggedInAs(Self.alice), now: 7), now: 7)
        #expect(login == [.supersede(older, byID: 2), .route(later)])
    }

    @Test func theResolverBindsAReferrerLinkOnlyWhenTheAppOptsIn() throws {
        let parser = ReferrerParser()
        func deliver(_ referrer: String, to app: SimulatedApp, id: UInt64) -> ReferrerVerdict {
            var referrer = referrer
            return referrer.withUTF8 { bytes in
                app.resolver.captureReferrer(
                    UnsafeRawBufferPointer(bytes),
                    parser: parser,
                    validator: TestApp.validator,
                    capturedAtNanos: 0,
                    id: id,
                    installBeginTimestamp: id
                )
            }
        }
        let binding = LinkResolver.Configuration(
            policy: TestApp.policy,
            timeToLiveNanos: 1_000,
            referrerAccountKey: "account"
        )
        let router = RecordingRouter()
        let observer = RecordingObserver()
        let app = SimulatedApp(router: router, observer: observer, configuration: binding)
        app.resolver.signal(.appReady)
        #expect(deliver("deeplink=%2Fproduct%2F9&account=alice", to: app, id: 1) == .link)
        #expect(router.routes.isEmpty, "bound: waits for alice's login")
        app.resolver.signal(.loggedInAs(Self.bob))
        #expect(router.routes.isEmpty)
        #expect(observer.decisions.contains { if case .heldForAccount = $0 { true } else { false } })
        app.resolver.signal(.loggedOut)
        app.resolver.signal(.loggedInAs(Self.alice))
        #expect(router.routes.map(\.link.string) == ["/product/9"])
        #expect(router.routes.first?.account == Self.alice)
        // Fail closed: an account that is not an AccountID is a named rejection, never routed.
        #expect(deliver("deeplink=%2Fproduct%2F10&account=bob%20smith", to: app, id: 2) == .rejected(.invalidAccount))
        #expect(observer.decisions.contains(.rejected(.invalidAccount, source: .installReferrer)))
        #expect(router.routes.count == 1)

        // Not opted in: the field is just another referrer field; the link is for anyone.
        let plainRouter = RecordingRouter()
        let plain = SimulatedApp(router: plainRouter, observer: RecordingObserver())
        plain.resolver.signal(.appReady)
        #expect(deliver("deeplink=%2Fproduct%2F9&account=bob%20smith", to: plain, id: 3) == .link)
        #expect(plainRouter.routes.map(\.account) == [nil])
    }

    @Test func bindingAReferrerLinkAllocatesNothingAfterWarmUp() {
        guard !Sanitizer.isActive else { return }
        #expect(AllocationCounter.isJemallocActive)
        var deliveries = ReferrerDeliveries(
            "deeplink=%2Fproduct%2F42&account=u-1842%40example.org",
            configuration: .init(policy: TestApp.policy, referrerAccountKey: "account")
        )
        let resolver = deliveries.resolver
        func deliver() {
            deliveries.deliver()
            // Bound to u-1842@example.org: held under alice's session, routed at bob's login.
            resolver.signal(.loggedInAs(Self.alice))
            resolver.signal(.loggedInAs(Self.bob))
        }
        for _ in 0..<16 { deliver() }
        let bytes = AllocationCounter.bytesAllocated {
            for _ in 0..<1_000 { deliver() }
        }
        #expect(bytes == 0)
        #expect(resolver.pendingCount == 0, "every bound link was routed at its account's login")
    }

    @Test func theFileStoreKeepsTheAccountAndReadsOlderLayouts() throws {
        let directory = try HandoffTestDirectory()
        defer { directory.remove() }
        let store = try FileHandoffStore(directory: directory.path)
        let invite = Self.bound("/product/7", id: 7, to: Self.bob)
        try store.save(invite)
        #expect(try store.loadPending().pending == [invite])

        // A version 2 record (no account byte) from an earlier build still loads, unbound.
        let plain = F.link("/product/8", id: 8)
        var record = FileHandoffRecord.encode(plain)
        let accountByte = FileHandoffRecord.headerByteCount + FileHandoffRecord.fixedBodyByteCount + 10
        #expect(record[accountByte] == 0)
        record.remove(at: accountByte)
        record[4] = 2
        record[8] -= 1
        try directory.write(FileHandoffStoreTests().resealed(record), to: "pending-0000000000000008.rec")
        #expect(try store.loadPending().pending == [invite, plain])

        // An account the id rules refuse makes the record invalid, even with a good checksum.
        var forged = FileHandoffRecord.encode(Self.bound("/product/9", id: 9, to: Self.alice))
        forged[accountByte + 1] = UInt8(ascii: " ")
        try directory.write(FileHandoffStoreTests().resealed(forged), to: "pending-0000000000000009.rec")
        let loaded = try store.loadPending()
        #expect(loaded.pending == [invite, plain])
        #expect(loaded.skipped.count == 1)
    }
}
