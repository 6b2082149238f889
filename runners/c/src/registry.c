/* The registry of libraries this runner hosts, and the noop pseudo-primitive. */
#include "registry.h"

#include <stdio.h>
#include <string.h>

static const lib_t *const LIBS[] = {
	&lib_openssl, &lib_libsodium, &lib_libgcrypt, &lib_nettle, &lib_zlib,
	&lib_isal,    &lib_xxhash,    &lib_mhash,     &lib_rhash,
#ifdef CB_HAVE_MBEDTLS
	&lib_mbedtls,
#endif
#ifdef CB_HAVE_WOLFSSL
	&lib_wolfssl,
#endif
};

/* Optional libraries the build left out (Makefile: headers not found), said once at start. */
static const char *const NOT_BUILT[] = {
#ifndef CB_HAVE_MBEDTLS
	"mbedtls: not built in (install libmbedtls-dev, then `make -C runners/c build`)",
#endif
#ifndef CB_HAVE_WOLFSSL
	"wolfssl: not built in (install libwolfssl-dev, then `make -C runners/c build`)",
#endif
	NULL,
};

static int usable[COUNT_OF(LIBS)];

void libs_init(void)
{
	for (size_t i = 0; NOT_BUILT[i] != NULL; i++)
		fprintf(stderr, "c runner: %s; not offered\n", NOT_BUILT[i]);
	for (size_t i = 0; i < COUNT_OF(LIBS); i++) {
		usable[i] = LIBS[i]->init == NULL || LIBS[i]->init() == 0;
		if (!usable[i])
			fprintf(stderr, "c runner: %s failed to initialise; not offered\n",
				LIBS[i]->name);
	}
}

size_t libs_count(void)
{
	return COUNT_OF(LIBS);
}

const lib_t *libs_at(size_t i)
{
	return i < COUNT_OF(LIBS) && usable[i] ? LIBS[i] : NULL;
}

const lib_t *lib_find(const char *name)
{
	for (size_t i = 0; i < COUNT_OF(LIBS); i++)
		if (usable[i] && strcmp(LIBS[i]->name, name) == 0)
			return LIBS[i];
	return NULL;
}

size_t lib_prim_count(const lib_t *lib)
{
	return lib->n_prims + (lib->pubkey ? lib->pubkey->n : 0);
}

const prim_t *lib_prim_at(const lib_t *lib, size_t i)
{
	return i < lib->n_prims ? &lib->prims[i] : &lib->pubkey->prims[i - lib->n_prims];
}

/* The public-key rows are offered whenever they are built (their file declares only what the
 * installed library has); `available` speaks for the library's own table. */
int prim_offered(const lib_t *lib, const prim_t *p)
{
	return lib->available == NULL || IS_PUBKEY(p->ops) || lib->available(p);
}

const prim_t *prim_find(const lib_t *lib, const char *id)
{
	for (size_t i = 0; i < lib_prim_count(lib); i++)
		if (strcmp(lib_prim_at(lib, i)->id, id) == 0)
			return prim_offered(lib, lib_prim_at(lib, i)) ? lib_prim_at(lib, i) : NULL;
	return NULL;
}

/* noop: the input length as an 8-byte big-endian integer, through the same loop. */
static int noop_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)c;
	(void)op;
	put_be64(out, in->n);
	*out_n = 8;
	return RC_OK;
}

static const kind_t NOOP = {.run = noop_run};

const prim_t noop_prim = {"noop", "noop", OPS_DIGEST, PS_NONE, 0, 0, 0, &NOOP, NULL, 0};
