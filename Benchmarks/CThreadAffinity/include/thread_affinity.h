// CPU affinity for the two-thread queue benchmarks (CoreBenchmarkSuite/CPUPinning.swift):
// sched_setaffinity and cpu_set_t's macros are GNU extensions Swift's Glibc module does not show.
#ifndef DEEPLINK_THREAD_AFFINITY_H
#define DEEPLINK_THREAD_AFFINITY_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <sched.h>

/// A thread's CPU affinity, saved to be restored.
typedef struct deeplink_affinity {
    cpu_set_t set;
} deeplink_affinity;

/// Saves the calling thread's affinity into `saved`; 0 on success.
static inline int deeplink_affinity_save(deeplink_affinity *saved) {
    return sched_getaffinity(0, sizeof saved->set, &saved->set);
}

/// Restores an affinity `deeplink_affinity_save` saved; 0 on success.
static inline int deeplink_affinity_restore(const deeplink_affinity *saved) {
    return sched_setaffinity(0, sizeof saved->set, &saved->set);
}

/// The `index`-th CPU (0-based) in `saved`, or -1 when it has fewer.
static inline int deeplink_affinity_cpu(const deeplink_affinity *saved, int index) {
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (CPU_ISSET(cpu, &saved->set) && index-- == 0) return cpu;
    }
    return -1;
}

/// Pins the calling thread to `cpu`; 0 on success.
static inline int deeplink_affinity_pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

#endif
