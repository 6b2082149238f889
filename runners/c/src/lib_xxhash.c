/* c/xxhash: XXH32, XXH64, XXH3 (64/128) with seeds; XXH3 through xxh_x86dispatch. */
#include "runner.h"

#include <stdio.h>
#include <xxh_x86dispatch.h>
#include <xxhash.h>

static int xxh32_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	put_be32(out, XXH32(in->p, in->n, (XXH32_hash_t)c->pv[P_SEED]));
	*out_n = 4;
	return RC_OK;
}

static int xxh64_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	put_be64(out, XXH64(in->p, in->n, c->pv[P_SEED]));
	*out_n = 8;
	return RC_OK;
}

static int xxh3_64_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	put_be64(out, XXH3_64bits_withSeed_dispatch(in->p, in->n, c->pv[P_SEED]));
	*out_n = 8;
	return RC_OK;
}

/* Canonical form: big-endian high64 then low64 (XXH128_canonicalFromHash). */
static int xxh3_128_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	XXH128_hash_t h = XXH3_128bits_withSeed_dispatch(in->p, in->n, c->pv[P_SEED]);

	(void)op;
	XXH128_canonicalFromHash((XXH128_canonical_t *)out, h);
	*out_n = 16;
	return RC_OK;
}

static int seed32(call_t *c)
{
	if (c->pv[P_SEED] > 0xffffffffu)
		return fail(c, RC_INVALID, "xxh32 takes a 32-bit seed");
	return RC_OK;
}

static const kind_t XXH32_K = {.prepare = seed32, .run = xxh32_run};
static const kind_t XXH64_K = {.run = xxh64_run};
static const kind_t XXH3_64_K = {.run = xxh3_64_run};
static const kind_t XXH3_128_K = {.run = xxh3_128_run};

static const prim_t PRIMS[] = {
	{"xxh32", "XXH32", OPS_DIGEST, PS_SEED, 0, 0, 0, &XXH32_K, NULL, 0},
	{"xxh64", "XXH64", OPS_DIGEST, PS_SEED, 0, 0, 0, &XXH64_K, NULL, 0},
	{"xxh3-64", "XXH3_64bits_withSeed", OPS_DIGEST, PS_SEED, 0, 0, 0, &XXH3_64_K, NULL, 0},
	{"xxh3-128", "XXH3_128bits_withSeed", OPS_DIGEST, PS_SEED, 0, 0, 0, &XXH3_128_K, NULL, 0},
};

static void describe(json_t *impl)
{
	static char version[32];
	unsigned v = XXH_versionNumber();

	snprintf(version, sizeof(version), "%u.%u.%u", v / 10000, v / 100 % 100, v % 100);
	describe_common(impl, version, "xxhash",
			"XXH3: xxh_x86dispatch picks scalar/SSE2/AVX2/AVX-512 at first call",
			"libxxhash shared library; XXH3 via the *_dispatch entry points");
}

const lib_t lib_xxhash = {"xxhash", PRIMS, COUNT_OF(PRIMS), NULL, NULL, describe};
