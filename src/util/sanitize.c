/* sanitize.c — see sanitize.h. */
#include "util/sanitize.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "util/utf8.h"
#include "util/xalloc.h"

/* One displayed unit: a kept character or an escape. */
struct unit {
	char text[12];
	size_t len;
	int width;
};

static bool reorders_or_splits(uint32_t cp)
{
	return cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
	       (cp >= 0x2066 && cp <= 0x2069) || cp == 0x2028 || cp == 0x2029;
}

size_t sanitize_next(const char *s, size_t n, uint32_t *cp, bool *unsafe)
{
	size_t used = utf8_decode(s, n, cp);
	*unsafe = *cp == UTF8_INVALID || *cp < 0x20 || (*cp >= 0x7F && *cp < 0xA0) || reorders_or_splits(*cp);
	return used;
}

static void unit_escape_cp(struct unit *u, uint32_t cp)
{
	int n;
	if (cp > 0xFFFF)
		n = snprintf(u->text, sizeof u->text, "\\U%08x", (unsigned)cp);
	else
		n = snprintf(u->text, sizeof u->text, "\\u%04x", (unsigned)cp);
	u->len = (size_t)n;
	u->width = n;
}

/* Decodes the next unit from s[0..n); returns the bytes consumed. */
static size_t next_unit(const char *s, size_t n, bool utf8, struct unit *u)
{
	uint32_t cp;
	bool unsafe;
	size_t used = sanitize_next(s, n, &cp, &unsafe);

	if (cp == UTF8_INVALID || cp < 0x20 || cp == 0x7F) {
		u->len = (size_t)snprintf(u->text, sizeof u->text, "\\x%02x", (unsigned char)s[0]);
		u->width = (int)u->len;
	} else if (cp < 0x80) {
		u->text[0] = s[0];
		u->len = 1;
		u->width = 1;
	} else if (unsafe || !utf8) {
		unit_escape_cp(u, cp);
	} else {
		memcpy(u->text, s, used);
		u->len = used;
		u->width = utf8_cp_width(cp);
		if (u->width < 0) /* not reached: controls were escaped above */
			u->width = 0;
	}
	return used;
}

size_t display_next(const char *s, size_t n, bool utf8, int *cells)
{
	struct unit u;
	size_t used = next_unit(s, n, utf8, &u);
	*cells = u.width;
	return used;
}

size_t sanitize_display(const char *in, char *out, size_t outlen, bool utf8)
{
	const char *s = in ? in : "";
	return sanitize_bytes(s, strlen(s), out, outlen, utf8);
}

size_t sanitize_bytes(const char *s, size_t n, char *out, size_t outlen, bool utf8)
{
	size_t need = 0, put = 0;
	bool full = false;
	struct unit u;

	while (n > 0) {
		size_t used = next_unit(s, n, utf8, &u);
		s += used;
		n -= used;
		if (!full && put + u.len < outlen) {
			memcpy(out + put, u.text, u.len);
			put += u.len;
		} else {
			full = true;
		}
		need += u.len;
	}
	if (outlen > 0)
		out[put] = '\0';
	return need;
}

char *sanitize_dup(const char *in, bool utf8)
{
	size_t need = sanitize_display(in, NULL, 0, utf8);
	char *out = xmalloc(need + 1);
	sanitize_display(in, out, need + 1, utf8);
	return out;
}

/* Width of the safe form, but stops counting once it exceeds limit (names can be megabytes long). */
static int width_upto(const char *in, bool utf8, int limit)
{
	const char *s = in ? in : "";
	size_t n = strlen(s);
	int w = 0;
	struct unit u;

	while (n > 0 && w <= limit) {
		size_t used = next_unit(s, n, utf8, &u);
		s += used;
		n -= used;
		w += u.width;
	}
	return w;
}

int display_width(const char *in, bool utf8)
{
	return width_upto(in, utf8, INT32_MAX - 16);
}

int fit_cells(const char *in, int cells, bool utf8, char *out, size_t outlen)
{
	const char *ell = utf8 ? "\xe2\x80\xa6" : "~";
	size_t ell_len = strlen(ell);
	const char *s = in ? in : "";
	size_t n = strlen(s), put = 0;
	int w = 0;
	struct unit u;

	if (outlen == 0)
		return 0;
	out[0] = '\0';
	if (cells <= 0)
		return 0;

	bool fits = width_upto(s, utf8, cells) <= cells;
	int budget = fits ? cells : cells - 1; /* leave one cell for the ellipsis */
	while (n > 0) {
		size_t used = next_unit(s, n, utf8, &u);
		if (w + u.width > budget)
			break;
		/* keep room for the ellipsis bytes, unless this is the last unit of a string that fits */
		size_t reserve = (fits && used == n) ? 0 : ell_len;
		if (put + u.len + reserve >= outlen)
			break;
		memcpy(out + put, u.text, u.len);
		put += u.len;
		w += u.width;
		s += used;
		n -= used;
	}
	/* Cut, by cells or because the caller's buffer was too small: mark it, if a cell is left. */
	if (n > 0 && w < cells && put + ell_len < outlen) {
		memcpy(out + put, ell, ell_len);
		put += ell_len;
		w += 1;
	}
	out[put] = '\0';
	return w;
}

int fit_cells_padded(const char *in, int cells, bool utf8, bool align_right, char *out, size_t outlen)
{
	if (outlen == 0)
		return 0;
	int w = fit_cells(in, cells, utf8, out, outlen);
	size_t len = strlen(out);
	int pad = cells - w;
	if (pad <= 0 || len + (size_t)pad >= outlen)
		return w;
	if (align_right) {
		memmove(out + pad, out, len + 1);
		memset(out, ' ', (size_t)pad);
	} else {
		memset(out + len, ' ', (size_t)pad);
		out[len + (size_t)pad] = '\0';
	}
	return cells;
}
