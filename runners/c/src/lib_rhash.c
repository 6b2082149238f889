/* c/rhash: LibRHash's one-shot rhash_msg per message. The second implementation of Tiger,
 * GOST94 (both S-boxes), Streebog, Snefru and Whirlpool, plus the common digests. */
#include "runner.h"

#include <rhash.h>
#include <stdio.h>

static int rhash_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)op;
	if (rhash_msg((unsigned)c->prim->arg2, in->p, in->n, out) < 0)
		return fail(c, RC_INTERNAL, "rhash_msg failed");
	/* Tiger/128 and /160 are truncations of the Tiger/192 digest (arg: the length). */
	*out_n = c->prim->arg ? *(const size_t *)c->prim->arg
			      : (size_t)rhash_get_digest_size((unsigned)c->prim->arg2);
	return RC_OK;
}

static const kind_t RHASH_K = {.run = rhash_run};

#define R(id, name, hid)                                                                           \
	{                                                                                          \
		id, name, OPS_DIGEST, PS_NONE, 0, 0, 0, &RHASH_K, NULL, hid                        \
	}
#define TRUNC(id, name, hid, len)                                                                  \
	{                                                                                          \
		id, name, OPS_DIGEST, PS_NONE, 0, 0, 0, &RHASH_K, &(const size_t){len}, hid        \
	}

static const prim_t PRIMS[] = {
	R("md4", "RHASH_MD4", RHASH_MD4),
	R("md5", "RHASH_MD5", RHASH_MD5),
	R("sha1", "RHASH_SHA1", RHASH_SHA1),
	R("sha224", "RHASH_SHA224", RHASH_SHA224),
	R("sha256", "RHASH_SHA256", RHASH_SHA256),
	R("sha384", "RHASH_SHA384", RHASH_SHA384),
	R("sha512", "RHASH_SHA512", RHASH_SHA512),
	R("sha3-224", "RHASH_SHA3_224", RHASH_SHA3_224),
	R("sha3-256", "RHASH_SHA3_256", RHASH_SHA3_256),
	R("sha3-384", "RHASH_SHA3_384", RHASH_SHA3_384),
	R("sha3-512", "RHASH_SHA3_512", RHASH_SHA3_512),
	R("blake2b-512", "RHASH_BLAKE2B", RHASH_BLAKE2B),
	R("blake2s-256", "RHASH_BLAKE2S", RHASH_BLAKE2S),
	R("ripemd160", "RHASH_RIPEMD160", RHASH_RIPEMD160),
	R("whirlpool", "RHASH_WHIRLPOOL", RHASH_WHIRLPOOL),
	TRUNC("tiger128-3", "RHASH_TIGER (first 16 bytes)", RHASH_TIGER, 16),
	TRUNC("tiger160-3", "RHASH_TIGER (first 20 bytes)", RHASH_TIGER, 20),
	R("tiger192-3", "RHASH_TIGER", RHASH_TIGER),
	R("gost94-test", "RHASH_GOST94", RHASH_GOST94),
	R("gost94-cryptopro", "RHASH_GOST94_CRYPTOPRO", RHASH_GOST94_CRYPTOPRO),
	R("streebog-256", "RHASH_GOST12_256", RHASH_GOST12_256),
	R("streebog-512", "RHASH_GOST12_512", RHASH_GOST12_512),
	R("snefru", "RHASH_SNEFRU128", RHASH_SNEFRU128),
	R("snefru256", "RHASH_SNEFRU256", RHASH_SNEFRU256),
	R("crc32", "RHASH_CRC32", RHASH_CRC32),
	R("crc32c", "RHASH_CRC32C", RHASH_CRC32C),
};

static int init(void)
{
	rhash_library_init();
	return 0;
}

static void describe(json_t *impl)
{
	static char version[32];
	unsigned v = (unsigned)rhash_get_version();

	snprintf(version, sizeof(version), "%u.%u.%u", v >> 24, (v >> 16) & 0xff, (v >> 8) & 0xff);
	describe_common(impl, version, "rhash", "portable C",
			"rhash_msg one-shot (allocates a context per call); outputs already in "
			"the catalog's byte order");
}

const lib_t lib_rhash = {"rhash", PRIMS, COUNT_OF(PRIMS), init, NULL, describe};
