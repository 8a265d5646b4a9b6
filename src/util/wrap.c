/* wrap.c — see wrap.h. */
#include "util/wrap.h"

#include <string.h>

#include "util/sanitize.h"

static bool breaks_after(char c, const char *breaks)
{
	for (const char *b = breaks; b && *b; b++) /* a few characters: no strchr call per character of the text */
		if (*b == c && c != ' ')
			return true;
	return false;
}

size_t wrap_line(const char *text, size_t len, int cells, bool utf8, const char *breaks, size_t *shown)
{
	*shown = len;
	if (cells < 1)
		return len;
	size_t i = 0, fit = 0;              /* fit: the whole characters that fit so far */
	size_t brk_shown = 0, brk_next = 0; /* the last break that fits: 0 when none */
	bool word = false;                  /* a character that is not an indent was seen */
	int w = 0;
	while (i < len) {
		if (text[i] == ' ' && word) {
			size_t j = i;
			while (j < len && text[j] == ' ')
				j++;
			brk_shown = i;
			brk_next = j;
			if (j == len || w + (int)(j - i) >= cells) { /* the blanks end the line, shown or not */
				*shown = i;
				return j;
			}
			w += (int)(j - i);
			i = fit = j;
			continue;
		}
		int cw = 1;
		size_t used = 1;
		if ((unsigned char)text[i] < 0x20 ||
		    (unsigned char)text[i] >= 0x7F) /* printable ASCII: 1 byte, 1 cell */
			used = display_next(text + i, len - i, utf8, &cw);
		if (w + cw > cells)
			break;
		w += cw;
		word = word || text[i] != ' ';
		bool after = breaks_after(text[i], breaks);
		i = fit = i + used;
		if (after) {
			brk_shown = i;
			brk_next = i;
			while (brk_next < len && text[brk_next] == ' ')
				brk_next++;
		}
	}
	if (i >= len)
		return len; /* the rest fits */
	if (brk_next > 0) {
		*shown = brk_shown;
		return brk_next;
	}
	if (fit == 0) { /* not even one character fits: one anyway */
		int cw;
		fit = display_next(text, len, utf8, &cw);
	}
	*shown = fit;
	return fit;
}

size_t wrap_count(const char *text, int cells, bool utf8, const char *breaks)
{
	size_t len = strlen(text), n = 1, shown;
	for (size_t off = 0; (off += wrap_line(text + off, len - off, cells, utf8, breaks, &shown)) < len;)
		n++;
	return n;
}
