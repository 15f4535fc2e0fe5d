// manifest.json's `run` object. Ranges are `[lower, upper]` pairs; the loop is `loop` ("closed" or
// "open") with `rate_per_s` and `max_lag_ns` for open loop only; `schedule` is absent from
// reports written before runs recorded it.
extension RunIdentity: Codable {
    enum CodingKeys: String, CodingKey {
        case runID = "run_id"
        case seed
        case journeys
        case journeyRanges = "journey_ranges"
        case strategies
        case mixDigest = "mix_digest"
        case raceShare = "race_share"
        case schedule
        case loop
        case ratePerSecond = "rate_per_s"
        case maxLagNanos = "max_lag_ns"
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        runID = try container.decode(String.self, forKey: .runID)
        seed = try container.decode(UInt64.self, forKey: .seed)
        journeys = try container.decode(UInt64.self, forKey: .journeys)
        let pairs = try container.decode([[UInt64]].self, forKey: .journeyRanges)
        journeyRanges = try pairs.map { pair in
            guard pair.count == 2, pair[0] <= pair[1] else {
                throw DecodingError.dataCorruptedError(
                    forKey: .journeyRanges,
                    in: container,
                    debugDescription: "a range is [lower, upper] with lower <= upper"
                )
            }
            return pair[0]..<pair[1]
        }
        strategies = try container.decode([String].self, forKey: .strategies)
        mixDigest = try container.decode(String.self, forKey: .mixDigest)
        raceShare = try container.decode(Double.self, forKey: .raceShare)
        schedule = try container.decodeIfPresent(String.self, forKey: .schedule)
        switch try container.decode(String.self, forKey: .loop) {
        case "closed": loop = .closed
        case "open":
            loop = .open(
                ratePerSecond: try container.decode(Double.self, forKey: .ratePerSecond),
                maxLagNanos: try container.decode(UInt64.self, forKey: .maxLagNanos)
            )
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .loop,
                in: container,
                debugDescription: "loop is \"closed\" or \"open\""
            )
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(runID, forKey: .runID)
        try container.encode(seed, forKey: .seed)
        try container.encode(journeys, forKey: .journeys)
        try container.encode(journeyRanges.map { [$0.lowerBound, $0.upperBound] }, forKey: .journeyRanges)
        try container.encode(strategies, forKey: .strategies)
        try container.encode(mixDigest, forKey: .mixDigest)
        try container.encode(raceShare, forKey: .raceShare)
        try container.encodeIfPresent(schedule, forKey: .schedule)
        switch loop {
        case .closed:
            try container.encode("closed", forKey: .loop)
        case .open(let rate, let maxLag):
            try container.encode("open", forKey: .loop)
            try container.encode(rate, forKey: .ratePerSecond)
            try container.encode(maxLag, forKey: .maxLagNanos)
        }
    }
}

extension RunIdentity.Loop: CustomStringConvertible {
    /// `closed` or `open at 1000/s (max lag 1000000000 ns)`.
    package var description: String {
        switch self {
        case .closed: "closed"
        case .open(let rate, let maxLag): "open at \(rate)/s (max lag \(maxLag) ns)"
        }
    }
}
