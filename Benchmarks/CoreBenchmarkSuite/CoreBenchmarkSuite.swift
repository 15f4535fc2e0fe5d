import DeepLinkHarness
import Foundation

/// The core against its peers, side by side in one run: every comparison times our subject and a
/// peer doing the same work, interleaved, and reports the median per-pair speedup plus exact bytes
/// allocated per operation. Times are only ever compared within one run, because the machines
/// are shared and noisy.
///
/// Thread safety: run from one thread; some comparisons start helper threads of their own.
package enum CoreBenchmarkSuite {
    /// The CSV columns, in order.
    package static let columns =
        [
            "benchmark", "subject", "peer", "subject_ns_per_op", "peer_ns_per_op", "speedup",
            "subject_bytes_per_op", "peer_bytes_per_op", "repetitions", "speedup_q1", "speedup_q3",
            "subject_libcrypto_bytes_per_op", "peer_libcrypto_bytes_per_op",
        ] + Disturbance.probeColumns + Disturbance.columns

    /// The benchmarks whose subject must allocate nothing per operation (the issue's targets).
    package static let zeroAllocationBenchmarks: Set<String> = [
        "referrer-parse", "referrer-parse-strings", "link-validate", "queue-1thread", "queue-1thread-pthread",
        "queue-2threads", "queue-2threads-pthread", "resolver-route", "resolver-route-bare", "referrer-verify",
        "journey", "race",
    ]

    /// Every comparison, over corpora of `corpusSize` inputs.
    package static func comparisons(corpusSize: Int) -> [Comparison] {
        ReferrerComparisons.all(corpusSize: corpusSize) + ValidationComparisons.all(corpusSize: corpusSize)
            + QueueComparisons.all() + ResolverComparisons.all() + SigningComparisons.all(corpusSize: corpusSize)
            + JourneyComparisons.all(corpusSize: corpusSize) + RaceComparisons.all(corpusSize: corpusSize)
    }

    /// Runs the comparisons whose benchmark name contains `filter` (all when nil), calling
    /// `progress` with a line per finished comparison.
    package static func run(
        runner: BenchmarkRunner,
        corpusSize: Int,
        filter: String?,
        skipping skipped: Set<String> = [],
        progress: (String) -> Void = { _ in }
    ) -> [ComparisonResult] {
        let selected = comparisons(corpusSize: corpusSize).filter { comparison in
            !skipped.contains(comparison.benchmark) && (filter.map { comparison.benchmark.contains($0) } ?? true)
        }
        return selected.map { comparison in
            let result = runner.run(comparison)
            progress("\(result.benchmark): speedup \(format(result.speedup, digits: 2))")
            return result
        }
    }

    /// The results as RFC 4180 CSV with a header row.
    package static func csv(_ results: [ComparisonResult]) -> String {
        var text = columns.joined(separator: ",") + "\n"
        for result in results {
            let fields =
                [
                    result.benchmark, result.subject, result.peer,
                    format(result.subjectNanosPerOp, digits: 2), format(result.peerNanosPerOp, digits: 2),
                    format(result.speedup, digits: 2),
                    format(result.subjectBytesPerOp, digits: 1), format(result.peerBytesPerOp, digits: 1),
                    String(result.repetitions), format(result.speedupLowerQuartile, digits: 2),
                    format(result.speedupUpperQuartile, digits: 2),
                    format(result.subjectLibcryptoBytesPerOp, digits: 1),
                    format(result.peerLibcryptoBytesPerOp, digits: 1),
                ] + result.disturbance.probeFields + result.disturbance.fields
            text += fields.map(quoted).joined(separator: ",") + "\n"
        }
        return text
    }

    /// What the machine did to the run, for under the table: the host-speed probe's range over the
    /// comparisons, and each disturbed comparison with its reasons (empty when nothing was measured).
    package static func machineNotes(_ results: [ComparisonResult]) -> String {
        let probes = results.flatMap { [$0.disturbance.probeStartNanos, $0.disturbance.probeEndNanos] }
            .compactMap { $0 }
        var text = ""
        if let fastest = probes.min(), let slowest = probes.max() {
            text += "host-speed probe: \(format(fastest, digits: 1))-\(format(slowest, digits: 1)) ns per round\n"
        }
        for result in results where result.disturbance.disturbed {
            text += "disturbed: \(result.benchmark): \(result.disturbance.reasons.joined(separator: "; "))\n"
        }
        return text
    }

    /// The results as an aligned, readable table.
    package static func table(_ results: [ComparisonResult]) -> String {
        let header = [
            "benchmark", "subject", "peer", "ns/op", "peer ns/op", "speedup", "q1-q3", "B/op", "libcrypto's",
            "peer B/op",
        ]
        let rows = results.map { result in
            [
                result.benchmark, result.subject, result.peer, format(result.subjectNanosPerOp, digits: 1),
                format(result.peerNanosPerOp, digits: 1), format(result.speedup, digits: 2) + "x",
                format(result.speedupLowerQuartile, digits: 2) + "-" + format(result.speedupUpperQuartile, digits: 2),
                format(result.subjectBytesPerOp, digits: 1), format(result.subjectLibcryptoBytesPerOp, digits: 1),
                format(result.peerBytesPerOp, digits: 1),
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        return ([header] + rows).map { row in
            zip(row, widths).map { cell, width in cell.padding(toLength: width, withPad: " ", startingAt: 0) }
                .joined(separator: "  ")
        }.joined(separator: "\n") + "\n"
    }

    static func format(_ value: Double, digits: Int) -> String {
        String(format: "%.\(digits)f", value)
    }

    static func quoted(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
