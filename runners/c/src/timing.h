/* Running a decoded call: the untimed verified call and the timed batches. The only file
 * that reads the clock (clock_gettime(CLOCK_MONOTONIC)). */
#ifndef CRYPTOBENCH_TIMING_H
#define CRYPTOBENCH_TIMING_H

#include "runner.h"

/* prepare(), then setup() unless fresh_context. */
int call_start(call_t *c);
/* One call with exactly the inputs sent; roundtrip output is checked. */
int call_verified(call_t *c);
/* One timed batch; `ns` gets the monotonic-clock time of the whole batch. */
int call_batch(call_t *c, long iterations, uint64_t *ns);
/* One timed call (leak request): its monotonic-clock time in ns; the outcome is ignored. */
uint64_t time_single(call_t *c);
/* One timed comparison of n bytes (leak controls). */
uint64_t time_compare(int (*cmp)(const void *, const void *, size_t), const void *a, const void *b,
		      size_t n);
/* cleanup() of what call_start() set up (safe when nothing was). */
void call_finish(call_t *c);

#endif
