/* The hello response (docs/protocol.md, "hello"). */
#ifndef CRYPTOBENCH_HELLO_H
#define CRYPTOBENCH_HELLO_H

#include <jansson.h>

json_t *hello_result(void);

/* hello's "cpu" object: OpenSSL's CPUID probe (OPENSSL_ia32cap); defined in lib_openssl.c. */
json_t *openssl_cpu_json(void);

#endif
