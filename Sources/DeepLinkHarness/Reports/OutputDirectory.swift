import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The check every command that writes a directory (`run`, `gate`, `merge`, `capacity`) makes
/// before it works: that its `--out` can be written, so a long run does not end in "cannot
/// write". An existing path must be a directory in which files can be created, or, for a
/// report that replaces it whole (`replacingReport`: run, merge and capacity write into a hidden
/// sibling and rename it into place, see ``SealedDirectory``), a directory holding only report
/// files whose parent lets directories be created; a new path must have, as its nearest existing
/// ancestor, a directory in which directories can be created. Each is probed by creating (and at
/// once removing) a hidden entry, which asks the kernel itself:
/// permissions, read-only mounts and pseudo file systems such as `/proc` all answer truthfully,
/// also for root.
///
/// Thread safety: stateless; the probe names are unique per process and call.
public enum OutputDirectory {
    /// Throws a named error when `path` cannot be used as an output directory.
    public static func check(_ path: String, replacingReport: Bool) throws(ReportError) {
        guard !path.isEmpty else {
            throw .cannotCreateDirectory(path: path, reason: "the path is empty; give --out a directory")
        }
        var status = stat()
        if stat(path, &status) == 0 {
            guard isDirectory(status) else {
                throw .cannotCreateDirectory(
                    path: path,
                    reason: "it exists and is \(kind(status)), not a directory; give --out a new or existing directory"
                )
            }
            guard replacingReport else {
                if let failure = probe(in: path, directory: false) {
                    throw .cannotWrite(
                        path: path,
                        reason: "no file can be created in it (\(failure)); give --out a directory you can write to"
                    )
                }
                return
            }
            try SealedDirectory.checkWritable(path, createParent: false)
            let parent = ReportReader.parentDirectory(of: path)
            if let failure = probe(in: parent, directory: true) {
                throw .cannotWrite(
                    path: path,
                    reason: "its parent \(parent) cannot take the new report beside it (\(failure)); give --out a "
                        + "directory whose parent you can write to"
                )
            }
            return
        }
        // ENOTDIR: a file stands where a parent directory should; the walk below names it.
        guard errno == ENOENT || errno == ENOTDIR else {
            throw .cannotCreateDirectory(
                path: path,
                reason: "\(StreamError(errno: errno)); give --out a directory you can reach and write to"
            )
        }
        // The directory will be created with its parents: the nearest existing ancestor decides.
        var ancestor = path
        while true {
            ancestor = ReportReader.parentDirectory(of: ancestor)
            if stat(ancestor, &status) == 0 { break }
            guard errno == ENOENT || errno == ENOTDIR, ancestor != "/", ancestor != "." else {
                throw .cannotCreateDirectory(
                    path: path,
                    reason: "\(ancestor): \(StreamError(errno: errno)); give --out a directory you can write to"
                )
            }
        }
        guard isDirectory(status) else {
            throw .cannotCreateDirectory(
                path: path,
                reason: "\(ancestor) is \(kind(status)), not a directory; give --out a path under a directory"
            )
        }
        if let failure = probe(in: ancestor, directory: true) {
            throw .cannotCreateDirectory(
                path: path,
                reason: "no directory can be created in \(ancestor) (\(failure)); give --out a directory you can "
                    + "write to"
            )
        }
    }

    /// Creates `path` with its missing parents, for a command that writes files into it itself
    /// (`gate`: gate.csv), after ``check(_:replacingReport:)`` passed; an existing directory is
    /// left as it is.
    public static func create(_ path: String) throws(ReportError) {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .cannotCreateDirectory(path: path, reason: error.localizedDescription)
        }
    }

    /// Creates and removes a hidden file (or directory) in `directory`; the error, if creating
    /// it failed.
    private static func probe(in directory: String, directory asDirectory: Bool) -> StreamError? {
        let name = ".deeplink-bench-probe-\(getpid())-\(UInt64.random(in: 0...UInt64.max))"
        let probe = (directory as NSString).appendingPathComponent(name)
        if asDirectory {
            guard mkdir(probe, 0o700) == 0 else { return StreamError(errno: errno) }
            rmdir(probe)
        } else {
            let descriptor = open(probe, O_WRONLY | O_CREAT | O_EXCL, 0o600)
            guard descriptor >= 0 else { return StreamError(errno: errno) }
            close(descriptor)
            unlink(probe)
        }
        return nil
    }

    private static func isDirectory(_ status: stat) -> Bool { status.st_mode & S_IFMT == S_IFDIR }

    /// What a non-directory is, for the message.
    private static func kind(_ status: stat) -> String {
        switch status.st_mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFLNK: "a symbolic link"
        case S_IFCHR, S_IFBLK: "a device"
        case S_IFIFO: "a pipe"
        case S_IFSOCK: "a socket"
        default: "neither a file nor a directory"
        }
    }
}
