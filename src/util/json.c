/* json.c — see json.h. */
#include "util/json.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/sanitize.h"
#include "util/utf8.h"
#include "util/xalloc.h"

static void out(lt_json *j, const char *s, size_t n)
{
	if (n == 0)
		return;
	if (j->fp) {
		if (fwrite(s, 1, n, j->fp) != n)
			j->error = true;
		return;
	}
	j->buf = xgrow(j->buf, &j->cap, j->len + n + 1, 1);
	memcpy(j->buf + j->len, s, n);
	j->len += n;
	j->buf[j->len] = '\0';
}

static void outs(lt_json *j, const char *s)
{
	out(j, s, strlen(s));
}

static void init(lt_json *j, FILE *fp)
{
	memset(j, 0, sizeof *j);
	j->fp = fp;
	j->first[0] = true;
}

void json_init_file(lt_json *j, FILE *fp)
{
	init(j, fp);
}

void json_init_buf(lt_json *j)
{
	init(j, NULL);
}

void json_set_pretty(lt_json *j, bool pretty)
{
	j->pretty = pretty;
}

const char *json_buf(const lt_json *j, size_t *len)
{
	if (len)
		*len = j->len;
	return j->buf ? j->buf : "";
}

char *json_buf_take(lt_json *j, size_t *len)
{
	char *b = j->buf ? j->buf : xstrdup("");
	if (len)
		*len = j->len;
	j->buf = NULL;
	j->len = j->cap = 0;
	return b;
}

void json_free(lt_json *j)
{
	if (!j->fp)
		free(j->buf);
	j->buf = NULL;
	j->len = j->cap = 0;
}

int json_finish(lt_json *j)
{
	if (j->depth != 0 || j->after_key)
		j->error = true;
	if (j->fp) {
		out(j, "\n", 1);
		if (fflush(j->fp) != 0 || ferror(j->fp))
			j->error = true;
	}
	return j->error ? -1 : 0;
}

static void newline_indent(lt_json *j)
{
	if (!j->pretty)
		return;
	out(j, "\n", 1);
	for (int i = 0; i < j->depth; i++)
		out(j, "  ", 2);
}

/* Comma and indentation before a value or a key. */
static void before_item(lt_json *j, bool is_key)
{
	if (j->after_key) {
		if (is_key) /* a key right after a key */
			j->error = true;
		j->after_key = false;
		return;
	}
	if (j->depth > 0 && j->kind[j->depth] == '{' && !is_key)
		j->error = true; /* a value in an object needs a key first */
	if (j->depth == 0 && !j->first[0])
		j->error = true; /* only one top-level value */
	if (!j->first[j->depth])
		out(j, ",", 1);
	if (j->depth > 0)
		newline_indent(j);
	j->first[j->depth] = false;
}

static void open_level(lt_json *j, char kind)
{
	before_item(j, false);
	out(j, &kind, 1);
	if (j->depth >= LT_JSON_MAX_DEPTH) {
		j->error = true;
		return;
	}
	j->depth++;
	j->kind[j->depth] = kind;
	j->first[j->depth] = true;
}

static void close_level(lt_json *j, char kind)
{
	if (j->depth == 0 || j->kind[j->depth] != kind || j->after_key) {
		j->error = true;
		return;
	}
	bool empty = j->first[j->depth];
	j->depth--;
	if (!empty)
		newline_indent(j);
	char c = kind == '{' ? '}' : ']';
	out(j, &c, 1);
}

void json_object_begin(lt_json *j)
{
	open_level(j, '{');
}

void json_object_end(lt_json *j)
{
	close_level(j, '{');
}

void json_array_begin(lt_json *j)
{
	open_level(j, '[');
}

void json_array_end(lt_json *j)
{
	close_level(j, '[');
}

static void put_escaped(lt_json *j, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t run = 0; /* bytes of s[i - run .. i) that need no escaping */
	size_t i = 0;

	out(j, "\"", 1);
	while (i < n) {
		unsigned char c = (unsigned char)s[i];
		if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
			run++, i++;
			continue;
		}
		uint32_t cp;
		bool unsafe; /* the one rule (sanitize.h): such a character is written as \uXXXX, never raw */
		size_t used = sanitize_next(s + i, n - i, &cp, &unsafe);
		bool plain = !unsafe && cp >= 0xA0;
		if (plain) {
			run += used, i += used;
			continue;
		}
		out(j, s + i - run, run);
		run = 0;
		if (cp == '"') {
			out(j, "\\\"", 2);
		} else if (cp == '\\') {
			out(j, "\\\\", 2);
		} else if (cp == UTF8_INVALID) {
			out(j, "\xef\xbf\xbd", 3); /* U+FFFD */
		} else {
			char e[6] = { '\\',        'u', hex[(cp >> 12) & 15], hex[(cp >> 8) & 15], hex[(cp >> 4) & 15],
				      hex[cp & 15] };
			out(j, e, 6);
		}
		i += used;
	}
	out(j, s + i - run, run);
	out(j, "\"", 1);
}

void json_key(lt_json *j, const char *key)
{
	if (j->depth == 0 || j->kind[j->depth] != '{')
		j->error = true;
	before_item(j, true);
	put_escaped(j, key ? key : "", key ? strlen(key) : 0);
	out(j, j->pretty ? ": " : ":", j->pretty ? 2 : 1);
	j->after_key = true;
}

void json_string_n(lt_json *j, const char *s, size_t n)
{
	before_item(j, false);
	if (!s)
		outs(j, "null");
	else
		put_escaped(j, s, n);
}

void json_string(lt_json *j, const char *s)
{
	json_string_n(j, s, s ? strlen(s) : 0);
}

void json_int(lt_json *j, int64_t v)
{
	char b[32];
	before_item(j, false);
	snprintf(b, sizeof b, "%lld", (long long)v);
	outs(j, b);
}

void json_uint(lt_json *j, uint64_t v)
{
	char b[32];
	before_item(j, false);
	snprintf(b, sizeof b, "%llu", (unsigned long long)v);
	outs(j, b);
}

void json_double(lt_json *j, double v)
{
	char b[64];
	before_item(j, false);
	if (!isfinite(v)) {
		outs(j, "null");
		return;
	}
	/* shortest of %.15g / %.17g that reads back exactly */
	snprintf(b, sizeof b, "%.15g", v);
	if (strtod(b, NULL) != v)
		snprintf(b, sizeof b, "%.17g", v);
	/* JSON wants '.', whatever LC_NUMERIC says (the UI calls setlocale) */
	const char *dp = localeconv()->decimal_point;
	if (dp && strcmp(dp, ".") != 0 && *dp) {
		char *p = strstr(b, dp);
		if (p) {
			size_t dl = strlen(dp);
			*p = '.';
			memmove(p + 1, p + dl, strlen(p + dl) + 1);
		}
	}
	outs(j, b);
}

void json_bool(lt_json *j, bool v)
{
	before_item(j, false);
	outs(j, v ? "true" : "false");
}

void json_null(lt_json *j)
{
	before_item(j, false);
	outs(j, "null");
}

void json_kv_string(lt_json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_string(j, s);
}

void json_kv_int(lt_json *j, const char *key, int64_t v)
{
	json_key(j, key);
	json_int(j, v);
}

void json_kv_double(lt_json *j, const char *key, double v)
{
	json_key(j, key);
	json_double(j, v);
}

void json_kv_bool(lt_json *j, const char *key, bool v)
{
	json_key(j, key);
	json_bool(j, v);
}

void json_kv_null(lt_json *j, const char *key)
{
	json_key(j, key);
	json_null(j);
}

void json_kv_int_or_null(lt_json *j, const char *key, int64_t v, bool known)
{
	json_key(j, key);
	if (known)
		json_int(j, v);
	else
		json_null(j);
}
