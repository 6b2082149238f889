/* The registry of libraries this runner hosts. */
#ifndef CRYPTOBENCH_REGISTRY_H
#define CRYPTOBENCH_REGISTRY_H

#include "runner.h"

extern const lib_t lib_openssl, lib_libsodium, lib_libgcrypt, lib_nettle, lib_zlib, lib_isal,
	lib_xxhash, lib_mhash, lib_rhash, lib_mbedtls, lib_wolfssl;

/* The pseudo-primitive every runner offers (docs/protocol.md, "noop"). */
extern const prim_t noop_prim;

void libs_init(void);
size_t libs_count(void);
const lib_t *libs_at(size_t i); /* NULL when that library failed to initialise */
const lib_t *lib_find(const char *name);
const prim_t *prim_find(const lib_t *lib, const char *id);
/* A library's rows: its table, then its public-key table (lib->pubkey). */
size_t lib_prim_count(const lib_t *lib);
const prim_t *lib_prim_at(const lib_t *lib, size_t i);
int prim_offered(const lib_t *lib, const prim_t *p);

#endif
