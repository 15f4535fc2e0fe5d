#if canImport(Glibc)
import Glibc
#endif

/// The fuzz targets this binary holds; `DEEPLINK_FUZZ_TARGET` picks one per process.
enum FuzzTarget: String, CaseIterable {
    case referrer
    case validator
    case record
    case csv
    case arguments
    case inspect
    case histogram
    case canonical
    case builder
    case signature

    /// The target named by `DEEPLINK_FUZZ_TARGET`; exits with a list of names when it is unset or unknown.
    static let selected: FuzzTarget = {
        if let name = getenv("DEEPLINK_FUZZ_TARGET"), let target = FuzzTarget(rawValue: String(cString: name)) {
            return target
        }
        let names = allCases.map(\.rawValue).joined(separator: ", ")
        writeToStandardError("set DEEPLINK_FUZZ_TARGET to one of: \(names)\n")
        exit(2)
    }()

    func run(_ input: UnsafeRawBufferPointer) {
        switch self {
        case .referrer: ReferrerFuzzer.run(input)
        case .validator: ValidatorFuzzer.run(input)
        case .record: RecordFuzzer.run(input)
        case .csv: CSVFuzzer.run(input)
        case .arguments: ArgumentsFuzzer.run(input)
        case .inspect: InspectFuzzer.run(input)
        case .histogram: HistogramFuzzer.run(input)
        case .canonical: CanonicalFuzzer.run(input)
        case .builder: BuilderFuzzer.run(input)
        case .signature: SignatureFuzzer.run(input)
        }
    }
}

/// Fails the run (libFuzzer saves the input as a crash) when a property does not hold.
func fuzzCheck(
    _ condition: Bool,
    _ message: @autoclosure () -> String,
    file: StaticString = #fileID,
    line: UInt = #line
) {
    guard !condition else { return }
    writeToStandardError("property violated at \(file):\(line): \(message())\n")
    abort()
}

/// Writes `text` to file descriptor 2 (unbuffered, so it is out before `abort()`).
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(2, bytes.baseAddress! + offset, bytes.count - offset)
            guard written > 0 else { return }
            offset += written
        }
    }
}
