/* c/zlib: crc32 and adler32 (zlib's crc32_z/adler32_z, one call per message). */
#include "runner.h"

#include <zlib.h>

static int crc32_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)c;
	(void)op;
	put_be32(out, (uint32_t)crc32_z(0, in->p, in->n));
	*out_n = 4;
	return RC_OK;
}

static int adler32_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)c;
	(void)op;
	put_be32(out, (uint32_t)adler32_z(1, in->p, in->n));
	*out_n = 4;
	return RC_OK;
}

static const kind_t CRC32 = {.run = crc32_run};
static const kind_t ADLER32 = {.run = adler32_run};

static const prim_t PRIMS[] = {
	{"crc32", "crc32_z", OPS_DIGEST, PS_NONE, 0, 0, 0, &CRC32, NULL, 0},
	{"adler32", "adler32_z", OPS_DIGEST, PS_NONE, 0, 0, 0, &ADLER32, NULL, 0},
};

static void describe(json_t *impl)
{
	describe_common(impl, zlibVersion(), "zlib", NULL,
			"Debian's zlib; crc32_z/adler32_z over the whole message");
}

const lib_t lib_zlib = {"zlib", PRIMS, COUNT_OF(PRIMS), NULL, NULL, describe};
