/* c/wolfssl: wolfSSL's wolfCrypt (5.5 in Debian 12), the other embedded TLS stack.
 * Digests through the one-shot wc_Hash()/wc_*Hash() calls where wolfCrypt has them, else
 * one stack context per message (MD4, RIPEMD-160, BLAKE2); HMAC keeps one keyed Hmac;
 * AES-CTR and AES-GCM keep one expanded Aes; ChaCha20-Poly1305 is a one-shot call on the
 * raw key (wolfCrypt has no key schedule to keep for it). */
#include "runner.h"

#include <wolfssl/options.h>

#include <wolfssl/ssl.h>
#include <wolfssl/wolfcrypt/aes.h>
#include <wolfssl/wolfcrypt/blake2.h>
#include <wolfssl/wolfcrypt/chacha20_poly1305.h>
#include <wolfssl/wolfcrypt/error-crypt.h>
#include <wolfssl/wolfcrypt/hash.h>
#include <wolfssl/wolfcrypt/hmac.h>
#include <wolfssl/wolfcrypt/md2.h>
#include <wolfssl/wolfcrypt/md4.h>
#include <wolfssl/wolfcrypt/pwdbased.h>
#include <wolfssl/wolfcrypt/ripemd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAG_LEN 16

/* HMAC verify: wolfCrypt has no HMAC verify; the public constant-time compare is
 * wolfSSL_CRYPTO_memcmp (ssl.h, the OpenSSL-compatibility layer), declared only in builds with
 * it (Debian's: OPENSSL_EXTRA). Without it, hmac-sha256 offers mac only. */
#if defined(OPENSSL_EXTRA) || defined(OPENSSL_ALL)
#define CB_WOLFSSL_CT 1
#define HMAC_OPS OPS_MAC_VERIFY
#else
#define HMAC_OPS OPS_MAC
#endif

static int wc_fail(call_t *c, int e)
{
	return fail(c, RC_INTERNAL, "wolfCrypt error %d (%s)", e, wc_GetErrorString(e));
}

/* Digests wolfCrypt's generic wc_Hash() serves; arg2 is the wc_HashType. */
static int hash_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	enum wc_HashType t = (enum wc_HashType)c->prim->arg2;
	int n = wc_HashGetDigestSize(t);
	int e = wc_Hash(t, in->p, (word32)in->n, out, (word32)n);

	(void)op;
	if (e != 0)
		return wc_fail(c, e);
	*out_n = (size_t)n;
	return RC_OK;
}

static int md2_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	int e = wc_Md2Hash(in->p, (word32)in->n, out);

	(void)op;
	if (e != 0)
		return wc_fail(c, e);
	*out_n = MD2_DIGEST_SIZE;
	return RC_OK;
}

static int md4_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	Md4 m;

	(void)c;
	(void)op;
	wc_InitMd4(&m);
	wc_Md4Update(&m, in->p, (word32)in->n);
	wc_Md4Final(&m, out);
	*out_n = MD4_DIGEST_SIZE;
	return RC_OK;
}

static int ripemd_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	RipeMd r;
	int e = wc_InitRipeMd(&r);

	(void)op;
	if (e == 0)
		e = wc_RipeMdUpdate(&r, in->p, (word32)in->n);
	if (e == 0)
		e = wc_RipeMdFinal(&r, out);
	if (e != 0)
		return wc_fail(c, e);
	*out_n = RIPEMD_DIGEST_SIZE;
	return RC_OK;
}

static int blake2b_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	Blake2b b;
	int e = wc_InitBlake2b(&b, 64);

	(void)op;
	if (e == 0)
		e = wc_Blake2bUpdate(&b, in->p, (word32)in->n);
	if (e == 0)
		e = wc_Blake2bFinal(&b, out, 64);
	if (e != 0)
		return wc_fail(c, e);
	*out_n = 64;
	return RC_OK;
}

static int blake2s_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	Blake2s b;
	int e = wc_InitBlake2s(&b, 32);

	(void)op;
	if (e == 0)
		e = wc_Blake2sUpdate(&b, in->p, (word32)in->n);
	if (e == 0)
		e = wc_Blake2sFinal(&b, out, 32);
	if (e != 0)
		return wc_fail(c, e);
	*out_n = 32;
	return RC_OK;
}

static int shake_prepare(call_t *c)
{
	return check_out_len(c, 1, 1u << 24);
}

static int shake_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	int e = wc_Shake256Hash(in->p, (word32)in->n, out, (word32)c->pv[P_OUT_LEN]);

	(void)op;
	if (e != 0)
		return wc_fail(c, e);
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

static void *ctx_new(call_t *c, size_t size)
{
	c->st = aligned_alloc(16, (size + 15) & ~(size_t)15);
	if (c->st != NULL)
		memset(c->st, 0, size);
	return c->st;
}

static int hmac_setup(call_t *c)
{
	Hmac *h = ctx_new(c, sizeof(*h));
	int e;

	if (h == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	e = wc_HmacInit(h, NULL, INVALID_DEVID);
	if (e == 0)
		e = wc_HmacSetKey(h, WC_SHA256, c->key.p, (word32)c->key.n);
	return e == 0 ? RC_OK : wc_fail(c, e);
}

static void hmac_cleanup(call_t *c)
{
	if (c->st != NULL)
		wc_HmacFree(c->st);
	free(c->st);
	c->st = NULL;
}

/* wc_HmacFinal leaves the Hmac ready for the next message under the same key. */
static int hmac_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	int e = wc_HmacUpdate(c->st, in->p, (word32)in->n);

	if (e == 0)
		e = wc_HmacFinal(c->st, out);
	if (e != 0)
		return wc_fail(c, e);
	*out_n = 32;
#ifdef CB_WOLFSSL_CT
	/* buffers are never NULL (buf_t): wolfSSL_CRYPTO_memcmp calls NULL equal */
	if (op == OP_VERIFY)
		return mac_verdict(
			c, c->tag.n == 32 && wolfSSL_CRYPTO_memcmp(out, c->tag.p, 32) == 0, out_n);
#endif
	return RC_OK;
}

static int aes_setup(call_t *c)
{
	Aes *a = ctx_new(c, sizeof(*a));
	int e;

	if (a == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	e = wc_AesInit(a, NULL, INVALID_DEVID);
	if (e == 0 && c->prim->arg2 == 0)
		e = wc_AesSetKeyDirect(a, c->key.p, (word32)c->key.n, NULL, AES_ENCRYPTION);
	else if (e == 0)
		e = wc_AesGcmSetKey(a, c->key.p, (word32)c->key.n);
	return e == 0 ? RC_OK : wc_fail(c, e);
}

static void aes_cleanup(call_t *c)
{
	if (c->st != NULL)
		wc_AesFree(c->st);
	free(c->st);
	c->st = NULL;
}

/* wc_AesSetIV loads the counter block but keeps the previous message's partial-block
 * offset, so a new message also clears `left` (a public field of struct Aes). */
static int ctr_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	Aes *a = c->st;
	int e = wc_AesSetIV(a, c->nonce.p);

	(void)op;
	a->left = 0;
	if (e == 0)
		e = wc_AesCtrEncrypt(a, out, in->p, (word32)in->n);
	if (e != 0)
		return wc_fail(c, e);
	*out_n = in->n;
	return RC_OK;
}

static int gcm_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	size_t n = op == OP_OPEN ? in->n - TAG_LEN : in->n;
	int e;

	if (op != OP_OPEN) {
		e = wc_AesGcmEncrypt(c->st, out, in->p, (word32)n, c->nonce.p, (word32)c->nonce.n,
				     out + n, TAG_LEN, c->aad.p, (word32)c->aad.n);
		if (e != 0)
			return wc_fail(c, e);
		*out_n = n + TAG_LEN;
		return RC_OK;
	}
	e = wc_AesGcmDecrypt(c->st, out, in->p, (word32)n, c->nonce.p, (word32)c->nonce.n,
			     in->p + n, TAG_LEN, c->aad.p, (word32)c->aad.n);
	if (e == AES_GCM_AUTH_E)
		return fail(c, RC_AUTH, "tag does not verify");
	if (e != 0)
		return wc_fail(c, e);
	*out_n = n;
	return RC_OK;
}

static int chachapoly_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	size_t n = op == OP_OPEN ? in->n - TAG_LEN : in->n;
	int e;

	if (op != OP_OPEN) {
		e = wc_ChaCha20Poly1305_Encrypt(c->key.p, c->nonce.p, c->aad.p, (word32)c->aad.n,
						in->p, (word32)n, out, out + n);
		if (e != 0)
			return wc_fail(c, e);
		*out_n = n + TAG_LEN;
		return RC_OK;
	}
	e = wc_ChaCha20Poly1305_Decrypt(c->key.p, c->nonce.p, c->aad.p, (word32)c->aad.n, in->p,
					(word32)n, in->p + n, out);
	if (e == MAC_CMP_FAILED_E)
		return fail(c, RC_AUTH, "tag does not verify");
	if (e != 0)
		return wc_fail(c, e);
	*out_n = n;
	return RC_OK;
}

static int pbkdf2_prepare(call_t *c)
{
	if (c->pv[P_ITERATIONS] < 1 || c->pv[P_ITERATIONS] > 0x7fffffff)
		return fail(c, RC_INVALID, "iterations must be in [1, 2^31)");
	return check_out_len(c, 1, 1u << 20);
}

static int pbkdf2_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	int e = wc_PBKDF2(out, in->p, (int)in->n, c->salt.p, (int)c->salt.n,
			  (int)c->pv[P_ITERATIONS], (int)c->pv[P_OUT_LEN], (int)c->prim->arg2);

	(void)op;
	if (e != 0)
		return wc_fail(c, e);
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

/* wc_scrypt takes log2(N) as its cost. */
static int scrypt_prepare(call_t *c)
{
	uint64_t n = c->pv[P_N];

	if (n < 2 || (n & (n - 1)) != 0 || n > (1u << 30))
		return fail(c, RC_INVALID, "scrypt N must be a power of two in [2, 2^30]");
	if (c->pv[P_R] < 1 || c->pv[P_P] < 1 || c->pv[P_R] > 0xffff || c->pv[P_P] > 0xffff)
		return fail(c, RC_INVALID, "scrypt r and p must be in [1, 65535]");
	return check_out_len(c, 1, 1u << 20);
}

static int scrypt_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	int log2n = 0;
	int e;

	(void)op;
	while ((UINT64_C(1) << log2n) < c->pv[P_N])
		log2n++;
	e = wc_scrypt(out, in->p, (int)in->n, c->salt.p, (int)c->salt.n, log2n, (int)c->pv[P_R],
		      (int)c->pv[P_P], (int)c->pv[P_OUT_LEN]);
	if (e == MEMORY_E)
		return fail(c, RC_INTERNAL, "out of memory");
	if (e != 0)
		return wc_fail(c, e);
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

static const kind_t HASH = {.run = hash_run};
static const kind_t K_MD2 = {.run = md2_run};
static const kind_t K_MD4 = {.run = md4_run};
static const kind_t K_RIPEMD = {.run = ripemd_run};
static const kind_t K_BLAKE2B = {.run = blake2b_run};
static const kind_t K_BLAKE2S = {.run = blake2s_run};
static const kind_t SHAKE = {.prepare = shake_prepare, .run = shake_run};
static const kind_t HMAC = {NULL, hmac_setup, hmac_run, hmac_cleanup};
static const kind_t CTR = {NULL, aes_setup, ctr_run, aes_cleanup};
static const kind_t GCM = {NULL, aes_setup, gcm_run, aes_cleanup};
static const kind_t CHACHAPOLY = {.run = chachapoly_run};
static const kind_t PBKDF2 = {.prepare = pbkdf2_prepare, .run = pbkdf2_run};
static const kind_t SCRYPT = {.prepare = scrypt_prepare, .run = scrypt_run};

#define H(id, type)                                                                                \
	{                                                                                          \
		id, "wc_Hash(" #type ")", OPS_DIGEST, PS_NONE, 0, 0, 0, &HASH, NULL, type          \
	}
#define D(id, native, kind)                                                                        \
	{                                                                                          \
		id, native, OPS_DIGEST, PS_NONE, 0, 0, 0, &kind, NULL, 0                           \
	}
#define PB(id, type)                                                                               \
	{                                                                                          \
		id, "wc_PBKDF2(" #type ")", OPS_DERIVE, PS_PBKDF2, 0, 0, 0, &PBKDF2, NULL, type    \
	}

static const prim_t PRIMS[] = {
	D("md2", "wc_Md2Hash", K_MD2),
	D("md4", "wc_Md4Update", K_MD4),
	H("md5", WC_HASH_TYPE_MD5),
	H("sha1", WC_HASH_TYPE_SHA),
	H("sha224", WC_HASH_TYPE_SHA224),
	H("sha256", WC_HASH_TYPE_SHA256),
	H("sha384", WC_HASH_TYPE_SHA384),
	H("sha512", WC_HASH_TYPE_SHA512),
	H("sha512-224", WC_HASH_TYPE_SHA512_224),
	H("sha512-256", WC_HASH_TYPE_SHA512_256),
	H("sha3-224", WC_HASH_TYPE_SHA3_224),
	H("sha3-256", WC_HASH_TYPE_SHA3_256),
	H("sha3-384", WC_HASH_TYPE_SHA3_384),
	H("sha3-512", WC_HASH_TYPE_SHA3_512),
	{"shake256", "wc_Shake256Hash", OPS_DIGEST, PS_XOF, 0, 0, 0, &SHAKE, NULL, 0},
	D("blake2b-512", "wc_Blake2bUpdate", K_BLAKE2B),
	D("blake2s-256", "wc_Blake2sUpdate", K_BLAKE2S),
	D("ripemd160", "wc_RipeMdUpdate", K_RIPEMD),
	{"hmac-sha256", "wc_HmacUpdate (WC_SHA256)", HMAC_OPS, PS_NONE, 0, 0, 0, &HMAC, NULL, 0},
	{"aes-128-ctr", "wc_AesCtrEncrypt", OPS_CTR, PS_NONE, 0, 16, 16, &CTR, NULL, 0},
	{"aes-256-ctr", "wc_AesCtrEncrypt", OPS_CTR, PS_NONE, 0, 32, 16, &CTR, NULL, 0},
	{"aes-128-gcm", "wc_AesGcmEncrypt", OPS_AEAD, PS_AEAD, 0, 16, 12, &GCM, NULL, 1},
	{"aes-256-gcm", "wc_AesGcmEncrypt", OPS_AEAD, PS_AEAD, 0, 32, 12, &GCM, NULL, 1},
	{"chacha20-poly1305", "wc_ChaCha20Poly1305_Encrypt", OPS_AEAD, PS_AEAD, 0, 32, 12,
	 &CHACHAPOLY, NULL, 0},
	PB("pbkdf2-sha1", WC_SHA),
	PB("pbkdf2-sha256", WC_SHA256),
	PB("pbkdf2-sha512", WC_SHA512),
	{"scrypt", "wc_scrypt", OPS_DERIVE, PS_SCRYPT, 0, 0, 0, &SCRYPT, NULL, 0},
};

static int init(void)
{
	return wolfCrypt_Init() == 0 ? 0 : -1;
}

static void describe(json_t *impl)
{
	describe_common(impl, wolfSSL_lib_version(), "wolfssl",
			"Debian's build: portable C AES with 4-bit GCM tables (no --enable-aesni "
			"or --enable-intelasm), C SHA-2/SHA-3",
			"one-shot wc_Hash where wolfCrypt has it; HMAC and AES contexts keyed once "
			"and reused; ChaCha20-Poly1305 one-shot on the raw key");
}

const lib_t lib_wolfssl = {"wolfssl", PRIMS, COUNT_OF(PRIMS), init, NULL, describe};
