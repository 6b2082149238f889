/* c/libsodium's public-key rows (pubkey.h): X25519 (crypto_scalarmult) and Ed25519
 * (crypto_sign_seed_keypair, detached signatures). libsodium has no P-256 or RSA. */
#include "pubkey.h"

#include <sodium.h>
#include <stdlib.h>
#include <string.h>

/* Every key this file allocates: the largest, Ed25519's expanded secret key. */
#define KEY_ALLOC crypto_sign_SECRETKEYBYTES

static int x25519_keygen(call_t *c, uint8_t *out, size_t *out_n)
{
	uint8_t pk[crypto_box_PUBLICKEYBYTES], sk[crypto_box_SECRETKEYBYTES];

	crypto_box_keypair(pk, sk); /* a random X25519 scalar and its public key */
	return pk_pair(c, pk, sizeof pk, sk, sizeof sk, out, out_n);
}

static int x25519_keygen_seeded(call_t *c, const uint8_t *seed, uint8_t *out, size_t *out_n)
{
	uint8_t pk[crypto_scalarmult_BYTES];

	if (crypto_scalarmult_base(pk, seed) != 0)
		return fail(c, RC_INVALID, "crypto_scalarmult_base refused key_seed");
	return pk_pair(c, pk, sizeof pk, seed, 32, out, out_n);
}

static void *copy_key(call_t *c, const buf_t *raw, size_t n, const char *what)
{
	uint8_t *k;

	if (raw->n != n) {
		fail(c, RC_INVALID, "%s must be %zu bytes", what, n);
		return NULL;
	}
	if ((k = calloc(1, KEY_ALLOC)) != NULL)
		memcpy(k, raw->p, n);
	return k;
}

static void *x25519_private(call_t *c, const buf_t *raw)
{
	return copy_key(c, raw, crypto_scalarmult_SCALARBYTES, "private_key");
}

static void free_key(void *k)
{
	sodium_memzero(k, KEY_ALLOC);
	free(k);
}

static int x25519_agree(call_t *c, void *key, const buf_t *peer, uint8_t *out, size_t *out_n)
{
	if (peer->n != crypto_scalarmult_BYTES)
		return fail(c, RC_INVALID, "peer_public_key must be 32 bytes");
	if (crypto_scalarmult(out, key, peer->p) != 0)
		return fail(c, RC_INVALID, "peer_public_key: a low-order point (all-zero secret)");
	*out_n = crypto_scalarmult_BYTES;
	return RC_OK;
}

static int ed25519_pair(call_t *c, const uint8_t *pk, const uint8_t *sk, uint8_t *out,
			size_t *out_n)
{
	return pk_pair(c, pk, crypto_sign_PUBLICKEYBYTES, sk, crypto_sign_SEEDBYTES, out, out_n);
}

/* sk is seed ‖ public key: its first 32 bytes are the RFC 8032 secret. */
static int ed25519_keygen(call_t *c, uint8_t *out, size_t *out_n)
{
	uint8_t pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];

	crypto_sign_keypair(pk, sk);
	return ed25519_pair(c, pk, sk, out, out_n);
}

static int ed25519_keygen_seeded(call_t *c, const uint8_t *seed, uint8_t *out, size_t *out_n)
{
	uint8_t pk[crypto_sign_PUBLICKEYBYTES], sk[crypto_sign_SECRETKEYBYTES];

	crypto_sign_seed_keypair(pk, sk, seed);
	return ed25519_pair(c, pk, sk, out, out_n);
}

/* Our key: the expanded secret key (seed ‖ public key), as crypto_sign_detached takes it. */
static void *ed25519_private(call_t *c, const buf_t *raw)
{
	uint8_t pk[crypto_sign_PUBLICKEYBYTES], *sk;

	if (raw->n != crypto_sign_SEEDBYTES) {
		fail(c, RC_INVALID, "private_key must be 32 bytes");
		return NULL;
	}
	if ((sk = malloc(KEY_ALLOC)) != NULL)
		crypto_sign_seed_keypair(pk, sk, raw->p);
	return sk;
}

static void *ed25519_public(call_t *c, const buf_t *raw)
{
	return copy_key(c, raw, crypto_sign_PUBLICKEYBYTES, "public_key");
}

static int ed25519_sign(call_t *c, void *key, const buf_t *msg, uint8_t *out, size_t *out_n)
{
	unsigned long long n = 0;

	if (crypto_sign_detached(out, &n, msg->p, msg->n, key) != 0)
		return fail(c, RC_INTERNAL, "crypto_sign_detached failed");
	*out_n = (size_t)n;
	return RC_OK;
}

static int ed25519_verify(call_t *c, void *key, const buf_t *msg, const buf_t *sig)
{
	if (sig->n == crypto_sign_BYTES &&
	    crypto_sign_verify_detached(sig->p, msg->p, msg->n, key) == 0)
		return RC_OK;
	return RC_AUTH;
}

static const pk_scheme_t X25519_S = {x25519_keygen, x25519_keygen_seeded, x25519_private, NULL,
				     free_key,	    x25519_agree};
static const pk_scheme_t ED25519_S = {
	ed25519_keygen, ed25519_keygen_seeded, ed25519_private, ed25519_public, free_key,
	NULL,		ed25519_sign,	       ed25519_verify};

static const prim_t PRIMS[] = {
	PK_KEX("x25519", "crypto_scalarmult (X25519)", X25519_S, 0),
	PK_SIG("ed25519", "crypto_sign_detached (Ed25519)", ED25519_S, 0),
};

const prim_table_t libsodium_pubkey = {PRIMS, COUNT_OF(PRIMS)};
