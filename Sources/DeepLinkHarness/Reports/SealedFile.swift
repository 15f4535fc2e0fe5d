/// One entry of a sealed directory's file list (manifest.json `files`): a file's name inside the
/// directory, its size in bytes and its SHA-256 (lowercase hex).
///
/// Thread safety: a value type.
package struct SealedFile: Sendable, Equatable, Codable {
    package var name: String
    package var bytes: UInt64
    package var sha256: String

    package init(name: String, bytes: UInt64, sha256: String) {
        self.name = name
        self.bytes = bytes
        self.sha256 = sha256
    }

    /// The record of `contents` stored as `name`.
    package init(name: String, contents: [UInt8]) {
        self.init(name: name, bytes: UInt64(contents.count), sha256: SHA256Digest.hex(of: contents))
    }
}
