import DeepLinkCore
import Foundation
import Synchronization

/// One implementation outside the harness that `exec:NAME` strategies drive over the journey
/// protocol (`Docs/Protocol.md`): its name, its command line, how process death is delivered, the
/// per-journey timeout, where children's stderr and state directories go, and the protocol errors
/// all workers' children made.
///
/// Thread safety: immutable but for ``errors``, which is behind a `Locked`; shared by every
/// worker's ``ExecStrategy``.
package final class ExecAdapter: Sendable {
    /// How process death reaches the child.
    package enum KillMode: String, Sendable, CaseIterable {
        /// A `kill` message: the child drops its memory and keeps its state directory.
        case message
        /// SIGKILL and a new child that resumes the journey from its state directory.
        case signal
    }

    package let name: String
    /// Run as `/bin/sh -c 'exec <command>'`.
    package let command: String
    package let killMode: KillMode
    /// A journey (or the handshake) without an answer for this long is `hung`.
    package let timeoutNanos: UInt64
    /// `<logDirectory>/<name>.w<worker>.log` receives each worker's children's stderr.
    package let logDirectory: String
    /// `<stateRoot>/<name>/w<worker>/<journey>` is each journey's state directory.
    package let stateRoot: String
    /// The time-to-live the handshake announces (the oracle's).
    package let ttlSeconds: UInt32
    /// The protocol errors of every child of this adapter.
    let errors = Locked(ExecErrorTally())
    let nextWorker = Locked(0)
    /// Journeys not sent to a protocol-1 child because judging them needs protocol 2.
    let unsupported = Atomic<UInt64>(0)

    /// Journeys left unjudged so far because the program answered protocol 1 (signed links).
    package var unsupportedJourneys: UInt64 { unsupported.load(ordering: .relaxed) }

    /// The protocol errors so far, over all workers.
    package var errorTally: ExecErrorTally { errors.withLock { $0 } }

    package init(
        name: String,
        command: String,
        killMode: KillMode = .message,
        timeoutNanos: UInt64 = 2_000_000_000,
        logDirectory: String,
        stateRoot: String,
        ttlSeconds: UInt32
    ) {
        self.name = name
        self.command = command
        self.killMode = killMode
        self.timeoutNanos = timeoutNanos
        self.logDirectory = logDirectory
        self.stateRoot = stateRoot
        self.ttlSeconds = ttlSeconds
        ExecCleanup.register(stateRoot: stateRoot)
    }

    /// Names are `[A-Za-z0-9_.-]`, 1 to 64 characters: they become file names and report keys.
    package static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    /// A worker number for a new strategy instance (log and state directory names).
    func claimWorker() -> Int {
        nextWorker.withLock { next in
            defer { next += 1 }
            return next
        }
    }

    /// The log file of worker `worker`.
    func logPath(worker: Int) -> String { "\(logDirectory)/\(name).w\(worker).log" }

    /// A fresh temporary directory for logs and state, `deeplink-exec-<pid>-<n>` under the
    /// system's temporary directory.
    package static func temporaryRoot() -> String {
        let base = FileManager.default.temporaryDirectory.path
        let pid = ProcessInfo.processInfo.processIdentifier
        var attempt = 0
        while true {
            let path = "\(base)/deeplink-exec-\(pid)-\(attempt)"
            if (try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)) != nil {
                return path
            }
            attempt += 1
            if attempt > 1_000 { return "\(base)/deeplink-exec-\(pid)" }
        }
    }
}
