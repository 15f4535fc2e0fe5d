import DeepLinkCore
import Foundation

extension HMACSHA256Authenticator {
    /// A key set from the JSON key file at `path`:
    ///
    /// ```json
    /// {"active": "k2", "keys": [{"id": "k1", "secret": "<hex>"}, {"id": "k2", "secret": "<hex>"}]}
    /// ```
    ///
    /// Secrets are hex (at least ``SigningKey/minimumSecretBytes`` bytes: 64 digits); `active` names
    /// the key new links are signed with; the others still verify (rotation).
    ///
    /// - Throws: ``SigningKeyError``, naming the file or the key.
    public convenience init(keyFile path: String) throws(SigningKeyError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadableKeyFile(path: path, detail: "\(error.localizedDescription)")
        }
        try self.init(keyFileJSON: Array(data), path: path)
    }

    /// A key set from the bytes of a key file (`path` only names it in errors).
    public convenience init(keyFileJSON bytes: [UInt8], path: String) throws(SigningKeyError) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else {
            throw .unreadableKeyFile(path: path, detail: "not a JSON object")
        }
        guard let active = object["active"] as? String else {
            throw .unreadableKeyFile(path: path, detail: "\"active\" is missing or not a string")
        }
        guard let entries = object["keys"] as? [Any] else {
            throw .unreadableKeyFile(path: path, detail: "\"keys\" is missing or not an array")
        }
        if let unknown = object.keys.sorted().first(where: { $0 != "active" && $0 != "keys" }) {
            throw .unreadableKeyFile(path: path, detail: "unknown key \"\(unknown)\"")
        }
        var keys: [SigningKey] = []
        for entry in entries {
            guard let entry = entry as? [String: Any], let id = entry["id"] as? String,
                let secret = entry["secret"] as? String, entry.count == 2
            else {
                throw .unreadableKeyFile(path: path, detail: "every key must be {\"id\": string, \"secret\": string}")
            }
            guard let bytes = Self.hexBytes(secret) else { throw .secretNotHex(keyID: id) }
            keys.append(try SigningKey(id: id, secret: bytes))
        }
        try self.init(keys: keys, activeKeyID: active)
    }

    /// The bytes of an even number of hex digits (either case), or `nil`.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
