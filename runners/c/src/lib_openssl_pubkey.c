/* c/openssl's public-key rows (pubkey.h): X25519 and Ed25519 raw keys, P-256 ECDH and ECDSA
 * (DER and r‖s), RSA PSS and PKCS#1 v1.5 with SHA-256, through EVP_PKEY. Contexts are made
 * when our key is parsed (EVP_PKEY_derive/sign/verify_init once, as openssl speed does);
 * ECDSA and RSA hash the message with SHA-256 and sign the digest (EVP_PKEY_sign). */
#include "lib_openssl.h"
#include "pubkey.h"

#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>

#include <stdlib.h>
#include <string.h>

typedef struct {
	EVP_PKEY *pkey;
	EVP_PKEY_CTX *ctx; /* derive, sign or verify, initialised once */
	EVP_MD_CTX *md;	   /* Ed25519: EVP_DigestSign/Verify */
} okey_t;

static const pk_scheme_t X25519_S, ED25519_S, ECDH_S, ECDSA_DER_S, ECDSA_P1363_S, RSA_PSS_S,
	RSA_PKCS1_S;

static int ossl_fail(call_t *c, int rc, const char *what)
{
	ERR_clear_error();
	return fail(c, rc, "%s", what);
}

static void *key_fail(call_t *c, okey_t *k, const char *what)
{
	ossl_fail(c, RC_INVALID, what);
	if (k != NULL) {
		EVP_MD_CTX_free(k->md);
		EVP_PKEY_CTX_free(k->ctx);
		EVP_PKEY_free(k->pkey);
		free(k);
	}
	return NULL;
}

static void free_key(void *p)
{
	okey_t *k = p;

	EVP_MD_CTX_free(k->md);
	EVP_PKEY_CTX_free(k->ctx);
	EVP_PKEY_free(k->pkey);
	free(k);
}

static okey_t *wrap(EVP_PKEY *pkey)
{
	okey_t *k = calloc(1, sizeof(*k));

	if (k == NULL)
		EVP_PKEY_free(pkey);
	else
		k->pkey = pkey;
	return k;
}

/* X25519 and Ed25519: raw 32-byte keys (arg2 = EVP_PKEY_X25519 or EVP_PKEY_ED25519). */
static int raw_export(call_t *c, EVP_PKEY *k, uint8_t *out, size_t *out_n)
{
	uint8_t pub[32], priv[32];
	size_t pn = sizeof pub, qn = sizeof priv;
	int ok = k != NULL && EVP_PKEY_get_raw_public_key(k, pub, &pn) == 1 &&
		 EVP_PKEY_get_raw_private_key(k, priv, &qn) == 1;

	EVP_PKEY_free(k);
	return ok ? pk_pair(c, pub, pn, priv, qn, out, out_n)
		  : ossl_fail(c, RC_INTERNAL, "key generation failed");
}

static int raw_keygen(call_t *c, uint8_t *out, size_t *out_n)
{
	const char *name = c->prim->arg2 == EVP_PKEY_X25519 ? "X25519" : "ED25519";

	return raw_export(c, EVP_PKEY_Q_keygen(NULL, NULL, name), out, out_n);
}

static int raw_keygen_seeded(call_t *c, const uint8_t *seed, uint8_t *out, size_t *out_n)
{
	return raw_export(c, EVP_PKEY_new_raw_private_key((int)c->prim->arg2, NULL, seed, 32), out,
			  out_n);
}

static void *raw_private(call_t *c, const buf_t *raw)
{
	okey_t *k = wrap(EVP_PKEY_new_raw_private_key((int)c->prim->arg2, NULL, raw->p, raw->n));

	if (k == NULL || k->pkey == NULL)
		return key_fail(c, k, "private_key: not a 32-byte key");
	if (c->prim->arg2 == EVP_PKEY_X25519) {
		k->ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
		if (k->ctx == NULL || EVP_PKEY_derive_init(k->ctx) != 1)
			return key_fail(c, k, "EVP_PKEY_derive_init failed");
	} else if ((k->md = EVP_MD_CTX_new()) == NULL ||
		   EVP_DigestSignInit(k->md, NULL, NULL, NULL, k->pkey) != 1) {
		return key_fail(c, k, "EVP_DigestSignInit failed");
	}
	return k;
}

static void *ed25519_public(call_t *c, const buf_t *raw)
{
	okey_t *k = wrap(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, raw->p, raw->n));

	if (k == NULL || k->pkey == NULL)
		return key_fail(c, k, "public_key: not a 32-byte Ed25519 key");
	if ((k->md = EVP_MD_CTX_new()) == NULL ||
	    EVP_DigestVerifyInit(k->md, NULL, NULL, NULL, k->pkey) != 1)
		return key_fail(c, k, "EVP_DigestVerifyInit failed");
	return k;
}

static int derive(call_t *c, okey_t *k, EVP_PKEY *peer, uint8_t *out, size_t *out_n)
{
	size_t n = c->out_cap;
	int ok = peer != NULL && EVP_PKEY_derive_set_peer(k->ctx, peer) == 1 &&
		 EVP_PKEY_derive(k->ctx, out, &n) == 1;

	EVP_PKEY_free(peer);
	if (!ok)
		return ossl_fail(c, RC_INVALID, "peer_public_key refused");
	*out_n = n;
	return RC_OK;
}

static int x25519_agree(call_t *c, void *key, const buf_t *peer, uint8_t *out, size_t *out_n)
{
	return derive(c, key, EVP_PKEY_new_raw_public_key(EVP_PKEY_X25519, NULL, peer->p, peer->n),
		      out, out_n);
}

static int ed25519_sign(call_t *c, void *key, const buf_t *msg, uint8_t *out, size_t *out_n)
{
	okey_t *k = key;
	size_t n = 64;

	if (EVP_DigestSign(k->md, out, &n, msg->p, msg->n) != 1)
		return ossl_fail(c, RC_INTERNAL, "EVP_DigestSign failed");
	*out_n = n;
	return RC_OK;
}

static int ed25519_verify(call_t *c, void *key, const buf_t *msg, const buf_t *sig)
{
	okey_t *k = key;

	if (EVP_DigestVerify(k->md, sig->p, sig->n, msg->p, msg->n) == 1)
		return RC_OK;
	return ossl_fail(c, RC_AUTH, "bad signature");
}

/* P-256: uncompressed SEC1 points and 32-byte scalars, EVP_PKEY_fromdata. */
static EVP_PKEY *ec_fromdata(const uint8_t *pub, const BIGNUM *d)
{
	OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
	OSSL_PARAM *params = NULL;
	EVP_PKEY *pkey = NULL;

	if (bld != NULL && ctx != NULL &&
	    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "P-256", 0) &&
	    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, 65) &&
	    (d == NULL || OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, d)) &&
	    (params = OSSL_PARAM_BLD_to_param(bld)) != NULL && EVP_PKEY_fromdata_init(ctx) == 1)
		EVP_PKEY_fromdata(ctx, &pkey, d ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params);
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	EVP_PKEY_CTX_free(ctx);
	return pkey;
}

static EVP_PKEY *ec_public(const buf_t *raw)
{
	return pk_p256_uncompressed(raw) ? ec_fromdata(raw->p, NULL) : NULL;
}

/* The key pair of scalar d (already in range): its public point is d·G. */
static EVP_PKEY *ec_from_scalar(const uint8_t *d32)
{
	EC_GROUP *g = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
	EC_POINT *pt = g ? EC_POINT_new(g) : NULL;
	BIGNUM *d = BN_bin2bn(d32, 32, NULL);
	uint8_t pub[65];
	EVP_PKEY *pkey = NULL;

	if (pt != NULL && d != NULL && EC_POINT_mul(g, pt, d, NULL, NULL, NULL) == 1 &&
	    EC_POINT_point2oct(g, pt, POINT_CONVERSION_UNCOMPRESSED, pub, 65, NULL) == 65)
		pkey = ec_fromdata(pub, d);
	BN_clear_free(d);
	EC_POINT_free(pt);
	EC_GROUP_free(g);
	return pkey;
}

static int ec_export(call_t *c, EVP_PKEY *k, uint8_t *out, size_t *out_n)
{
	uint8_t pub[65], priv[32];
	size_t pn = 0;
	BIGNUM *d = NULL;
	int ok = k != NULL &&
		 EVP_PKEY_get_octet_string_param(k, OSSL_PKEY_PARAM_PUB_KEY, pub, 65, &pn) == 1 &&
		 pn == 65 && EVP_PKEY_get_bn_param(k, OSSL_PKEY_PARAM_PRIV_KEY, &d) == 1 &&
		 BN_bn2binpad(d, priv, 32) == 32;

	BN_clear_free(d);
	EVP_PKEY_free(k);
	return ok ? pk_pair(c, pub, 65, priv, 32, out, out_n)
		  : ossl_fail(c, RC_INTERNAL, "key generation failed");
}

static int ec_keygen(call_t *c, uint8_t *out, size_t *out_n)
{
	return ec_export(c, EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"), out, out_n);
}

static int ec_keygen_seeded(call_t *c, const uint8_t *seed, uint8_t *out, size_t *out_n)
{
	if (!pk_p256_scalar_ok(seed))
		return fail(c, RC_INVALID, "key_seed is not a P-256 scalar (1 <= d < n)");
	return ec_export(c, ec_from_scalar(seed), out, out_n);
}

/* Our P-256 key with its context: derive (ECDH) or sign with SHA-256 (ECDSA). */
static void *ec_private(call_t *c, const buf_t *raw)
{
	int ecdh = c->prim->arg == &ECDH_S;
	okey_t *k;

	if (raw->n != 32 || !pk_p256_scalar_ok(raw->p))
		return key_fail(c, NULL, "private_key: not a P-256 scalar (32 bytes, 1 <= d < n)");
	if ((k = wrap(ec_from_scalar(raw->p))) == NULL || k->pkey == NULL)
		return key_fail(c, k, "private_key: EVP_PKEY_fromdata failed");
	if ((k->ctx = EVP_PKEY_CTX_new(k->pkey, NULL)) == NULL)
		return key_fail(c, k, "EVP_PKEY_CTX_new failed");
	if (ecdh ? EVP_PKEY_derive_init(k->ctx) != 1
		 : EVP_PKEY_sign_init(k->ctx) != 1 ||
			    EVP_PKEY_CTX_set_signature_md(k->ctx, ossl_md("SHA256")) != 1)
		return key_fail(c, k, "EVP_PKEY context set-up failed");
	return k;
}

static void *ec_verifier(call_t *c, const buf_t *raw)
{
	okey_t *k = wrap(ec_public(raw));

	if (k == NULL || k->pkey == NULL)
		return key_fail(c, k, "public_key: not an uncompressed P-256 point");
	k->ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
	if (k->ctx == NULL || EVP_PKEY_verify_init(k->ctx) != 1 ||
	    EVP_PKEY_CTX_set_signature_md(k->ctx, ossl_md("SHA256")) != 1)
		return key_fail(c, k, "EVP_PKEY_verify_init failed");
	return k;
}

static int ecdh_agree(call_t *c, void *key, const buf_t *peer, uint8_t *out, size_t *out_n)
{
	return derive(c, key, ec_public(peer), out, out_n);
}

static int sha256(const buf_t *msg, uint8_t *dg)
{
	return EVP_Digest(msg->p, msg->n, dg, NULL, ossl_md("SHA256"), NULL) == 1;
}

/* ECDSA and RSA: the SHA-256 digest signed with EVP_PKEY_sign. */
static int digest_sign(call_t *c, void *key, const buf_t *msg, uint8_t *out, size_t *out_n)
{
	okey_t *k = key;
	uint8_t dg[32];
	size_t n = c->out_cap;

	if (!sha256(msg, dg) || EVP_PKEY_sign(k->ctx, out, &n, dg, 32) != 1)
		return ossl_fail(c, RC_INTERNAL, "EVP_PKEY_sign failed");
	*out_n = n;
	return RC_OK;
}

static int digest_verify(call_t *c, void *key, const buf_t *msg, const uint8_t *sig, size_t n)
{
	okey_t *k = key;
	uint8_t dg[32];

	if (sha256(msg, dg) && EVP_PKEY_verify(k->ctx, sig, n, dg, 32) == 1)
		return RC_OK;
	return ossl_fail(c, RC_AUTH, "bad signature");
}

static int der_verify(call_t *c, void *key, const buf_t *msg, const buf_t *sig)
{
	return digest_verify(c, key, msg, sig->p, sig->n);
}

/* r‖s ↔ DER: ECDSA_SIG carries the two integers. */
static int p1363_sign(call_t *c, void *key, const buf_t *msg, uint8_t *out, size_t *out_n)
{
	size_t n = 0;
	int rc = digest_sign(c, key, msg, out, &n);
	const uint8_t *p = out;
	ECDSA_SIG *sig = rc == RC_OK ? d2i_ECDSA_SIG(NULL, &p, (long)n) : NULL;

	if (rc != RC_OK)
		return rc;
	if (sig == NULL || BN_bn2binpad(ECDSA_SIG_get0_r(sig), out, 32) != 32 ||
	    BN_bn2binpad(ECDSA_SIG_get0_s(sig), out + 32, 32) != 32)
		rc = ossl_fail(c, RC_INTERNAL, "ECDSA signature conversion failed");
	ECDSA_SIG_free(sig);
	*out_n = 64;
	return rc;
}

static int p1363_verify(call_t *c, void *key, const buf_t *msg, const buf_t *sig)
{
	ECDSA_SIG *s = sig->n == 64 ? ECDSA_SIG_new() : NULL;
	BIGNUM *r = s ? BN_bin2bn(sig->p, 32, NULL) : NULL,
	       *t = s ? BN_bin2bn(sig->p + 32, 32, NULL) : NULL;
	uint8_t der[80], *p = der;
	int n, rc;

	if (r == NULL || t == NULL || ECDSA_SIG_set0(s, r, t) != 1) {
		BN_free(r);
		BN_free(t);
		ECDSA_SIG_free(s);
		return ossl_fail(c, RC_AUTH, "not a 64-byte r||s signature");
	}
	n = i2d_ECDSA_SIG(s, &p);
	ECDSA_SIG_free(s);
	rc = n > 0 && n <= (int)sizeof der ? digest_verify(c, key, msg, der, (size_t)n) : RC_AUTH;
	return rc == RC_OK ? RC_OK : ossl_fail(c, RC_AUTH, "bad signature");
}

/* RSA: SubjectPublicKeyInfo and PKCS#8 DER, arg2 = modulus bits, e = 65537. */
static int rsa_export(call_t *c, EVP_PKEY *k, uint8_t *out, size_t *out_n)
{
	PKCS8_PRIV_KEY_INFO *p8 = k ? EVP_PKEY2PKCS8(k) : NULL;
	int pn = k ? i2d_PUBKEY(k, NULL) : -1, qn = p8 ? i2d_PKCS8_PRIV_KEY_INFO(p8, NULL) : -1;
	uint8_t *p = out;
	int rc = RC_OK;

	if (pn <= 0 || qn <= 0 || (size_t)pn + (size_t)qn > c->out_cap)
		rc = ossl_fail(c, RC_INTERNAL, "RSA key export failed");
	else if (i2d_PUBKEY(k, &p) != pn || i2d_PKCS8_PRIV_KEY_INFO(p8, &p) != qn)
		rc = ossl_fail(c, RC_INTERNAL, "RSA key export failed");
	*out_n = (size_t)(p - out);
	PKCS8_PRIV_KEY_INFO_free(p8);
	EVP_PKEY_free(k);
	return rc;
}

static int rsa_keygen(call_t *c, uint8_t *out, size_t *out_n)
{
	return rsa_export(c, EVP_PKEY_Q_keygen(NULL, NULL, "RSA", (size_t)c->prim->arg2), out,
			  out_n);
}

/* PSS: SHA-256, MGF1-SHA-256, 32-byte salt; or PKCS#1 v1.5 with SHA-256. */
static void *rsa_ready(call_t *c, okey_t *k, int sign)
{
	int pss = c->prim->arg == &RSA_PSS_S;
	const EVP_MD *md = ossl_md("SHA256");

	if (k == NULL || k->pkey == NULL || EVP_PKEY_get_base_id(k->pkey) != EVP_PKEY_RSA ||
	    EVP_PKEY_get_bits(k->pkey) != c->prim->arg2)
		return key_fail(c, k, "not an RSA key of this size");
	k->ctx = EVP_PKEY_CTX_new(k->pkey, NULL);
	if (k->ctx == NULL ||
	    (sign ? EVP_PKEY_sign_init(k->ctx) : EVP_PKEY_verify_init(k->ctx)) != 1 ||
	    EVP_PKEY_CTX_set_rsa_padding(k->ctx, pss ? RSA_PKCS1_PSS_PADDING : RSA_PKCS1_PADDING) !=
		    1 ||
	    EVP_PKEY_CTX_set_signature_md(k->ctx, md) != 1 ||
	    (pss && (EVP_PKEY_CTX_set_rsa_pss_saltlen(k->ctx, 32) != 1 ||
		     EVP_PKEY_CTX_set_rsa_mgf1_md(k->ctx, md) != 1)))
		return key_fail(c, k, "RSA context set-up failed");
	return k;
}

static void *rsa_private(call_t *c, const buf_t *raw)
{
	const uint8_t *p = raw->p;
	PKCS8_PRIV_KEY_INFO *p8 = d2i_PKCS8_PRIV_KEY_INFO(NULL, &p, (long)raw->n);
	EVP_PKEY *pkey = p8 && p == raw->p + raw->n ? EVP_PKCS82PKEY(p8) : NULL;

	PKCS8_PRIV_KEY_INFO_free(p8);
	if (pkey == NULL)
		return key_fail(c, NULL, "private_key: not a PKCS#8 DER key");
	return rsa_ready(c, wrap(pkey), 1);
}

static void *rsa_public(call_t *c, const buf_t *raw)
{
	const uint8_t *p = raw->p;
	EVP_PKEY *pkey = d2i_PUBKEY(NULL, &p, (long)raw->n);

	if (pkey != NULL && p != raw->p + raw->n) {
		EVP_PKEY_free(pkey);
		pkey = NULL;
	}
	if (pkey == NULL)
		return key_fail(c, NULL, "public_key: not a SubjectPublicKeyInfo DER key");
	return rsa_ready(c, wrap(pkey), 0);
}

static const pk_scheme_t X25519_S = {raw_keygen, raw_keygen_seeded, raw_private,
				     NULL,	 free_key,	    x25519_agree};
static const pk_scheme_t ED25519_S = {raw_keygen,     raw_keygen_seeded, raw_private,
				      ed25519_public, free_key,		 NULL,
				      ed25519_sign,   ed25519_verify};
static const pk_scheme_t ECDH_S = {ec_keygen, ec_keygen_seeded, ec_private,
				   NULL,      free_key,		ecdh_agree};
static const pk_scheme_t ECDSA_DER_S = {ec_keygen,   ec_keygen_seeded, ec_private,
					ec_verifier, free_key,	       NULL,
					digest_sign, der_verify};
static const pk_scheme_t ECDSA_P1363_S = {ec_keygen,   ec_keygen_seeded, ec_private,
					  ec_verifier, free_key,	 NULL,
					  p1363_sign,  p1363_verify};
static const pk_scheme_t RSA_PSS_S = {rsa_keygen, NULL, rsa_private, rsa_public,
				      free_key,	  NULL, digest_sign, der_verify};
static const pk_scheme_t RSA_PKCS1_S = {rsa_keygen, NULL, rsa_private, rsa_public,
					free_key,   NULL, digest_sign, der_verify};

static const prim_t PRIMS[] = {
	PK_KEX("x25519", "EVP_PKEY X25519 (EVP_PKEY_derive)", X25519_S, EVP_PKEY_X25519),
	PK_KEX("ecdh-p256", "EVP_PKEY EC P-256 (EVP_PKEY_derive)", ECDH_S, 0),
	PK_SIG("ed25519", "EVP_PKEY ED25519 (EVP_DigestSign)", ED25519_S, EVP_PKEY_ED25519),
	PK_SIG("ecdsa-p256-sha256", "EVP_PKEY EC P-256 ECDSA, SHA-256 digest", ECDSA_DER_S, 0),
	PK_SIG("ecdsa-p256-sha256-p1363", "EVP_PKEY EC P-256 ECDSA, ECDSA_SIG to r||s",
	       ECDSA_P1363_S, 0),
	PK_SIG("rsa-2048-pss-sha256", "EVP_PKEY RSA PSS (saltlen 32)", RSA_PSS_S, 2048),
	PK_SIG("rsa-3072-pss-sha256", "EVP_PKEY RSA PSS (saltlen 32)", RSA_PSS_S, 3072),
	PK_SIG("rsa-2048-pkcs1-sha256", "EVP_PKEY RSA PKCS#1 v1.5", RSA_PKCS1_S, 2048),
};

const prim_table_t openssl_pubkey = {PRIMS, COUNT_OF(PRIMS)};
