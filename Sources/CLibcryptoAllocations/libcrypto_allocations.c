#include "libcrypto_allocations.h"

#include <malloc.h>
#include <openssl/crypto.h>
#include <stdlib.h>

// Per thread, as jemalloc counts: a comparison measures on the thread that does the work.
_Thread_local uint64_t deeplink_libcrypto_thread_bytes;
static bool counted;

static void count(void *pointer) {
    if (pointer != NULL) {
        deeplink_libcrypto_thread_bytes += malloc_usable_size(pointer);
    }
}

static void *counting_malloc(size_t size, const char *file, int line) {
    (void)file;
    (void)line;
    void *pointer = malloc(size);
    count(pointer);
    return pointer;
}

static void *counting_realloc(void *old, size_t size, const char *file, int line) {
    (void)file;
    (void)line;
    void *pointer = realloc(old, size);
    count(pointer);
    return pointer;
}

static void counting_free(void *pointer, const char *file, int line) {
    (void)file;
    (void)line;
    free(pointer);
}

// At load, before any code of the process can make libcrypto allocate.
__attribute__((constructor)) static void install(void) {
    counted = CRYPTO_set_mem_functions(counting_malloc, counting_realloc, counting_free) == 1;
}

bool deeplink_libcrypto_allocations_counted(void) { return counted; }
