/* The hello response: runtime, CPU features as OpenSSL detected them (lib_openssl.c),
 * implementations. */
#include "hello.h"

#include "registry.h"
#include "request.h"

#include <gnu/libc-version.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef CB_CFLAGS
#define CB_CFLAGS "unknown"
#endif

static int keyed_family(unsigned ops)
{
	return (ops & (OPS_MAC | OPS_CTR | OPS_AEAD)) != 0;
}

static json_t *prim_json(const prim_t *p)
{
	json_t *ops = json_array();
	json_t *o;

	for (int i = 0; i < OP_COUNT; i++)
		if (p->ops & OPBIT(i))
			json_array_append_new(ops, json_string(op_name((enum op)i)));
	o = json_pack("{s:o,s:s}", "operations", ops, "native", p->native);
	if (keyed_family(p->ops))
		json_object_set_new(o, "reuses_key", json_boolean(!(p->flags & F_NO_REUSE)));
	if (p->ops & OPBIT(OP_HASH))
		json_object_set_new(o, "takes_salt", json_boolean(!(p->flags & F_NO_SALT)));
	return o;
}

static json_t *impl_json(const lib_t *lib)
{
	json_t *prims = json_object();
	json_t *impl = json_pack("{s:s}", "library", lib->name);

	for (size_t i = 0; i < lib_prim_count(lib); i++)
		if (prim_offered(lib, lib_prim_at(lib, i)))
			json_object_set_new(prims, lib_prim_at(lib, i)->id,
					    prim_json(lib_prim_at(lib, i)));
	lib->describe(impl);
	json_object_set_new(impl, "primitives", prims);
	return impl;
}

json_t *hello_result(void)
{
	json_t *impls = json_array();

	for (size_t i = 0; i < libs_count(); i++)
		if (libs_at(i) != NULL)
			json_array_append_new(impls, impl_json(libs_at(i)));
	return json_pack("{s:i,s:[s],s:{s:s,s:s,s:{s:s,s:s}},s:o,s:o}", "protocol", 1, "generators",
			 "xorshift64", "runtime", "name", "c", "version", "gcc " __VERSION__,
			 "details", "cflags", CB_CFLAGS, "libc", gnu_get_libc_version(), "cpu",
			 openssl_cpu_json(), "implementations", impls);
}
