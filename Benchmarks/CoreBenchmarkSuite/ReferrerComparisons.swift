import DeepLinkCore
import Foundation

/// `referrer-parse` and `referrer-parse-strings`: find the `deeplink` field of an Install Referrer
/// and decode its value, with ``ReferrerParser`` (into a caller-supplied buffer) against Foundation's
/// `URLComponents` and against the usual hand-written `split` + `removingPercentEncoding`.
enum ReferrerComparisons {
    static func all(corpusSize: Int) -> [Comparison] {
        let corpus = ReferrerCorpus.realistic(count: corpusSize)
        let inputs = ContiguousCorpus(corpus.map { Array($0.utf8) })
        let parser = ReferrerParser()
        let ours = BenchmarkSide("ReferrerParser") { operations in
            var decodedBytes = 0
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4_096, alignment: 1)
            defer { buffer.deallocate() }
            let bytes = inputs.withInputs { inputs in
                measuringAllocations(operations, cycling: inputs.ranges.count) { index in
                    let result = parser.withReferrer(in: inputs[index]) { parsed in
                        parsed.payload?.decodeValue(into: buffer)
                    }
                    if case .success(let count?) = result { decodedBytes &+= count }
                }
            }
            blackHole(decodedBytes)
            return bytes
        }
        return [
            Comparison(
                benchmark: "referrer-parse",
                subject: ours,
                peer: BenchmarkSide("URLComponents.queryItems") { operations in
                    var decodedBytes = 0
                    let bytes = measuringAllocations(operations, cycling: corpus.count) { index in
                        decodedBytes &+= urlComponentsPayload(corpus[index])?.utf8.count ?? 0
                    }
                    blackHole(decodedBytes)
                    return bytes
                }
            ),
            Comparison(
                benchmark: "referrer-parse-strings",
                subject: ours,
                peer: BenchmarkSide("split + removingPercentEncoding") { operations in
                    var decodedBytes = 0
                    let bytes = measuringAllocations(operations, cycling: corpus.count) { index in
                        decodedBytes &+= handwrittenPayload(corpus[index])?.utf8.count ?? 0
                    }
                    blackHole(decodedBytes)
                    return bytes
                }
            ),
        ]
    }

    /// What most apps do with Foundation. (`URLComponents` traps on some malformed queries, such
    /// as `%zz`; the corpus holds only inputs it accepts.)
    static func urlComponentsPayload(_ referrer: String) -> String? {
        URLComponents(string: "?" + referrer)?.queryItems?.first { $0.name == "deeplink" }?.value
    }

    /// The typical hand-written Swift parser.
    static func handwrittenPayload(_ referrer: String) -> String? {
        for piece in referrer.split(separator: "&") {
            let parts = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts[0] == "deeplink" else { continue }
            let value = parts.count > 1 ? String(parts[1]) : ""
            return value.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        }
        return nil
    }
}
