extension ReportReader {
    /// The manifest's `run` object on its own: journey ranges sorted, disjoint and inside the run,
    /// a shard's range the one its label names, a plain run one range, numbers in range.
    static func checkIdentity(_ identity: RunIdentity, manifest: RunManifest, path: String) throws(ReportError) {
        func bad(_ reason: String) -> ReportError { .badManifest(path: path, reason: reason) }
        var previousEnd: UInt64 = 0
        for range in identity.journeyRanges {
            guard !range.isEmpty, range.lowerBound >= previousEnd, range.upperBound <= identity.journeys else {
                throw bad(
                    "run.journey_ranges \(RunIdentity.describe(identity.journeyRanges)) are not sorted, disjoint, "
                        + "non-empty ranges inside 0..<\(identity.journeys)"
                )
            }
            previousEnd = range.upperBound
        }
        if let label = manifest.shard {
            let shard: ShardSpec
            do {
                shard = try ShardSpec.parse(label)
            } catch {
                throw bad("shard \(error)")
            }
            let expected = shard.range(ofJourneys: identity.journeys)
            guard identity.journeyRanges == [expected] else {
                throw bad(
                    "shard \(label) of \(identity.journeys) journeys covers \(RunIdentity.describe([expected])), "
                        + "run.journey_ranges says \(RunIdentity.describe(identity.journeyRanges))"
                )
            }
        } else if manifest.mergedFrom.isEmpty, identity.journeyRanges.count != 1 {
            throw bad("a run that is neither a shard nor merged covers one range of journeys")
        }
        guard identity.raceShare.isFinite, (0...1).contains(identity.raceShare) else {
            throw bad("run.race_share \(identity.raceShare) is not in 0...1")
        }
        if case .open(let rate, _) = identity.loop, !(rate.isFinite && rate > 0) {
            throw bad("run.rate_per_s \(rate) is not a rate above 0")
        }
    }

    /// Every file of `sealed` must be byte for byte what ``ReportWriter`` writes for `report`;
    /// the first difference is named by file, line and column. Also holds summary.csv's
    /// `offered_per_s` to the manifest's loop.
    static func checkCanonical(_ report: RunReport, sealed: SealedDirectory) throws(ReportError) {
        let offered: Double
        switch sealed.manifest.run?.loop ?? .closed {
        case .closed: offered = 0
        case .open(let rate, _): offered = rate
        }
        let summaryPath = path(ReportSchema.summaryFile, in: sealed.path)
        let found = ReportSchema.decimal(report.arrivals.offeredPerSecond, digits: 3)
        guard found == ReportSchema.decimal(offered, digits: 3) else {
            throw .inconsistent(
                path: summaryPath,
                reason: "offered_per_s \(found), but manifest.json's loop is \(sealed.manifest.run?.loop ?? .closed)"
            )
        }
        let expected: [(name: String, bytes: [UInt8])]
        do {
            expected = try ReportWriter.files(report)
        } catch {
            throw .inconsistent(path: sealed.path, reason: "the report cannot be written back: \(error)")
        }
        // A file newer than the report (its writer had none) is not required; when present it is
        // held to the others like every file.
        for file in expected where sealed.contents[file.name] != file.bytes {
            if sealed.contents[file.name] == nil, newerRunFiles.contains(file.name) { continue }
            let filePath = path(file.name, in: sealed.path)
            throw .inconsistent(path: filePath, reason: try firstDifference(file.bytes, in: sealed, name: file.name))
        }
    }

    /// Where the sealed `name` first differs from `expected` (both parse; `expected` is the
    /// writer's), as `line N column 'c': 'found', the other files give 'expected'`.
    private static func firstDifference(
        _ expected: [UInt8],
        in sealed: SealedDirectory,
        name: String
    ) throws(ReportError) -> String {
        guard name.hasSuffix(".csv") else { return "differs from what the writer writes for the report's other files" }
        let actual = try sealed.table(name)
        guard let wanted = try? CSVTable(parsing: expected) else { return "differs from what the writer writes" }
        guard actual.header == wanted.header else {
            return
                "columns \(actual.header.joined(separator: ",")), a report has \(wanted.header.joined(separator: ","))"
        }
        for row in 0..<min(actual.rows.count, wanted.rows.count) {
            for column in actual.header.indices where actual.rows[row][column] != wanted.rows[row][column] {
                let what = "line \(actual.rowLines[row]) column '\(actual.header[column])': "
                return what + "'\(actual.rows[row][column])', but the report's other files give "
                    + "'\(wanted.rows[row][column])'"
            }
        }
        if actual.rows.count != wanted.rows.count {
            return "\(actual.rows.count) rows, but the report's other files give \(wanted.rows.count)"
        }
        return "not in the writer's form (line endings, quoting or number format)"
    }
}
