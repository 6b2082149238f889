/* c/mbedtls: Arm's Mbed TLS (2.28 in Debian 12), what embedded and IoT code links.
 * Digests go through the one-shot mbedtls_md(); HMAC keeps one keyed md context
 * (mbedtls_md_hmac_reset re-primes it); AES-CTR, GCM and ChaCha20-Poly1305 keep their
 * expanded key in a context and take the nonce per call. */
#include "runner.h"

#include <mbedtls/aes.h>
#include <mbedtls/aesni.h>
#include <mbedtls/chachapoly.h>
#include <mbedtls/gcm.h>
#include <mbedtls/md.h>
#include <mbedtls/pkcs5.h>
#include <mbedtls/version.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* HMAC verify compares with mbedtls_ct_memcmp, public from Mbed TLS 2.28 on: without that
 * header, hmac-sha256 offers mac only. */
#if defined(__has_include)
#if __has_include(<mbedtls/constant_time.h>)
#include <mbedtls/constant_time.h>
#define CB_MBEDTLS_CT 1
#endif
#endif
#ifdef CB_MBEDTLS_CT
#define HMAC_OPS OPS_MAC_VERIFY
#else
#define HMAC_OPS OPS_MAC
#endif

#define TAG_LEN 16

static int md_fail(call_t *c, int e)
{
	return fail(c, RC_INTERNAL, "mbedtls error -0x%04x", (unsigned)-e);
}

static int hash_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	const mbedtls_md_info_t *md = mbedtls_md_info_from_type((mbedtls_md_type_t)c->prim->arg2);
	int e = mbedtls_md(md, in->p, in->n, out);

	(void)op;
	if (e != 0)
		return md_fail(c, e);
	*out_n = mbedtls_md_get_size(md);
	return RC_OK;
}

static int prepare_md(call_t *c)
{
	if (mbedtls_md_info_from_type((mbedtls_md_type_t)c->prim->arg2) == NULL)
		return fail(c, RC_UNSUPPORTED, "this mbedtls was built without %s",
			    c->prim->native);
	return RC_OK;
}

static void *ctx_new(call_t *c, size_t size)
{
	c->st = calloc(1, size);
	return c->st;
}

static int hmac_setup(call_t *c)
{
	mbedtls_md_context_t *m = ctx_new(c, sizeof(*m));
	int e;

	if (m == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	mbedtls_md_init(m);
	e = mbedtls_md_setup(m, mbedtls_md_info_from_type(MBEDTLS_MD_SHA256), 1);
	if (e == 0)
		e = mbedtls_md_hmac_starts(m, c->key.p, c->key.n);
	return e == 0 ? RC_OK : md_fail(c, e);
}

static void hmac_cleanup(call_t *c)
{
	if (c->st != NULL)
		mbedtls_md_free(c->st);
	free(c->st);
	c->st = NULL;
}

static int hmac_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	int e = mbedtls_md_hmac_reset(c->st);

	if (e == 0)
		e = mbedtls_md_hmac_update(c->st, in->p, in->n);
	if (e == 0)
		e = mbedtls_md_hmac_finish(c->st, out);
	if (e != 0)
		return md_fail(c, e);
	*out_n = 32;
#ifdef CB_MBEDTLS_CT
	if (op == OP_VERIFY)
		return mac_verdict(c, c->tag.n == 32 && mbedtls_ct_memcmp(out, c->tag.p, 32) == 0,
				   out_n);
#endif
	return RC_OK;
}

static int ctr_setup(call_t *c)
{
	mbedtls_aes_context *a = ctx_new(c, sizeof(*a));

	if (a == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	mbedtls_aes_init(a);
	return mbedtls_aes_setkey_enc(a, c->key.p, (unsigned)c->key.n * 8) == 0
		       ? RC_OK
		       : fail(c, RC_INTERNAL, "mbedtls_aes_setkey_enc failed");
}

static void ctr_cleanup(call_t *c)
{
	if (c->st != NULL)
		mbedtls_aes_free(c->st);
	free(c->st);
	c->st = NULL;
}

static int ctr_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	unsigned char counter[16], stream[16];
	size_t off = 0;
	int e;

	(void)op;
	memcpy(counter, c->nonce.p, 16);
	e = mbedtls_aes_crypt_ctr(c->st, in->n, &off, counter, stream, in->p, out);
	if (e != 0)
		return md_fail(c, e);
	*out_n = in->n;
	return RC_OK;
}

static int gcm_setup(call_t *c)
{
	mbedtls_gcm_context *g = ctx_new(c, sizeof(*g));
	int e;

	if (g == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	mbedtls_gcm_init(g);
	e = mbedtls_gcm_setkey(g, MBEDTLS_CIPHER_ID_AES, c->key.p, (unsigned)c->key.n * 8);
	return e == 0 ? RC_OK : md_fail(c, e);
}

static void gcm_cleanup(call_t *c)
{
	if (c->st != NULL)
		mbedtls_gcm_free(c->st);
	free(c->st);
	c->st = NULL;
}

static int gcm_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	size_t n = op == OP_OPEN ? in->n - TAG_LEN : in->n;
	int e;

	if (op != OP_OPEN) {
		e = mbedtls_gcm_crypt_and_tag(c->st, MBEDTLS_GCM_ENCRYPT, n, c->nonce.p, c->nonce.n,
					      c->aad.p, c->aad.n, in->p, out, TAG_LEN, out + n);
		if (e != 0)
			return md_fail(c, e);
		*out_n = n + TAG_LEN;
		return RC_OK;
	}
	e = mbedtls_gcm_auth_decrypt(c->st, n, c->nonce.p, c->nonce.n, c->aad.p, c->aad.n,
				     in->p + n, TAG_LEN, in->p, out);
	if (e == MBEDTLS_ERR_GCM_AUTH_FAILED)
		return fail(c, RC_AUTH, "tag does not verify");
	if (e != 0)
		return md_fail(c, e);
	*out_n = n;
	return RC_OK;
}

static int chachapoly_setup(call_t *c)
{
	mbedtls_chachapoly_context *p = ctx_new(c, sizeof(*p));

	if (p == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	mbedtls_chachapoly_init(p);
	return mbedtls_chachapoly_setkey(p, c->key.p) == 0
		       ? RC_OK
		       : fail(c, RC_INTERNAL, "mbedtls_chachapoly_setkey failed");
}

static void chachapoly_cleanup(call_t *c)
{
	if (c->st != NULL)
		mbedtls_chachapoly_free(c->st);
	free(c->st);
	c->st = NULL;
}

static int chachapoly_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	size_t n = op == OP_OPEN ? in->n - TAG_LEN : in->n;
	int e;

	if (op != OP_OPEN) {
		e = mbedtls_chachapoly_encrypt_and_tag(c->st, n, c->nonce.p, c->aad.p, c->aad.n,
						       in->p, out, out + n);
		if (e != 0)
			return md_fail(c, e);
		*out_n = n + TAG_LEN;
		return RC_OK;
	}
	e = mbedtls_chachapoly_auth_decrypt(c->st, n, c->nonce.p, c->aad.p, c->aad.n, in->p + n,
					    in->p, out);
	if (e == MBEDTLS_ERR_CHACHAPOLY_AUTH_FAILED)
		return fail(c, RC_AUTH, "tag does not verify");
	if (e != 0)
		return md_fail(c, e);
	*out_n = n;
	return RC_OK;
}

static int pbkdf2_prepare(call_t *c)
{
	if (c->pv[P_ITERATIONS] < 1 || c->pv[P_ITERATIONS] > 0xffffffffu)
		return fail(c, RC_INVALID, "iterations must be in [1, 2^32)");
	return check_out_len(c, 1, 1u << 20);
}

/* mbedtls_pkcs5_pbkdf2_hmac takes an HMAC-capable md context, made per derivation. */
static int pbkdf2_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	mbedtls_md_context_t m;
	int e;

	(void)op;
	mbedtls_md_init(&m);
	e = mbedtls_md_setup(&m, mbedtls_md_info_from_type((mbedtls_md_type_t)c->prim->arg2), 1);
	if (e == 0)
		e = mbedtls_pkcs5_pbkdf2_hmac(&m, in->p, in->n, c->salt.p, c->salt.n,
					      (unsigned)c->pv[P_ITERATIONS],
					      (uint32_t)c->pv[P_OUT_LEN], out);
	mbedtls_md_free(&m);
	if (e != 0)
		return md_fail(c, e);
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

static const kind_t HASH = {.prepare = prepare_md, .run = hash_run};
static const kind_t HMAC = {NULL, hmac_setup, hmac_run, hmac_cleanup};
static const kind_t CTR = {NULL, ctr_setup, ctr_run, ctr_cleanup};
static const kind_t GCM = {NULL, gcm_setup, gcm_run, gcm_cleanup};
static const kind_t CHACHAPOLY = {NULL, chachapoly_setup, chachapoly_run, chachapoly_cleanup};
static const kind_t PBKDF2 = {.prepare = pbkdf2_prepare, .run = pbkdf2_run};

#define H(id, type)                                                                                \
	{                                                                                          \
		id, "mbedtls_md(" #type ")", OPS_DIGEST, PS_NONE, 0, 0, 0, &HASH, NULL, type       \
	}
#define PB(id, type)                                                                               \
	{                                                                                          \
		id, "mbedtls_pkcs5_pbkdf2_hmac(" #type ")", OPS_DERIVE, PS_PBKDF2, 0, 0, 0,        \
			&PBKDF2, NULL, type                                                        \
	}

static const prim_t PRIMS[] = {
	H("md2", MBEDTLS_MD_MD2),
	H("md4", MBEDTLS_MD_MD4),
	H("md5", MBEDTLS_MD_MD5),
	H("sha1", MBEDTLS_MD_SHA1),
	H("sha224", MBEDTLS_MD_SHA224),
	H("sha256", MBEDTLS_MD_SHA256),
	H("sha384", MBEDTLS_MD_SHA384),
	H("sha512", MBEDTLS_MD_SHA512),
	H("ripemd160", MBEDTLS_MD_RIPEMD160),
	{"hmac-sha256", "mbedtls_md_hmac (SHA256)", HMAC_OPS, PS_NONE, 0, 0, 0, &HMAC, NULL, 0},
	{"aes-128-ctr", "mbedtls_aes_crypt_ctr", OPS_CTR, PS_NONE, 0, 16, 16, &CTR, NULL, 0},
	{"aes-256-ctr", "mbedtls_aes_crypt_ctr", OPS_CTR, PS_NONE, 0, 32, 16, &CTR, NULL, 0},
	{"aes-128-gcm", "mbedtls_gcm (AES)", OPS_AEAD, PS_AEAD, 0, 16, 12, &GCM, NULL, 0},
	{"aes-256-gcm", "mbedtls_gcm (AES)", OPS_AEAD, PS_AEAD, 0, 32, 12, &GCM, NULL, 0},
	{"chacha20-poly1305", "mbedtls_chachapoly", OPS_AEAD, PS_AEAD, 0, 32, 12, &CHACHAPOLY, NULL,
	 0},
	PB("pbkdf2-sha1", MBEDTLS_MD_SHA1),
	PB("pbkdf2-sha256", MBEDTLS_MD_SHA256),
	PB("pbkdf2-sha512", MBEDTLS_MD_SHA512),
};

static int available(const prim_t *p)
{
	return p->kind != &HASH || mbedtls_md_info_from_type((mbedtls_md_type_t)p->arg2) != NULL;
}

static void describe(json_t *impl)
{
	static char version[32], path[96];

	mbedtls_version_get_string(version);
	snprintf(path, sizeof(path), "aesni.c: AES-NI %s, PCLMULQDQ for GHASH %s",
		 mbedtls_aesni_has_support(MBEDTLS_AESNI_AES) ? "used" : "not available",
		 mbedtls_aesni_has_support(MBEDTLS_AESNI_CLMUL) ? "used" : "not available");
	describe_common(impl, version, "mbedtls", path,
			"one-shot mbedtls_md for digests; HMAC, AES, GCM and ChaCha20-Poly1305 "
			"contexts keyed once and reused; PBKDF2 sets up its HMAC context per "
			"derivation");
}

const lib_t lib_mbedtls = {"mbedtls", PRIMS, COUNT_OF(PRIMS), NULL, available, describe};
