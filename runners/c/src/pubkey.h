/* The public-key rows (families kex and signature, docs/protocol.md "Public-key operations"):
 * one kind, PK_KIND, drives a library's scheme over the protocol's encodings. Our key is
 * parsed by setup() (once per case, or in every call with fresh_context); agree parses the
 * peer's key in every call; keygen without key_seed makes a fresh random pair per call. */
#ifndef CRYPTOBENCH_PUBKEY_H
#define CRYPTOBENCH_PUBKEY_H

#include "runner.h"

typedef struct pk_scheme {
	/* public ‖ private into out; seed: the 32-byte key_seed, or NULL for a random pair.
	 * NULL keygen_seeded: key_seed is unsupported (RSA). */
	int (*keygen)(call_t *c, uint8_t *out, size_t *out_n);
	int (*keygen_seeded)(call_t *c, const uint8_t *seed, uint8_t *out, size_t *out_n);
	/* Parse our key into a library object; NULL after fail(c, RC_INVALID, …). */
	void *(*load_private)(call_t *c, const buf_t *raw);
	void *(*load_public)(call_t *c, const buf_t *raw);
	void (*free_key)(void *key);
	int (*agree)(call_t *c, void *key, const buf_t *peer, uint8_t *out, size_t *out_n);
	int (*sign)(call_t *c, void *key, const buf_t *msg, uint8_t *out, size_t *out_n);
	int (*verify)(call_t *c, void *key, const buf_t *msg, const buf_t *sig); /* OK / AUTH */
} pk_scheme_t;

extern const kind_t PK_KIND;

/* Table entries: id, the library's name for it, its scheme, a per-entry number (bits…). */
#define PK_KEX(id, native, scheme, arg2)                                                           \
	{                                                                                          \
		id, native, OPS_KEX, PS_NONE, 0, 0, 0, &PK_KIND, &scheme, arg2                     \
	}
#define PK_SIG(id, native, scheme, arg2)                                                           \
	{                                                                                          \
		id, native, OPS_SIG, PS_NONE, 0, 0, 0, &PK_KIND, &scheme, arg2                     \
	}

/* 1 when d (32 bytes, big-endian) is a P-256 private scalar: 1 <= d < n. */
int pk_p256_scalar_ok(const uint8_t *d);
/* 1 when p is an uncompressed SEC1 P-256 point encoding (65 bytes, 04‖X‖Y); not a curve check. */
int pk_p256_uncompressed(const buf_t *p);
/* public ‖ private into out (at most out_cap bytes). */
int pk_pair(call_t *c, const uint8_t *pub, size_t pub_n, const uint8_t *priv, size_t priv_n,
	    uint8_t *out, size_t *out_n);

/* Each library's public-key rows (lib_<library>_pubkey.c). */
extern const prim_table_t openssl_pubkey, libsodium_pubkey, libgcrypt_pubkey, nettle_pubkey,
	mbedtls_pubkey, wolfssl_pubkey;

#endif
