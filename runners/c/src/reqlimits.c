/* Request limits (docs/protocol.md, "Limits"). */
#include "reqlimits.h"

#include <stdlib.h>

static int grow(char **buf, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 4096;
	char *p;

	while (n < need)
		n *= 2;
	if (n == *cap)
		return 0;
	if ((p = realloc(*buf, n)) == NULL)
		return -1;
	*buf = p;
	*cap = n;
	return 0;
}

ssize_t read_request(FILE *in, char **buf, size_t *cap, int *too_long)
{
	size_t n = 0;
	int ch;

	*too_long = 0;
	if (grow(buf, cap, 4096) != 0)
		return -1;
	while ((ch = getc_unlocked(in)) != EOF && ch != '\n') {
		if (*too_long)
			continue;
		if (n == LINE_LIMIT) {
			*too_long = 1; /* drop what was kept, skip to the newline */
			continue;
		}
		if (n + 2 > *cap && grow(buf, cap, n + 2) != 0) {
			*too_long = 1;
			continue;
		}
		(*buf)[n++] = (char)ch;
	}
	if (ch == EOF && n == 0 && !*too_long)
		return -1;
	while (n > 0 && (*buf)[n - 1] == '\r')
		n--;
	(*buf)[n] = '\0';
	return *too_long ? 0 : (ssize_t)n;
}

const char *line_refusal(const char *line, size_t len)
{
	int depth = 0, in_string = 0, blank = 1;

	for (size_t i = 0; i < len; i++) {
		char c = line[i];

		if (c != ' ' && c != '\t' && c != '\r')
			blank = 0;
		if (in_string) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '[' || c == '{') {
			if (++depth > DEPTH_LIMIT)
				return "JSON nested deeper than 64 levels";
		} else if (c == ']' || c == '}') {
			depth--;
		}
	}
	return blank ? "empty request line" : NULL;
}
