/* cryptobench C runner: JSON Lines on stdin/stdout (docs/protocol.md). The roles live in
 * protocol.c, dispatch.c, registry.c, timing.c and hello.c; one lib_<library>.c per library. */
#include "dispatch.h"
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	libs_init();
	while ((n = getline(&line, &cap, stdin)) != -1) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			n--;
		if (n == 0)
			continue;
		handle_line(line, (size_t)n);
	}
	free(line);
	return 0;
}
