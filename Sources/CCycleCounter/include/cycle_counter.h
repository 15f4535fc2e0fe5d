// The CPU's time-stamp counter, for the harness's operation stopwatch (OperationClock.swift).
// Header-only: Swift inlines these, so a reading is one instruction and no call.
#ifndef DEEPLINK_CYCLE_COUNTER_H
#define DEEPLINK_CYCLE_COUNTER_H

#include <stdint.h>

/// 1 where deeplink_cycle_counter() reads a counter (x86-64's rdtsc), 0 where it always returns 0.
static inline int deeplink_cycle_counter_exists(void) {
#if defined(__x86_64__)
    return 1;
#else
    return 0;
#endif
}

/// The time-stamp counter (rdtsc, unserialised: ~10 ns on the project's VMs against ~25 ns for a
/// vDSO CLOCK_MONOTONIC read); 0 where there is none.
static inline uint64_t deeplink_cycle_counter(void) {
#if defined(__x86_64__)
    return __builtin_ia32_rdtsc();
#else
    return 0;
#endif
}

#endif
