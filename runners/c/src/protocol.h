/* JSON Lines framing, responses and hex codecs (docs/protocol.md). */
#ifndef CRYPTOBENCH_PROTOCOL_H
#define CRYPTOBENCH_PROTOCOL_H

#include "runner.h"

/* Writes one response line and flushes; steals `result`. id < 0 → null id. */
void reply_ok(json_int_t id, int has_id, json_t *result);
void reply_err(json_int_t id, int has_id, int rc, const char *message);

/* Hex string → aligned buffer (always allocated, at least 64 bytes). 0 = ok. */
int hex_decode(const char *s, buf_t *b);
/* Bytes → new JSON string of lowercase hex. */
json_t *hex_json(const uint8_t *p, size_t n);

void *alloc_aligned(size_t n);
void buf_free(buf_t *b);

#endif
