import DeepLinkCore

/// `FileHandoffRecord`: any bytes decode to a record or a named error; a decoded record encodes back
/// to exactly the bytes it came from; encoded records survive decoding; any single-byte change or
/// truncation of a valid record is refused.
///
/// Input: the first byte picks a mode.
/// - raw: the rest is a record file, decoded as is;
/// - sealed: the rest is a record whose body length and checksum are then made consistent, so that
///   the fuzzer reaches the field checks behind the checksum;
/// - structured: fields and a link are read from the rest, encoded, decoded, then damaged.
enum RecordFuzzer {
    static let name = "fuzz.rec"

    static func run(_ input: UnsafeRawBufferPointer) {
        var cursor = FuzzInput(input)
        switch cursor.byte() % 3 {
        case 0: checkDecode(cursor.rest())
        case 1: checkDecode(sealed(cursor.rest()))
        default: checkStructured(&cursor)
        }
    }

    /// Decodes `bytes`; a success must be canonical (encodes back to `bytes`), a failure must name
    /// the file.
    static func checkDecode(_ bytes: [UInt8]) {
        let result = FileHandoffRecord.decode(bytes, name: name)
        fuzzCheck(FileHandoffRecord.decode(bytes, name: name) == result, "decoding is not deterministic")
        switch result {
        case .success(let record):
            // Only the current layout is canonical: a version 1 record is rewritten as version 2.
            if Int(bytes[4]) | Int(bytes[5]) << 8 == Int(FileHandoffRecord.currentVersion) {
                fuzzCheck(FileHandoffRecord.encode(record) == bytes, "a decoded record does not encode to its bytes")
            }
            fuzzCheck(FileHandoffRecord.decode(FileHandoffRecord.encode(record), name: name) == .success(record), "")
        case .failure(let error):
            checkNamed(error, bytes: bytes)
        }
    }

    static func checkNamed(_ error: HandoffStoreError, bytes: [UInt8]) {
        switch error {
        case .corruptRecord(let errorName), .truncatedRecord(let errorName), .oversizedRecord(let errorName),
            .invalidRecord(let errorName):
            fuzzCheck(errorName == name, "the error names another file")
        case .unknownVersion(let errorName, let version):
            fuzzCheck(errorName == name, "the error names another file")
            fuzzCheck(bytes.count >= 6 && version == Int(bytes[4]) | Int(bytes[5]) << 8, "wrong version reported")
            fuzzCheck(version != Int(FileHandoffRecord.currentVersion), "current version reported as unknown")
            fuzzCheck(version != Int(FileHandoffRecord.attributionlessVersion), "version 1 reported as unknown")
        case .full, .io:
            fuzzCheck(false, "decoding reported \(error)")
        }
        if bytes.count > FileHandoffRecord.maximumByteCount, bytes.starts(with: FileHandoffRecord.magic) {
            let version = Int(bytes[4]) | Int(bytes[5]) << 8
            if version == Int(FileHandoffRecord.currentVersion) {
                fuzzCheck(error == .oversizedRecord(name: name), "an oversized record reported as \(error)")
            }
        }
    }

    /// `bytes` with the magic, version, body length and checksum fixed up, so decoding judges the
    /// fields.
    static func sealed(_ bytes: [UInt8]) -> [UInt8] {
        var record = FileHandoffRecord.magic + [1, 0] + Array(bytes.prefix(2))
        record += [UInt8](repeating: 0, count: 8 - record.count)
        let body = Array(bytes.dropFirst(2).prefix(FileHandoffRecord.maximumByteCount - 20))
        var length = UInt32(body.count).littleEndian
        withUnsafeBytes(of: &length) { record += $0 }
        var checksum = fnv1a(Array(record[4..<12]) + body).littleEndian
        withUnsafeBytes(of: &checksum) { record += $0 }
        return record + body
    }

    /// FNV-1a 64, as the layout documents it.
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return hash
    }

    static func checkStructured(_ cursor: inout FuzzInput) {
        let id = cursor.uint64()
        let capturedAt = cursor.uint64()
        let installBegin = cursor.uint64()
        let source = LinkSource.allCases[cursor.choose(LinkSource.allCases.count)]
        let damageAt = Int(cursor.byte()) | Int(cursor.byte()) << 8
        let damage = cursor.byte()
        let linkBytes = cursor.rest()
        let validator = LinkValidator(configuration: .init(allowedHosts: []))
        guard case .success(let link) = linkBytes.withUnsafeBytes({ validator.validate($0) }) else { return }
        let pending = PendingLink(
            link: link,
            source: source,
            capturedAtNanos: capturedAt,
            id: id,
            installBeginTimestamp: installBegin
        )
        let record = FileHandoffRecord.encode(pending)
        fuzzCheck(record.count <= FileHandoffRecord.maximumByteCount, "an encoded record exceeds the maximum")
        fuzzCheck(FileHandoffRecord.decode(record, name: name) == .success(pending), "decode(encode(x)) != x")

        var damaged = record
        damaged[damageAt % record.count] ^= damage == 0 ? 1 : damage
        let damagedResult = FileHandoffRecord.decode(damaged, name: name)
        guard case .failure(let error) = damagedResult else {
            return fuzzCheck(false, "a record with byte \(damageAt % record.count) changed still decodes")
        }
        checkNamed(error, bytes: damaged)

        let truncated = Array(record.prefix(damageAt % record.count))
        guard case .failure(let truncatedError) = FileHandoffRecord.decode(truncated, name: name) else {
            return fuzzCheck(false, "a truncated record still decodes")
        }
        checkNamed(truncatedError, bytes: truncated)
        let extended = record + [damage]
        fuzzCheck(FileHandoffRecord.decode(extended, name: name) != .success(pending), "trailing byte accepted")
    }
}
