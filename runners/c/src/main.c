/* cryptobench C runner: JSON Lines on stdin/stdout (docs/protocol.md). The roles live in
 * protocol.c, dispatch.c, registry.c, timing.c and hello.c; one lib_<library>.c per library. */
#include "dispatch.h"
#include "reqlimits.h"
#include "protocol.h"
#include "registry.h"

#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int too_long;

	libs_init();
	while ((n = read_request(stdin, &line, &cap, &too_long)) != -1) {
		const char *why = too_long ? "request line longer than 201326592 bytes"
					   : line_refusal(line, (size_t)n);

		if (why != NULL)
			reply_err(0, 0, RC_BAD_REQUEST, why);
		else
			handle_line(line, (size_t)n);
	}
	free(line);
	return 0;
}
