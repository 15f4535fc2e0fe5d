import DeepLinkHarness

/// A deterministic corpus of realistic Install Referrer strings, 30 to 400 bytes: utm fields, click
/// ids, payloads with and without escapes, Play's organic and not-set placeholders.
///
/// Every string uses only valid `%XX` escapes and URL-safe bytes, because Foundation's
/// `URLComponents` (the peer) rejects or traps on some malformed queries.
enum ReferrerCorpus {
    static func realistic(count: Int, seed: UInt64 = 0x5EED) -> [String] {
        var random = SplitMix64(seed: seed)
        var corpus: [String] = []
        corpus.reserveCapacity(count)
        while corpus.count < count {
            let referrer = make(&random)
            if (30...400).contains(referrer.utf8.count) { corpus.append(referrer) }
        }
        return corpus
    }

    private static let sources = ["google", "facebook", "newsletter", "twitter", "partner-site", "qr"]
    private static let mediums = ["cpc", "email", "social", "referral", "banner", "display"]
    private static let campaigns = ["spring_sale", "black-friday-2026", "invite_friends", "retarget%2Dq4", "launch"]
    private static let paths = [
        "/product/", "/orders/", "/invite/", "/reset-password/", "/category/shoes/", "/cart", "/promo/",
    ]

    private static func make(_ random: inout SplitMix64) -> String {
        switch random.next() % 10 {
        case 0: return "utm_source=google-play&utm_medium=organic&utm_campaign=none&utm_term=none"
        case 1: return "utm_source=(not%20set)&utm_medium=(not%20set)&utm_content=(not%20set)"
        default: break
        }
        var fields: [String] = []
        fields.append("utm_source=" + pick(sources, &random))
        fields.append("utm_medium=" + pick(mediums, &random))
        if random.next() % 2 == 0 { fields.append("utm_campaign=" + pick(campaigns, &random)) }
        if random.next() % 3 == 0 { fields.append("utm_term=running+shoes+" + String(random.next() % 1000)) }
        if random.next() % 3 == 0 { fields.append("utm_content=ad_" + String(random.next() % 100_000)) }
        if random.next() % 2 == 0 { fields.append("gclid=" + token(&random, length: 20 + Int(random.next() % 60))) }
        let path = pick(paths, &random) + String(random.next() % 100_000)
        var payload = path
        if random.next() % 2 == 0 { payload += "?ref=share&variant=" + String(random.next() % 10) }
        let encoded: String
        switch random.next() % 3 {
        case 0: encoded = percentEncodeAll(payload)  // deeplink=%2Fproduct%2F42%3Fref%3Dshare
        case 1:
            encoded = payload.replacingAll("?", with: "%3F").replacingAll("&", with: "%26")
                .replacingAll("=", with: "%3D")
        default: encoded = "https%3A%2F%2Fnerdy.pro" + percentEncodeAll(payload)
        }
        let position = Int(random.next() % UInt64(fields.count + 1))
        fields.insert("deeplink=" + encoded, at: position)
        return fields.joined(separator: "&")
    }

    private static func pick(_ values: [String], _ random: inout SplitMix64) -> String {
        values[Int(random.next() % UInt64(values.count))]
    }

    private static func token(_ random: inout SplitMix64, length: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")
        return String((0..<length).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
    }

    /// Percent-encodes everything but unreserved bytes.
    static func percentEncodeAll(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF")
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
                UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 15)])
            }
        }
        return result
    }
}

extension String {
    fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
