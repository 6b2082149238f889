/* Shared between the OpenSSL files: lib_openssl.c (table), lib_openssl_fetch.c (algorithm
 * fetches, done once per name and cached, as openssl speed does) and lib_openssl_cipher.c. */
#ifndef CRYPTOBENCH_LIB_OPENSSL_H
#define CRYPTOBENCH_LIB_OPENSSL_H

#include "runner.h"

#include <openssl/evp.h>
#include <openssl/kdf.h>

const EVP_MD *ossl_md(const char *name);
const EVP_CIPHER *ossl_cipher(const char *name);
const EVP_MAC *ossl_mac(const char *name);
const EVP_KDF *ossl_kdf(const char *name);

/* The kinds of lib_openssl.c's table that live in lib_openssl_cipher.c. */
extern const kind_t OSSL_CTR, OSSL_AEAD;

#endif
