#ifndef DEEPLINK_CCRYPTO_SHIM_H
#define DEEPLINK_CCRYPTO_SHIM_H
// OpenSSL's libcrypto as built by Debian (libssl-dev): `EVP_Digest` with `EVP_sha256` gives the
// SHA-256 digests a report directory's manifest.json records for every file it lists; `HMAC_*`
// over OpenSSL's own SHA-256 the tags of signed links (DeepLinkLinks), compared with
// `CRYPTO_memcmp` (constant time).
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

// One key's HMAC-SHA256 state that makes tags without allocating: two pointers, passed by value
// (OpenSSL writes what they point to, never the pointers).
//
// OpenSSL 3.0's provider digests cannot be copied in place: `EVP_MD_CTX_copy_ex` frees and
// duplicates the digest's context, so `EVP_MAC` (and `HMAC_*` over a fetched or built-in
// `EVP_sha256()`) allocate two 112-byte contexts per tag, which copy-in-place arrived for only in
// OpenSSL 3.2. A method-table digest (`EVP_MD_meth_dup` of the built-in SHA-256, whose functions
// are libcrypto's own `SHA256_Init`/`_Update`/`_Final`) takes OpenSSL's legacy path instead, which
// copies into the context it already holds. Nothing here computes a hash or a MAC: OpenSSL does
// both. The cost: that digest does not go through providers (a FIPS-only configuration does not
// apply to it). These calls are deprecated in 3.0 (not removed); the warnings are silenced here
// only, for these three functions.
typedef struct deeplink_hmac_sha256 {
    HMAC_CTX *context;
    EVP_MD *digest;
} deeplink_hmac_sha256;

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"

/// Sets `hmac` up with `key` (both fields NULL on failure, then 0 is returned).
static inline int deeplink_hmac_sha256_init(deeplink_hmac_sha256 *hmac, const void *key, int length) {
    hmac->context = NULL;
    hmac->digest = EVP_MD_meth_dup(EVP_sha256());
    if (hmac->digest == NULL) return 0;
    // The built-in method table leaves the state's size to the provider; the legacy path needs it.
    if (EVP_MD_meth_set_app_datasize(hmac->digest, (int)sizeof(SHA256_CTX)) != 1
        || (hmac->context = HMAC_CTX_new()) == NULL
        || HMAC_Init_ex(hmac->context, key, length, hmac->digest, NULL) != 1) {
        HMAC_CTX_free(hmac->context);
        EVP_MD_meth_free(hmac->digest);
        hmac->context = NULL;
        hmac->digest = NULL;
        return 0;
    }
    return 1;
}

/// Writes the tag of `message` into `tag` (32 bytes); 1 on success. Allocates nothing.
static inline int deeplink_hmac_sha256_tag(
    deeplink_hmac_sha256 hmac, const void *message, size_t length, unsigned char *tag
) {
    unsigned int written = 0;
    // A NULL key re-initialises the context with the key it was set up with.
    return HMAC_Init_ex(hmac.context, NULL, 0, NULL, NULL) == 1
        && (length == 0 || HMAC_Update(hmac.context, (const unsigned char *)message, length) == 1)
        && HMAC_Final(hmac.context, tag, &written) == 1
        && written == SHA256_DIGEST_LENGTH;
}

/// Frees what ``deeplink_hmac_sha256_init`` set up.
static inline void deeplink_hmac_sha256_free(deeplink_hmac_sha256 hmac) {
    HMAC_CTX_free(hmac.context);
    EVP_MD_meth_free(hmac.digest);
}

#pragma clang diagnostic pop
#endif
