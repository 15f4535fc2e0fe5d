import DeepLinkCore

#if canImport(Glibc)
import Glibc
#endif

/// Leaves no orphans: the process groups of the exec children alive in this process, and the
/// state roots of its exec adapters, are recorded where a signal handler can read them. On
/// SIGTERM, SIGINT or SIGHUP the handler SIGKILLs every recorded group, removes every state root
/// (`rm -rf` in a forked child: the handler may only make async-signal-safe calls), and dies of the
/// signal as it would have. A harness killed outright (SIGKILL) cannot clean up; its children see
/// their stdin close and must exit (Docs/Protocol.md), and a supervised run's worker dies with its
/// supervisor (`PR_SET_PDEATHSIG`, ``TrapSupervisor``).
///
/// Thread safety: the tables are written under ``lock`` and read by the handler without it: each
/// entry is one aligned word, written once per spawn or exit, and a handler that reads a stale
/// entry kills a group that is already gone (ESRCH) or misses one that just started. The
/// handler is installed once.
enum ExecCleanup {
    /// Live children's process-group ids (0: a free entry).
    static let slotCount = 1_024
    nonisolated(unsafe) static let groups: UnsafeMutablePointer<pid_t> = {
        let table = UnsafeMutablePointer<pid_t>.allocate(capacity: slotCount)
        table.initialize(repeating: 0, count: slotCount)
        return table
    }()
    /// `rm -rf` argument vectors of the state roots, never freed (the handler reads them).
    nonisolated(unsafe) static var removals: [UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>] = []
    nonisolated(unsafe) static var removalPointer:
        UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?> =
            .allocate(capacity: 1)
    nonisolated(unsafe) static var removalCount = 0
    static let lock = Locked(false)
    static let signals = [SIGTERM, SIGINT, SIGHUP]

    /// Records a child's process group (its pid: each child leads its own group).
    static func register(group: pid_t) {
        lock.withLock { installed in
            installIfNeeded(&installed)
            for index in 0..<slotCount where groups[index] == 0 {
                groups[index] = group
                return
            }
        }
    }

    /// Forgets a child's group once it has been reaped.
    static func unregister(group: pid_t) {
        lock.withLock { _ in
            for index in 0..<slotCount where groups[index] == group { groups[index] = 0 }
        }
    }

    /// Records a state root the handler removes (once per adapter).
    static func register(stateRoot: String) {
        // A process started with these signals blocked (its parent's mask is inherited: a test
        // runner's blocks nearly all) would never see them: unblocked on the adapter's thread.
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        for number in signals { sigaddset(&unblocked, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        lock.withLock { installed in
            installIfNeeded(&installed)
            let argv = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 4)
            argv[0] = strdup("/bin/rm")
            argv[1] = strdup("-rf")
            argv[2] = strdup(stateRoot)
            argv[3] = nil
            removals.append(argv)
            let table = UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>.allocate(
                capacity: removals.count
            )
            for (index, entry) in removals.enumerated() { table[index] = entry }
            // The old table stays readable: a handler running now may hold it.
            removalPointer = table
            removalCount = removals.count
        }
    }

    private static func installIfNeeded(_ installed: inout Bool) {
        guard !installed else { return }
        installed = true
        for number in signals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in ExecCleanup.handle(number) }
            sigemptyset(&action.sa_mask)
            // Reset and not deferred: the handler's `raise` then ends the process at once.
            action.sa_flags = Int32(bitPattern: UInt32(SA_RESETHAND)) | Int32(SA_NODEFER)
            sigaction(number, &action, nil)
        }
    }

    /// The handler: async-signal-safe calls only (kill, fork, execve, waitpid, raise).
    static func handle(_ number: Int32) {
        for index in 0..<slotCount {
            let group = groups[index]
            if group > 0 { kill(-group, SIGKILL) }
        }
        let table = removalPointer
        for index in 0..<removalCount {
            guard let argv = table[index] else { continue }
            let pid = fork()
            if pid == 0 {
                execve("/bin/rm", argv, nil)
                _exit(127)
            }
            if pid > 0 {
                var status: Int32 = 0
                _ = waitpid(pid, &status, 0)
            }
        }
        // SA_RESETHAND restored the default action: die of the signal, as without the handler.
        raise(number)
    }

    /// `prctl(PR_SET_PDEATHSIG, signal)`: this process gets `signal` when its parent dies. Looked up
    /// by name (the Glibc module does not import `sys/prctl.h`); false when it is not there.
    static func dieWithParent(signal: Int32) -> Bool {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "prctl") else { return false }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        let setParentDeathSignal: Int32 = 1  // PR_SET_PDEATHSIG
        return prctl(setParentDeathSignal, UInt(signal), 0, 0, 0) == 0
    }
}
