/// A named error writing or reading a report directory; the description names the file (or
/// directory), says what was found and what to do.
///
/// Thread safety: an immutable value.
package enum ReportError: Error, Equatable, Sendable, CustomStringConvertible {
    case cannotCreateDirectory(path: String, reason: String)
    case cannotWrite(path: String, reason: String)
    case missingFile(path: String)
    case cannotRead(path: String, reason: String)
    /// A CSV file that does not parse, or lacks a column; the file is named.
    case badCSV(path: String, CSVError)
    case badManifest(path: String, reason: String)
    case badHistogram(path: String, line: Int, HistogramDecodingError)
    /// Inputs that cannot be combined (merge) or compared (gate), with the reason.
    case incompatible(String)
    /// A directory that is not a whole report: no manifest.json, or a listed file missing or not a
    /// file (``SealedDirectory``).
    case incomplete(path: String, reason: String)
    /// A listed file whose size or SHA-256 is not what manifest.json records.
    case altered(path: String, reason: String)
    /// Files that parse but contradict each other or the rules of a report (a negative or
    /// overflowing count, outcomes not adding up to journeys, a strategy twice, …).
    case inconsistent(path: String, reason: String)
    /// An output directory that must not be replaced (it holds other files, or is not a directory).
    case notReplaceable(path: String, reason: String)
    /// A sum or product of input numbers beyond 64 bits.
    case overflow(String)

    package var description: String {
        switch self {
        case .cannotCreateDirectory(let path, let reason): "cannot create directory \(path): \(reason)"
        case .cannotWrite(let path, let reason): "cannot write \(path): \(reason)"
        case .missingFile(let path): "missing file \(path)"
        case .cannotRead(let path, let reason): "cannot read \(path): \(reason)"
        case .badCSV(let path, .missingColumn(let name)):
            "\(path): missing column '\(name)': written by an older deeplink-bench, before that column existed? "
                + "Run it again with this one (a baseline: make baseline)"
        case .badCSV(let path, let error): "\(path): \(error)"
        case .badManifest(let path, let reason): "\(path): bad manifest: \(reason)"
        case .badHistogram(let path, let line, let error): "\(path) line \(line): \(error)"
        case .incompatible(let reason): reason
        case .incomplete(let path, let reason):
            "\(path): not a complete report directory: \(reason). The write that made it did not finish "
                + "(killed, disk full) or predates sealed reports: run it again"
        case .altered(let path, let reason):
            "\(path): changed after its report was written (\(reason)); the directory no longer holds what "
                + "the run wrote: run it again"
        case .inconsistent(let path, let reason):
            "\(path): \(reason); deeplink-bench never writes such a report, so it was edited or corrupted: "
                + "run it again"
        case .notReplaceable(let path, let reason):
            "cannot write a report to \(path): \(reason); choose another --out or move it away yourself"
        case .overflow(let what):
            "\(what) does not fit in 64 bits; no real run gets there, so an input is corrupt or edited: "
                + "check the inputs"
        }
    }
}
