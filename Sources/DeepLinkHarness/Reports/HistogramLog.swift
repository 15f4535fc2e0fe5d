import Foundation

/// latency.hlog: the report's latency histograms as an HdrHistogram interval log (format
/// version 1.3), so HdrHistogram's own tools (HistogramLogProcessor, HistogramLogAnalyzer, the
/// `hdrh` Python package) read a run. One interval per strategy and metric, tagged
/// `Tag=STRATEGY/METRIC`, from the run's start.
///
/// Exact, not resampled: ``Histogram``'s bucket layout is HdrHistogram's for a lowest
/// discernible value of 1 ns, 3 significant digits (2,048 sub-buckets, unit magnitude 0) and a
/// highest trackable value of 2^46 − 1 ns, so the counts array is written as it is, index for
/// index, in HdrHistogram's V2 encoding (ZigZag LEB128 counts, runs of zeros as negative
/// lengths) inside its compressed envelope. The zlib stream holds stored (uncompressed) deflate
/// blocks: legal zlib that every inflater reads, written without a compression library.
///
/// Thread safety: stateless.
public enum HistogramLog {
    /// HdrHistogram's V2 cookies with the word-size nibble its writers set (0x10).
    static let encodingCookie: UInt32 = 0x1c84_9313
    static let compressedEncodingCookie: UInt32 = 0x1c84_9314
    /// Interval_Max is in milliseconds (HdrHistogram's default ratio, ns → ms).
    static let maxValueUnitRatio = 1e6

    /// The whole log of `report`.
    public static func text(_ report: RunReport) -> String {
        let start = startSeconds(report.manifest.startTime)
        // summary.csv's longest `wall_ns` (time in a strategy per thread): what the files hold
        // (the run's own wall time is not in them).
        let wall = report.strategies.map(\.wallNanos).max() ?? 0
        let length = ReportSchema.decimal(Double(wall) / 1e9, digits: 3)
        var text = "#[Histogram log format version 1.3]\n"
        text += "#[StartTime: \(ReportSchema.decimal(start, digits: 3)) (seconds since epoch), "
        text += "\(report.manifest.startTime)]\n"
        text += "#[BaseTime: \(ReportSchema.decimal(start, digits: 3)) (seconds since epoch)]\n"
        text += "#[deeplink-bench run \(report.runID): one interval per strategy/metric, values in ns]\n"
        text += "\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\",\"Interval_Compressed_Histogram\"\n"
        for strategy in report.strategies {
            for metric in Metric.ordered(strategy.histograms.keys) {
                guard let histogram = strategy.histograms[metric] else { continue }
                text += "Tag=\(tag(strategy.name, metric)),0.000,\(length),"
                text += ReportSchema.decimal(Double(histogram.max) / maxValueUnitRatio, digits: 3) + ","
                text += Data(compressed(histogram)).base64EncodedString() + "\n"
            }
        }
        return text
    }

    /// `strategy/metric`, with the characters a tag may not hold (HdrHistogram's logs split on
    /// commas and spaces) as `_`.
    static func tag(_ strategy: String, _ metric: String) -> String {
        String((strategy + "/" + metric).map { $0 == "," || $0 == " " || $0.isNewline ? "_" : $0 })
    }

    /// The run's start in seconds since the epoch, from the manifest's ISO 8601 time (0 when it
    /// does not parse).
    static func startSeconds(_ iso: String) -> Double {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: iso)?.timeIntervalSince1970 ?? 0
    }

    /// HdrHistogram's compressed V2 form of `histogram`: cookie, length, zlib stream of the V2
    /// encoding.
    static func compressed(_ histogram: Histogram) -> [UInt8] {
        let stream = zlibStored(encoded(histogram))
        var bytes: [UInt8] = []
        append(compressedEncodingCookie, to: &bytes)
        append(UInt32(stream.count), to: &bytes)
        return bytes + stream
    }

    /// HdrHistogram's V2 encoding: a 40-byte header, then the counts up to the maximum's index.
    static func encoded(_ histogram: Histogram) -> [UInt8] {
        var payload: [UInt8] = []
        if histogram.count > 0 {
            let limit = Histogram.countsIndex(for: histogram.max) + 1
            var index = 0
            while index < limit {
                let count = histogram.counts[index]
                index += 1
                guard count == 0 else {
                    appendZigZag(Int64(clamping: count), to: &payload)
                    continue
                }
                var zeros: Int64 = 1
                while index < limit, histogram.counts[index] == 0 {
                    zeros += 1
                    index += 1
                }
                appendZigZag(zeros > 1 ? -zeros : 0, to: &payload)
            }
        }
        var bytes: [UInt8] = []
        append(encodingCookie, to: &bytes)
        append(UInt32(payload.count), to: &bytes)
        append(UInt32(0), to: &bytes)  // normalizing index offset
        append(UInt32(3), to: &bytes)  // significant digits
        append(UInt64(1), to: &bytes)  // lowest discernible value
        append(Histogram.highestTrackableValue, to: &bytes)
        append((1.0).bitPattern, to: &bytes)  // integer-to-double conversion ratio
        return bytes + payload
    }

    /// HdrHistogram's ZigZag LEB128 (`ZigZagEncoding.putLong`): seven bits a byte, low first, at
    /// most nine bytes, the ninth holding the top eight bits whole.
    static func appendZigZag(_ value: Int64, to bytes: inout [UInt8]) {
        var bits = UInt64(bitPattern: (value << 1) ^ (value >> 63))
        for _ in 0..<8 {
            guard bits >> 7 != 0 else {
                bytes.append(UInt8(bits))
                return
            }
            bytes.append(UInt8(bits & 0x7F) | 0x80)
            bits >>= 7
        }
        bytes.append(UInt8(truncatingIfNeeded: bits))
    }

    /// `data` as a zlib stream (RFC 1950) of stored deflate blocks (RFC 1951 §3.2.4): no
    /// compression, each block at most 65,535 bytes, then the Adler-32 of `data`.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var stream: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let length = min(65_535, data.count - offset)
            let final = offset + length == data.count
            stream.append(final ? 1 : 0)
            let size = UInt16(length)
            stream += [UInt8(size & 0xFF), UInt8(size >> 8), UInt8(~size & 0xFF), UInt8(~size >> 8)]
            stream += data[offset..<offset + length]
            offset += length
        } while offset < data.count
        append(adler32(data), to: &stream)
        return stream
    }

    /// Adler-32 (RFC 1950 §8.2).
    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }

    /// `value` big-endian.
    static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes += $0 }
    }
}
