/* Request → library call: hello, compute and bench (docs/protocol.md). */
#include "dispatch.h"

#include "hello.h"
#include "leak.h"
#include "reqlimits.h"
#include "protocol.h"
#include "request.h"
#include "threads.h"
#include "timing.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *output_json(const call_t *c)
{
	if (c->op == OP_HASH)
		return json_stringn((const char *)c->out, c->out_n);
	if (c->op == OP_VERIFY)
		return json_string("ok");
	return hex_json(c->out, c->out_n);
}

static int positive(json_t *v, long *out)
{
	if (!json_is_integer(v) || json_integer_value(v) < 1)
		return 0;
	*out = (long)json_integer_value(v);
	return 1;
}

/* compute (bench == 0) or bench: decode, set up once, verified call, timed batches. */
static int run_call(json_t *req, int bench, call_t *c, json_t **result)
{
	long iterations = 0, batches = 0;
	json_t *samples;
	int rc;

	if (bench && (!positive(json_object_get(req, "iterations"), &iterations) ||
		      !positive(json_object_get(req, "batches"), &batches)))
		return fail(c, RC_BAD_REQUEST, "iterations and batches must be integers >= 1");
	if (iterations > MAX_ITERATIONS || batches > MAX_BATCHES)
		return fail(c, RC_INVALID, "at most 2^40 iterations and 65536 batches");
	if ((rc = request_decode(req, c)) != RC_OK)
		return rc;
	if ((rc = call_start(c)) != RC_OK || (rc = call_verified(c)) != RC_OK)
		return rc;
	*result = json_pack("{s:o}", "output", output_json(c));
	if (!bench)
		return RC_OK;
	if (json_object_get(req, "threads") != NULL &&
	    !json_is_null(json_object_get(req, "threads"))) {
		long n;

		if (!positive(json_object_get(req, "threads"), &n) || n > MAX_THREADS)
			return fail(c, RC_BAD_REQUEST, "threads must be an integer in 1..256");
		if (n > 1)
			return bench_threads(req, n, iterations, batches, c, *result);
	}
	samples = json_array();
	json_object_set_new(*result, "samples", samples);
	for (long b = 0; b < batches; b++) {
		uint64_t ns;

		if ((rc = call_batch(c, iterations, &ns)) != RC_OK)
			return rc;
		json_array_append_new(samples,
				      json_pack("{s:I,s:I}", "iterations", (json_int_t)iterations,
						"ns", (json_int_t)ns));
	}
	return RC_OK;
}

static void handle_call(json_t *req, json_int_t id, int bench)
{
	call_t c;
	json_t *result = NULL;
	int rc;

	memset(&c, 0, sizeof(c));
	rc = run_call(req, bench, &c, &result);
	if (c.prim != NULL)
		call_finish(&c);
	request_release(&c);
	if (rc == RC_OK) {
		reply_ok(id, 1, result);
		return;
	}
	json_decref(result);
	reply_err(id, 1, rc, c.err[0] ? c.err : "failed");
}

void handle_line(const char *line, size_t len)
{
	json_error_t jerr;
	json_t *req = json_loadb(line, len, 0, &jerr);
	json_t *idv = json_object_get(req, "id");
	const char *op = json_string_value(json_object_get(req, "op"));
	json_int_t id = json_integer_value(idv);

	if (!json_is_object(req))
		reply_err(0, 0, RC_BAD_REQUEST, req ? "request is not an object" : jerr.text);
	else if (!json_is_integer(idv))
		reply_err(0, 0, RC_BAD_REQUEST, "id must be an integer");
	else if (op == NULL)
		reply_err(id, 1, RC_BAD_REQUEST, "op must be a string");
	else if (strcmp(op, "hello") == 0)
		reply_ok(id, 1, hello_result());
	else if (strcmp(op, "compute") == 0 || strcmp(op, "bench") == 0)
		handle_call(req, id, strcmp(op, "bench") == 0);
	else if (strcmp(op, "leak") == 0)
		handle_leak(req, id);
	else
		reply_err(id, 1, RC_BAD_REQUEST, "unknown op");
	json_decref(req);
}
