import CCrypto

/// SHA-256 through OpenSSL's libcrypto (`EVP_Digest`), as lowercase hexadecimal: the digest a
/// report directory's manifest.json records for each file it lists (see ``SealedDirectory``).
///
/// Thread safety: stateless; `EVP_Digest` with the built-in SHA-256 is safe on any thread.
package enum SHA256Digest {
    /// The digest of `bytes`, 64 lowercase hexadecimal digits.
    package static func hex(of bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let status = bytes.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { output in
                EVP_Digest(buffer.baseAddress, buffer.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        // EVP_Digest fails only when libcrypto cannot allocate its context: nothing a report can fix.
        precondition(status == 1 && length == 32, "libcrypto's SHA-256 failed")
        let hexDigits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest.prefix(32) {
            text.append(hexDigits[Int(byte >> 4)])
            text.append(hexDigits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
