/* c/libsodium: hashes, HMAC-SHA-256, the IETF AEADs and password hashing.
 * libsodium's AEADs take raw keys (no context) except AES-256-GCM, whose precomputed
 * state (beforenm) is the reusable key; HMAC's keyed state is copied per message. */
#include "lib_libsodium.h"
#include "pubkey.h"

#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum hash_id { H_SHA256, H_SHA512, H_BLAKE2B };

static int hash_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	switch ((enum hash_id)c->prim->arg2) {
	case H_SHA256:
		crypto_hash_sha256(out, in->p, in->n);
		*out_n = 32;
		break;
	case H_SHA512:
		crypto_hash_sha512(out, in->p, in->n);
		*out_n = 64;
		break;
	case H_BLAKE2B:
		crypto_generichash(out, 64, in->p, in->n, NULL, 0);
		*out_n = 64;
		break;
	}
	return RC_OK;
}

/* HMAC: setup keys a template state; each message starts from a copy of it. */
struct hmac_state {
	crypto_auth_hmacsha256_state keyed, work;
};

static int hmac_setup(call_t *c)
{
	/* Plain malloc: sodium_malloc's guard pages would dominate fresh_context. */
	struct hmac_state *s = aligned_alloc(64, (sizeof(*s) + 63) & ~(size_t)63);

	c->st = s;
	if (s == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	crypto_auth_hmacsha256_init(&s->keyed, c->key.p, c->key.n);
	return RC_OK;
}

static void sodium_cleanup(call_t *c)
{
	free(c->st);
	c->st = NULL;
}

/* verify: crypto_auth_hmacsha256_verify takes a 32-byte key only and keys per call, so the
 * MAC comes from the same keyed state as mac, compared by crypto_verify_32 (the constant-time
 * compare crypto_auth_hmacsha256_verify makes). */
static int hmac_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	struct hmac_state *s = c->st;

	s->work = s->keyed;
	crypto_auth_hmacsha256_update(&s->work, in->p, in->n);
	crypto_auth_hmacsha256_final(&s->work, out);
	*out_n = 32;
	if (op == OP_VERIFY)
		return mac_verdict(c, c->tag.n == 32 && crypto_verify_32(out, c->tag.p) == 0,
				   out_n);
	return RC_OK;
}

typedef int (*aead_enc_fn)(unsigned char *, unsigned long long *, const unsigned char *,
			   unsigned long long, const unsigned char *, unsigned long long,
			   const unsigned char *, const unsigned char *, const unsigned char *);
typedef int (*aead_dec_fn)(unsigned char *, unsigned long long *, unsigned char *,
			   const unsigned char *, unsigned long long, const unsigned char *,
			   unsigned long long, const unsigned char *, const unsigned char *);

static const struct {
	aead_enc_fn enc;
	aead_dec_fn dec;
} AEADS[] = {
	{crypto_aead_chacha20poly1305_ietf_encrypt, crypto_aead_chacha20poly1305_ietf_decrypt},
	{crypto_aead_xchacha20poly1305_ietf_encrypt, crypto_aead_xchacha20poly1305_ietf_decrypt},
};

static int aead_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	unsigned long long len = 0;
	long i = c->prim->arg2;

	if (op != OP_OPEN) {
		AEADS[i].enc(out, &len, in->p, in->n, c->aad.p, c->aad.n, NULL, c->nonce.p,
			     c->key.p);
	} else if (AEADS[i].dec(out, &len, NULL, in->p, in->n, c->aad.p, c->aad.n, c->nonce.p,
				c->key.p) != 0) {
		return fail(c, RC_AUTH, "tag does not verify");
	}
	*out_n = (size_t)len;
	return RC_OK;
}

static int gcm_setup(call_t *c)
{
	/* The state must be 16-byte aligned; its size is a multiple of 16. */
	c->st = aligned_alloc(16, sizeof(crypto_aead_aes256gcm_state));
	if (c->st == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	crypto_aead_aes256gcm_beforenm(c->st, c->key.p);
	return RC_OK;
}

static int gcm_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	unsigned long long len = 0;

	if (op != OP_OPEN) {
		crypto_aead_aes256gcm_encrypt_afternm(out, &len, in->p, in->n, c->aad.p, c->aad.n,
						      NULL, c->nonce.p, c->st);
	} else if (crypto_aead_aes256gcm_decrypt_afternm(out, &len, NULL, in->p, in->n, c->aad.p,
							 c->aad.n, c->nonce.p, c->st) != 0) {
		return fail(c, RC_AUTH, "tag does not verify");
	}
	*out_n = (size_t)len;
	return RC_OK;
}

static const kind_t HASH = {.run = hash_run};
static const kind_t HMAC = {NULL, hmac_setup, hmac_run, sodium_cleanup};
static const kind_t AEAD = {.run = aead_run};
static const kind_t GCM = {NULL, gcm_setup, gcm_run, sodium_cleanup};

#define PW_OPS (OPS_PWHASH | OPS_DERIVE)

static const prim_t PRIMS[] = {
	{"sha256", "crypto_hash_sha256", OPS_DIGEST, PS_NONE, 0, 0, 0, &HASH, NULL, H_SHA256},
	{"sha512", "crypto_hash_sha512", OPS_DIGEST, PS_NONE, 0, 0, 0, &HASH, NULL, H_SHA512},
	{"blake2b-512", "crypto_generichash", OPS_DIGEST, PS_NONE, 0, 0, 0, &HASH, NULL, H_BLAKE2B},
	{"hmac-sha256", "crypto_auth_hmacsha256", OPS_MAC_VERIFY, PS_NONE, 0, 0, 0, &HMAC, NULL, 0},
	{"chacha20-poly1305", "crypto_aead_chacha20poly1305_ietf", OPS_AEAD, PS_AEAD, 0, 32, 12,
	 &AEAD, NULL, 0},
	{"xchacha20-poly1305", "crypto_aead_xchacha20poly1305_ietf", OPS_AEAD, PS_AEAD, 0, 32, 24,
	 &AEAD, NULL, 1},
	{"aes-256-gcm", "crypto_aead_aes256gcm", OPS_AEAD, PS_AEAD, 0, 32, 12, &GCM, NULL, 0},
	{"argon2id", "crypto_pwhash (ALG_ARGON2ID13)", PW_OPS, PS_ARGON2, F_NO_SALT, 0, 0,
	 &SODIUM_ARGON2, NULL, crypto_pwhash_ALG_ARGON2ID13},
	{"argon2i", "crypto_pwhash (ALG_ARGON2I13)", PW_OPS, PS_ARGON2, F_NO_SALT, 0, 0,
	 &SODIUM_ARGON2, NULL, crypto_pwhash_ALG_ARGON2I13},
	{"scrypt", "crypto_pwhash_scryptsalsa208sha256_ll", OPS_DERIVE, PS_SCRYPT, 0, 0, 0,
	 &SODIUM_SCRYPT, NULL, 0},
};

static int init(void)
{
	return sodium_init() < 0 ? -1 : 0;
}

static int available(const prim_t *p)
{
	return p->kind != &GCM || crypto_aead_aes256gcm_is_available();
}

static void describe(json_t *impl)
{
	static char path[160];

	snprintf(path, sizeof(path),
		 "runtime CPU detection: aesni=%d pclmul=%d avx=%d avx2=%d "
		 "avx512f=%d sse41=%d ssse3=%d",
		 sodium_runtime_has_aesni(), sodium_runtime_has_pclmul(), sodium_runtime_has_avx(),
		 sodium_runtime_has_avx2(), sodium_runtime_has_avx512f(),
		 sodium_runtime_has_sse41(), sodium_runtime_has_ssse3());
	describe_common(impl, sodium_version_string(), "libsodium", path,
			"AEADs take raw keys (no key schedule to reuse) except AES-256-GCM "
			"(beforenm state); HMAC copies a keyed state; argon2 hash generates its "
			"own salt; p must be 1");
}

const lib_t lib_libsodium = {"libsodium", PRIMS,    COUNT_OF(PRIMS),  init,
			     available,	  describe, &libsodium_pubkey};
