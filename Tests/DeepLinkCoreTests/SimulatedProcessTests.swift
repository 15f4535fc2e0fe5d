import DeepLinkCore
import Testing

/// The process word every resolver entry reads once: alive or killed, and whether a controlled
/// scheduler drives the process (its resolver then passes its schedule points).
@Suite struct SimulatedProcessTests {
    @Test func aFreshProcessRunsUnscheduledUntilTheHarnessSchedulesIt() {
        let process = SimulatedProcess()
        #expect(process.run == .unscheduled)
        #expect(process.isAlive)
        process.passSchedulePoints(true)
        #expect(process.run == .scheduled)
        #expect(process.isAlive)
        process.passSchedulePoints(false)
        #expect(process.run == .unscheduled)
    }

    /// A kill during a race (the store's crash point) stops the process whatever the bit; the
    /// race's end then leaves it killed, and a restart is a new process no race has scheduled.
    @Test func aKillEndsTheScheduleAndARestartStartsUnscheduled() {
        let process = SimulatedProcess()
        process.passSchedulePoints(true)
        #expect(process.kill())
        #expect(!process.kill(), "a second kill is not the one that killed it")
        #expect(process.run == .killed)
        #expect(!process.isAlive)
        process.passSchedulePoints(false)
        #expect(process.run == .killed)
        process.restart()
        #expect(process.run == .unscheduled)
        #expect(process.isAlive)
    }

    @Test func theScheduleBitChangesNothingAKilledProcessDoes() {
        let process = SimulatedProcess()
        process.kill()
        process.passSchedulePoints(true)
        #expect(process.run == .killed)
        process.passSchedulePoints(false)
        #expect(process.run == .killed)
    }
}
