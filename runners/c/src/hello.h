/* The hello response (docs/protocol.md, "hello"). */
#ifndef CRYPTOBENCH_HELLO_H
#define CRYPTOBENCH_HELLO_H

#include <jansson.h>

json_t *hello_result(void);

#endif
