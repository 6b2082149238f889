/* Shared between the libgcrypt files: lib_libgcrypt.c (table, digests, MACs) and the kinds
 * that live in lib_libgcrypt_cipher.c and lib_libgcrypt_kdf.c. */
#ifndef CRYPTOBENCH_LIB_LIBGCRYPT_H
#define CRYPTOBENCH_LIB_LIBGCRYPT_H

#include "runner.h"

#include <gcrypt.h>

/* An AEAD entry packs cipher and mode into prim_t.arg2. */
#define GCRY_PACK(cipher, mode) ((long)(cipher) << 8 | (long)(mode))
#define GCRY_UNPACK_CIPHER(v) ((int)((v) >> 8))
#define GCRY_UNPACK_MODE(v) ((int)((v)&0xff))

extern const kind_t GCRY_CTR, GCRY_AEAD, GCRY_PBKDF2, GCRY_ARGON2;

#endif
