/* c/isa-l: Intel ISA-L's CRC and Adler routines (runtime-dispatched SIMD paths). */
#include "runner.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>

#ifndef ISAL_PKG_VERSION
#define ISAL_PKG_VERSION "unknown"
#endif

/* crc32_gzip_refl inverts on entry and exit: init 0 gives CRC-32/ISO-HDLC. */
static int gzip_refl_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)c;
	(void)op;
	put_be32(out, crc32_gzip_refl(0, in->p, in->n));
	*out_n = 4;
	return RC_OK;
}

/* crc32_ieee is the non-reflected polynomial with both inversions: CRC-32/BZIP2. */
static int ieee_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)c;
	(void)op;
	put_be32(out, crc32_ieee(0, in->p, in->n));
	*out_n = 4;
	return RC_OK;
}

/* crc32_iscsi applies neither inversion: start from ~0 and invert the result. */
static int iscsi_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)c;
	(void)op;
	put_be32(out, ~crc32_iscsi(in->p, (int)in->n, 0xffffffffu));
	*out_n = 4;
	return RC_OK;
}

static int adler32_run(call_t *c, enum op op, const buf_t *in, uint8_t *out, size_t *out_n)
{
	(void)c;
	(void)op;
	put_be32(out, isal_adler32(1, in->p, in->n));
	*out_n = 4;
	return RC_OK;
}

static int prepare(call_t *c)
{
	/* crc32_iscsi takes an int length. */
	if (c->msg.n > 0x7fffffff)
		return fail(c, RC_INVALID, "message too long for ISA-L's int length");
	return RC_OK;
}

static const kind_t GZIP_REFL = {.prepare = prepare, .run = gzip_refl_run};
static const kind_t IEEE = {.prepare = prepare, .run = ieee_run};
static const kind_t ISCSI = {.prepare = prepare, .run = iscsi_run};
static const kind_t ADLER32 = {.prepare = prepare, .run = adler32_run};

static const prim_t PRIMS[] = {
	{"crc32", "crc32_gzip_refl", OPS_DIGEST, PS_NONE, 0, 0, 0, &GZIP_REFL, NULL, 0},
	{"crc32-bzip2", "crc32_ieee", OPS_DIGEST, PS_NONE, 0, 0, 0, &IEEE, NULL, 0},
	{"crc32c", "crc32_iscsi", OPS_DIGEST, PS_NONE, 0, 0, 0, &ISCSI, NULL, 0},
	{"adler32", "isal_adler32", OPS_DIGEST, PS_NONE, 0, 0, 0, &ADLER32, NULL, 0},
};

static void describe(json_t *impl)
{
	describe_common(
		impl, ISAL_PKG_VERSION, "isa-l",
		"multibinary dispatch: PCLMULQDQ/VPCLMULQDQ folding (CRC32), SSE4.2 crc32 "
		"instruction (CRC32C), AVX2 (Adler32) where the CPU has them",
		"version from pkg-config at build time (ISA-L has no runtime version call)");
}

const lib_t lib_isal = {"isa-l", PRIMS, COUNT_OF(PRIMS), NULL, NULL, describe};
