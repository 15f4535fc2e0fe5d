import DeepLinkCore

/// `copies` captures of one payload back to back, each through the example app's public capture
/// call (``ExampleAppCapture``) on the delivering thread, as an app's handler would make it: under
/// new ids when `newIDs` (as Play re-delivers a referrer: copy `c` gets id `id + idOffset + 1000 c`),
/// otherwise under its own id (as a universal link read again). A signed link's nonce replaces the
/// id on every copy, and every copy is validated and authenticated again.
///
/// Thread safety: a value type. `@unchecked Sendable`: `payload` points at bytes nobody writes or
/// frees (a catalog ``UTF8Table``'s, or a literal's), which any thread may read.
struct CaptureBurst: @unchecked Sendable {
    /// Which capture call the copies go through.
    enum Call: Sendable {
        /// ``ExampleAppCapture/link(_:source:into:atNanos:id:installBeginTimestamp:attribution:)``.
        case link(LinkSource)
        /// ``ExampleAppCapture/referrer(_:into:clickNanos:id:installBeginTimestamp:)``: the capture
        /// time is Play's click time.
        case referrer
    }

    var call: Call
    var payload: UnsafeRawBufferPointer
    var capturedAtNanos: UInt64
    var id: UInt64
    var installBeginTimestamp: UInt64 = 0
    var copies: Int
    var newIDs: Bool
    var idOffset: UInt64 = 0
    /// Where the first copy's verdict goes (a link's rejection as ``ReferrerVerdict/rejected(_:)``,
    /// its capture as ``ReferrerVerdict/link``), for the thread that owns the journey to note after
    /// the race; `nil`: nowhere.
    ///
    /// Unretained: its owner, the strategy, outlives every race it delivers (a race ends before the
    /// strategy's `race` returns). Held strongly, it made a race's inputs reference-counted: each
    /// of their dozen copies on the way to the race's threads retained and released it.
    var firstVerdict: Unmanaged<Locked<ReferrerVerdict?>>?

    func deliver(to resolver: LinkResolver) {
        let app = ExampleAppCapture.shared
        for index in 0..<max(1, copies) {
            let copyID = newIDs ? id &+ idOffset &+ UInt64(index) &* 1_000 : id
            let verdict: ReferrerVerdict
            switch call {
            case .link(let source):
                let rejection = app.link(
                    payload,
                    source: source,
                    into: resolver,
                    atNanos: capturedAtNanos,
                    id: copyID,
                    installBeginTimestamp: installBeginTimestamp
                )
                verdict = rejection.map(ReferrerVerdict.rejected) ?? .link
            case .referrer:
                verdict = app.referrer(
                    payload,
                    into: resolver,
                    clickNanos: capturedAtNanos,
                    id: copyID,
                    installBeginTimestamp: installBeginTimestamp
                )
            }
            if index == 0, let firstVerdict { firstVerdict._withUnsafeGuaranteedRef { $0.withLock { $0 = verdict } } }
        }
    }
}
