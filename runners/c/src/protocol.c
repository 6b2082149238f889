/* JSON Lines framing, responses and hex codecs (docs/protocol.md). */
#include "protocol.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const KIND[] = {
	[RC_OK] = "ok",
	[RC_BAD_REQUEST] = "bad_request",
	[RC_UNSUPPORTED] = "unsupported",
	[RC_INVALID] = "invalid_params",
	[RC_AUTH] = "auth_failed",
	[RC_INTERNAL] = "internal",
};

static void emit(json_t *msg)
{
	/* stdout carries protocol lines only; one compact object per line. */
	if (json_dumpf(msg, stdout, JSON_COMPACT) != 0)
		fprintf(stderr, "c runner: failed to write a response\n");
	fputc('\n', stdout);
	fflush(stdout);
	json_decref(msg);
}

static json_t *id_json(json_int_t id, int has_id)
{
	return has_id ? json_integer(id) : json_null();
}

void reply_ok(json_int_t id, int has_id, json_t *result)
{
	emit(json_pack("{s:o,s:b,s:o}", "id", id_json(id, has_id), "ok", 1, "result", result));
}

void reply_err(json_int_t id, int has_id, int rc, const char *message)
{
	if (rc <= RC_OK || rc > RC_INTERNAL)
		rc = RC_INTERNAL;
	emit(json_pack("{s:o,s:b,s:{s:s,s:s}}", "id", id_json(id, has_id), "ok", 0, "error", "kind",
		       KIND[rc], "message", message ? message : ""));
}

void *alloc_aligned(size_t n)
{
	/* 64-byte alignment, as openssl speed's buffers; never a NULL for n = 0. */
	size_t rounded = (n + 64 + 63) & ~(size_t)63;
	void *p = aligned_alloc(64, rounded);

	if (p == NULL) {
		fprintf(stderr, "c runner: out of memory (%zu bytes)\n", n);
		exit(70);
	}
	memset(p, 0, rounded);
	return p;
}

void buf_free(buf_t *b)
{
	free(b->p);
	b->p = NULL;
	b->n = 0;
}

static int nibble(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'a' && ch <= 'f')
		return ch - 'a' + 10;
	if (ch >= 'A' && ch <= 'F')
		return ch - 'A' + 10;
	return -1;
}

int hex_decode(const char *s, buf_t *b)
{
	size_t len = strlen(s);

	b->n = 0;
	b->p = alloc_aligned(len / 2);
	if (len % 2 != 0)
		return -1;
	for (size_t i = 0; i < len; i += 2) {
		int hi = nibble(s[i]), lo = nibble(s[i + 1]);

		if (hi < 0 || lo < 0)
			return -1;
		b->p[i / 2] = (uint8_t)(hi << 4 | lo);
	}
	b->n = len / 2;
	return 0;
}

json_t *hex_json(const uint8_t *p, size_t n)
{
	static const char DIGITS[] = "0123456789abcdef";
	char *s = malloc(2 * n + 1);
	json_t *j;

	if (s == NULL)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		s[2 * i] = DIGITS[p[i] >> 4];
		s[2 * i + 1] = DIGITS[p[i] & 15];
	}
	s[2 * n] = '\0';
	j = json_stringn_nocheck(s, 2 * n);
	free(s);
	return j;
}

/* Leaves the reason in c->err and returns the error kind `rc`. */
int fail(call_t *c, int rc, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	return rc;
}

/* out_len within what this library accepts, else invalid_params. */
int check_out_len(call_t *c, uint64_t min, uint64_t max)
{
	uint64_t v = c->pv[P_OUT_LEN];

	if (v < min || v > max)
		return fail(c, RC_INVALID, "out_len %llu outside [%llu, %llu] for this library",
			    (unsigned long long)v, (unsigned long long)min,
			    (unsigned long long)max);
	return RC_OK;
}

/* A tag of another length never verifies (never a crash, never internal): protocol.md. */
int mac_verdict(call_t *c, int match, size_t *out_n)
{
	*out_n = 0;
	return match ? RC_OK : fail(c, RC_AUTH, "tag does not verify");
}

/* The fields every library's hello entry shares (docs/protocol.md, "hello"). */
void describe_common(json_t *impl, const char *version, const char *backend, const char *code_path,
		     const char *notes)
{
	json_object_set_new(impl, "version", json_string(version));
	json_object_set_new(impl, "backend",
			    json_pack("{s:s,s:s}", "name", backend, "version", version));
	json_object_set_new(impl, "code_path", json_string(code_path ? code_path : ""));
	json_object_set_new(impl, "notes", json_string(notes ? notes : ""));
}
