/* libgcrypt ciphers for lib_libgcrypt.c: AES-CTR and the AEADs (GCM, OCB, GCM-SIV,
 * ChaCha20-Poly1305). One handle keyed in setup(); per message: IV, AAD, data, tag. */
#include "lib_libgcrypt.h"

#define TAG_LEN 16

static int setup(call_t *c)
{
	long v = c->prim->arg2;
	int aead = c->prim->kind == &GCRY_AEAD;
	gcry_cipher_hd_t h;

	if (gcry_cipher_open(&h, aead ? GCRY_UNPACK_CIPHER(v) : (int)v,
			     aead ? GCRY_UNPACK_MODE(v) : GCRY_CIPHER_MODE_CTR, 0) != 0)
		return fail(c, RC_INTERNAL, "gcry_cipher_open failed");
	c->st = h;
	if (gcry_cipher_setkey(h, c->key.p, c->key.n) != 0)
		return fail(c, RC_INVALID, "gcry_cipher_setkey rejected the key");
	return RC_OK;
}

static void cleanup(call_t *c)
{
	if (c->st != NULL)
		gcry_cipher_close(c->st);
	c->st = NULL;
}

static int ctr_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	if (gcry_cipher_setctr(c->st, c->nonce.p, c->nonce.n) != 0 ||
	    gcry_cipher_encrypt(c->st, out, in->n, in->p, in->n) != 0)
		return fail(c, RC_INTERNAL, "AES-CTR failed");
	*out_n = in->n;
	return RC_OK;
}

static int is_siv(const call_t *c)
{
	return GCRY_UNPACK_MODE(c->prim->arg2) == GCRY_CIPHER_MODE_GCM_SIV;
}

/* gcry_cipher_final marks the next call as the last one (OCB and GCM-SIV need it);
 * GCM-SIV also needs a reset (key kept) before a handle takes its next message. */
static int seal(call_t *c, const buf_t *in, uint8_t *out, size_t *out_n)
{
	gcry_cipher_hd_t h = c->st;

	if ((is_siv(c) && gcry_cipher_reset(h) != 0) ||
	    gcry_cipher_setiv(h, c->nonce.p, c->nonce.n) != 0 ||
	    gcry_cipher_authenticate(h, c->aad.p, c->aad.n) != 0 || gcry_cipher_final(h) != 0 ||
	    gcry_cipher_encrypt(h, out, in->n, in->p, in->n) != 0 ||
	    gcry_cipher_gettag(h, out + in->n, TAG_LEN) != 0)
		return fail(c, RC_INTERNAL, "seal failed");
	*out_n = in->n + TAG_LEN;
	return RC_OK;
}

static int open_(call_t *c, const buf_t *in, uint8_t *out, size_t *out_n)
{
	gcry_cipher_hd_t h = c->st;
	size_t n = in->n - TAG_LEN;
	int siv = is_siv(c);
	gcry_error_t e;

	if ((siv && gcry_cipher_reset(h) != 0) ||
	    gcry_cipher_setiv(h, c->nonce.p, c->nonce.n) != 0 ||
	    gcry_cipher_authenticate(h, c->aad.p, c->aad.n) != 0 ||
	    (siv && gcry_cipher_set_decryption_tag(h, in->p + n, TAG_LEN) != 0) ||
	    gcry_cipher_final(h) != 0)
		return fail(c, RC_INTERNAL, "open failed");
	e = gcry_cipher_decrypt(h, out, n, in->p, n);
	if (e == 0 && !siv)
		e = gcry_cipher_checktag(h, in->p + n, TAG_LEN);
	if (gcry_err_code(e) == GPG_ERR_CHECKSUM)
		return fail(c, RC_AUTH, "tag does not verify");
	if (e != 0)
		return fail(c, RC_INTERNAL, "open failed: %s", gcry_strerror(e));
	*out_n = n;
	return RC_OK;
}

static int aead_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	return op == OP_OPEN ? open_(c, in, out, out_n) : seal(c, in, out, out_n);
}

const kind_t GCRY_CTR = {NULL, setup, ctr_run, cleanup};
const kind_t GCRY_AEAD = {NULL, setup, aead_run, cleanup};
