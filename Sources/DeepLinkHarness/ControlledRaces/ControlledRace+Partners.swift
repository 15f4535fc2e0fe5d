import DeepLinkCore
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The other OS threads of a race not on fibers: the paired worker (``RaceDesk``) or partner
/// threads of the race's own, and whether they spin for their turn (``ControlledRace/spinCredit``).
extension ControlledRace {
    /// The paired worker's desk when the peer took this race, else nil. `switches` is the race's
    /// reading of ``RaceSwitches``: a race served meanwhile books its own switches, so the wait's
    /// are booked before it and the reading is taken again after it.
    func askPeer(switches: inout UInt64) -> RaceDesk? {
        guard let peering else { return nil }
        let took = peering.peer.ask {
            guard peering.servesWhileAsking, peering.own.isAsked else { return false }
            RaceSwitches.book(since: &switches)
            defer { switches = RaceSwitches.ofCallingThread() }
            return peering.own.serveIfAsked()
        }
        recordSpin(caught: took)
        return took ? peering.peer : nil
    }

    /// Whether a partner thread spins for the next race: with a core to spare, while spinning pays.
    var spinsBetweenRaces: Bool { spareCore && spinCredit.load(ordering: .relaxed) > 0 }

    /// Whether this race spins (``spinCredit``); counts the races that do not, and probes.
    func spinPays() -> Bool {
        if spinCredit.load(ordering: .relaxed) > 0 { return true }
        racesWithoutSpinning += 1
        guard racesWithoutSpinning >= Self.spinProbeInterval else { return false }
        racesWithoutSpinning = 0
        spinCredit.store(Self.spinMissCost, ordering: .relaxed)
        return true
    }

    func recordSpin(caught: Bool) {
        let credit = spinCredit.load(ordering: .relaxed)
        let next = caught ? min(Self.maximumSpinCredit, credit + 1) : max(0, credit - Self.spinMissCost)
        // Two threads of a race may record at once: a lost update only delays the verdict.
        spinCredit.store(next, ordering: .relaxed)
    }

    /// On the paired worker's thread (``RaceDesk``): runs logical thread `thread` of the race just
    /// set up, as a partner thread would.
    func serve(_ thread: Int) {
        let own = TrapHandler.currentBeacon()
        TrapHandler.adopt(UnsafeMutableRawPointer(bitPattern: ownerBeacon))
        defer { TrapHandler.adopt(own) }
        // Its switches during the race are the run's own, as a partner thread's are.
        var switches = RaceSwitches.ofCallingThread()
        defer { RaceSwitches.book(since: &switches) }
        acquire()
        guard servedByPeer == thread, let target else {
            release()
            return
        }
        ControlledScheduling.shared.enter(self, as: thread)
        deliverInput(of: thread, to: target)
        ControlledScheduling.shared.enter(nil, as: thread)
    }

    /// With the lock held: waits for `thread`'s turn, then, with the lock released, delivers its
    /// input and finishes it (a partner thread's race, or the paired worker's).
    private func deliverInput(of thread: Int, to target: any RaceTarget) {
        let input = inputs[thread]
        waitForTurn(thread)
        release()
        target.deliver(input)
        finish(thread)
    }

    func startPartner(_ thread: Int) {
        partners += 1
        let beacon = ownerBeacon
        // The generation before the race that starts it: the partner must not miss that race.
        let seen = generation
        let partner = Thread { [self] in
            TrapHandler.adopt(UnsafeMutableRawPointer(bitPattern: beacon))
            partnerLoop(thread, seen: seen)
        }
        partner.stackSize = 1 << 20
        partner.start()
    }

    private func partnerLoop(_ thread: Int, seen: Int) {
        ControlledScheduling.shared.enter(self, as: thread)
        acquire()
        var seen = seen
        // A partner thread only ever races: all its switches are the run's own.
        var switches = RaceSwitches.ofCallingThread()
        while true {
            while generation == seen, !stopping {
                awaitChange(idleSpinNanos: spinsBetweenRaces ? RacePartner.spinNanos : 0, parkingOn: .nextRace)
            }
            if stopping { break }
            seen = generation
            guard thread < turns.threadCount, thread != servedByPeer, let target else { continue }
            deliverInput(of: thread, to: target)
            RaceSwitches.book(since: &switches)
            acquire()
        }
        release()
    }
}
