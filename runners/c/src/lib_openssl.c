/* c/openssl: OpenSSL 3 through EVP, every algorithm fetched once (lib_openssl_fetch.c).
 * Digests: EVP_Digest with the fetched EVP_MD, exactly as `openssl speed -evp`.
 * XOFs: one EVP_MD_CTX reused (Init_ex2/Update/FinalXOF). HMAC: EVP_MAC keyed once,
 * re-initialised per message with a NULL key (as speed's -hmac); its verify compares with
 * CRYPTO_memcmp. Ciphers: lib_openssl_cipher.c. */
#include "lib_openssl.h"

#include "hello.h"
#include "pubkey.h"

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/provider.h>
#include <stdio.h>
#include <stdlib.h>

static int md_prepare(call_t *c)
{
	if ((c->algo = ossl_md(c->prim->arg)) == NULL)
		return fail(c, RC_UNSUPPORTED, "OpenSSL has no %s here",
			    (const char *)c->prim->arg);
	if (c->prim->params & PBIT(P_OUT_LEN))
		return check_out_len(c, 1, 1u << 24);
	return RC_OK;
}

static int digest_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	unsigned int len = 0;

	(void)op;
	if (!EVP_Digest(in->p, in->n, out, &len, c->algo, NULL))
		return fail(c, RC_INTERNAL, "EVP_Digest failed");
	*out_n = len;
	return RC_OK;
}

static int xof_setup(call_t *c)
{
	if ((c->st = EVP_MD_CTX_new()) == NULL)
		return fail(c, RC_INTERNAL, "EVP_MD_CTX_new failed");
	return RC_OK;
}

static void xof_cleanup(call_t *c)
{
	EVP_MD_CTX_free(c->st);
	c->st = NULL;
}

static int xof_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	size_t len = (size_t)c->pv[P_OUT_LEN];

	(void)op;
	if (!EVP_DigestInit_ex2(c->st, c->algo, NULL) || !EVP_DigestUpdate(c->st, in->p, in->n) ||
	    !EVP_DigestFinalXOF(c->st, out, len))
		return fail(c, RC_INTERNAL, "XOF failed");
	*out_n = len;
	return RC_OK;
}

struct hmac_state {
	EVP_MAC_CTX *ctx;
	int keyed; /* just keyed by setup: no re-init needed */
};

static int hmac_prepare(call_t *c)
{
	if ((c->algo = ossl_mac("HMAC")) == NULL)
		return fail(c, RC_UNSUPPORTED, "OpenSSL has no HMAC here");
	return RC_OK;
}

static int hmac_setup(call_t *c)
{
	static const uint8_t empty[1];
	struct hmac_state *s = calloc(1, sizeof(*s));
	OSSL_PARAM params[] = {
		OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, (char *)c->prim->arg, 0),
		OSSL_PARAM_construct_end()};

	c->st = s;
	if (s == NULL || (s->ctx = EVP_MAC_CTX_new((EVP_MAC *)c->algo)) == NULL ||
	    !EVP_MAC_init(s->ctx, c->key.n ? c->key.p : empty, c->key.n, params)) {
		ERR_clear_error();
		return fail(c, RC_INTERNAL, "EVP_MAC_init failed");
	}
	s->keyed = 1;
	return RC_OK;
}

static void hmac_cleanup(call_t *c)
{
	struct hmac_state *s = c->st;

	if (s != NULL)
		EVP_MAC_CTX_free(s->ctx);
	free(s);
	c->st = NULL;
}

static int hmac_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	struct hmac_state *s = c->st;

	if ((!s->keyed && !EVP_MAC_init(s->ctx, NULL, 0, NULL)) ||
	    !EVP_MAC_update(s->ctx, in->p, in->n) || !EVP_MAC_final(s->ctx, out, out_n, 64))
		return fail(c, RC_INTERNAL, "HMAC failed");
	s->keyed = 0;
	if (op == OP_VERIFY) /* verify: the MAC as for mac, then CRYPTO_memcmp */
		return mac_verdict(
			c, c->tag.n == *out_n && CRYPTO_memcmp(out, c->tag.p, *out_n) == 0, out_n);
	return RC_OK;
}

static int kdf_prepare(call_t *c)
{
	const char *name = c->prim->arg2 ? "SCRYPT" : "PBKDF2";
	uint64_t n = c->pv[P_N];

	if ((c->algo = ossl_kdf(name)) == NULL)
		return fail(c, RC_UNSUPPORTED, "OpenSSL has no %s here", name);
	if (c->prim->arg2 && (n < 2 || (n & (n - 1)) || c->pv[P_R] < 1 || c->pv[P_P] < 1 ||
			      c->pv[P_R] > 0xffffffffu || c->pv[P_P] > 0xffffffffu))
		return fail(c, RC_INVALID, "scrypt needs n a power of 2 > 1, r >= 1, p >= 1");
	if (!c->prim->arg2 && (c->pv[P_ITERATIONS] < 1 || c->pv[P_ITERATIONS] > 0xffffffffu))
		return fail(c, RC_INVALID, "iterations must be in [1, 2^32)");
	return check_out_len(c, 1, 1u << 20);
}

static int kdf_setup(call_t *c)
{
	if ((c->st = EVP_KDF_CTX_new((EVP_KDF *)c->algo)) == NULL)
		return fail(c, RC_INTERNAL, "EVP_KDF_CTX_new failed");
	return RC_OK;
}

static void kdf_cleanup(call_t *c)
{
	EVP_KDF_CTX_free(c->st);
	c->st = NULL;
}

static int kdf_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	/* 4 GiB: above OpenSSL's 1025 MiB default, below what a shared machine survives. */
	uint64_t iter = c->pv[P_ITERATIONS], n = c->pv[P_N], maxmem = (uint64_t)4 << 30;
	uint32_t r = (uint32_t)c->pv[P_R], p = (uint32_t)c->pv[P_P];
	OSSL_PARAM params[8], *q = params;

	(void)op;
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_PASSWORD, in->p, in->n);
	*q++ = OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, c->salt.p, c->salt.n);
	if (c->prim->arg2) {
		*q++ = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_N, &n);
		*q++ = OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_R, &r);
		*q++ = OSSL_PARAM_construct_uint32(OSSL_KDF_PARAM_SCRYPT_P, &p);
		*q++ = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_SCRYPT_MAXMEM, &maxmem);
	} else {
		*q++ = OSSL_PARAM_construct_uint64(OSSL_KDF_PARAM_ITER, &iter);
		*q++ = OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, (char *)c->prim->arg,
							0);
	}
	*q = OSSL_PARAM_construct_end();
	if (EVP_KDF_derive(c->st, out, (size_t)c->pv[P_OUT_LEN], params) <= 0) {
		unsigned long e = ERR_get_error();

		ERR_clear_error();
		return fail(c, RC_INVALID, "EVP_KDF_derive failed: %s", ERR_reason_error_string(e));
	}
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

static const kind_t DIGEST = {md_prepare, NULL, digest_run, NULL};
static const kind_t XOF = {md_prepare, xof_setup, xof_run, xof_cleanup};
static const kind_t HMAC = {hmac_prepare, hmac_setup, hmac_run, hmac_cleanup};
static const kind_t KDF = {kdf_prepare, kdf_setup, kdf_run, kdf_cleanup};

#define D(id, name)                                                                                \
	{                                                                                          \
		id, name, OPS_DIGEST, PS_NONE, 0, 0, 0, &DIGEST, name, 0                           \
	}
#define X(id, name)                                                                                \
	{                                                                                          \
		id, name, OPS_DIGEST, PS_XOF, 0, 0, 0, &XOF, name, 0                               \
	}
#define CTR(id, name, k)                                                                           \
	{                                                                                          \
		id, name, OPS_CTR, PS_NONE, 0, k, 16, &OSSL_CTR, name, 0                           \
	}
#define AEAD(id, name, k)                                                                          \
	{                                                                                          \
		id, name, OPS_AEAD, PS_AEAD, 0, k, 12, &OSSL_AEAD, name, 0                         \
	}
#define PBKDF2(id, md)                                                                             \
	{                                                                                          \
		id, "PBKDF2/" md, OPS_DERIVE, PS_PBKDF2, 0, 0, 0, &KDF, md, 0                      \
	}

static const prim_t PRIMS[] = {
	D("md2", "MD2"),
	D("md4", "MD4"),
	D("md5", "MD5"),
	D("sha1", "SHA1"),
	D("sha224", "SHA224"),
	D("sha256", "SHA256"),
	D("sha384", "SHA384"),
	D("sha512", "SHA512"),
	D("sha512-224", "SHA512-224"),
	D("sha512-256", "SHA512-256"),
	D("sha3-224", "SHA3-224"),
	D("sha3-256", "SHA3-256"),
	D("sha3-384", "SHA3-384"),
	D("sha3-512", "SHA3-512"),
	X("shake128", "SHAKE128"),
	X("shake256", "SHAKE256"),
	D("keccak-256", "KECCAK-256"),
	D("blake2b-512", "BLAKE2B-512"),
	D("blake2s-256", "BLAKE2S-256"),
	D("ripemd160", "RIPEMD160"),
	D("whirlpool", "WHIRLPOOL"),
	D("sm3", "SM3"),
	{"hmac-sha256", "HMAC/SHA256", OPS_MAC_VERIFY, PS_NONE, 0, 0, 0, &HMAC, "SHA256", 0},
	CTR("aes-128-ctr", "AES-128-CTR", 16),
	CTR("aes-256-ctr", "AES-256-CTR", 32),
	AEAD("aes-128-gcm", "AES-128-GCM", 16),
	AEAD("aes-256-gcm", "AES-256-GCM", 32),
	AEAD("aes-128-ocb", "AES-128-OCB", 16),
	AEAD("aes-256-ocb", "AES-256-OCB", 32),
	AEAD("aes-128-gcm-siv", "AES-128-GCM-SIV", 16),
	AEAD("aes-256-gcm-siv", "AES-256-GCM-SIV", 32),
	AEAD("chacha20-poly1305", "ChaCha20-Poly1305", 32),
	PBKDF2("pbkdf2-sha1", "SHA1"),
	PBKDF2("pbkdf2-sha256", "SHA256"),
	PBKDF2("pbkdf2-sha512", "SHA512"),
	{"scrypt", "SCRYPT", OPS_DERIVE, PS_SCRYPT, 0, 0, 0, &KDF, NULL, 1},
};

static int init(void)
{
	/* Loading any provider explicitly turns off the implicit default: load both. */
	if (OSSL_PROVIDER_load(NULL, "default") == NULL)
		return -1;
	if (OSSL_PROVIDER_load(NULL, "legacy") == NULL)
		fprintf(stderr, "c runner: OpenSSL legacy provider not found (md4, whirlpool)\n");
	ERR_clear_error();
	return 0;
}

static int available(const prim_t *p)
{
	if (p->kind == &DIGEST || p->kind == &XOF)
		return ossl_md(p->arg) != NULL;
	if (p->kind == &OSSL_CTR || p->kind == &OSSL_AEAD)
		return ossl_cipher(p->arg) != NULL;
	if (p->kind == &HMAC)
		return ossl_mac("HMAC") != NULL;
	return ossl_kdf(p->arg2 ? "SCRYPT" : "PBKDF2") != NULL;
}

static void describe(json_t *impl)
{
	describe_common(impl, OpenSSL_version(OPENSSL_VERSION_STRING), "openssl",
			OPENSSL_info(OPENSSL_INFO_CPU_SETTINGS),
			"EVP, algorithms fetched once; EVP_Digest per message as openssl speed; "
			"HMAC via EVP_MAC re-init; legacy provider loaded for md4/whirlpool");
}

const lib_t lib_openssl = {"openssl", PRIMS,	COUNT_OF(PRIMS), init,
			   available, describe, &openssl_pubkey};

/* hello's "cpu": what OpenSSL's own CPUID probe found (hello.h). */
/* Bits of OpenSSL's capability vector: word (CPUID leaf/register) and bit. */
static const struct {
	const char *name;
	int word, bit;
} CPU_BITS[] = {
	{"aes", 1, 25}, {"pclmulqdq", 1, 1}, {"sse4_2", 1, 20},	    {"avx", 1, 28},
	{"avx2", 2, 5}, {"bmi2", 2, 8},	     {"avx512f", 2, 16},    {"adx", 2, 19},
	{"sha", 2, 29}, {"vaes", 3, 9},	     {"vpclmulqdq", 3, 10},
};

/* OPENSSL_info gives "OPENSSL_ia32cap=0x<ECX:EDX of leaf 1>:0x<ECX:EBX of leaf 7>". */
json_t *openssl_cpu_json(void)
{
	const char *info = OPENSSL_info(OPENSSL_INFO_CPU_SETTINGS);
	unsigned long long a = 0, b = 0;
	uint32_t words[4];
	json_t *features = json_object();

	if (info == NULL || sscanf(info, "OPENSSL_ia32cap=0x%llx:0x%llx", &a, &b) != 2)
		return json_pack("{s:o,s:s}", "features", features, "source", "unavailable");
	words[0] = (uint32_t)a;
	words[1] = (uint32_t)(a >> 32);
	words[2] = (uint32_t)b;
	words[3] = (uint32_t)(b >> 32);
	for (size_t i = 0; i < COUNT_OF(CPU_BITS); i++)
		json_object_set_new(features, CPU_BITS[i].name,
				    json_boolean(words[CPU_BITS[i].word] >> CPU_BITS[i].bit & 1));
	return json_pack("{s:o,s:s,s:s}", "features", features, "source",
			 "OpenSSL's CPUID probe (OPENSSL_ia32cap)", "ia32cap", info);
}
