/* The leak request (docs/protocol.md): two classes of inputs prepared before timing, one
 * timed call per measurement in the order the orchestrator sends. No policy. */
#include "leak.h"

#include "protocol.h"
#include "request.h"
#include "timing.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

/* The secret-taint check (docs/protocol.md, "leak", `taint`): under Valgrind's memcheck the
 * named inputs are marked undefined before the call is set up, so every branch or memory
 * index that depends on them is reported. Without the header, `taint` is not offered. */
#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CB_MEMCHECK 1
#endif
#endif
#ifndef CB_MEMCHECK
#define RUNNING_ON_VALGRIND 0
#define VALGRIND_MAKE_MEM_UNDEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_MAKE_MEM_DEFINED(p, n) ((void)(p), (void)(n))
#define VALGRIND_PRINTF(...) 0
#endif
#define TAINT_MARK "cryptobench-taint-start"

/* Through a volatile pointer: the library's memcmp itself, not an inlined or __memcmpeq
 * rewrite the compiler may substitute for `memcmp(...) == 0`. */
static int (*volatile plain_memcmp)(const void *, const void *, size_t) = memcmp;

static int ct_memcmp(const void *a, const void *b, size_t n)
{
	return CRYPTO_memcmp(a, b, n);
}

/* base64 → bytes (malloc'ed); returns the length, or -1. */
static long b64_decode(const char *s, unsigned char **out)
{
	size_t n = strlen(s);
	long len;

	if (n == 0 || n % 4 != 0 || !(*out = malloc(n / 4 * 3 + 1)))
		return -1;
	len = EVP_DecodeBlock(*out, (const unsigned char *)s, (int)n);
	if (len < 0)
		return -1;
	len -= (s[n - 1] == '=') + (s[n - 2] == '=');
	return len;
}

typedef struct {
	call_t c[2];
	int decoded[2];
	buf_t a[2], b[2];
	int (*cmp)(const void *, const void *, size_t);
	char err[256];
} leak_t;

static int control(leak_t *L, const char *prim, json_t *merged[2])
{
	for (int k = 0; k < 2; k++) {
		json_t *in = json_object_get(merged[k], "inputs");
		const char *a = json_string_value(json_object_get(in, "a"));
		const char *b = json_string_value(json_object_get(in, "b"));

		if (!a || !b || hex_decode(a, &L->a[k]) || hex_decode(b, &L->b[k])) {
			snprintf(L->err, sizeof(L->err), "inputs a and b must be hex");
			return RC_BAD_REQUEST;
		}
	}
	L->cmp = strcmp(prim, "equal") == 0 ? plain_memcmp : ct_memcmp;
	return RC_OK;
}

/* Mark the inputs `names` (key, a) undefined when running under memcheck; each one marked is
 * appended to `tainted` (once). Only then does the reply say it was done. */
static int named(json_t *names, const char *name)
{
	for (size_t i = 0; json_is_array(names) && i < json_array_size(names); i++) {
		const char *v = json_string_value(json_array_get(names, i));

		if (v && !strcmp(v, name))
			return 1;
	}
	return 0;
}

static void taint(json_t *names, const char *name, buf_t *b, json_t *tainted)
{
	if (!RUNNING_ON_VALGRIND || b->n == 0 || !named(names, name))
		return;
	if (json_array_size(tainted) == 0)
		VALGRIND_PRINTF("%s\n", TAINT_MARK);
	VALGRIND_MAKE_MEM_UNDEFINED(b->p, b->n);
	if (!named(tainted, name))
		json_array_append_new(tainted, json_string(name));
}

static int library_calls(leak_t *L, json_t *merged[2], json_t *outcomes, json_t *names,
			 json_t *tainted)
{
	for (int k = 0; k < 2; k++) {
		call_t *c = &L->c[k];
		int rc = request_decode(merged[k], c);

		L->decoded[k] = 1;
		if (rc == RC_OK) {
			taint(names, "key", &c->key, tainted);
			taint(names, "private_key", &c->private_key, tainted);
			rc = call_start(c);
		}
		if (rc == RC_OK)
			rc = call_verified(c);
		/* the outcome (accepted or not, the output it answers) is public: declassified
		 * before the runner uses or encodes it */
		VALGRIND_MAKE_MEM_DEFINED(&rc, sizeof(rc));
		if (rc == RC_OK && c->out_n > 0)
			VALGRIND_MAKE_MEM_DEFINED(c->out, c->out_n);
		if (rc == RC_AUTH) {
			json_array_append_new(outcomes, json_string("auth_failed"));
		} else if (rc == RC_OK) {
			json_array_append_new(outcomes, c->op == OP_VERIFY
								? json_string("ok")
								: hex_json(c->out, c->out_n));
		} else {
			snprintf(L->err, sizeof(L->err), "%s", c->err);
			return rc;
		}
	}
	return RC_OK;
}

static int run_leak(json_t *req, leak_t *L, json_t **result)
{
	const char *order_b64 = json_string_value(json_object_get(req, "order"));
	const char *prim = json_string_value(json_object_get(req, "primitive"));
	json_t *classes = json_object_get(req, "classes");
	json_t *shared = json_object_get(req, "inputs");
	json_t *merged[2] = {NULL, NULL}, *outcomes = json_array(), *tainted = json_array();
	json_t *names = json_object_get(req, "taint");
	unsigned char *order = NULL;
	uint32_t *ns = NULL;
	long n = order_b64 ? b64_decode(order_b64, &order) : -1;
	int rc = RC_OK, is_control = prim && (!strcmp(prim, "equal") || !strcmp(prim, "equal-ct"));

	*result = NULL;
	if (n <= 0 || !json_is_array(classes) || json_array_size(classes) != 2 ||
	    (shared && !json_is_object(shared)) || !prim) {
		snprintf(L->err, sizeof(L->err),
			 "order (base64), primitive and classes (two objects) are required");
		rc = RC_BAD_REQUEST;
		goto out;
	}
	for (long i = 0; i < n; i++)
		if (order[i] > 1) {
			snprintf(L->err, sizeof(L->err), "order holds classes 0 and 1 only");
			rc = RC_BAD_REQUEST;
			goto out;
		}
	for (int k = 0; k < 2; k++) {
		json_t *over = json_array_get(classes, k), *in;

		if (!json_is_object(over)) {
			snprintf(L->err, sizeof(L->err), "classes must be two objects");
			rc = RC_BAD_REQUEST;
			goto out;
		}
		merged[k] = json_deep_copy(req);
		in = shared ? json_deep_copy(shared) : json_object();
		json_object_update(in, over);
		json_object_set_new(merged[k], "inputs", in);
		json_object_set_new(merged[k], "op", json_string("bench"));
	}
	if (is_control) {
		rc = control(L, prim, merged);
		for (int k = 0; rc == RC_OK && k < 2; k++) {
			int same;

			taint(names, "a", &L->a[k], tainted);
			same = L->a[k].n == L->b[k].n &&
			       L->cmp(L->a[k].p, L->b[k].p, L->a[k].n) == 0;
			VALGRIND_MAKE_MEM_DEFINED(&same, sizeof(same)); /* the outcome is public */
			json_array_append_new(outcomes, json_string(same ? "01" : "00"));
		}
	} else {
		rc = library_calls(L, merged, outcomes, names, tainted);
	}
	if (rc != RC_OK)
		goto out;
	ns = malloc(4 * (size_t)n);
	for (long i = 0; i < n; i++) {
		int k = order[i];
		uint64_t t = is_control ? time_compare(L->cmp, L->a[k].p, L->b[k].p, L->a[k].n)
					: time_single(&L->c[k]);

		ns[i] = t > UINT32_MAX ? UINT32_MAX : (uint32_t)t;
	}
	{
		unsigned char *le = malloc(4 * (size_t)n),
			      *text = malloc(4 * (size_t)n / 3 * 4 + 8);

		for (long i = 0; i < n; i++)
			for (int j = 0; j < 4; j++)
				le[4 * i + j] = (unsigned char)(ns[i] >> (8 * j));
		EVP_EncodeBlock(text, le, (int)(4 * n));
		*result = json_pack("{s:o,s:s,s:s}", "outcomes", outcomes, "ns", (char *)text,
				    "clock", "clock_gettime(CLOCK_MONOTONIC)");
		outcomes = NULL;
		if (json_array_size(tainted) > 0)
			json_object_set(*result, "tainted", tainted);
		free(le);
		free(text);
	}
out:
	json_decref(tainted);
	json_decref(outcomes);
	json_decref(merged[0]);
	json_decref(merged[1]);
	free(order);
	free(ns);
	return rc;
}

void handle_leak(json_t *req, json_int_t id)
{
	leak_t L;
	json_t *result = NULL;
	int rc;

	memset(&L, 0, sizeof(L));
	rc = run_leak(req, &L, &result);
	for (int k = 0; k < 2; k++) {
		if (L.c[k].prim != NULL)
			call_finish(&L.c[k]);
		if (L.decoded[k])
			request_release(&L.c[k]);
		if (L.a[k].p)
			buf_free(&L.a[k]);
		if (L.b[k].p)
			buf_free(&L.b[k]);
	}
	if (rc == RC_OK)
		reply_ok(id, 1, result);
	else
		reply_err(id, 1, rc, L.err[0] ? L.err : "failed");
}
