/// Where one strategy's journeys spent thread time and bytes, as summary.csv reports it: inside
/// the strategy, or in the harness around it (generating and judging journeys, tallying), and the
/// strategy's time on racing journeys apart from the rest (``Journey/racing``), and the strategy's
/// bytes that OpenSSL's libcrypto allocated (``LibcryptoAllocations``; 0 for `core`, whose
/// authenticator keeps OpenSSL's HMAC from allocating), over all journeys and over racing ones.
///
/// The raw sums (`strategy_ns`, `harness_ns`, `harness_allocated_bytes`, `racing_journeys`,
/// `racing_ns`, `libcrypto_bytes`, `racing_bytes`, `racing_libcrypto_bytes`) are thread time and
/// bytes summed over threads; the derived columns divide them by journeys (the racing bytes by
/// racing journeys), and the two rates are journeys per second of strategy time per thread, as
/// `journeys_per_s` is.
/// Merged shards: every sum adds up.
///
/// Thread safety: a value type.
package struct JourneyCostReport: Sendable, Equatable {
    package var strategyNanos: UInt64 = 0
    package var harnessNanos: UInt64 = 0
    package var harnessAllocatedBytes: UInt64 = 0
    package var racingJourneys: UInt64 = 0
    package var racingNanos: UInt64 = 0
    package var libcryptoBytes: UInt64 = 0
    package var racingBytes: UInt64 = 0
    package var racingLibcryptoBytes: UInt64 = 0

    /// summary.csv's cost columns, in order (after `bytes_per_journey`).
    package static let columns = [
        "strategy_ns", "harness_ns", "strategy_ns_per_journey", "harness_ns_per_journey", "harness_allocated_bytes",
        "harness_bytes_per_journey", "racing_journeys", "racing_ns", "racing_journeys_per_s",
        "non_racing_journeys_per_s", "libcrypto_bytes", "libcrypto_bytes_per_journey", "racing_bytes",
        "racing_bytes_per_racing_journey", "racing_libcrypto_bytes", "racing_libcrypto_bytes_per_racing_journey",
    ]

    /// The columns of ``columns`` that hold decimals.
    package static let decimalColumns: Set<String> = [
        "strategy_ns_per_journey", "harness_ns_per_journey", "harness_bytes_per_journey", "racing_journeys_per_s",
        "non_racing_journeys_per_s", "libcrypto_bytes_per_journey", "racing_bytes_per_racing_journey",
        "racing_libcrypto_bytes_per_racing_journey",
    ]

    /// The values of ``columns`` for a strategy of `journeys` journeys on `threads` threads.
    package func fields(journeys: Int, threads: Int) -> [String] {
        let count = Double(max(0, journeys))
        func perJourney(_ value: UInt64) -> Double { count == 0 ? 0 : Double(value) / count }
        func perRacingJourney(_ value: UInt64) -> Double {
            racingJourneys == 0 ? 0 : Double(value) / Double(racingJourneys)
        }
        return [
            String(strategyNanos), String(harnessNanos), ReportSchema.decimal(perJourney(strategyNanos), digits: 1),
            ReportSchema.decimal(perJourney(harnessNanos), digits: 1), String(harnessAllocatedBytes),
            ReportSchema.decimal(perJourney(harnessAllocatedBytes), digits: 2), String(racingJourneys),
            String(racingNanos), ReportSchema.decimal(racingJourneysPerSecond(threads: threads), digits: 0),
            ReportSchema.decimal(nonRacingJourneysPerSecond(journeys: journeys, threads: threads), digits: 0),
            String(libcryptoBytes), ReportSchema.decimal(perJourney(libcryptoBytes), digits: 2), String(racingBytes),
            ReportSchema.decimal(perRacingJourney(racingBytes), digits: 2), String(racingLibcryptoBytes),
            ReportSchema.decimal(perRacingJourney(racingLibcryptoBytes), digits: 2),
        ]
    }

    /// Racing journeys per second of strategy time per thread (0 with none).
    package func racingJourneysPerSecond(threads: Int) -> Double {
        Self.rate(racingJourneys, nanos: racingNanos, threads: threads)
    }

    /// The other journeys per second of strategy time per thread (0 with none).
    package func nonRacingJourneysPerSecond(journeys: Int, threads: Int) -> Double {
        let others = UInt64(max(0, journeys)) > racingJourneys ? UInt64(max(0, journeys)) - racingJourneys : 0
        let nanos = strategyNanos > racingNanos ? strategyNanos - racingNanos : 0
        return Self.rate(others, nanos: nanos, threads: threads)
    }

    static func rate(_ journeys: UInt64, nanos: UInt64, threads: Int) -> Double {
        nanos == 0 ? 0 : Double(journeys) * 1e9 * Double(max(1, threads)) / Double(nanos)
    }

    /// These costs and a shard's together; nil when a sum would pass 2^64 − 1 (only doctored input
    /// gets there).
    package func merging(_ other: JourneyCostReport) -> JourneyCostReport? {
        let sums = [
            strategyNanos.addingReportingOverflow(other.strategyNanos),
            harnessNanos.addingReportingOverflow(other.harnessNanos),
            harnessAllocatedBytes.addingReportingOverflow(other.harnessAllocatedBytes),
            racingJourneys.addingReportingOverflow(other.racingJourneys),
            racingNanos.addingReportingOverflow(other.racingNanos),
            libcryptoBytes.addingReportingOverflow(other.libcryptoBytes),
            racingBytes.addingReportingOverflow(other.racingBytes),
            racingLibcryptoBytes.addingReportingOverflow(other.racingLibcryptoBytes),
        ]
        guard !sums.contains(where: \.overflow) else { return nil }
        return JourneyCostReport(
            strategyNanos: sums[0].partialValue,
            harnessNanos: sums[1].partialValue,
            harnessAllocatedBytes: sums[2].partialValue,
            racingJourneys: sums[3].partialValue,
            racingNanos: sums[4].partialValue,
            libcryptoBytes: sums[5].partialValue,
            racingBytes: sums[6].partialValue,
            racingLibcryptoBytes: sums[7].partialValue
        )
    }
}
