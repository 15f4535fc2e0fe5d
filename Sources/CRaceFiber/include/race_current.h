// The controlled race the calling OS thread takes part in, and its logical thread in it
// (ControlledRaces/ControlledScheduling.swift): a C thread-local, read at every schedule point of a
// race, where `pthread_getspecific` was a call into the C library of some twenty instructions.
#ifndef DEEPLINK_RACE_CURRENT_H
#define DEEPLINK_RACE_CURRENT_H

/// The race's object with the logical thread in its low bits, or null outside a race.
extern _Thread_local void *deeplink_race_current;

static inline void *deeplink_race_current_get(void) { return deeplink_race_current; }

static inline void deeplink_race_current_set(void *value) { deeplink_race_current = value; }

#endif
