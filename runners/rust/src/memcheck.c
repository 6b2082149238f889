/* Valgrind memcheck's client requests for the leak request's secret-taint check (src/taint.rs,
 * docs/protocol.md "leak", `taint`): the macros of <valgrind/memcheck.h> behind four plain
 * functions Rust can call. Without the header (no valgrind installed at build time) they do
 * nothing and cb_running_on_valgrind() is 0, so `taint` is not offered. */
#include <stddef.h>

#if defined(__has_include)
#if __has_include(<valgrind/memcheck.h>)
#include <valgrind/memcheck.h>
#define CB_MEMCHECK 1
#endif
#endif

int cb_running_on_valgrind(void)
{
#ifdef CB_MEMCHECK
	return RUNNING_ON_VALGRIND ? 1 : 0;
#else
	return 0;
#endif
}

/* What memcheck's XML shows before the first secret is marked (runtimes/memcheck.py MARK). */
void cb_memcheck_mark(const char *text)
{
#ifdef CB_MEMCHECK
	VALGRIND_PRINTF("%s\n", text);
#else
	(void)text;
#endif
}

void cb_make_mem_undefined(const void *p, size_t n)
{
#ifdef CB_MEMCHECK
	VALGRIND_MAKE_MEM_UNDEFINED(p, n);
#else
	(void)p, (void)n;
#endif
}

void cb_make_mem_defined(const void *p, size_t n)
{
#ifdef CB_MEMCHECK
	VALGRIND_MAKE_MEM_DEFINED(p, n);
#else
	(void)p, (void)n;
#endif
}
