/* libsodium password hashing for lib_libsodium.c: Argon2 (crypto_pwhash*) and scrypt.
 * libsodium runs one lane only (p must be 1), needs t >= 3 for Argon2i, writes 32-byte
 * hashes in its encoded strings and generates the salt of crypto_pwhash_str itself. */
#include "lib_libsodium.h"

#include <sodium.h>
#include <string.h>

static int argon2_limits(call_t *c)
{
	int alg = (int)c->prim->arg2;
	uint64_t t_min = alg == crypto_pwhash_ALG_ARGON2I13 ? crypto_pwhash_argon2i_OPSLIMIT_MIN
							    : crypto_pwhash_argon2id_OPSLIMIT_MIN;

	if (c->pv[P_P] != 1)
		return fail(c, RC_INVALID, "libsodium's Argon2 has one lane: p must be 1");
	if (c->pv[P_T] < t_min || c->pv[P_T] > crypto_pwhash_OPSLIMIT_MAX)
		return fail(c, RC_INVALID, "libsodium needs t >= %llu", (unsigned long long)t_min);
	if (c->pv[P_M] * 1024 < crypto_pwhash_MEMLIMIT_MIN ||
	    c->pv[P_M] > crypto_pwhash_MEMLIMIT_MAX / 1024)
		return fail(c, RC_INVALID, "m (KiB) outside libsodium's limits");
	return RC_OK;
}

static int argon2_prepare(call_t *c)
{
	const char *prefix =
		c->prim->arg2 == crypto_pwhash_ALG_ARGON2I13 ? "$argon2i$" : "$argon2id$";
	int rc = c->op == OP_VERIFY ? RC_OK : argon2_limits(c);

	if (rc != RC_OK)
		return rc;
	if (c->op == OP_HASH && c->pv[P_OUT_LEN] != 32)
		return fail(c, RC_INVALID, "crypto_pwhash_str always writes a 32-byte hash");
	if (c->op == OP_DERIVE && c->salt.n != crypto_pwhash_SALTBYTES)
		return fail(c, RC_INVALID, "salt must be %d bytes", crypto_pwhash_SALTBYTES);
	if (c->op == OP_DERIVE)
		return check_out_len(c, crypto_pwhash_BYTES_MIN, 1u << 20);
	if (c->op == OP_VERIFY && strncmp(c->encoded, prefix, strlen(prefix)) != 0)
		return fail(c, RC_INVALID, "not an %s encoded hash", c->prim->id);
	return RC_OK;
}

static int argon2_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	unsigned long long t = c->pv[P_T];
	size_t mem = (size_t)c->pv[P_M] * 1024;
	int alg = (int)c->prim->arg2;

	if (op == OP_VERIFY) {
		if (crypto_pwhash_str_verify(c->encoded, (const char *)in->p, in->n) != 0)
			return fail(c, RC_AUTH, "password does not match");
		*out_n = 0;
		return RC_OK;
	}
	if (op == OP_HASH) {
		if (crypto_pwhash_str_alg((char *)out, (const char *)in->p, in->n, t, mem, alg) !=
		    0)
			return fail(c, RC_INTERNAL, "crypto_pwhash_str_alg failed (memory?)");
		*out_n = strlen((const char *)out);
		return RC_OK;
	}
	if (crypto_pwhash(out, c->pv[P_OUT_LEN], (const char *)in->p, in->n, c->salt.p, t, mem,
			  alg) != 0)
		return fail(c, RC_INTERNAL, "crypto_pwhash failed (memory?)");
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

static int scrypt_prepare(call_t *c)
{
	uint64_t n = c->pv[P_N];

	if (n < 2 || (n & (n - 1)) || c->pv[P_R] < 1 || c->pv[P_P] < 1 ||
	    c->pv[P_R] > 0xffffffffu || c->pv[P_P] > 0xffffffffu)
		return fail(c, RC_INVALID, "scrypt needs n a power of 2 > 1, r >= 1, p >= 1");
	/* The same 4 GiB cap as c/openssl's maxmem: no swapping a shared machine. */
	if (c->pv[P_R] > 1024 || n > ((uint64_t)4 << 30) / (128 * c->pv[P_R]))
		return fail(c, RC_INVALID, "scrypt would need more than 4 GiB (128 * r * n)");
	return check_out_len(c, 1, 1u << 20);
}

static int scrypt_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	if (crypto_pwhash_scryptsalsa208sha256_ll(in->p, in->n, c->salt.p, c->salt.n, c->pv[P_N],
						  (uint32_t)c->pv[P_R], (uint32_t)c->pv[P_P], out,
						  (size_t)c->pv[P_OUT_LEN]) != 0)
		return fail(c, RC_INVALID, "libsodium rejected these scrypt parameters");
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

const kind_t SODIUM_ARGON2 = {.prepare = argon2_prepare, .run = argon2_run};
const kind_t SODIUM_SCRYPT = {.prepare = scrypt_prepare, .run = scrypt_run};
