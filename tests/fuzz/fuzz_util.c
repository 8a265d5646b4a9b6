/* fuzz_util.c — libFuzzer harness for src/util: sanitize (display, width, fit), the JSON string
 * writer and the CSV writer/reader, on arbitrary bytes. Properties checked, not only "no crash":
 * user regexes go through regex_compile()'s cost guard (a pathological one must not exhaust memory);
 * the sanitized form is terminal-safe (no C0/DEL byte), JSON output is valid UTF-8 without raw
 * control bytes, a quoted CSV field splits back to the exact input, and a Prometheus label value is
 * valid UTF-8 with no raw newline or unescaped quote and unescapes back to the input (when it was
 * UTF-8). */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"
#include "util/json.h"
#include "util/prom.h"
#include "util/regex.h"
#include "util/sanitize.h"
#include "util/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_no_controls(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f)
			abort();
}

static void check_utf8(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n;) {
		unsigned c = p[i];
		size_t k = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
		if (!k || c > 0xf4 || i + k > n)
			abort();
		for (size_t j = 1; j < k; j++)
			if ((p[i + j] & 0xc0) != 0x80)
				abort();
		i += k;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0'; /* names are C strings: the part before the first NUL */
	size_t len = strlen(s);

	for (int utf8 = 0; utf8 < 2; utf8++) {
		char *d = sanitize_dup(s, utf8);
		check_no_controls(d, strlen(d));
		if (utf8)
			check_utf8((const unsigned char *)d, strlen(d));
		free(d);
		char small[17];
		size_t need = sanitize_display(s, small, sizeof small, utf8);
		if (strlen(small) > need || strlen(small) >= sizeof small)
			abort();
		int w = display_width(s, utf8);
		for (int cells = 0; cells <= 12; cells += 3) {
			char out[4 * 12 + 8];
			int got = fit_cells(s, cells, utf8, out, sizeof out);
			if (got < 0 || got > cells || (cells > 0 && w <= cells && got != w))
				abort();
			check_no_controls(out, strlen(out));
		}
	}

	lt_json j;
	json_init_buf(&j);
	json_array_begin(&j);
	json_string_n(&j, (const char *)data, size); /* exact bytes, NULs included */
	json_string(&j, s);
	json_array_end(&j);
	if (json_finish(&j) != 0)
		abort();
	size_t jl;
	const char *jb = json_buf(&j, &jl);
	check_no_controls(jb, jl);
	check_utf8((const unsigned char *)jb, jl);
	json_free(&j);

	char *q = csv_quote_dup(s);
	lt_csv_fields f;
	memset(&f, 0, sizeof f);
	char err[128];
	if (csv_split_line(q, strlen(q), &f, err, sizeof err) == 0) {
		/* a trailing newline is not part of the last field (csv.h); everything else round-trips */
		if (f.n != 1 || (!strchr(s, '\n') && !strchr(s, '\r') && strcmp(f.v[0], s) != 0))
			abort();
	} else if (!strchr(s, '\n') && !strchr(s, '\r')) {
		abort(); /* what we write on one line, we must read */
	}
	csv_fields_free(&f);
	free(q);

	/* Prometheus label values: the escaped form unescapes to the input's terminal-safe form (sanitize.h),
	 * which holds no control byte. */
	char *pv = prom_escape_label_value(s);
	size_t pl = strlen(pv);
	check_utf8((const unsigned char *)pv, pl);
	char *un = malloc(pl + 1);
	size_t o = 0;
	for (size_t i = 0; i < pl; i++) {
		if (pv[i] == '\n' || pv[i] == '"')
			abort(); /* raw newline or quote: the line or the value would end early */
		if (pv[i] == '\\') {
			char e = pv[++i];
			un[o++] = e;
			if (e != '\\' && e != '"')
				abort();
		} else {
			un[o++] = pv[i];
		}
	}
	un[o] = '\0';
	char *safe = sanitize_dup(s, true);
	if (strcmp(un, safe) != 0)
		abort();
	free(safe);
	free(un);
	free(pv);

	/* User regexes (-g, the dashboard's filter): compiled only when cheap enough. */
	regex_t re;
	char why[160];
	if (regex_compile(&re, s, REG_EXTENDED | REG_NOSUB, why, sizeof why) == 0)
		regfree(&re);
	else if (!why[0])
		abort();

	/* The reader on raw input: errors are fine, crashes are not. */
	memset(&f, 0, sizeof f);
	(void)csv_split_line(s, len, &f, err, sizeof err);
	csv_fields_free(&f);
	free(s);
	return 0;
}
