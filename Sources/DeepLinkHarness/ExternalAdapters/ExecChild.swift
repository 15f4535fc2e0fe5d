import DeepLinkCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// One child process behind two pipes: what the harness writes is queued and pushed out while it
/// waits for lines, so neither side can block the other on a full pipe; every wait has a deadline.
/// stderr goes to a log file (appended).
///
/// Thread safety: used by one worker thread.
final class ExecChild {
    let pid: pid_t
    private let input: Int32
    private let output: Int32
    private var pending: [UInt8] = []
    private var pendingOffset = 0
    private var received: [UInt8] = []
    private var receivedStart = 0
    private var atEnd = false
    private var inputClosed = false
    private var reaped = false

    /// Why the child could not be started.
    struct SpawnError: Error {
        var message: String
    }

    /// What waiting for a line gave.
    enum LineResult {
        case line([UInt8])
        case timedOut
        /// stdout closed (the child exited or closed it).
        case closed
    }

    /// Lines longer than this are a protocol error (a child that never writes a newline must not
    /// make the harness grow without bound).
    static let maximumLineBytes = 1 << 20

    private init(pid: pid_t, input: Int32, output: Int32) {
        self.pid = pid
        self.input = input
        self.output = output
    }

    /// Starts `/bin/sh -c 'exec <command>'` with stdin and stdout on pipes and stderr appended to
    /// `logPath`.
    static func spawn(command: String, logPath: String) throws(SpawnError) -> ExecChild {
        // A child that dies leaves a pipe whose write would kill the harness with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        // Workers spawn at once: until both pipes are close-on-exec, another worker's child must
        // not inherit them (it would hold this child's stdin open past its death).
        let spawned: Result<ExecChild, SpawnError> = spawnLock.withLock { _ in
            do throws(SpawnError) {
                return .success(
                    try ExecCleanup.startingChild { () throws(SpawnError) in
                        try spawnLocked(command: command, logPath: logPath)
                    }
                )
            } catch {
                return .failure(error)
            }
        }
        return try spawned.get()
    }

    private static let spawnLock = Locked(0)

    private static func spawnLocked(command: String, logPath: String) throws(SpawnError) -> ExecChild {
        var toChild: [Int32] = [-1, -1]
        var fromChild: [Int32] = [-1, -1]
        guard pipe(&toChild) == 0 else { throw SpawnError(message: "pipe: errno \(errno)") }
        guard pipe(&fromChild) == 0 else {
            close(toChild[0])
            close(toChild[1])
            throw SpawnError(message: "pipe: errno \(errno)")
        }
        for descriptor in toChild + fromChild { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
        posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        let arguments = ["/bin/sh", "-c", "exec " + command]
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        // Its own process group (what a cleanup kills, grandchildren included), default signal
        // handling and an empty mask whatever this process set.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setpgroup(&attributes, 0)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in ExecCleanup.signals + [SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(
            &attributes,
            Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        )
        var pid: pid_t = 0
        let status = posix_spawn(&pid, "/bin/sh", &actions, &attributes, &argv, environ)
        close(toChild[0])
        close(fromChild[1])
        guard status == 0 else {
            close(toChild[1])
            close(fromChild[0])
            throw SpawnError(message: "cannot start /bin/sh: \(String(cString: strerror(status)))")
        }
        ExecCleanup.register(group: pid)
        _ = fcntl(toChild[1], F_SETFL, fcntl(toChild[1], F_GETFL) | O_NONBLOCK)
        _ = fcntl(fromChild[0], F_SETFL, fcntl(fromChild[0], F_GETFL) | O_NONBLOCK)
        return ExecChild(pid: pid, input: toChild[1], output: fromChild[0])
    }

    deinit { terminate() }

    /// Queues `bytes` for the child's stdin (written while waiting for lines).
    func send(_ bytes: [UInt8]) {
        guard !inputClosed else { return }
        if pendingOffset == pending.count {
            pending.removeAll(keepingCapacity: true)
            pendingOffset = 0
        }
        pending.append(contentsOf: bytes)
    }

    /// Writes what ``send(_:)`` queued as far as the pipe takes it now, without waiting.
    func pushQueuedInput() {
        if !inputClosed, pendingOffset < pending.count { writePending() }
    }

    /// The next line from the child's stdout (without its newline), pushing queued input out
    /// meanwhile; `.timedOut` once `deadlineNanos` (CLOCK_MONOTONIC) has passed.
    func nextLine(deadlineNanos: UInt64) -> LineResult {
        while true {
            if let line = takeLine() { return .line(line) }
            if atEnd { return .closed }
            if received.count - receivedStart > Self.maximumLineBytes {
                return .line(Array(received[receivedStart...]))
            }
            let now = Runner.monotonicNanos()
            guard now < deadlineNanos else { return .timedOut }
            let wantsWrite = !inputClosed && pendingOffset < pending.count
            var fds = [
                pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wantsWrite ? input : -1, events: Int16(POLLOUT), revents: 0),
            ]
            let waitMillis = Int32(min((deadlineNanos - now) / 1_000_000 + 1, 1_000))
            let ready = poll(&fds, 2, waitMillis)
            if ready < 0, errno != EINTR { return .closed }
            if fds[1].revents != 0 { writePending() }
            if fds[0].revents != 0 { readAvailable() }
        }
    }

    private func takeLine() -> [UInt8]? {
        guard receivedStart < received.count,
            let newline = received[receivedStart...].firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        let line = Array(received[receivedStart..<newline])
        receivedStart = newline + 1
        if receivedStart == received.count {
            received.removeAll(keepingCapacity: true)
            receivedStart = 0
        }
        return line
    }

    private func writePending() {
        while pendingOffset < pending.count {
            let written = pending.withUnsafeBytes { bytes in
                write(input, bytes.baseAddress! + pendingOffset, bytes.count - pendingOffset)
            }
            if written > 0 {
                pendingOffset += written
                continue
            }
            if written < 0, errno == EINTR { continue }
            if written < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            // EPIPE: the child closed its stdin or died; what it said so far is still read.
            inputClosed = true
            return
        }
    }

    private func readAvailable() {
        if receivedStart > 0, receivedStart > received.count / 2 {
            received.removeFirst(receivedStart)
            receivedStart = 0
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if count > 0 {
                received.append(contentsOf: chunk[0..<count])
                if count < chunk.count { return }
                continue
            }
            if count < 0, errno == EINTR { continue }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }
            atEnd = true
            return
        }
    }

    /// SIGKILLs the child's process group (if still running), reaps the child and closes the pipes.
    func terminate() {
        guard !reaped else { return }
        reaped = true
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        ExecCleanup.unregister(group: pid)
        close(input)
        close(output)
    }
}
