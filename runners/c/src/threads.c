/* A bench in N POSIX threads (docs/protocol.md, bench, "threads"): each thread decodes and
 * sets up its own call (its own library context) and makes its own verified call; a start
 * gate (mutex + condition, opened once every thread exists) releases them together; each
 * times the same batches with call_batch.
 * Threads share the process's allocator and any lock a library takes internally. */
#include "threads.h"

#include "request.h"
#include "timing.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct gate {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int state; /* 0 closed, 1 go, -1 abort */
};

struct worker {
	call_t c;
	long iterations, batches;
	uint64_t *ns;
	struct gate *gate;
	int rc;
};

static int wait_gate(struct gate *g)
{
	int state;

	pthread_mutex_lock(&g->mu);
	while (g->state == 0)
		pthread_cond_wait(&g->cv, &g->mu);
	state = g->state;
	pthread_mutex_unlock(&g->mu);
	return state;
}

static void open_gate(struct gate *g, int state)
{
	pthread_mutex_lock(&g->mu);
	g->state = state;
	pthread_cond_broadcast(&g->cv);
	pthread_mutex_unlock(&g->mu);
}

static void *work(void *arg)
{
	struct worker *w = arg;

	if (wait_gate(w->gate) < 0)
		return NULL;
	for (long b = 0; b < w->batches && w->rc == RC_OK; b++)
		w->rc = call_batch(&w->c, w->iterations, &w->ns[b]);
	return NULL;
}

static json_t *samples_of(const struct worker *w)
{
	json_t *samples = json_array();

	for (long b = 0; b < w->batches; b++)
		json_array_append_new(samples, json_pack("{s:I,s:I}", "iterations",
							 (json_int_t)w->iterations, "ns",
							 (json_int_t)w->ns[b]));
	return samples;
}

static int start_all(json_t *req, struct worker *ws, long n, call_t *first)
{
	for (long i = 0; i < n; i++) {
		int rc = request_decode(req, &ws[i].c);

		if (rc == RC_OK)
			rc = call_start(&ws[i].c);
		if (rc == RC_OK)
			rc = call_verified(&ws[i].c);
		if (rc != RC_OK)
			return fail(first, rc, "thread %ld: %s", i, ws[i].c.err);
	}
	return RC_OK;
}

int bench_threads(json_t *req, long n, long iterations, long batches, call_t *first, json_t *result)
{
	struct worker *ws = calloc((size_t)n, sizeof(*ws));
	pthread_t *tids = calloc((size_t)n, sizeof(*tids));
	struct gate gate = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0};
	json_t *all;
	long started = 0;
	int rc;

	if (ws == NULL || tids == NULL) {
		free(ws);
		free(tids);
		return fail(first, RC_INTERNAL, "out of memory");
	}
	for (long i = 0; i < n; i++) {
		ws[i].iterations = iterations;
		ws[i].batches = batches;
		ws[i].gate = &gate;
		ws[i].ns = calloc((size_t)batches, sizeof(uint64_t));
		if (ws[i].ns == NULL)
			return fail(first, RC_INTERNAL,
				    "out of memory"); /* a few bytes: leak on exit */
	}
	rc = start_all(req, ws, n, first);
	while (rc == RC_OK && started < n) {
		if (pthread_create(&tids[started], NULL, work, &ws[started]) != 0)
			rc = fail(first, RC_INTERNAL, "cannot start thread %ld", started);
		else
			started++;
	}
	open_gate(&gate, rc == RC_OK ? 1 : -1);
	for (long i = 0; i < started; i++)
		pthread_join(tids[i], NULL);
	all = json_array();
	for (long i = 0; i < n; i++) {
		if (rc == RC_OK && ws[i].rc != RC_OK)
			rc = fail(first, ws[i].rc, "thread %ld: %s", i, ws[i].c.err);
		if (rc == RC_OK)
			json_array_append_new(all, samples_of(&ws[i]));
		if (ws[i].c.prim != NULL)
			call_finish(&ws[i].c);
		request_release(&ws[i].c);
		free(ws[i].ns);
	}
	if (rc == RC_OK) {
		json_object_set(result, "samples", json_array_get(all, 0));
		json_object_set_new(result, "thread_samples", all);
	} else {
		json_decref(all);
	}
	free(ws);
	free(tids);
	return rc;
}
