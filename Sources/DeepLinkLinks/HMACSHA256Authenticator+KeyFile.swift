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
            guard let bytes = Hex.bytes(secret.utf8) else { throw .secretNotHex(keyID: id) }
            keys.append(try SigningKey(id: id, secret: bytes))
        }
        try self.init(keys: keys, activeKeyID: active)
    }
}
