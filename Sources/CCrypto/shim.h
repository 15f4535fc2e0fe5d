#ifndef DEEPLINK_CCRYPTO_SHIM_H
#define DEEPLINK_CCRYPTO_SHIM_H
// OpenSSL's libcrypto as built by Debian (libssl-dev): `EVP_Digest` with `EVP_sha256` gives the
// SHA-256 digests a report directory's manifest.json records for every file it lists.
#include <openssl/evp.h>
#endif
