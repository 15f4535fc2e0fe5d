import DeepLinkCore
import Synchronization

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
/// No child escapes the handler: children start only inside ``startingChild(_:)``, which the
/// handler waits out and then closes, and the handler reaps the children it kills before it
/// removes the state roots. Otherwise a child started by another worker thread while the handler
/// ran could recreate a state directory after `rm -rf` (as CI saw once under load).
///
/// Thread safety: the tables are written under ``lock`` and read by the handler without it: each
/// entry is one aligned word, written once per spawn or exit. The handler is installed once.
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
    /// Set by the handler once it begins: no child starts after that.
    static let closed = Atomic<Bool>(false)
    /// Threads inside ``startingChild(_:)``.
    static let starting = Atomic<Int>(0)

    /// Runs `start`, which spawns a child and registers its group, so that the handler sees that
    /// group or no child starts at all. The cleanup signals are blocked on this thread meanwhile, so
    /// the handler never runs here while another thread waits for it; once the handler has begun,
    /// the caller parks until the process dies.
    static func startingChild<Child, Failure: Error>(_ start: () throws(Failure) -> Child) throws(Failure) -> Child {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        for number in signals { sigaddset(&blocked, number) }
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        starting.add(1, ordering: .sequentiallyConsistent)
        defer { starting.subtract(1, ordering: .sequentiallyConsistent) }
        if closed.load(ordering: .sequentiallyConsistent) {
            starting.subtract(1, ordering: .sequentiallyConsistent)
            while true { sleep(60) }
        }
        return try start()
    }

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
            // Not deferred: the handler's `raise` ends the process at once. Not reset on entry: a
            // second signal during the cleanup (a parent that dies sends SIGTERM once per thread
            // of it that exits) must not kill the process half-way through; it finds the cleanup
            // begun and returns.
            action.sa_flags = Int32(SA_NODEFER)
            sigaction(number, &action, nil)
        }
    }

    /// The handler: async-signal-safe calls only (kill, fork, execve, waitpid, nanosleep, raise).
    static func handle(_ number: Int32) {
        guard !closed.exchange(true, ordering: .sequentiallyConsistent) else { return }
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000)
        while starting.load(ordering: .sequentiallyConsistent) > 0 { nanosleep(&pause, nil) }
        for index in 0..<slotCount {
            let group = groups[index]
            if group > 0 { kill(-group, SIGKILL) }
        }
        // Reaped (here, or by the worker thread that was already waiting: ECHILD) before the
        // removal, so that none is still writing into a state directory; at most 5 s in all.
        var waited = 0
        for index in 0..<slotCount {
            let group = groups[index]
            guard group > 0 else { continue }
            var status: Int32 = 0
            while waited < 5_000, waitpid(group, &status, WNOHANG) == 0 {
                nanosleep(&pause, nil)
                waited += 1
            }
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
        // Die of the signal, as without the handler.
        signal(number, SIG_DFL)
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
