/* The leak request (docs/protocol.md): single calls timed one by one, two input classes. */
#ifndef CRYPTOBENCH_LEAK_H
#define CRYPTOBENCH_LEAK_H

#include <jansson.h>

/* Answers one leak request on stdout. */
void handle_leak(json_t *req, json_int_t id);

#endif
