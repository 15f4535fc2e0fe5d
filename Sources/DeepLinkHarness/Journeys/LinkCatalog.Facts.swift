extension LinkCatalog {
    /// What the generator, the oracle and the classifier ask of an entry per event, without its
    /// strings: a few bytes, no references. Reading an ``Entry`` copies (retains and releases) its
    /// four strings; these are derived from ``entries`` once.
    ///
    /// Thread safety: a value type; `Sendable`.
    package struct Facts: Sendable, Hashable {
        /// The entry's ``Verdict`` without the canonical link.
        package enum Action: Sendable, Hashable {
            case route
            case reject(RejectionReason)
            case organic
            case notSet
            case noPayload
        }

        package var action: Action
        /// ``Verdict/needsLogin``.
        package var needsLogin: Bool
        /// Equal for two routable entries exactly when their canonical links are equal (the id of
        /// the first entry with that link); an entry that does not route has its own id.
        package var destination: UInt8
        /// ``Entry/account``.
        package var account: UInt8?
        /// ``Entry/singleUse``.
        package var singleUse: Bool

        /// ``Verdict/isRoutable``.
        @inline(__always)
        package var isRoutable: Bool { action == .route }

        init(_ entry: Entry, destination: UInt8) {
            switch entry.verdict {
            case .route: action = .route
            case .reject(let reason): action = .reject(reason)
            case .organic: action = .organic
            case .notSet: action = .notSet
            case .noPayload: action = .noPayload
            }
            needsLogin = entry.verdict.needsLogin
            self.destination = destination
            account = entry.account
            singleUse = entry.singleUse
        }
    }

    /// The facts of every entry, by id.
    package static let facts: [Facts] = entries.indices.map { index in
        let entry = entries[index]
        var destination = UInt8(index)
        if case .route(let canonical, _) = entry.verdict,
            let first = entries.firstIndex(where: {
                if case .route(let other, _) = $0.verdict { return other == canonical }
                return false
            })
        {
            destination = UInt8(first)
        }
        return Facts(entry, destination: destination)
    }

    /// The facts of ``unknown``.
    package static let unknownFacts = Facts(unknown, destination: unknownID)

    /// The facts of entry `id` (``entry(_:)``'s), ``unknownFacts`` for any other id.
    @inline(__always)
    package static func facts(_ id: UInt8) -> Facts { Int(id) < facts.count ? facts[Int(id)] : unknownFacts }
}
