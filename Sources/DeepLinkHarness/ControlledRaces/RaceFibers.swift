import CRaceFiber

#if canImport(Glibc)
import Glibc
#endif

/// The stacks of one ``ControlledRace``'s fibers: under a controlled schedule only one logical
/// thread of a race runs at a time, so they all run on the worker's own OS thread, each on a stack
/// of its own, and passing the turn is a register switch (`CRaceFiber`). Nothing spins and nothing
/// waits for another core, so a race costs the same on a loaded machine as on an idle one.
///
/// Not where `CRaceFiber` has no switch (other than x86-64) or under ThreadSanitizer or
/// AddressSanitizer (they would have to be told of every stack switch): races there run on OS
/// threads, as `os` races always do.
///
/// Thread safety: owned by one ``ControlledRace``; used only on its owner's thread.
package final class RaceFibers {
    /// Whether controlled races run on fibers in this build.
    package static let available = deeplink_fiber_supported() == 1
    /// Each fiber's stack (its lowest page is a guard page: an overflow traps instead of writing
    /// over the next stack).
    static let stackBytes = 512 * 1024

    let count: Int
    let fibers: UnsafeMutablePointer<deeplink_fiber>
    private let stacks: UnsafeMutableRawPointer

    init(count: Int) {
        self.count = count
        fibers = .allocate(capacity: count)
        fibers.initialize(repeating: deeplink_fiber(), count: count)
        let mapped = mmap(
            nil,
            count * Self.stackBytes,
            PROT_READ | PROT_WRITE,
            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
            -1,
            0
        )
        guard let mapped, mapped != MAP_FAILED else { fatalError("cannot map \(count) race fiber stacks") }
        stacks = mapped
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        for index in 0..<count { mprotect(stacks + index * Self.stackBytes, page, PROT_NONE) }
    }

    deinit {
        munmap(stacks, count * Self.stackBytes)
        fibers.deinitialize(count: count)
        fibers.deallocate()
    }

    /// Sets fiber `index` up to run `entry(argument)` from the start of its stack.
    func prepare(
        _ index: Int,
        entry: @convention(c) (UnsafeMutableRawPointer?) -> Void,
        argument: UnsafeMutableRawPointer
    ) {
        deeplink_fiber_prepare(fibers + index, stacks + (index + 1) * Self.stackBytes, entry, argument)
    }

    /// Runs fiber `index` until it yields or finishes (from the owner's own stack).
    func resume(_ index: Int) { deeplink_fiber_resume(fibers + index) }

    /// From inside fiber `index`: back to the owner's stack, until resumed.
    func yield(_ index: Int) { deeplink_fiber_yield(fibers + index) }

    /// An identity of fiber `index` (its stack's address), for counting who delivered a race.
    func identity(_ index: Int) -> UInt { UInt(bitPattern: stacks + index * Self.stackBytes) }
}
