/// The one file-system call ``SealedDirectory/write(_:manifest:to:storage:)`` makes to store a
/// file's bytes: by default ``posix`` (open, write, fsync, close); tests replace it to inject
/// faults such as a full disk at a chosen file.
///
/// Thread safety: `Sendable`; the closure must be safe to call from the writing thread.
package struct ReportStorage: Sendable {
    /// Creates the file at `path` (which must not exist) holding exactly `bytes`, durably, or
    /// throws ``ReportError/cannotWrite(path:reason:)`` naming the OS error.
    package var writeFile: @Sendable (_ path: String, _ bytes: [UInt8]) throws(ReportError) -> Void

    package init(writeFile: @escaping @Sendable (_ path: String, _ bytes: [UInt8]) throws(ReportError) -> Void) {
        self.writeFile = writeFile
    }

    /// The real disk.
    package static let posix = ReportStorage(writeFile: SealedDirectory.writeWholeFile)
}
