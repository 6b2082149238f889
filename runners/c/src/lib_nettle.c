/* c/nettle: GnuTLS's low-level library, through its nettle_hash / nettle_aead descriptors.
 * Nettle's digest() resets the context, and its HMAC digest re-primes the keyed state,
 * so one context serves every message; fresh_context makes (and keys) one per message. */
#include "runner.h"

#include <nettle/ctr.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <nettle/nettle-meta.h>
#include <nettle/pbkdf2.h>
#include <nettle/sha3.h>
#include <nettle/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_LEN 16

static void *ctx_alloc(size_t size)
{
	return aligned_alloc(16, (size + 15) & ~(size_t)15);
}

static void ctx_free(call_t *c)
{
	free(c->st);
	c->st = NULL;
}

static int hash_setup(call_t *c)
{
	const struct nettle_hash *h = c->prim->arg;

	if ((c->st = ctx_alloc(h->context_size)) == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	return RC_OK;
}

static int hash_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	const struct nettle_hash *h = c->prim->arg;

	(void)op;
	h->init(c->st);
	h->update(c->st, in->n, in->p);
	h->digest(c->st, h->digest_size, out);
	*out_n = h->digest_size;
	return RC_OK;
}

static int shake_prepare(call_t *c)
{
	return check_out_len(c, 1, 1u << 24);
}

static int shake_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	sha3_256_init(c->st);
	sha3_256_update(c->st, in->n, in->p);
	sha3_256_shake(c->st, (size_t)c->pv[P_OUT_LEN], out);
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

static int hmac_setup(call_t *c)
{
	if ((c->st = ctx_alloc(sizeof(struct hmac_sha256_ctx))) == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	hmac_sha256_set_key(c->st, c->key.n, c->key.p);
	return RC_OK;
}

/* verify: the MAC as for mac, compared by memeql_sec (nettle/memops.h, constant time). */
static int hmac_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	hmac_sha256_update(c->st, in->n, in->p);
	hmac_sha256_digest(c->st, SHA256_DIGEST_SIZE, out);
	*out_n = SHA256_DIGEST_SIZE;
	if (op == OP_VERIFY)
		return mac_verdict(c,
				   c->tag.n == SHA256_DIGEST_SIZE &&
					   memeql_sec(out, c->tag.p, SHA256_DIGEST_SIZE),
				   out_n);
	return RC_OK;
}

/* CTR: the AES context followed by a 16-byte counter block that ctr_crypt advances. */
static int ctr_setup(call_t *c)
{
	const struct nettle_cipher *aes = c->prim->arg;

	if ((c->st = ctx_alloc(aes->context_size + 16)) == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	aes->set_encrypt_key(c->st, c->key.p);
	return RC_OK;
}

static int ctr_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	const struct nettle_cipher *aes = c->prim->arg;
	uint8_t *counter = (uint8_t *)c->st + aes->context_size;

	(void)op;
	memcpy(counter, c->nonce.p, 16);
	ctr_crypt(c->st, aes->encrypt, 16, counter, in->n, out, in->p);
	*out_n = in->n;
	return RC_OK;
}

static int aead_setup(call_t *c)
{
	const struct nettle_aead *a = c->prim->arg;

	if ((c->st = ctx_alloc(a->context_size)) == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	/* GCM and ChaCha20-Poly1305 use the encryption key schedule in both directions. */
	a->set_encrypt_key(c->st, c->key.p);
	return RC_OK;
}

static int aead_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	const struct nettle_aead *a = c->prim->arg;
	uint8_t tag[TAG_LEN];
	size_t n = op == OP_OPEN ? in->n - TAG_LEN : in->n;

	a->set_nonce(c->st, c->nonce.p);
	if (c->aad.n)
		a->update(c->st, c->aad.n, c->aad.p);
	if (op != OP_OPEN) {
		a->encrypt(c->st, n, out, in->p);
		a->digest(c->st, TAG_LEN, out + n);
		*out_n = n + TAG_LEN;
		return RC_OK;
	}
	a->decrypt(c->st, n, out, in->p);
	a->digest(c->st, TAG_LEN, tag);
	if (!memeql_sec(tag, in->p + n, TAG_LEN))
		return fail(c, RC_AUTH, "tag does not verify");
	*out_n = n;
	return RC_OK;
}

static int pbkdf2_prepare(call_t *c)
{
	if (c->pv[P_ITERATIONS] < 1 || c->pv[P_ITERATIONS] > 0xffffffffu)
		return fail(c, RC_INVALID, "iterations must be in [1, 2^32)");
	return check_out_len(c, 1, 1u << 20);
}

static int pbkdf2_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	unsigned iter = (unsigned)c->pv[P_ITERATIONS];
	size_t len = (size_t)c->pv[P_OUT_LEN];

	(void)op;
	if (c->prim->arg2 == 1)
		pbkdf2_hmac_sha1(in->n, in->p, iter, c->salt.n, c->salt.p, len, out);
	else if (c->prim->arg2 == 256)
		pbkdf2_hmac_sha256(in->n, in->p, iter, c->salt.n, c->salt.p, len, out);
	else
		pbkdf2_hmac_sha512(in->n, in->p, iter, c->salt.n, c->salt.p, len, out);
	*out_n = len;
	return RC_OK;
}

static const kind_t HASH = {NULL, hash_setup, hash_run, ctx_free};
static const kind_t SHAKE = {shake_prepare, hash_setup, shake_run, ctx_free};
static const kind_t HMAC = {NULL, hmac_setup, hmac_run, ctx_free};
static const kind_t CTR = {NULL, ctr_setup, ctr_run, ctx_free};
static const kind_t AEAD = {NULL, aead_setup, aead_run, ctx_free};
static const kind_t PBKDF2 = {.prepare = pbkdf2_prepare, .run = pbkdf2_run};

#define H(id, meta)                                                                                \
	{                                                                                          \
		id, #meta, OPS_DIGEST, PS_NONE, 0, 0, 0, &HASH, &meta, 0                           \
	}
#define PB(id, name, bits)                                                                         \
	{                                                                                          \
		id, name, OPS_DERIVE, PS_PBKDF2, 0, 0, 0, &PBKDF2, NULL, bits                      \
	}

static const prim_t PRIMS[] = {
	H("md2", nettle_md2),
	H("md4", nettle_md4),
	H("md5", nettle_md5),
	H("sha1", nettle_sha1),
	H("sha224", nettle_sha224),
	H("sha256", nettle_sha256),
	H("sha384", nettle_sha384),
	H("sha512", nettle_sha512),
	H("sha512-224", nettle_sha512_224),
	H("sha512-256", nettle_sha512_256),
	H("sha3-224", nettle_sha3_224),
	H("sha3-256", nettle_sha3_256),
	H("sha3-384", nettle_sha3_384),
	H("sha3-512", nettle_sha3_512),
	{"shake256", "sha3_256_shake", OPS_DIGEST, PS_XOF, 0, 0, 0, &SHAKE, &nettle_sha3_256, 0},
	H("ripemd160", nettle_ripemd160),
	H("gost94-test", nettle_gosthash94),
	H("gost94-cryptopro", nettle_gosthash94cp),
	H("streebog-256", nettle_streebog256),
	H("streebog-512", nettle_streebog512),
	H("sm3", nettle_sm3),
	{"hmac-sha256", "hmac_sha256", OPS_MAC_VERIFY, PS_NONE, 0, 0, 0, &HMAC, NULL, 0},
	{"aes-128-ctr", "ctr_crypt/aes128", OPS_CTR, PS_NONE, 0, 16, 16, &CTR, &nettle_aes128, 0},
	{"aes-256-ctr", "ctr_crypt/aes256", OPS_CTR, PS_NONE, 0, 32, 16, &CTR, &nettle_aes256, 0},
	{"aes-128-gcm", "gcm_aes128", OPS_AEAD, PS_AEAD, 0, 16, 12, &AEAD, &nettle_gcm_aes128, 0},
	{"aes-256-gcm", "gcm_aes256", OPS_AEAD, PS_AEAD, 0, 32, 12, &AEAD, &nettle_gcm_aes256, 0},
	{"chacha20-poly1305", "chacha_poly1305", OPS_AEAD, PS_AEAD, 0, 32, 12, &AEAD,
	 &nettle_chacha_poly1305, 0},
	PB("pbkdf2-sha1", "pbkdf2_hmac_sha1", 1),
	PB("pbkdf2-sha256", "pbkdf2_hmac_sha256", 256),
	PB("pbkdf2-sha512", "pbkdf2_hmac_sha512", 512),
};

static void describe(json_t *impl)
{
	static char version[32];

	snprintf(version, sizeof(version), "%d.%d", nettle_version_major(), nettle_version_minor());
	describe_common(impl, version, "nettle",
			"fat build: AES-NI/PCLMUL/SHA-NI picked at load time where compiled in",
			"nettle_hash/nettle_aead descriptors; contexts reused across messages");
}

const lib_t lib_nettle = {"nettle", PRIMS, COUNT_OF(PRIMS), NULL, NULL, describe};
