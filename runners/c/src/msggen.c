/* Generated messages: see msggen.h. */
#include "msggen.h"

#include "reqlimits.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MSGGEN_BLOCK 65536

static void fill_block(uint64_t seed, uint8_t *block)
{
	uint64_t x = seed ^ UINT64_C(0x9E3779B97F4A7C15);

	for (size_t i = 0; i < MSGGEN_BLOCK; i += 8) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		for (int k = 0; k < 8; k++)
			block[i + k] = (uint8_t)(x >> (8 * k));
	}
}

int msggen_expand(json_t *spec, buf_t *b, char *why, size_t why_len)
{
	json_t *gen = json_object_get(spec, "generator");
	json_t *seed = json_object_get(spec, "seed");
	json_t *length = json_object_get(spec, "length");
	static uint8_t block[MSGGEN_BLOCK];

	b->n = 0;
	b->p = NULL;
	if (!json_is_string(gen) || strcmp(json_string_value(gen), "xorshift64") != 0) {
		snprintf(why, why_len, "unknown generator; valid: xorshift64");
		return RC_BAD_REQUEST;
	}
	if (!json_is_integer(seed) || json_integer_value(seed) < 0 ||
	    json_integer_value(seed) > INT64_C(4294967295)) {
		snprintf(why, why_len, "generator seed must be an integer in 0..4294967295");
		return RC_BAD_REQUEST;
	}
	if (!json_is_integer(length) || json_integer_value(length) < 0) {
		snprintf(why, why_len, "generator length must be an integer >= 0");
		return RC_BAD_REQUEST;
	}
	if ((uint64_t)json_integer_value(length) > MAX_GENERATED) {
		snprintf(why, why_len, "a generated message is at most 2^40 bytes");
		return RC_INVALID;
	}
	size_t n = (size_t)json_integer_value(length);
	b->p = aligned_alloc(64, (n + 64 + 63) & ~(size_t)63);
	if (b->p == NULL) {
		snprintf(why, why_len, "cannot hold a %zu-byte message: out of memory", n);
		return RC_INVALID;
	}
	fill_block((uint64_t)json_integer_value(seed), block);
	for (size_t off = 0; off < n; off += MSGGEN_BLOCK)
		memcpy(b->p + off, block, n - off < MSGGEN_BLOCK ? n - off : MSGGEN_BLOCK);
	b->n = n;
	return RC_OK;
}
