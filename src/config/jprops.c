/* jprops.c — Java properties and JAAS entries (jprops.h). */
#include "config.h"

#include "config/jprops.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/errbuf.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ a growing string */

struct sbuf {
	char *s;
	size_t len, cap;
};

static void sb_putc(struct sbuf *b, char c)
{
	b->s = xgrow(b->s, &b->cap, b->len + 2, 1);
	b->s[b->len++] = c;
	b->s[b->len] = '\0';
}

/* A code point as UTF-8 (Properties holds UTF-16 chars: a lone surrogate is kept as its 3-byte form). */
static void sb_put_cp(struct sbuf *b, uint32_t cp)
{
	if (cp < 0x80) {
		sb_putc(b, (char)cp);
	} else if (cp < 0x800) {
		sb_putc(b, (char)(0xC0 | (cp >> 6)));
		sb_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		sb_putc(b, (char)(0xE0 | (cp >> 12)));
		sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		sb_putc(b, (char)(0x80 | (cp & 0x3F)));
	} else {
		sb_putc(b, (char)(0xF0 | (cp >> 18)));
		sb_putc(b, (char)(0x80 | ((cp >> 12) & 0x3F)));
		sb_putc(b, (char)(0x80 | ((cp >> 6) & 0x3F)));
		sb_putc(b, (char)(0x80 | (cp & 0x3F)));
	}
}

static char *sb_take(struct sbuf *b)
{
	char *s = b->s ? b->s : xstrdup("");
	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

/* ------------------------------------------------------------------ logical lines */

static bool is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\f';
}

/* The next logical line from text[*pos..len): its characters with continuations joined (the backslash
 * and line break removed, the next line's leading blanks skipped), other escapes still in place.
 * *line_no advances by the natural lines consumed; *start_line is where the logical line starts. Returns false
 * at the end of the text. */
static bool next_logical_line(const char *text, size_t len, size_t *pos, int *line_no, int *start_line,
			      struct sbuf *out, bool *is_comment)
{
	out->len = 0;
	if (out->s)
		out->s[0] = '\0';
	size_t p = *pos;
	/* skip blank lines and leading blanks */
	for (;;) {
		while (p < len && is_blank(text[p]))
			p++;
		if (p < len && (text[p] == '\n' || text[p] == '\r')) {
			if (text[p] == '\r' && p + 1 < len && text[p + 1] == '\n')
				p++;
			p++;
			(*line_no)++;
			continue;
		}
		break;
	}
	if (p >= len) {
		*pos = p;
		return false;
	}
	*start_line = *line_no;
	*is_comment = text[p] == '#' || text[p] == '!';
	for (;;) {
		size_t start = p;
		while (p < len && text[p] != '\n' && text[p] != '\r')
			p++;
		size_t end = p;
		size_t backslashes = 0;
		while (end - backslashes > start && text[end - backslashes - 1] == '\\')
			backslashes++;
		bool cont = !*is_comment && backslashes % 2 == 1;
		for (size_t i = start; i < end - (cont ? 1 : 0); i++)
			sb_putc(out, text[i]);
		if (p < len) { /* the line break */
			if (text[p] == '\r' && p + 1 < len && text[p + 1] == '\n')
				p++;
			p++;
			(*line_no)++;
		}
		if (!cont || p >= len)
			break;
		while (p < len && is_blank(text[p]))
			p++;
	}
	*pos = p;
	if (!out->s)
		sb_putc(out, '\0'), out->len = 0;
	return true;
}

/* Unescapes line[from..to) into out; -1 on a malformed \uXXXX. Bytes >= 0x80 are ISO-8859-1 characters. */
static int unescape(const char *line, size_t from, size_t to, struct sbuf *out)
{
	for (size_t i = from; i < to; i++) {
		unsigned char c = (unsigned char)line[i];
		if (c != '\\') {
			sb_put_cp(out, c);
			continue;
		}
		if (++i >= to) /* a trailing backslash of the last line: dropped, as Java does */
			break;
		c = (unsigned char)line[i];
		switch (c) {
		case 't': sb_putc(out, '\t'); break;
		case 'n': sb_putc(out, '\n'); break;
		case 'r': sb_putc(out, '\r'); break;
		case 'f': sb_putc(out, '\f'); break;
		case 'u': {
			uint32_t cp = 0;
			for (int k = 0; k < 4; k++) {
				if (++i >= to)
					return -1;
				char h = line[i];
				int v = h >= '0' && h <= '9'   ? h - '0'
					: h >= 'a' && h <= 'f' ? h - 'a' + 10
					: h >= 'A' && h <= 'F' ? h - 'A' + 10
							       : -1;
				if (v < 0)
					return -1;
				cp = cp * 16 + (uint32_t)v;
			}
			sb_put_cp(out, cp);
			break;
		}
		default: sb_put_cp(out, c); break;
		}
	}
	if (!out->s)
		sb_putc(out, '\0'), out->len = 0;
	return 0;
}

static void props_set(struct jprops *p, char *key, char *value, int line)
{
	for (size_t i = 0; i < p->n; i++)
		if (strcmp(p->keys[i], key) == 0) {
			explicit_bzero(p->values[i], strlen(p->values[i]));
			free(p->values[i]);
			free(key);
			p->values[i] = value;
			p->lines[i] = line;
			return;
		}
	p->keys = xrealloc(p->keys, (p->n + 1) * sizeof *p->keys);
	p->values = xrealloc(p->values, (p->n + 1) * sizeof *p->values);
	p->lines = xrealloc(p->lines, (p->n + 1) * sizeof *p->lines);
	p->keys[p->n] = key;
	p->values[p->n] = value;
	p->lines[p->n] = line;
	p->n++;
}

int jprops_parse(const char *text, size_t len, struct jprops *props, char *err, size_t errlen)
{
	memset(props, 0, sizeof *props);
	struct sbuf line = { 0 }, key = { 0 }, value = { 0 };
	size_t pos = 0;
	int line_no = 1, rc = 0;
	for (;;) {
		int first = line_no;
		bool comment = false;
		if (!next_logical_line(text, len, &pos, &line_no, &first, &line, &comment))
			break;
		if (comment)
			continue;
		const char *l = line.s;
		size_t n = line.len, k = 0;
		/* the key: up to an unescaped '=', ':' or blank */
		while (k < n && !(l[k] == '=' || l[k] == ':' || is_blank(l[k]))) {
			if (l[k] == '\\')
				k++;
			k++;
		}
		if (k > n)
			k = n;
		size_t v = k;
		while (v < n && is_blank(l[v]))
			v++;
		if (v < n && (l[v] == '=' || l[v] == ':'))
			v++;
		while (v < n && is_blank(l[v]))
			v++;
		key.len = value.len = 0;
		if (unescape(l, 0, k, &key) || unescape(l, v, n, &value)) {
			rc = err_set(err, errlen, "line %d: malformed \\uxxxx escape", first);
			break;
		}
		props_set(props, sb_take(&key), sb_take(&value), first);
	}
	if (line.s)
		explicit_bzero(line.s, line.cap);
	free(line.s);
	free(key.s);
	if (value.s)
		explicit_bzero(value.s, value.cap);
	free(value.s);
	return rc;
}

void jprops_free(struct jprops *props)
{
	for (size_t i = 0; i < props->n; i++) {
		free(props->keys[i]);
		explicit_bzero(props->values[i], strlen(props->values[i]));
		free(props->values[i]);
	}
	free(props->keys);
	free(props->values);
	free(props->lines);
	memset(props, 0, sizeof *props);
}

const char *jprops_get(const struct jprops *props, const char *key)
{
	for (size_t i = 0; i < props->n; i++)
		if (strcmp(props->keys[i], key) == 0)
			return props->values[i];
	return NULL;
}

/* ------------------------------------------------------------------ JAAS */

/* Java's JaasConfig reads the entry with a StreamTokenizer: words of letters, digits and ._-$ , quoted
 * strings ("..." with backslash escapes), and the characters = and ; . */
enum tok { T_END, T_WORD, T_STRING, T_EQ, T_SEMI, T_BAD };

static bool word_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
	       c == '-' || c == '$';
}

static enum tok next_tok(const char **p, struct sbuf *out)
{
	const char *s = *p;
	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == '\f')
		s++;
	out->len = 0;
	if (out->s)
		out->s[0] = '\0';
	enum tok t;
	if (!*s) {
		t = T_END;
	} else if (*s == '=') {
		s++;
		t = T_EQ;
	} else if (*s == ';') {
		s++;
		t = T_SEMI;
	} else if (*s == '"') {
		s++;
		while (*s && *s != '"') {
			if (*s == '\\' && s[1])
				s++;
			sb_putc(out, *s++);
		}
		if (*s != '"') {
			*p = s;
			return T_BAD;
		}
		s++;
		t = T_STRING;
	} else if (word_char(*s)) {
		while (word_char(*s))
			sb_putc(out, *s++);
		t = T_WORD;
	} else {
		t = T_BAD;
	}
	if (!out->s)
		sb_putc(out, '\0'), out->len = 0;
	*p = s;
	return t;
}

int jaas_parse(const char *text, struct jaas_entry *e, char *err, size_t errlen)
{
	memset(e, 0, sizeof *e);
	struct sbuf tok = { 0 };
	const char *p = text;
	int rc = 0;
	if (next_tok(&p, &tok) != T_WORD) {
		rc = err_set(err, errlen, "sasl.jaas.config: expected a login module class name");
		goto out;
	}
	e->module = sb_take(&tok);
	if (next_tok(&p, &tok) != T_WORD) {
		rc = err_set(err, errlen,
			     "sasl.jaas.config: expected a control flag (required, requisite, sufficient, "
			     "optional) after the login module");
		goto out;
	}
	e->flag = sb_take(&tok);
	if (strcmp(e->flag, "required") && strcmp(e->flag, "requisite") && strcmp(e->flag, "sufficient") &&
	    strcmp(e->flag, "optional")) {
		rc = err_set(err, errlen,
			     "sasl.jaas.config: control flag '%s' is none of required, requisite, "
			     "sufficient, optional",
			     e->flag);
		goto out;
	}
	for (;;) {
		enum tok t = next_tok(&p, &tok);
		if (t == T_SEMI)
			break;
		if (t != T_WORD) {
			rc = err_set(err, errlen,
				     "sasl.jaas.config: expected option=value or ';' (values in double quotes)");
			goto out;
		}
		char *name = sb_take(&tok);
		if (next_tok(&p, &tok) != T_EQ) {
			rc = err_set(err, errlen, "sasl.jaas.config: option '%s' has no '=value'", name);
			free(name);
			goto out;
		}
		t = next_tok(&p, &tok);
		if (t != T_STRING && t != T_WORD) {
			rc = err_set(err, errlen,
				     "sasl.jaas.config: option '%s': expected a value (in double quotes, closed)",
				     name);
			free(name);
			goto out;
		}
		e->names = xrealloc(e->names, (e->n + 1) * sizeof *e->names);
		e->values = xrealloc(e->values, (e->n + 1) * sizeof *e->values);
		e->names[e->n] = name;
		e->values[e->n] = sb_take(&tok);
		e->n++;
	}
	if (next_tok(&p, &tok) != T_END)
		rc = err_set(err, errlen, "sasl.jaas.config: only one login module entry is supported");
out:
	if (tok.s)
		explicit_bzero(tok.s, tok.cap);
	free(tok.s);
	return rc;
}

void jaas_free(struct jaas_entry *e)
{
	free(e->module);
	free(e->flag);
	for (size_t i = 0; i < e->n; i++) {
		free(e->names[i]);
		explicit_bzero(e->values[i], strlen(e->values[i]));
		free(e->values[i]);
	}
	free(e->names);
	free(e->values);
	memset(e, 0, sizeof *e);
}

const char *jaas_get(const struct jaas_entry *e, const char *name)
{
	for (size_t i = 0; i < e->n; i++)
		if (strcmp(e->names[i], name) == 0)
			return e->values[i];
	return NULL;
}
