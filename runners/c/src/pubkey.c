/* PK_KIND: keygen, agree, sign and verify over a library's pk_scheme_t (pubkey.h). */
#include "pubkey.h"

#include <string.h>

/* The order n of P-256 (FIPS 186-4, D.1.2.3), big-endian. */
static const uint8_t P256_N[32] = {
	0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
	0xff, 0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17,
	0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51,
};

int pk_p256_scalar_ok(const uint8_t *d)
{
	static const uint8_t zero[32];

	return memcmp(d, zero, 32) != 0 && memcmp(d, P256_N, 32) < 0;
}

int pk_p256_uncompressed(const buf_t *p)
{
	return p->n == 65 && p->p[0] == 0x04;
}

int pk_pair(call_t *c, const uint8_t *pub, size_t pub_n, const uint8_t *priv, size_t priv_n,
	    uint8_t *out, size_t *out_n)
{
	if (pub_n + priv_n > c->out_cap)
		return fail(c, RC_INTERNAL, "key pair of %zu bytes does not fit", pub_n + priv_n);
	memcpy(out, pub, pub_n);
	memcpy(out + pub_n, priv, priv_n);
	*out_n = pub_n + priv_n;
	return RC_OK;
}

static const pk_scheme_t *scheme_of(const call_t *c)
{
	return c->prim->arg;
}

/* key_seed: 32 bytes, and only where the key type has generation from a seed. */
static int pk_prepare(call_t *c)
{
	if (c->op != OP_KEYGEN || !c->has_key_seed)
		return RC_OK;
	if (scheme_of(c)->keygen_seeded == NULL)
		return fail(c, RC_UNSUPPORTED, "%s has no key generation from a seed", c->prim->id);
	if (c->key_seed.n != 32)
		return fail(c, RC_INVALID, "key_seed is %zu bytes, not 32", c->key_seed.n);
	return RC_OK;
}

static int pk_setup(call_t *c)
{
	const pk_scheme_t *s = scheme_of(c);

	if (c->op == OP_KEYGEN)
		return RC_OK;
	c->st = c->op == OP_VERIFY ? s->load_public(c, &c->public_key)
				   : s->load_private(c, &c->private_key);
	if (c->st == NULL)
		return c->err[0] ? RC_INVALID : fail(c, RC_INVALID, "the key does not parse");
	return RC_OK;
}

static int pk_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	const pk_scheme_t *s = scheme_of(c);

	(void)in;
	switch (op) {
	case OP_KEYGEN:
		return c->has_key_seed ? s->keygen_seeded(c, c->key_seed.p, out, out_n)
				       : s->keygen(c, out, out_n);
	case OP_AGREE:
		return s->agree(c, c->st, &c->peer_public_key, out, out_n);
	case OP_SIGN:
		return s->sign(c, c->st, &c->msg, out, out_n);
	case OP_VERIFY:
		*out_n = 0;
		return s->verify(c, c->st, &c->msg, &c->signature) == RC_OK
			       ? RC_OK
			       : fail(c, RC_AUTH, "the signature does not verify");
	default:
		return fail(c, RC_UNSUPPORTED, "not a public-key operation");
	}
}

static void pk_cleanup(call_t *c)
{
	if (c->st != NULL)
		scheme_of(c)->free_key(c->st);
	c->st = NULL;
}

const kind_t PK_KIND = {pk_prepare, pk_setup, pk_run, pk_cleanup};
