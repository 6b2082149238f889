/* libgcrypt KDFs for lib_libgcrypt.c: PBKDF2 and Argon2 (raw). */
#include "lib_libgcrypt.h"

static int kdf_error(call_t *c, gcry_error_t e)
{
	if (gcry_err_code(e) == GPG_ERR_ENOMEM)
		return fail(c, RC_INTERNAL, "out of memory");
	return fail(c, RC_INVALID, "libgcrypt rejected the parameters: %s", gcry_strerror(e));
}

static int pbkdf2_prepare(call_t *c)
{
	if (c->pv[P_ITERATIONS] < 1)
		return fail(c, RC_INVALID, "iterations must be >= 1");
	return check_out_len(c, 1, 1u << 20);
}

static int pbkdf2_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	gcry_error_t e;

	(void)op;
	e = gcry_kdf_derive(in->p, in->n, GCRY_KDF_PBKDF2, (int)c->prim->arg2, c->salt.p, c->salt.n,
			    (unsigned long)c->pv[P_ITERATIONS], (size_t)c->pv[P_OUT_LEN], out);
	if (e != 0)
		return kdf_error(c, e);
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

static int argon2_prepare(call_t *c)
{
	if (c->pv[P_T] < 1 || c->pv[P_P] < 1 || c->pv[P_M] < 8 * c->pv[P_P])
		return fail(c, RC_INVALID, "Argon2 needs t >= 1, p >= 1, m >= 8p");
	return check_out_len(c, 4, 1u << 20);
}

/* gcry_kdf_open params: {tag length, t, m (KiB), p}; compute runs single-threaded. */
static int argon2_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	unsigned long param[4] = {(unsigned long)c->pv[P_OUT_LEN], (unsigned long)c->pv[P_T],
				  (unsigned long)c->pv[P_M], (unsigned long)c->pv[P_P]};
	gcry_kdf_hd_t hd;
	gcry_error_t e;

	(void)op;
	e = gcry_kdf_open(&hd, GCRY_KDF_ARGON2, (int)c->prim->arg2, param, 4, in->p, in->n,
			  c->salt.p, c->salt.n, NULL, 0, NULL, 0);
	if (e != 0)
		return kdf_error(c, e);
	e = gcry_kdf_compute(hd, NULL);
	if (e == 0)
		e = gcry_kdf_final(hd, (size_t)c->pv[P_OUT_LEN], out);
	gcry_kdf_close(hd);
	if (e != 0)
		return kdf_error(c, e);
	*out_n = (size_t)c->pv[P_OUT_LEN];
	return RC_OK;
}

const kind_t GCRY_PBKDF2 = {.prepare = pbkdf2_prepare, .run = pbkdf2_run};
const kind_t GCRY_ARGON2 = {.prepare = argon2_prepare, .run = argon2_run};
