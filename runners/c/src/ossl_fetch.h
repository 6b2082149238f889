/* OpenSSL 3 algorithm fetches, done once per name and cached (as openssl speed does). */
#ifndef CRYPTOBENCH_OSSL_FETCH_H
#define CRYPTOBENCH_OSSL_FETCH_H

#include "runner.h"

#include <openssl/evp.h>
#include <openssl/kdf.h>

const EVP_MD *ossl_md(const char *name);
const EVP_CIPHER *ossl_cipher(const char *name);
const EVP_MAC *ossl_mac(const char *name);
const EVP_KDF *ossl_kdf(const char *name);

/* The kinds of lib_openssl.c's table that live in ossl_cipher.c. */
extern const kind_t OSSL_CTR, OSSL_AEAD;

#endif
