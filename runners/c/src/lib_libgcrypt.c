/* c/libgcrypt: GnuPG's library. Digests one-shot (gcry_md_hash_buffer); XOFs and HMAC
 * through a handle reset per message; ciphers in lib_libgcrypt_cipher.c; KDFs in
 * lib_libgcrypt_kdf.c. */
#include "lib_libgcrypt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int md_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	gcry_md_hash_buffer((int)c->prim->arg2, out, in->p, in->n);
	*out_n = gcry_md_get_algo_dlen((int)c->prim->arg2);
	return RC_OK;
}

static int xof_prepare(call_t *c)
{
	return check_out_len(c, 1, 1u << 24);
}

static int xof_setup(call_t *c)
{
	gcry_md_hd_t h;

	if (gcry_md_open(&h, (int)c->prim->arg2, 0) != 0)
		return fail(c, RC_INTERNAL, "gcry_md_open failed");
	c->st = h;
	return RC_OK;
}

static void xof_cleanup(call_t *c)
{
	if (c->st != NULL)
		gcry_md_close(c->st);
	c->st = NULL;
}

static int xof_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	gcry_md_hd_t h = c->st;

	(void)op;
	gcry_md_reset(h);
	gcry_md_write(h, in->p, in->n);
	if (gcry_md_extract(h, (int)c->prim->arg2, out, (size_t)c->pv[P_OUT_LEN]) != 0)
		return fail(c, RC_INTERNAL, "gcry_md_extract failed");
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

struct mac_state {
	gcry_mac_hd_t h;
	int keyed; /* just keyed by setup: no reset needed */
};

static int mac_setup(call_t *c)
{
	struct mac_state *s = calloc(1, sizeof(*s));

	c->st = s;
	if (s == NULL || gcry_mac_open(&s->h, GCRY_MAC_HMAC_SHA256, 0, NULL) != 0)
		return fail(c, RC_INTERNAL, "gcry_mac_open failed");
	if (gcry_mac_setkey(s->h, c->key.p, c->key.n) != 0)
		return fail(c, RC_INVALID, "gcry_mac_setkey rejected the key");
	s->keyed = 1;
	return RC_OK;
}

static void mac_cleanup(call_t *c)
{
	struct mac_state *s = c->st;

	if (s != NULL && s->h != NULL)
		gcry_mac_close(s->h);
	free(s);
	c->st = NULL;
}

/* verify: gcry_mac_verify compares as many bytes as it is given (a prefix of the MAC would
 * pass), so a tag of another length is refused before it is called. */
static int mac_verify(call_t *c, struct mac_state *s, size_t *out_n)
{
	gcry_error_t e;

	if (c->tag.n != 32)
		return mac_verdict(c, 0, out_n);
	e = gcry_mac_verify(s->h, c->tag.p, c->tag.n);
	if (e != 0 && gcry_err_code(e) != GPG_ERR_CHECKSUM)
		return fail(c, RC_INTERNAL, "gcry_mac_verify failed");
	return mac_verdict(c, e == 0, out_n);
}

static int mac_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	struct mac_state *s = c->st;

	*out_n = 32;
	if ((!s->keyed && gcry_mac_reset(s->h) != 0) || gcry_mac_write(s->h, in->p, in->n) != 0)
		return fail(c, RC_INTERNAL, "HMAC failed");
	s->keyed = 0;
	if (op == OP_VERIFY)
		return mac_verify(c, s, out_n);
	if (gcry_mac_read(s->h, out, out_n) != 0)
		return fail(c, RC_INTERNAL, "HMAC failed");
	return RC_OK;
}

static const kind_t MD = {.run = md_run};
static const kind_t XOF = {xof_prepare, xof_setup, xof_run, xof_cleanup};
static const kind_t MAC = {NULL, mac_setup, mac_run, mac_cleanup};

#define D(id, name, algo)                                                                          \
	{                                                                                          \
		id, name, OPS_DIGEST, PS_NONE, 0, 0, 0, &MD, NULL, algo                            \
	}
#define CTR(id, algo, k)                                                                           \
	{                                                                                          \
		id, "AES/CTR", OPS_CTR, PS_NONE, 0, k, 16, &GCRY_CTR, NULL, algo                   \
	}
#define AEAD(id, name, k, cipher, mode)                                                            \
	{                                                                                          \
		id, name, OPS_AEAD, PS_AEAD, 0, k, 12, &GCRY_AEAD, NULL, GCRY_PACK(cipher, mode)   \
	}
#define PBKDF2(id, name, md)                                                                       \
	{                                                                                          \
		id, name, OPS_DERIVE, PS_PBKDF2, 0, 0, 0, &GCRY_PBKDF2, NULL, md                   \
	}
#define ARGON2(id, sub)                                                                            \
	{                                                                                          \
		id, "GCRY_KDF_ARGON2", OPS_DERIVE, PS_ARGON2, 0, 0, 0, &GCRY_ARGON2, NULL, sub     \
	}

static const prim_t PRIMS[] = {
	D("md4", "GCRY_MD_MD4", GCRY_MD_MD4),
	D("md5", "GCRY_MD_MD5", GCRY_MD_MD5),
	D("sha1", "GCRY_MD_SHA1", GCRY_MD_SHA1),
	D("sha224", "GCRY_MD_SHA224", GCRY_MD_SHA224),
	D("sha256", "GCRY_MD_SHA256", GCRY_MD_SHA256),
	D("sha384", "GCRY_MD_SHA384", GCRY_MD_SHA384),
	D("sha512", "GCRY_MD_SHA512", GCRY_MD_SHA512),
	D("sha512-224", "GCRY_MD_SHA512_224", GCRY_MD_SHA512_224),
	D("sha512-256", "GCRY_MD_SHA512_256", GCRY_MD_SHA512_256),
	D("sha3-224", "GCRY_MD_SHA3_224", GCRY_MD_SHA3_224),
	D("sha3-256", "GCRY_MD_SHA3_256", GCRY_MD_SHA3_256),
	D("sha3-384", "GCRY_MD_SHA3_384", GCRY_MD_SHA3_384),
	D("sha3-512", "GCRY_MD_SHA3_512", GCRY_MD_SHA3_512),
	{"shake128", "GCRY_MD_SHAKE128", OPS_DIGEST, PS_XOF, 0, 0, 0, &XOF, NULL, GCRY_MD_SHAKE128},
	{"shake256", "GCRY_MD_SHAKE256", OPS_DIGEST, PS_XOF, 0, 0, 0, &XOF, NULL, GCRY_MD_SHAKE256},
	D("blake2b-512", "GCRY_MD_BLAKE2B_512", GCRY_MD_BLAKE2B_512),
	D("blake2s-256", "GCRY_MD_BLAKE2S_256", GCRY_MD_BLAKE2S_256),
	D("ripemd160", "GCRY_MD_RMD160", GCRY_MD_RMD160),
	D("whirlpool", "GCRY_MD_WHIRLPOOL", GCRY_MD_WHIRLPOOL),
	D("tiger192-3", "GCRY_MD_TIGER1", GCRY_MD_TIGER1),
	D("gost94-test", "GCRY_MD_GOSTR3411_94", GCRY_MD_GOSTR3411_94),
	D("gost94-cryptopro", "GCRY_MD_GOSTR3411_CP", GCRY_MD_GOSTR3411_CP),
	D("streebog-256", "GCRY_MD_STRIBOG256", GCRY_MD_STRIBOG256),
	D("streebog-512", "GCRY_MD_STRIBOG512", GCRY_MD_STRIBOG512),
	D("sm3", "GCRY_MD_SM3", GCRY_MD_SM3),
	D("crc32", "GCRY_MD_CRC32", GCRY_MD_CRC32),
	{"hmac-sha256", "GCRY_MAC_HMAC_SHA256", OPS_MAC_VERIFY, PS_NONE, 0, 0, 0, &MAC, NULL, 0},
	CTR("aes-128-ctr", GCRY_CIPHER_AES128, 16),
	CTR("aes-256-ctr", GCRY_CIPHER_AES256, 32),
	AEAD("aes-128-gcm", "AES/GCM", 16, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_GCM),
	AEAD("aes-256-gcm", "AES/GCM", 32, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM),
	AEAD("aes-128-ocb", "AES/OCB", 16, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_OCB),
	AEAD("aes-256-ocb", "AES/OCB", 32, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_OCB),
	AEAD("aes-128-gcm-siv", "AES/GCM_SIV", 16, GCRY_CIPHER_AES128, GCRY_CIPHER_MODE_GCM_SIV),
	AEAD("aes-256-gcm-siv", "AES/GCM_SIV", 32, GCRY_CIPHER_AES256, GCRY_CIPHER_MODE_GCM_SIV),
	AEAD("chacha20-poly1305", "CHACHA20/POLY1305", 32, GCRY_CIPHER_CHACHA20,
	     GCRY_CIPHER_MODE_POLY1305),
	PBKDF2("pbkdf2-sha1", "GCRY_KDF_PBKDF2/SHA1", GCRY_MD_SHA1),
	PBKDF2("pbkdf2-sha256", "GCRY_KDF_PBKDF2/SHA256", GCRY_MD_SHA256),
	PBKDF2("pbkdf2-sha512", "GCRY_KDF_PBKDF2/SHA512", GCRY_MD_SHA512),
	/* No scrypt: GCRY_KDF_SCRYPT has r fixed at 8, so RFC 7914's r = 1 vector cannot pass. */
	ARGON2("argon2id", GCRY_KDF_ARGON2ID),
	ARGON2("argon2i", GCRY_KDF_ARGON2I),
};

static int init(void)
{
	if (gcry_check_version(NULL) == NULL)
		return -1;
	gcry_control(GCRYCTL_DISABLE_SECMEM, 0);
	gcry_control(GCRYCTL_INITIALIZATION_FINISHED, 0);
	return 0;
}

static int available(const prim_t *p)
{
	if (p->kind == &MD || p->kind == &XOF || p->kind == &GCRY_PBKDF2)
		return gcry_md_test_algo((int)p->arg2) == 0;
	if (p->kind == &GCRY_CTR)
		return gcry_cipher_test_algo((int)p->arg2) == 0;
	if (p->kind == &GCRY_AEAD)
		return gcry_cipher_test_algo(GCRY_UNPACK_CIPHER(p->arg2)) == 0;
	return 1;
}

static void describe(json_t *impl)
{
	static char path[512];
	char *hw = gcry_get_config(0, "hwflist");

	snprintf(path, sizeof(path), "%s", hw ? hw : "hwflist unavailable");
	path[strcspn(path, "\n")] = '\0';
	gcry_free(hw);
	describe_common(impl, gcry_check_version(NULL), "libgcrypt", path,
			"digests via gcry_md_hash_buffer; HMAC/XOF handles reset per message; "
			"Argon2 derive only (no encoded form); scrypt left out (r fixed at 8)");
}

const lib_t lib_libgcrypt = {"libgcrypt", PRIMS, COUNT_OF(PRIMS), init, available, describe};
