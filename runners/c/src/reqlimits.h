/* Request limits (docs/protocol.md, "Limits"): what a line may hold before it is parsed, and
 * the largest sizes a request may ask for (refused before anything is allocated). */
#ifndef CRYPTOBENCH_REQLIMITS_H
#define CRYPTOBENCH_REQLIMITS_H

#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define LINE_LIMIT ((size_t)192 << 20) /* bytes before the newline */
#define DEPTH_LIMIT 64		       /* arrays and objects, the request object included */
#define MAX_GENERATED ((uint64_t)1 << 40)
#define MAX_ITERATIONS ((int64_t)1 << 40)
#define MAX_BATCHES ((int64_t)1 << 16)

/* The next line into *buf (NUL-terminated, newline and trailing CRs removed): its length, or
 * -1 at EOF. A line over LINE_LIMIT is read to its end without being kept: *too_long is set. */
ssize_t read_request(FILE *in, char **buf, size_t *cap, int *too_long);
/* Why the line is refused before parsing (empty, nested too deep), or NULL. */
const char *line_refusal(const char *line, size_t len);

#endif
