// What OpenSSL's libcrypto allocates, apart from everything else a benchmark allocates: OpenSSL
// 3.0's HMAC duplicates a digest context per tag (EVP_MD_CTX_copy_ex -> dupctx), inside the
// library, where no caller can avoid it. CoreBenchmarks reports those bytes in a column of their
// own, and the harness in summary.csv, so that what our code allocates and the rest are apart.
#ifndef DEEPLINK_LIBCRYPTO_ALLOCATIONS_H
#define DEEPLINK_LIBCRYPTO_ALLOCATIONS_H

#include <stdbool.h>
#include <stdint.h>

/// Whether libcrypto's allocations are being counted: the hooks are installed when the process
/// loads, before libcrypto can allocate (OpenSSL refuses them after its first allocation).
bool deeplink_libcrypto_allocations_counted(void);

/// The calling thread's count (read through the function below).
extern _Thread_local uint64_t deeplink_libcrypto_thread_bytes;

/// Bytes libcrypto allocated so far on the calling thread: each allocation's usable size, which is
/// what jemalloc's `thread.allocated` adds for it (a reallocation counts its new size, as there).
/// Inline, one thread-local load: the harness reads it around every journey.
static inline uint64_t deeplink_libcrypto_allocated_bytes(void) { return deeplink_libcrypto_thread_bytes; }

#endif
