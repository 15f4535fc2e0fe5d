#ifndef DEEPLINK_CCRYPTO_SHIM_H
#define DEEPLINK_CCRYPTO_SHIM_H
// OpenSSL's libcrypto as built by Debian (libssl-dev): `EVP_Digest` with `EVP_sha256` gives the
// SHA-256 digests a report directory's manifest.json records for every file it lists; `EVP_MAC`
// ("HMAC" with digest "SHA256") the tags of signed links (DeepLinkLinks), compared with
// `CRYPTO_memcmp` (constant time).
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/params.h>
#include <openssl/rand.h>

/// The parameters that select SHA-256 for an HMAC `EVP_MAC_CTX` (`OSSL_PARAM` arrays are awkward
/// to build from Swift). `params` must have room for two entries.
static inline void deeplink_hmac_sha256_params(OSSL_PARAM *params) {
    params[0] = OSSL_PARAM_construct_utf8_string("digest", (char *)"SHA256", 0);
    params[1] = OSSL_PARAM_construct_end();
}
#endif
