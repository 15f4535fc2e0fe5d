// The C library: glibc (Linux), Bionic (Android, Swift SDK for Android), Darwin (Apple).
#if canImport(Glibc)
import Glibc
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

// The store's system calls. Every failure becomes `HandoffStoreError.io` with the failing call's
// name and `errno`; `EINTR` is retried.

extension FileHandoffStore {
    func _path(_ name: String) -> String { directory + "/" + name }

    /// Writes `bytes` to a temporary file, `fsync`s it, moves it to `name` and `fsync`s the
    /// directory. `exclusive`: fail with `EEXIST` instead of replacing an existing `name`
    /// (`link(2)` then `unlink(2)` of the temporary name, instead of `rename(2)`).
    ///
    /// The temporary file is `flock`ed while it is written, which is how another process's
    /// ``_removeAbandonedTemporaryFiles()`` tells a write in progress from an abandoned one. If that
    /// clean-up removed the file in the instant between its creation and the lock (the move then
    /// finds no file), the write starts over once under a new name.
    func _writeDurably(_ bytes: [UInt8], to name: String, exclusive: Bool) throws(HandoffStoreError) {
        do {
            try _writeDurablyOnce(bytes, to: name, exclusive: exclusive)
        } catch .io(let operation, let code) where code == ENOENT && (operation == "rename" || operation == "link") {
            try _writeDurablyOnce(bytes, to: name, exclusive: exclusive)
        }
    }

    private func _writeDurablyOnce(_ bytes: [UInt8], to name: String, exclusive: Bool) throws(HandoffStoreError) {
        let temporaryPath = _path(_temporaryName(for: name))
        let descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw .io(operation: "open", errno: errno) }
        // Held until `close`, and released by the kernel if this process dies.
        _ = flock(descriptor, LOCK_EX | LOCK_NB)
        var failure: HandoffStoreError?
        let chunkByteCount = slowWritesForCrashTesting ? 8 : bytes.count
        if let writeErrno = Self._writeAll(bytes, to: descriptor, chunkByteCount: chunkByteCount) {
            failure = .io(operation: "write", errno: writeErrno)
        } else if fsync(descriptor) != 0 {
            failure = .io(operation: "fsync", errno: errno)
        }
        if close(descriptor) != 0, failure == nil { failure = .io(operation: "close", errno: errno) }
        if failure == nil {
            if exclusive {
                if link(temporaryPath, _path(name)) != 0 {
                    failure = .io(operation: errno == EEXIST ? Self._exclusiveCreate : "link", errno: errno)
                }
            } else if rename(temporaryPath, _path(name)) != 0 {
                failure = .io(operation: "rename", errno: errno)
            }
        }
        // After a rename the temporary name is gone; after a link or a failure it must go.
        if exclusive || failure != nil { _ = unlink(temporaryPath) }
        if let failure { throw failure }
        try _syncDirectory()
    }

    /// Removes `name` (already absent is fine) and makes the removal durable.
    func _remove(_ name: String) throws(HandoffStoreError) {
        if unlink(_path(name)) != 0 {
            guard errno == ENOENT else { throw .io(operation: "unlink", errno: errno) }
            return
        }
        try _syncDirectory()
    }

    func _exists(_ name: String) -> Bool {
        access(_path(name), F_OK) == 0
    }

    /// The record in `name` (at most one byte more than the largest valid record is read), or
    /// `nil` when the file no longer exists.
    func _readRecord(_ name: String) -> Result<PendingLink, HandoffStoreError>? {
        let descriptor = open(_path(name), O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            return .failure(.io(operation: "open", errno: errno))
        }
        defer { _ = close(descriptor) }
        let limit = FileHandoffRecord.maximumByteCount + 1
        var bytes = [UInt8](repeating: 0, count: limit)
        var count = 0
        while count < limit {
            let result = bytes.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + count, limit - count)
            }
            if result < 0 {
                if errno == EINTR { continue }
                return .failure(.io(operation: "read", errno: errno))
            }
            if result == 0 { break }
            count += result
        }
        bytes.removeLast(limit - count)
        return FileHandoffRecord.decode(bytes, name: name)
    }

    /// The names in the directory, except `.` and `..`.
    func _listNames() throws(HandoffStoreError) -> [String] {
        guard let stream = opendir(directory) else { throw .io(operation: "opendir", errno: errno) }
        defer { _ = closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// `fsync` of the directory, so that renames, links and unlinks in it are durable.
    func _syncDirectory() throws(HandoffStoreError) {
        let descriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .io(operation: "open directory", errno: errno) }
        defer { _ = close(descriptor) }
        guard fsync(descriptor) == 0 else { throw .io(operation: "fsync directory", errno: errno) }
    }

    /// Removes `.tmp.…` files no writer holds: a writer keeps an exclusive `flock` on its temporary
    /// file until it closes it, and the kernel drops the lock when the writer's process dies. This
    /// works between sandboxed processes (an App Clip and its app share the container but cannot
    /// signal each other, so `kill(pid, 0)` cannot tell whether the other one runs). A file whose
    /// lock is taken is a write in progress, in this process or another, and is left alone.
    func _removeAbandonedTemporaryFiles() throws(HandoffStoreError) {
        for name in try _listNames() where name.hasPrefix(Self._temporaryPrefix) {
            let path = _path(name)
            let descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { continue }  // gone since it was listed
            if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { _ = unlink(path) }
            _ = close(descriptor)
        }
    }

    /// Writes all of `bytes`, at most `chunkByteCount` per call (pausing 100 µs between calls
    /// when that is less than everything); returns `errno` on failure.
    static func _writeAll(_ bytes: [UInt8], to descriptor: Int32, chunkByteCount: Int) -> Int32? {
        bytes.withUnsafeBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                if offset > 0, chunkByteCount < buffer.count { usleep(100) }
                let written = write(descriptor, base + offset, min(chunkByteCount, buffer.count - offset))
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
    }
}
