/// The raw values of the first field for each ``LinkAttribution/Field`` (and, optionally, for one more
/// key), found in one pass over the fields: what ``ParsedReferrer/field(_:)`` would find for each,
/// without a pass per field.
internal struct _AttributionScan {
    /// The slot of the extra key, after the six attribution fields.
    internal static let extraSlot = 6

    /// The raw (still encoded) value of each slot's first field; meaningful where `found` says.
    internal var values: InlineArray<7, UnsafeRawBufferPointer>

    /// Bit `i` is set when slot `i` has a field.
    internal var found: UInt8 = 0

    internal init() {
        self.values = InlineArray(repeating: UnsafeRawBufferPointer(start: nil, count: 0))
    }

    /// The raw value of slot `slot`'s first field, or `nil` when there is none.
    @inline(__always)
    internal func value(_ slot: Int) -> UnsafeRawBufferPointer? {
        found & 1 << slot != 0 ? values[slot] : nil
    }

    /// Play's placeholder, from the first `utm_source` and `utm_medium` (see
    /// ``ParsedReferrer/placeholder``).
    internal var placeholder: PlayPlaceholder? {
        guard let source = value(LinkAttribution.Field.utmSource._index),
            let medium = value(LinkAttribution.Field.utmMedium._index)
        else { return nil }
        return PlayPlaceholder._of(source: source, medium: medium)
    }

    /// Records the value of the field `start..<end` whose name ends at `nameEnd` (its `=`, or
    /// `end`) for `slot`, unless an earlier field has.
    @inline(__always)
    internal mutating func _note(_ slot: Int, _ base: UnsafeRawPointer, nameEnd: Int, end: Int) {
        guard found & 1 << slot == 0 else { return }
        found |= 1 << slot
        let valueStart = nameEnd < end ? nameEnd &+ 1 : end
        values[slot] = UnsafeRawBufferPointer(start: base + valueStart, count: end &- valueStart)
    }
}

extension ReferrerFields {
    /// The first field for each attribution field and, when `extraKey` is given, for the name
    /// whose decoded UTF-8 it is, in one pass.
    ///
    /// - Complexity: O(n) in the byte count; no allocation.
    internal func _attributionScan(extraKey: UnsafeBufferPointer<UInt8>?) -> _AttributionScan {
        var scan = _AttributionScan()
        guard let base = bytes.baseAddress else { return scan }
        let count = bytes.count
        let wanted: UInt8 = extraKey == nil ? 0x3F : 0x7F
        // As in the parser's scan: an empty name starts with its `=`.
        var extraFirst = UInt8(ascii: "=")
        if let extraKey, !extraKey.isEmpty { extraFirst = extraKey[0] }
        var pieces = _Pieces(base, count: count)
        while scan.found != wanted, let (start, end) = pieces.next() {
            guard end > start else { continue }
            var nameEnd = end
            let slot = LinkAttribution.Field._slot(base, from: start, to: end, count: count, nameEnd: &nameEnd)
            if slot >= 0 { scan._note(slot, base, nameEnd: nameEnd, end: end) }
            guard let extraKey else { continue }
            let first = base.load(fromByteOffset: start, as: UInt8.self)
            guard first == extraFirst || first == UInt8(ascii: "%") || first == UInt8(ascii: "+") else { continue }
            let separator = _firstEqualSign(base, from: start, to: end)
            if _decodedEquals(base + start, count: separator &- start, key: extraKey) {
                scan._note(_AttributionScan.extraSlot, base, nameEnd: separator, end: end)
            }
        }
        return scan
    }
}

extension LinkAttribution.Field {
    /// The slot (``_index``) of the attribution field that the field `start..<end` of the `count`
    /// bytes at `base` names, or -1; when it names one, `nameEnd` is set to the end of its name.
    ///
    /// A plain name is compared as its first and last eight bytes (five for `gclid`); a name that
    /// might be spelled with escapes, or one too close to the end for a word, is decoded instead.
    /// A key starts with `u` or `g`, so a name starting with anything but these or an escape is
    /// none (a `+` decodes to a space, which no key holds).
    @inline(__always)
    internal static func _slot(
        _ base: UnsafeRawPointer,
        from start: Int,
        to end: Int,
        count: Int,
        nameEnd: inout Int
    ) -> Int {
        let first = base.load(fromByteOffset: start, as: UInt8.self)
        guard first == UInt8(ascii: "u") || first == UInt8(ascii: "g") || first == UInt8(ascii: "%") else {
            return -1
        }
        if start &+ 8 <= count {
            // Each key's first and last eight bytes, little-endian ("utm_sour", "m_source", …).
            let word = _word(base, start)
            let slot: Int
            let length: Int
            let last: UInt64
            switch word {
            case 0x7275_6F73_5F6D_7475: (slot, length, last) = (0, 10, 0x6563_7275_6F73_5F6D)
            case 0x6964_656D_5F6D_7475: (slot, length, last) = (1, 10, 0x6D75_6964_656D_5F6D)
            case 0x706D_6163_5F6D_7475: (slot, length, last) = (2, 12, 0x6E67_6961_706D_6163)
            case 0x6D72_6574_5F6D_7475: (slot, length, last) = (3, 8, 0x6D72_6574_5F6D_7475)
            case 0x746E_6F63_5F6D_7475: (slot, length, last) = (4, 11, 0x746E_6574_6E6F_635F)
            default:
                (slot, length, last) = word & 0xFF_FFFF_FFFF == 0x64_696C_6367 ? (5, 5, 0) : (-1, 0, 0)
            }
            let terminator = start &+ length
            if slot >= 0, terminator <= end, length < 8 || _word(base, terminator &- 8) == last,
                terminator == end || base.load(fromByteOffset: terminator, as: UInt8.self) == UInt8(ascii: "=")
            {
                nameEnd = terminator
                return slot
            }
        }
        return _decodedSlot(base, from: start, to: end, nameEnd: &nameEnd)
    }

    /// ``_slot(_:from:to:count:nameEnd:)`` by decoding the name: the rare names that start like a
    /// key but are not spelled like one.
    @inline(never)
    internal static func _decodedSlot(
        _ base: UnsafeRawPointer,
        from start: Int,
        to end: Int,
        nameEnd: inout Int
    ) -> Int {
        let separator = _firstEqualSign(base, from: start, to: end)
        let name = UnsafeRawBufferPointer(start: base + start, count: separator &- start)
        for slot in 0..<LinkAttribution._fieldCount
        where FormDecoding.decoded(name, equals: LinkAttribution.Field(_index: slot).key) {
            nameEnd = separator
            return slot
        }
        return -1
    }
}
