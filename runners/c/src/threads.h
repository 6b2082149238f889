#ifndef CB_THREADS_H
#define CB_THREADS_H

#include "runner.h"

#include <jansson.h>

#define MAX_THREADS 256

/* bench with "threads": n > 1 (docs/protocol.md): adds samples and thread_samples to result. */
int bench_threads(json_t *req, long n, long iterations, long batches, call_t *first,
		  json_t *result);

#endif
