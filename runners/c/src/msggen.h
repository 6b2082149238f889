/* Generated messages (docs/protocol.md, "Generated messages"): xorshift64 over one 64 KiB block,
 * repeated to the length. Not a cryptographic primitive: the same bytes in every runner. */
#ifndef CRYPTOBENCH_MSGGEN_H
#define CRYPTOBENCH_MSGGEN_H

#include "runner.h"

/* Expands a generator object into `b`. RC_OK, or an rc with `why` filled in. */
int msggen_expand(json_t *spec, buf_t *b, char *why, size_t why_len);

#endif
