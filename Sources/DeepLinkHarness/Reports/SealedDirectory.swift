import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A report directory as one unit: whole or refused.
///
/// **Writing** (``write(_:manifest:to:storage:)``): every file goes into a fresh hidden sibling
/// (`.NAME.tmp-…`), then manifest.json — the commit record, listing every other file with its
/// size and SHA-256 — last; only then is the sibling renamed to `NAME`. An existing `NAME` is
/// replaced only by a complete new directory, and only when it holds nothing but report files
/// (``replaceableNames``): a directory holding anything else is never deleted. A write that fails
/// (a full disk, a file in the way) removes its sibling and leaves `NAME` as it was; a process
/// killed while writing leaves `NAME` as it was plus a `.NAME.tmp-…` directory nobody reads.
///
/// **Reading** (``open(_:requiring:)``): manifest.json must exist and list files; every listed
/// file must exist as a regular file with the recorded size and digest. Callers parse only the
/// verified bytes, so what they read is what the run wrote. Unlisted files (report.html,
/// summary.md, gate.csv, written later by other commands) are not part of the unit and not read.
///
/// Thread safety: a value type; the static functions touch only the paths they are given.
public struct SealedDirectory: Sendable {
    /// The directory as given.
    public let path: String
    /// manifest.json without its file list.
    public let manifest: RunManifest
    /// The file list of manifest.json, in its order.
    public let files: [SealedFile]
    /// The verified contents of every listed file, by name.
    public let contents: [String: [UInt8]]

    /// Names an existing directory may hold and still be replaced by a new report: the report
    /// files and what `report`, `gate` and `capacity` write beside them.
    public static let replaceableNames: Set<String> = [
        ReportSchema.summaryFile, ReportSchema.latencyFile, ReportSchema.outcomesFile, ReportSchema.violationsFile,
        ReportSchema.histogramsFile, ReportSchema.coverageFile, ReportSchema.thresholdsFile,
        ReportSchema.summaryJSONFile,
        ReportSchema.latencyLogFile, ReportSchema.manifestFile, "gate.csv",
        "capacity.csv", "report.html", "summary.md",
    ]

    /// Opens `directory` and verifies it against its manifest.json; `required` names files every
    /// directory of this kind lists (e.g. summary.csv for a run).
    public static func open(_ directory: String, requiring required: [String]) throws(ReportError) -> SealedDirectory {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw .cannotRead(path: directory, reason: "no such directory")
        }
        guard isDirectory.boolValue else { throw .cannotRead(path: directory, reason: "not a directory") }
        let manifestPath = ReportReader.path(ReportSchema.manifestFile, in: directory)
        guard FileManager.default.fileExists(atPath: manifestPath, isDirectory: &isDirectory),
            !isDirectory.boolValue
        else {
            throw .incomplete(
                path: directory,
                reason: "no \(ReportSchema.manifestFile) (the commit record a finished write ends with)"
            )
        }
        let record = try decodeRecord(try ReportReader.contents(of: manifestPath), path: manifestPath)
        guard !record.files.isEmpty else {
            throw .incomplete(
                path: directory,
                reason: "\(ReportSchema.manifestFile) lists no files (written before report directories were sealed, "
                    + "or not by deeplink-bench)"
            )
        }
        var contents: [String: [UInt8]] = [:]
        for file in record.files {
            let name = file.name
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), name != ReportSchema.manifestFile
            else { throw .badManifest(path: manifestPath, reason: "'\(name)' is not a file name of this directory") }
            guard contents[name] == nil else { throw .badManifest(path: manifestPath, reason: "lists '\(name)' twice") }
            contents[name] = try verifiedContents(of: file, in: directory)
        }
        for name in required where contents[name] == nil {
            throw .incomplete(path: directory, reason: "\(ReportSchema.manifestFile) does not list \(name)")
        }
        return SealedDirectory(path: directory, manifest: record.manifest, files: record.files, contents: contents)
    }

    /// The listed CSV file `name`, parsed from its verified bytes.
    public func table(_ name: String) throws(ReportError) -> CSVTable {
        let filePath = ReportReader.path(name, in: path)
        guard let bytes = contents[name] else {
            throw .incomplete(path: path, reason: "\(ReportSchema.manifestFile) does not list \(name)")
        }
        do {
            return try CSVTable(parsing: bytes)
        } catch {
            throw .badCSV(path: filePath, error)
        }
    }

    private static func verifiedContents(of file: SealedFile, in directory: String) throws(ReportError) -> [UInt8] {
        let filePath = ReportReader.path(file.name, in: directory)
        var status = stat()
        guard lstat(filePath, &status) == 0 else {
            throw .incomplete(
                path: directory,
                reason: "\(file.name) is missing (\(ReportSchema.manifestFile) lists it)"
            )
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            let kind = status.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
            throw .incomplete(path: directory, reason: "\(file.name) is \(kind) where the listed file should be")
        }
        guard UInt64(status.st_size) == file.bytes else {
            throw .altered(path: filePath, reason: "\(status.st_size) bytes, manifest.json records \(file.bytes)")
        }
        let bytes = [UInt8](try ReportReader.contents(of: filePath))
        guard UInt64(bytes.count) == file.bytes else {
            throw .altered(path: filePath, reason: "\(bytes.count) bytes, manifest.json records \(file.bytes)")
        }
        let digest = SHA256Digest.hex(of: bytes)
        guard digest == file.sha256 else {
            throw .altered(path: filePath, reason: "SHA-256 \(digest), manifest.json records \(file.sha256)")
        }
        return bytes
    }

    // MARK: - Writing

    /// Writes `files` and then manifest.json (`manifest` plus the file list) into `directory` as
    /// one unit (see the type's documentation).
    public static func write(
        _ files: [(name: String, bytes: [UInt8])],
        manifest: RunManifest,
        to directory: String,
        storage: ReportStorage = .posix
    ) throws(ReportError) {
        let target = try checkWritable(directory)
        let staging = try makeStagingDirectory(for: target)
        do {
            var records: [SealedFile] = []
            for file in files {
                try storage.writeFile(ReportReader.path(file.name, in: staging), file.bytes)
                records.append(SealedFile(name: file.name, contents: file.bytes))
            }
            let manifestText = try manifestJSON(manifest, files: records)
            try storage.writeFile(ReportReader.path(ReportSchema.manifestFile, in: staging), Array(manifestText.utf8))
            syncDirectory(staging)
            try publish(staging, as: target)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// The directory a write to `directory` would replace, resolved (trailing slashes dropped, a
    /// symbolic link followed), after checking that a report may be written there: its parent can
    /// be created, and `directory` is absent, or a directory holding only ``replaceableNames``.
    /// Cheap; ``OutputDirectory/check(_:)`` (what commands call before their work) runs it with
    /// `createParent: false`, so that checking leaves nothing behind.
    @discardableResult
    public static func checkWritable(_ directory: String, createParent: Bool = true) throws(ReportError) -> String {
        var target = directory
        while target.count > 1, target.hasSuffix("/") { target.removeLast() }
        let name = (target as NSString).lastPathComponent
        guard !target.isEmpty, target != "/", name != ".", name != ".." else {
            throw .notReplaceable(path: directory, reason: "name the report directory itself, not '\(directory)'")
        }
        var status = stat()
        if lstat(target, &status) == 0, status.st_mode & S_IFMT == S_IFLNK {
            target = URL(fileURLWithPath: target).resolvingSymlinksInPath().path
        }
        let parent = ReportReader.parentDirectory(of: target)
        if createParent {
            do {
                try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
            } catch {
                throw .cannotCreateDirectory(path: parent, reason: error.localizedDescription)
            }
        }
        guard stat(target, &status) == 0 else { return target }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw .notReplaceable(path: target, reason: "it exists and is not a directory")
        }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: target)
        } catch {
            throw .cannotRead(path: target, reason: error.localizedDescription)
        }
        for entry in entries.sorted() {
            var entryStatus = stat()
            let entryPath = ReportReader.path(entry, in: target)
            let isFile = lstat(entryPath, &entryStatus) == 0 && entryStatus.st_mode & S_IFMT == S_IFREG
            guard isFile, replaceableNames.contains(entry) else {
                throw .notReplaceable(path: target, reason: "it holds '\(entry)', which is not a report file")
            }
        }
        return target
    }

    /// manifest.json's text: `manifest`'s keys and `files`, pretty-printed with sorted keys.
    public static func manifestJSON(_ manifest: RunManifest, files: [SealedFile]) throws(ReportError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(Record(manifest: manifest, files: files)), as: UTF8.self) + "\n"
        } catch {
            throw .badManifest(path: ReportSchema.manifestFile, reason: "cannot encode: \(error)")
        }
    }

    /// Creates `path` (absent) holding `bytes`: open, write all, fsync, close, each checked.
    @Sendable public static func writeWholeFile(_ path: String, _ bytes: [UInt8]) throws(ReportError) {
        let descriptor = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw .cannotWrite(path: path, reason: errnoDescription()) }
        var offset = 0
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = Glibc.write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errnoDescription()
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = errnoDescription() }
        if Glibc.close(descriptor) != 0, failure == nil { failure = errnoDescription() }
        if let failure { throw .cannotWrite(path: path, reason: failure) }
    }

    // MARK: - Private

    /// manifest.json on disk: the manifest's own keys plus `files`, in one JSON object.
    struct Record: Codable {
        var manifest: RunManifest
        var files: [SealedFile]

        enum CodingKeys: String, CodingKey {
            case files
        }

        init(manifest: RunManifest, files: [SealedFile]) {
            self.manifest = manifest
            self.files = files
        }

        init(from decoder: any Decoder) throws {
            manifest = try RunManifest(from: decoder)
            files =
                try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent([SealedFile].self, forKey: .files)
                ?? []
        }

        func encode(to encoder: any Encoder) throws {
            try manifest.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(files, forKey: .files)
        }
    }

    static func decodeRecord(_ data: Data, path: String) throws(ReportError) -> Record {
        do {
            return try JSONDecoder().decode(Record.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            let parent = context.codingPath.map(\.stringValue).filter { Int($0) == nil }
            throw .badManifest(
                path: path,
                reason: "missing key '\((parent + [key.stringValue]).joined(separator: "."))'"
            )
        } catch let DecodingError.typeMismatch(_, context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw .badManifest(path: path, reason: "wrong type for '\(key)'")
        } catch let DecodingError.dataCorrupted(context) {
            let key = context.codingPath.map(\.stringValue).joined(separator: ".")
            let detail = context.debugDescription
            throw .badManifest(path: path, reason: key.isEmpty ? "not valid JSON" : "'\(key)': \(detail)")
        } catch {
            throw .badManifest(path: path, reason: "not valid JSON")
        }
    }

    /// `.NAME.tmp-PID-RANDOM` beside `target`, created empty (mode 0777 less the umask).
    private static func makeStagingDirectory(for target: String) throws(ReportError) -> String {
        let parent = ReportReader.parentDirectory(of: target)
        let name = (target as NSString).lastPathComponent
        for _ in 0..<16 {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let staging = ReportReader.path(".\(name).tmp-\(getpid())-\(suffix)", in: parent)
            if mkdir(staging, 0o777) == 0 { return staging }
            guard errno == EEXIST else {
                throw .cannotCreateDirectory(path: staging, reason: errnoDescription())
            }
        }
        throw .cannotCreateDirectory(path: target, reason: "no free temporary name beside it")
    }

    /// Renames the complete `staging` to `target`; an existing `target` is moved aside first and
    /// deleted after (as `.NAME.tmp-…-replaced`), or moved back if the rename fails.
    private static func publish(_ staging: String, as target: String) throws(ReportError) {
        var status = stat()
        guard lstat(target, &status) == 0 else {
            guard rename(staging, target) == 0 else { throw .cannotWrite(path: target, reason: errnoDescription()) }
            syncDirectory(ReportReader.parentDirectory(of: target))
            return
        }
        // The existing directory must still be a replaceable report (it may have changed since the check).
        try checkWritable(target)
        let aside = staging + "-replaced"
        guard rename(target, aside) == 0 else { throw .cannotWrite(path: target, reason: errnoDescription()) }
        guard rename(staging, target) == 0 else {
            let reason = errnoDescription()
            _ = rename(aside, target)
            throw .cannotWrite(path: target, reason: reason)
        }
        syncDirectory(ReportReader.parentDirectory(of: target))
        // The old report is no longer reachable by its name; failing to delete it leaves a hidden
        // `.NAME.tmp-…-replaced` directory, which nothing reads.
        try? FileManager.default.removeItem(atPath: aside)
    }

    /// fsync of a directory, so the renames and new entries survive a crash (best effort: some
    /// file systems refuse it, and the data is already complete).
    private static func syncDirectory(_ path: String) {
        let descriptor = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        _ = Glibc.close(descriptor)
    }

    private static func errnoDescription() -> String {
        String(cString: strerror(errno))
    }
}
