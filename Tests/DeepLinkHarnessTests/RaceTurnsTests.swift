import DeepLinkCore
import Testing

@testable import DeepLinkHarness

/// ``RaceTurns``, the turn-passing of a controlled race, one event at a time and without threads:
/// who holds the token after each schedule point, lock and finish, and how a deadlock and a
/// livelock end a race on OS threads (it runs free) and on fibers (round robin, then given up).
@Suite struct RaceTurnsTests {
    /// Stand-ins for two locks' addresses (only compared, never dereferenced).
    static var lockA: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 0x1000)! }
    static var lockB: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: 0x2000)! }

    /// Exhaustive with `prefix`: each choice picks among the holder (0) and then the other
    /// runnable threads by number, so a test names the interleaving it wants.
    static func turns(
        threads: Int = 2,
        prefix: [UInt8] = [],
        maxPoints: Int = 100,
        onFibers: Bool = false
    ) -> RaceTurns {
        var turns = RaceTurns()
        turns.start(
            schedule: .exhaustive(maxPoints: maxPoints),
            seed: 1,
            threads: threads,
            prefix: prefix,
            onFibers: onFibers
        )
        return turns
    }

    static func pair(_ parked: SchedulePoint, _ passed: SchedulePoint) -> Int {
        Int(parked.rawValue) * SchedulePoint.allCases.count + Int(passed.rawValue)
    }

    @Test func anOSRaceIsNotScheduled() {
        var turns = RaceTurns()
        turns.start(schedule: .os, seed: 1, threads: 2, prefix: [], onFibers: false)
        #expect(turns.state == .free)
        #expect(turns.holder == nil)
        #expect(turns.mayRun(0) && turns.mayRun(1))
        #expect(turns.reach(.queueClaim, by: 1) == .runUnscheduled)
        #expect(turns.block(0, on: Self.lockA) == .runUnscheduled)
        #expect(turns.steps == 0)
        #expect(turns.trace.isEmpty)
        turns.finish(0)
        turns.finish(1)
        #expect(turns.state == .free)
        #expect(turns.finishedCount == 2)
    }

    @Test func theDeciderPassesTheTokenAndTheInterleavingIsRecorded() {
        // Start: thread 0 (choice 0). Point 1: thread 0 keeps it (0). Point 2: thread 1 (1).
        var turns = Self.turns(prefix: [0, 0, 1])
        #expect(turns.state == .decided(holder: 0))
        #expect(turns.mayRun(0) && !turns.mayRun(1))
        #expect(turns.reach(.queueTailLoad, by: 0) == .proceed)
        #expect(turns.reach(.queueClaim, by: 0) == .passTurn)
        #expect(turns.holder == 1)
        #expect(!turns.mayRun(0) && turns.mayRun(1))
        // The prefix is used up: choice 0 keeps the holder, and thread 1 has not parked anywhere.
        #expect(turns.reach(.queuePublish, by: 1) == .proceed)
        #expect(turns.steps == 3)
        #expect(
            turns.trace == [
                ScheduleStep(thread: 0, point: .queueTailLoad), ScheduleStep(thread: 0, point: .queueClaim),
                ScheduleStep(thread: 1, point: .queuePublish),
            ]
        )
        #expect(turns.coverage.reached(point: Int(SchedulePoint.queueClaim.rawValue)))
        #expect(!turns.coverage.reached(point: Int(SchedulePoint.workLoad.rawValue)))
        #expect(turns.decider.choices == [0, 0, 1, 0])
        #expect(turns.decider.branching == [2, 2, 2, 2])
    }

    @Test func aPassedTurnRecordsThePairItInterleaved() {
        // Thread 0 parks before queueClaim and hands the token over; thread 1 parks before
        // queuePublish and hands it back: thread 1 is parked before queuePublish while thread 0
        // passes queueClaim (not the other way round: thread 1 had parked nowhere yet).
        var turns = Self.turns(prefix: [0, 1, 1])
        #expect(turns.reach(.queueClaim, by: 0) == .passTurn)
        #expect(turns.reach(.queuePublish, by: 1) == .passTurn)
        #expect(turns.holder == 0)
        #expect(turns.coverage.interleaved(pair: Self.pair(.queuePublish, .queueClaim)))
        #expect(!turns.coverage.interleaved(pair: Self.pair(.queueClaim, .queuePublish)))
    }

    @Test func aThreadBlockedOnALockRunsAgainWhenItIsReleased() {
        var turns = Self.turns(prefix: [0])
        #expect(turns.block(0, on: Self.lockA) == .passTurn)
        #expect(turns.state(of: 0) == .blocked(on: Self.lockA))
        #expect(turns.holder == 1)
        // Another lock's release does not wake it.
        turns.release(Self.lockB)
        #expect(turns.state(of: 0) == .blocked(on: Self.lockA))
        turns.release(Self.lockA)
        #expect(turns.state(of: 0) == .runnable)
        #expect(turns.state(of: 1) == .runnable)
        // Thread 1 finishes: the token goes to thread 0, and the race ends with it.
        turns.finish(1)
        #expect(turns.state(of: 1) == .finished)
        #expect(turns.holder == 0)
        turns.finish(0)
        #expect(turns.state == .idle)
        #expect(turns.holder == nil)
        #expect(turns.hang == nil)
    }

    @Test(arguments: [false, true])
    func everyThreadBlockedIsADeadlock(onFibers: Bool) {
        var turns = Self.turns(prefix: [0], onFibers: onFibers)
        #expect(turns.block(0, on: Self.lockA) == .passTurn)
        #expect(turns.block(1, on: Self.lockB) == (onFibers ? .abandon : .runFree))
        #expect(turns.hang == .deadlock)
        #expect(turns.state == (onFibers ? .abandoned : .free))
        #expect(turns.holder == nil)
    }

    @Test(arguments: [false, true])
    func finishingWhileTheOthersAreBlockedIsADeadlock(onFibers: Bool) {
        var turns = Self.turns(prefix: [1], onFibers: onFibers)
        #expect(turns.holder == 1)
        #expect(turns.block(1, on: Self.lockA) == .passTurn)
        turns.finish(0)
        #expect(turns.hang == .deadlock)
        #expect(turns.state == (onFibers ? .abandoned : .free))
    }

    @Test func aLivelockOnOSThreadsRunsFree() {
        var turns = Self.turns(threads: 1)
        for _ in 0..<RaceTurns.stepBound { #expect(turns.reach(.workLoad, by: 0) == .proceed) }
        #expect(turns.hang == nil)
        #expect(turns.reach(.workLoad, by: 0) == .runFree)
        #expect(turns.hang == .livelock)
        #expect(turns.state == .free)
        #expect(turns.reach(.workLoad, by: 0) == .runUnscheduled)
        #expect(turns.steps == RaceTurns.stepBound + 1)
        #expect(turns.trace.count == RaceTurns.traceCapacity)
    }

    @Test func aLivelockOnFibersTakesTurnsInOrderThenIsGivenUp() {
        // Past maxPoints the exhaustive decider keeps the holder: thread 0 would spin alone.
        var turns = Self.turns(threads: 3, maxPoints: 0, onFibers: true)
        for _ in 0..<RaceTurns.stepBound { #expect(turns.reach(.workLoad, by: 0) == .proceed) }
        turns.finish(1)
        #expect(turns.holder == 0)
        // Past the bound: round robin over the runnable threads (0 and 2), one point each.
        var holders: [Int] = []
        for _ in 0..<4 {
            let holder = turns.holder ?? -1
            #expect(turns.reach(.workLoad, by: holder) == .passTurn)
            holders.append(turns.holder ?? -1)
        }
        #expect(holders == [2, 0, 2, 0])
        #expect(turns.state == .roundRobin(holder: 0))
        #expect(turns.hang == .livelock)
        while turns.steps < RaceTurns.abandonBound {
            #expect(turns.reach(.workLoad, by: turns.holder ?? -1) == .passTurn)
        }
        #expect(turns.reach(.workLoad, by: turns.holder ?? -1) == .abandon)
        #expect(turns.state == .abandoned)
        #expect(turns.holder == nil)
        #expect(!turns.mayRun(0) && !turns.mayRun(2))
    }

    /// The deepest PCT schedule fits its change points, and a change point moves the token even
    /// though the runnable threads did not change: with one step to fall on, every change point is
    /// step 1, where the holder drops below the other thread once and for all.
    @Test func theDeepestPCTDemotesTheHolderAtItsChangePoints() throws {
        #expect(ScheduleDecider.changePointCapacity >= ScheduleMode.maximumDepth - 1)
        var turns = RaceTurns()
        turns.start(
            schedule: .pct(depth: ScheduleMode.maximumDepth, steps: 1),
            seed: 1,
            threads: 2,
            prefix: [],
            onFibers: true
        )
        let first = try #require(turns.holder)
        #expect(turns.reach(.workLoad, by: first) == .passTurn)
        let second = try #require(turns.holder)
        #expect(second != first)
        for _ in 0..<10 { #expect(turns.reach(.workLoad, by: second) == .proceed) }
    }

    @Test func aNewRaceStartsAfresh() {
        var turns = Self.turns(prefix: [0])
        #expect(turns.block(0, on: Self.lockA) == .passTurn)
        #expect(turns.block(1, on: Self.lockB) == .runFree)
        turns.start(schedule: .exhaustive(maxPoints: 100), seed: 1, threads: 2, prefix: [1], onFibers: false)
        #expect(turns.state == .decided(holder: 1))
        #expect(turns.hang == nil)
        #expect(turns.steps == 0)
        #expect(turns.finishedCount == 0)
        #expect(turns.state(of: 0) == .runnable && turns.state(of: 1) == .runnable)
    }
}
