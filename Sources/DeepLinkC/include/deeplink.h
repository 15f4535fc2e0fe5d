/* DeepLinkC: DeepLinkCore's resolver behind a small C ABI, for apps whose code is not Swift
 * (Flutter through dart:ffi, Kotlin through JNI). Link against libDeepLinkC (a shared library).
 *
 * One handle is one resolver for one app process. Every function may be called from any thread.
 * Strings are UTF-8 byte ranges (pointer + length), never required to be NUL-terminated.
 * Functions return DL_OK (0) or a positive outcome on success, and a negative DL_ERROR_* code
 * for bad input; they never abort the process.
 */
#ifndef DEEPLINK_C_H
#define DEEPLINK_C_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct dl_resolver dl_resolver;

/* Called with each link once its gate is open, synchronously, on the thread that drains the
 * resolver (the thread whose capture or signal call found work). `link` is the canonical path
 * and query (not NUL-terminated), valid only during the call. Return 1 when the app navigated,
 * 0 when it cannot now: the link then stays pending and is offered again after the next
 * dl_resolver_signal call. */
typedef int32_t (*dl_route_callback)(void *context, const uint8_t *link, size_t length, int32_t source);

/* Outcomes of a capture (>= 0). */
enum {
    DL_OK = 0,              /* captured (the link waits for its gate, or was routed) */
    DL_REJECTED = 1,        /* the payload failed validation or its signature check: never routed */
    DL_ORGANIC = 2,         /* a referrer of an organic install: no link */
    DL_NOT_SET = 3,         /* Play had no referrer to give: no link */
    DL_NO_PAYLOAD = 4,      /* a referrer without a link */
    DL_REFERRER_REFUSED = 5 /* the referrer broke the parser's limits (too long, too many fields) */
};

/* Errors (< 0): bad input, nothing was done. */
enum {
    DL_ERROR_NULL = -1,           /* a required pointer is NULL */
    DL_ERROR_INVALID_UTF8 = -2,   /* a configuration string is not UTF-8 */
    DL_ERROR_INVALID_PREFIX = -3, /* a login prefix is not a path ("/orders") or is listed twice */
    DL_ERROR_STORE = -4,          /* the store directory cannot be created or read */
    DL_ERROR_UNKNOWN_EVENT = -5,  /* dl_resolver_signal: not a DL_EVENT_* value */
    DL_ERROR_UNKNOWN_SOURCE = -6, /* dl_resolver_capture_link: not a DL_SOURCE_* value */
    DL_ERROR_INVALID_ACCOUNT = -7, /* dl_resolver_signal_login: not an account id (1-64 of A-Z a-z 0-9 -._~@+:) */
    DL_ERROR_INVALID_SIGNING = -8  /* dl_resolver_create_signed: signed prefixes without a callback, or the reverse */
};

/* Events for dl_resolver_signal; DL_EVENT_CUSTOM + n (n in 0..61) is the app's custom event n. */
enum { DL_EVENT_APP_READY = 0, DL_EVENT_LOGGED_IN = 1, DL_EVENT_LOGGED_OUT = 2, DL_EVENT_CUSTOM = 100 };

/* Capture sources. */
enum { DL_SOURCE_APP_CLIP = 0, DL_SOURCE_INSTALL_REFERRER = 1, DL_SOURCE_UNIVERSAL_LINK = 2 };

/* Creates a resolver. `allowed_hosts`: comma-separated https hosts the app owns ("" for none).
 * `login_prefixes`: comma-separated path prefixes that need DL_EVENT_LOGGED_IN ("/orders,/account").
 * `store_directory`: where pending links survive a kill (the App Group container, the app's files
 * directory); NULL keeps them in memory only. `account_key`: the referrer field that binds a link to
 * one account ("account"; such a link routes only after dl_resolver_signal_login names that
 * account, and one naming an invalid id is DL_REJECTED), or NULL to bind no link. Returns NULL and
 * sets `*error` on bad input. */
dl_resolver *dl_resolver_create(const uint8_t *allowed_hosts, size_t allowed_hosts_length,
                                const uint8_t *login_prefixes, size_t login_prefixes_length,
                                const char *store_directory, const char *account_key, dl_route_callback callback,
                                void *context, int32_t *error);

/* Checks a signed link's tag (see Docs: the dl_kid / dl_exp / dl_nonce / dl_sig fields): return 1 when
 * `tag` (32 bytes) is the HMAC-SHA256 of `message` under the key named `key_id`, 0 when it is not,
 * -1 when no key has that id. Compare in constant time. Called on the capturing thread, from any
 * thread at once. */
typedef int32_t (*dl_authenticate_callback)(void *context, const uint8_t *tag, size_t tag_length,
                                            const uint8_t *message, size_t message_length, const uint8_t *key_id,
                                            size_t key_id_length);

/* dl_resolver_create, and links under `signed_prefixes` (comma-separated paths, "/wallet") must be
 * signed: every capture checks the signature through `authenticate` (with `authenticate_context`),
 * its expiry and its nonce's single use, and answers DL_REJECTED for a link that fails. */
dl_resolver *dl_resolver_create_signed(const uint8_t *allowed_hosts, size_t allowed_hosts_length,
                                       const uint8_t *login_prefixes, size_t login_prefixes_length,
                                       const char *store_directory, const char *account_key,
                                       const uint8_t *signed_prefixes, size_t signed_prefixes_length,
                                       dl_authenticate_callback authenticate, void *authenticate_context,
                                       dl_route_callback callback, void *context, int32_t *error);

/* Picks up links earlier processes left in the store. Returns how many (>= 0) or an error. */
int32_t dl_resolver_launch(dl_resolver *resolver);

/* Captures the Install Referrer string Play returned (Android). `id`: new for each delivery;
 * `install_begin_timestamp`: Play's installBeginTimestampSeconds (the same on every re-delivery). */
int32_t dl_resolver_capture_referrer(dl_resolver *resolver, const uint8_t *referrer, size_t length, uint64_t id,
                                     uint64_t install_begin_timestamp, uint64_t click_timestamp_seconds);

/* Captures a decoded link (an App Clip invocation URL, a universal link, a path). */
int32_t dl_resolver_capture_link(dl_resolver *resolver, const uint8_t *link, size_t length, int32_t source,
                                 uint64_t id);

/* Tells the resolver the app reached `event` (DL_EVENT_*). */
int32_t dl_resolver_signal(dl_resolver *resolver, int32_t event);

/* Tells the resolver that `account` logged in: DL_EVENT_LOGGED_IN, and it also opens the links
 * bound to that account (other accounts' bound links stay pending). */
int32_t dl_resolver_signal_login(dl_resolver *resolver, const uint8_t *account, size_t length);

/* Releases the resolver. The callback is not called after this returns. */
void dl_resolver_destroy(dl_resolver *resolver);

#ifdef __cplusplus
}
#endif

#endif
