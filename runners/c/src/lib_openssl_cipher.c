/* OpenSSL EVP ciphers for lib_openssl.c: AES-CTR and the AEADs (GCM, OCB, ChaCha20-Poly1305).
 * The context is keyed once in setup(); each message only sets the IV, as in
 * `openssl speed -evp`/`-aead`. fresh_context makes setup() run per message. */
#include "lib_openssl.h"

#include <openssl/err.h>
#include <stdlib.h>

#define TAG_LEN 16

static int cipher_prepare(call_t *c)
{
	c->algo = ossl_cipher(c->prim->arg);
	if (c->algo == NULL)
		return fail(c, RC_UNSUPPORTED, "OpenSSL has no %s here",
			    (const char *)c->prim->arg);
	if (c->msg.n > 0x7fffffff || c->aad.n > 0x7fffffff)
		return fail(c, RC_INVALID, "EVP takes int lengths");
	return RC_OK;
}

/* One context per direction, each keyed for it (OCB needs the decryption key schedule). */
struct cipher_state {
	EVP_CIPHER_CTX *enc, *dec;
};

static EVP_CIPHER_CTX *keyed_ctx(call_t *c, int enc)
{
	EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();

	if (ctx != NULL && EVP_CipherInit_ex2(ctx, c->algo, c->key.p, NULL, enc, NULL))
		return ctx;
	EVP_CIPHER_CTX_free(ctx);
	ERR_clear_error();
	return NULL;
}

static int cipher_setup(call_t *c)
{
	struct cipher_state *s = calloc(1, sizeof(*s));
	int need_dec = c->op == OP_OPEN || (c->op == OP_ROUNDTRIP && c->prim->kind == &OSSL_AEAD);

	c->st = s;
	if (s == NULL)
		return fail(c, RC_INTERNAL, "out of memory");
	if ((c->op != OP_OPEN && (s->enc = keyed_ctx(c, 1)) == NULL) ||
	    (need_dec && (s->dec = keyed_ctx(c, 0)) == NULL))
		return fail(c, RC_INTERNAL, "EVP_CipherInit_ex2 failed");
	return RC_OK;
}

static void cipher_cleanup(call_t *c)
{
	struct cipher_state *s = c->st;

	if (s != NULL) {
		EVP_CIPHER_CTX_free(s->enc);
		EVP_CIPHER_CTX_free(s->dec);
	}
	free(s);
	c->st = NULL;
}

/* CTR: encryption and decryption are the same keystream XOR. */
static int ctr_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	EVP_CIPHER_CTX *ctx = ((struct cipher_state *)c->st)->enc;
	int len = 0;

	(void)op;
	if (!EVP_CipherInit_ex2(ctx, NULL, NULL, c->nonce.p, -1, NULL) ||
	    !EVP_CipherUpdate(ctx, out, &len, in->p, (int)in->n))
		return fail(c, RC_INTERNAL, "AES-CTR failed");
	*out_n = (size_t)len;
	return RC_OK;
}

static int aead_seal(call_t *c, const buf_t *in, uint8_t *out, size_t *out_n)
{
	EVP_CIPHER_CTX *ctx = ((struct cipher_state *)c->st)->enc;
	int len = 0, fin = 0;

	if (!EVP_CipherInit_ex2(ctx, NULL, NULL, c->nonce.p, -1, NULL) ||
	    (c->aad.n && !EVP_CipherUpdate(ctx, NULL, &len, c->aad.p, (int)c->aad.n)) ||
	    !EVP_CipherUpdate(ctx, out, &len, in->p, (int)in->n) ||
	    !EVP_CipherFinal_ex(ctx, out + len, &fin) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_GET_TAG, TAG_LEN, out + len + fin))
		return fail(c, RC_INTERNAL, "seal failed");
	*out_n = (size_t)(len + fin) + TAG_LEN;
	return RC_OK;
}

static int aead_open(call_t *c, const buf_t *in, uint8_t *out, size_t *out_n)
{
	EVP_CIPHER_CTX *ctx = ((struct cipher_state *)c->st)->dec;
	int n = (int)(in->n - TAG_LEN), len = 0, fin = 0;

	if (!EVP_CipherInit_ex2(ctx, NULL, NULL, c->nonce.p, -1, NULL) ||
	    !EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_AEAD_SET_TAG, TAG_LEN, in->p + n) ||
	    (c->aad.n && !EVP_CipherUpdate(ctx, NULL, &len, c->aad.p, (int)c->aad.n)) ||
	    !EVP_CipherUpdate(ctx, out, &len, in->p, n))
		return fail(c, RC_INTERNAL, "open failed");
	if (EVP_CipherFinal_ex(ctx, out + len, &fin) <= 0) {
		ERR_clear_error();
		return fail(c, RC_AUTH, "tag does not verify");
	}
	*out_n = (size_t)(len + fin);
	return RC_OK;
}

static int aead_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	return op == OP_OPEN ? aead_open(c, in, out, out_n) : aead_seal(c, in, out, out_n);
}

const kind_t OSSL_CTR = {cipher_prepare, cipher_setup, ctr_run, cipher_cleanup};
const kind_t OSSL_AEAD = {cipher_prepare, cipher_setup, aead_run, cipher_cleanup};
