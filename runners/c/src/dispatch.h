/* Request → library call: one request line in, one response line out. */
#ifndef CRYPTOBENCH_DISPATCH_H
#define CRYPTOBENCH_DISPATCH_H

#include <stddef.h>

/* Answers one request line (without its newline) on stdout; never fails the runner. */
void handle_line(const char *line, size_t len);

#endif
