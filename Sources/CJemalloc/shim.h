#ifndef DEEPLINK_CJEMALLOC_SHIM_H
#define DEEPLINK_CJEMALLOC_SHIM_H
// jemalloc as built by Debian (no symbol prefix): `mallctl` reads allocator statistics such as the
// calling thread's `thread.allocated` counter.
#include <jemalloc/jemalloc.h>
#endif
