/* Decoding a compute/bench request into a call_t. */
#ifndef CRYPTOBENCH_REQUEST_H
#define CRYPTOBENCH_REQUEST_H

#include "runner.h"

/* Fills `c` from the request; on error returns the kind and leaves the reason in c->err. */
int request_decode(json_t *req, call_t *c);
/* Frees the buffers of a decoded call (safe after a failed decode). */
void request_release(call_t *c);
const char *op_name(enum op op);

#endif
