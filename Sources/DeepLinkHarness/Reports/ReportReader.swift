import Foundation

/// Reads a report directory written by ``ReportWriter`` back into a ``RunReport``, refusing
/// anything the writer would not have written:
///
/// - the directory must be whole (``SealedDirectory``): manifest.json lists every report file
///   with its size and SHA-256, and every file matches;
/// - manifest.json names the run (``RunIdentity``), and summary.csv agrees with it (run id, seed,
///   strategies in order, at most the journeys the run covers);
/// - every file parses, has every column, counts are non-negative integers below 2^64 and other
///   numbers finite; one summary row per strategy (at least one), each outcome, coverage,
///   histogram and violation row at most once;
/// - each strategy's outcomes add up to its journeys, its `journey` histogram holds one value per
///   timed journey (journeys less `trapped` and `hung`), violations.csv lists no more violations
///   than the outcome counts hold, each of the run's seed and inside its journey ranges;
/// - every file equals what the writer writes for the report read (so summary.csv's derived
///   columns, latency.csv's percentiles and every "same on every row" column are checked).
///
/// Every problem is a named ``ReportError`` naming the file (and line and column where there is
/// one).
///
/// Thread safety: stateless.
package enum ReportReader {
    /// The files every run report directory lists in its manifest.json.
    package static let runFiles = [
        ReportSchema.summaryFile, ReportSchema.latencyFile, ReportSchema.outcomesFile, ReportSchema.violationsFile,
        ReportSchema.histogramsFile, ReportSchema.coverageFile,
    ]

    /// The files a run writes after ``runFiles`` (in this order), which reports written before
    /// them lack: read and checked when listed, never required. A merged report has no
    /// thresholds.csv.
    package static let newerRunFiles = [
        ReportSchema.thresholdsFile, ReportSchema.summaryJSONFile, ReportSchema.latencyLogFile,
    ]

    /// The whole report in `directory`, verified.
    package static func read(_ directory: String) throws(ReportError) -> RunReport {
        let sealed = try SealedDirectory.open(directory, requiring: runFiles)
        let manifestPath = path(ReportSchema.manifestFile, in: directory)
        guard let identity = sealed.manifest.run else {
            throw .badManifest(
                path: manifestPath,
                reason: "no 'run' object naming the run (written before reports named their run); run it again"
            )
        }
        try checkIdentity(identity, manifest: sealed.manifest, path: manifestPath)
        var reader = RunReader(sealed: sealed, identity: identity)
        let report = try reader.read()
        try checkCanonical(report, sealed: sealed)
        return report
    }

    /// manifest.json of `directory`, after verifying the directory against it
    /// (``SealedDirectory/open(_:requiring:)``).
    package static func readManifest(_ directory: String) throws(ReportError) -> RunManifest {
        try SealedDirectory.open(directory, requiring: []).manifest
    }

    /// The CSV file `name` of `directory`, parsed (not verified: for files outside a report's
    /// seal, such as gate.csv).
    package static func table(_ name: String, in directory: String) throws(ReportError) -> CSVTable {
        let filePath = path(name, in: directory)
        let data = try contents(of: filePath)
        do {
            return try CSVTable(parsing: [UInt8](data))
        } catch {
            throw .badCSV(path: filePath, error)
        }
    }

    /// Runs `body`, turning a ``CSVError`` into ``ReportError/badCSV(path:_:)`` for `filePath`.
    package static func checked(_ filePath: String, _ body: () throws(CSVError) -> Void) throws(ReportError) {
        do {
            try body()
        } catch {
            throw .badCSV(path: filePath, error)
        }
    }

    static func path(_ name: String, in directory: String) -> String {
        (directory as NSString).appendingPathComponent(name)
    }

    /// The directory holding `path` ("." for a bare name, "/" at the root), trailing slashes
    /// ignored. Written out rather than `NSString.deletingLastPathComponent`, which traps on a
    /// one-character relative path such as `m` in swift-corelibs-foundation 6.3.1
    /// (`merge --out m` crashed).
    package static func parentDirectory(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        var parent = trimmed[..<slash]
        while parent.hasSuffix("/") { parent.removeLast() }
        return parent.isEmpty ? "/" : String(parent)
    }

    static func contents(of filePath: String) throws(ReportError) -> Data {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: filePath, isDirectory: &isDirectory), !isDirectory.boolValue
        else { throw .missingFile(path: filePath) }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: filePath))
        } catch {
            throw .cannotRead(path: filePath, reason: error.localizedDescription)
        }
    }
}
