// Stackful coroutines for the harness's controlled races (ControlledRaces/ControlledRace.swift): a
// race's logical threads take turns on one OS thread, so passing the turn is a register switch (a few
// nanoseconds) instead of a futex wake-up and a context switch on another core.
#ifndef DEEPLINK_RACE_FIBER_H
#define DEEPLINK_RACE_FIBER_H

#include <stddef.h>

/// One logical thread's stack and saved stack pointer. `caller_sp` is where it returns to on
/// `deeplink_fiber_yield` and when its entry returns.
typedef struct deeplink_fiber {
    void *sp;
    void *caller_sp;
    void (*entry)(void *);
    void *arg;
    /// 1 once the entry returned (the fiber must not be resumed again until prepared anew).
    int finished;
} deeplink_fiber;

/// 1 where fibers work: x86-64, and not under ThreadSanitizer or AddressSanitizer (which would
/// need to be told of every stack switch); the harness uses OS threads elsewhere.
int deeplink_fiber_supported(void);

/// Sets `fiber` up to run `entry(arg)` on the stack whose highest address is `stack_top` (16-byte
/// aligned) at its next `deeplink_fiber_resume`.
void deeplink_fiber_prepare(deeplink_fiber *fiber, void *stack_top, void (*entry)(void *), void *arg);

/// Runs `fiber` until it yields or its entry returns.
void deeplink_fiber_resume(deeplink_fiber *fiber);

/// From inside `fiber`: returns to whoever resumed it.
void deeplink_fiber_yield(deeplink_fiber *fiber);

#endif
