/// The on-disk layout of one ``FileHandoffStore`` record: a ``PendingLink`` in a versioned,
/// checksummed binary form. Pending records and consumed markers use the same layout.
///
/// Layout version 2 (written; version 1, the same without the attribution, is still read), all
/// integers little-endian:
///
/// | offset    | size | field                                                        |
/// |-----------|------|--------------------------------------------------------------|
/// | 0         | 4    | magic `DLHR`                                                 |
/// | 4         | 2    | layout version (2)                                           |
/// | 6         | 2    | reserved, 0                                                  |
/// | 8         | 4    | body length in bytes                                         |
/// | 12        | 8    | FNV-1a 64 of bytes 4..<12 and the body                       |
/// | 20        | 8    | body: `id`                                                   |
/// | 28        | 8    | body: `capturedAtNanos`                                      |
/// | 36        | 8    | body: `installBeginTimestamp`                                |
/// | 44        | 1    | body: `source` (``LinkSource`` raw value)                    |
/// | 45        | 2    | body: link length n (at most ``DeepLink/capacity``)          |
/// | 47        | n    | body: the link's UTF-8 bytes                                 |
/// | 47+n      | 8    | body: attribution click timestamp (seconds)                  |
/// | 55+n      | 1    | body: attribution flags: bit i field i present, bit 7 truncated |
/// | 56+n      | 6    | body: value length of each attribution field                 |
/// | 62+n      | m    | body: the values back to back (m ≤ ``LinkAttribution/capacity``) |
///
/// Decoding checks, in order: magic (``HandoffStoreError/corruptRecord(name:)``), header present
/// (``HandoffStoreError/truncatedRecord(name:)``), version
/// (``HandoffStoreError/unknownVersion(name:version:)``), declared and actual size against
/// ``maximumByteCount`` (``HandoffStoreError/oversizedRecord(name:)``), body present (truncated),
/// no trailing bytes and checksum (corrupt), then the fields: a known source, a consistent link
/// length, a link that passes ``LinkValidator`` unchanged, a valid ``AccountID`` when there is one,
/// and attribution lengths that add up (absent fields empty, no unknown flag)
/// (``HandoffStoreError/invalidRecord(name:)``). A record
/// is trusted only as far as the validator trusts a payload: a file with a valid checksum still
/// cannot smuggle in `//evil.example`.
///
/// Thread safety: stateless; every member may be called from any thread.
package enum FileHandoffRecord {
    /// The layout version this build writes and reads.
    package static let currentVersion: UInt16 = 3

    /// The second layout, without the account: still read.
    package static let accountlessVersion: UInt16 = 2

    /// The first layout, without the account and the attribution: still read.
    package static let attributionlessVersion: UInt16 = 1

    /// The record magic, `DLHR`.
    package static let magic: [UInt8] = Array("DLHR".utf8)

    /// Bytes before the body.
    package static let headerByteCount = 20

    /// Body bytes before the link.
    package static let fixedBodyByteCount = 27

    /// Fixed attribution bytes after the link (version 2): click timestamp, flags, six lengths.
    package static let fixedAttributionByteCount = 15

    /// The largest valid record: header, fixed body fields, a link of ``DeepLink/capacity``, an
    /// account of ``AccountID/capacity`` and a full attribution.
    package static var maximumByteCount: Int {
        headerByteCount + fixedBodyByteCount + DeepLink.capacity + 1 + AccountID.capacity
            + fixedAttributionByteCount + LinkAttribution.capacity
    }

    /// The record for `link`, ready to be written.
    ///
    /// - Complexity: O(n) in the link's length; allocates the returned array.
    package static func encode(_ link: PendingLink) -> [UInt8] {
        var body: [UInt8] = []
        body.reserveCapacity(fixedBodyByteCount + link.link.utf8Count)
        _appendLittleEndian(link.id, to: &body)
        _appendLittleEndian(link.capturedAtNanos, to: &body)
        _appendLittleEndian(link.installBeginTimestamp, to: &body)
        body.append(link.source.rawValue)
        _appendLittleEndian(UInt16(link.link.utf8Count), to: &body)
        link.link.withUTF8Bytes { body.append(contentsOf: $0) }
        body.append(UInt8(link.account?.utf8Count ?? 0))
        link.account?.withUTF8Bytes { body.append(contentsOf: $0) }
        let attribution = link.attribution
        _appendLittleEndian(attribution.clickTimestampSeconds, to: &body)
        body.append(attribution._present | (attribution.isTruncated ? 0x80 : 0))
        var values: [UInt8] = []
        for field in LinkAttribution.Field.allCases {
            attribution.withValue(field) { value in
                body.append(UInt8(value?.count ?? 0))
                if let value { values.append(contentsOf: value) }
            }
        }
        body.append(contentsOf: values)

        var record = magic
        record.reserveCapacity(headerByteCount + body.count)
        _appendLittleEndian(currentVersion, to: &record)
        _appendLittleEndian(UInt16(0), to: &record)
        _appendLittleEndian(UInt32(body.count), to: &record)
        _appendLittleEndian(_checksum(record[4..<12], body), to: &record)
        record.append(contentsOf: body)
        return record
    }

    /// Decodes a record read from the file `name` (the name is used in errors only).
    ///
    /// - Complexity: O(n) in the record's length.
    package static func decode(_ bytes: [UInt8], name: String) -> Result<PendingLink, HandoffStoreError> {
        if bytes.count >= magic.count, Array(bytes[0..<magic.count]) != magic {
            return .failure(.corruptRecord(name: name))
        }
        guard bytes.count >= headerByteCount else { return .failure(.truncatedRecord(name: name)) }
        let version = _readLittleEndian(UInt16.self, bytes, at: 4)
        guard version == currentVersion || version == accountlessVersion || version == attributionlessVersion else {
            return .failure(.unknownVersion(name: name, version: Int(version)))
        }
        let bodyCount = Int(_readLittleEndian(UInt32.self, bytes, at: 8))
        guard headerByteCount + bodyCount <= maximumByteCount, bytes.count <= maximumByteCount else {
            return .failure(.oversizedRecord(name: name))
        }
        guard bytes.count >= headerByteCount + bodyCount else { return .failure(.truncatedRecord(name: name)) }
        guard bytes.count == headerByteCount + bodyCount else { return .failure(.corruptRecord(name: name)) }
        let body = bytes[headerByteCount...]
        guard _readLittleEndian(UInt64.self, bytes, at: 12) == _checksum(bytes[4..<12], body) else {
            return .failure(.corruptRecord(name: name))
        }
        guard _readLittleEndian(UInt16.self, bytes, at: 6) == 0, bodyCount >= fixedBodyByteCount else {
            return .failure(.invalidRecord(name: name))
        }
        let base = headerByteCount
        let linkCount = Int(_readLittleEndian(UInt16.self, bytes, at: base + 25))
        let afterLinkCount = bodyCount - fixedBodyByteCount - linkCount
        guard let source = LinkSource(rawValue: bytes[base + 24]), linkCount <= bodyCount - fixedBodyByteCount,
            version == attributionlessVersion ? afterLinkCount == 0 : afterLinkCount >= fixedAttributionByteCount
        else {
            return .failure(.invalidRecord(name: name))
        }
        let linkStart = base + fixedBodyByteCount
        var attributionStart = linkStart + linkCount
        var account: AccountID?
        if version == currentVersion {
            let accountCount = Int(bytes[attributionStart])
            guard afterLinkCount >= 1 + accountCount + fixedAttributionByteCount else {
                return .failure(.invalidRecord(name: name))
            }
            if accountCount > 0 {
                let accountStart = attributionStart + 1
                let decoded = bytes.withUnsafeBytes { all in
                    try? AccountID(
                        validating: UnsafeRawBufferPointer(rebasing: all[accountStart..<accountStart + accountCount])
                    )
                }
                guard let decoded else { return .failure(.invalidRecord(name: name)) }
                account = decoded
            }
            attributionStart += 1 + accountCount
        }
        let validated = bytes.withUnsafeBytes { all in
            _pathValidator.validate(UnsafeRawBufferPointer(rebasing: all[linkStart..<linkStart + linkCount]))
        }
        // The stored link must already be canonical: validation must accept it without change.
        guard case .success(let link) = validated, link.utf8Count == linkCount else {
            return .failure(.invalidRecord(name: name))
        }
        var attribution = LinkAttribution()
        if version != attributionlessVersion {
            guard let decoded = _decodeAttribution(bytes, at: attributionStart) else {
                return .failure(.invalidRecord(name: name))
            }
            attribution = decoded
        }
        return .success(
            PendingLink(
                link: link,
                source: source,
                capturedAtNanos: _readLittleEndian(UInt64.self, bytes, at: base + 8),
                id: _readLittleEndian(UInt64.self, bytes, at: base),
                installBeginTimestamp: _readLittleEndian(UInt64.self, bytes, at: base + 16),
                attribution: attribution,
                account: account
            )
        )
    }

    /// The attribution stored from `start` to the end of `bytes`, or `nil` when its lengths do not
    /// add up, an absent field has a value, or an unknown flag is set.
    static func _decodeAttribution(_ bytes: [UInt8], at start: Int) -> LinkAttribution? {
        var attribution = LinkAttribution(clickTimestampSeconds: _readLittleEndian(UInt64.self, bytes, at: start))
        let flags = bytes[start + 8]
        guard flags & 0x40 == 0 else { return nil }
        if flags & 0x80 != 0 { attribution.markTruncated() }
        let fieldCount = LinkAttribution.Field.allCases.count
        var valueStart = start + fixedAttributionByteCount
        var total = 0
        for index in 0..<fieldCount { total += Int(bytes[start + 9 + index]) }
        guard total <= LinkAttribution.capacity, valueStart + total == bytes.count else { return nil }
        for index in 0..<fieldCount {
            let count = Int(bytes[start + 9 + index])
            guard flags & (1 << index) != 0 else {
                guard count == 0 else { return nil }
                attribution.skip(index)
                continue
            }
            bytes.withUnsafeBytes { all in
                attribution.append(UnsafeRawBufferPointer(rebasing: all[valueStart..<valueStart + count]), as: index)
            }
            valueStart += count
        }
        return attribution
    }

    /// Stored links are canonical paths; no host is needed to re-check them.
    private static let _pathValidator = LinkValidator(configuration: .init(allowedHosts: []))

    /// FNV-1a 64 over `header` then `body`.
    static func _checksum(_ header: ArraySlice<UInt8>, _ body: some Sequence<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in header {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        for byte in body {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    static func _appendLittleEndian<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        var remaining = value.littleEndian
        withUnsafeBytes(of: &remaining) { bytes.append(contentsOf: $0) }
    }

    static func _readLittleEndian<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
        var value: T = 0
        for index in 0..<MemoryLayout<T>.size {
            value |= T(bytes[offset + index]) << (8 * index)
        }
        return value
    }
}
