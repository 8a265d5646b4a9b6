/* csv.c — see csv.h. */
#include "util/csv.h"

#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "util/sanitize.h"
#include "util/xalloc.h"

bool csv_needs_quotes(const char *s)
{
	if (!s || !*s)
		return false;
	if (s[0] == ' ' || s[strlen(s) - 1] == ' ')
		return true;
	return strpbrk(s, ",\"\r\n") != NULL;
}

char *csv_quote_dup(const char *s)
{
	if (!s)
		return xstrdup("");
	if (!csv_needs_quotes(s))
		return xstrdup(s);
	size_t n = 2;
	for (const char *p = s; *p; p++)
		n += *p == '"' ? 2 : 1;
	char *d = xmalloc(n + 1), *q = d;
	*q++ = '"';
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			*q++ = '"';
		*q++ = *p;
	}
	*q++ = '"';
	*q = '\0';
	return d;
}

/* Written in place, without a quoted copy: --once --format csv writes 20 fields for each of tens of
 * thousands of rows. */
void csv_write_field(FILE *fp, const char *s)
{
	if (!s)
		return;
	if (!csv_needs_quotes(s)) {
		fputs(s, fp);
		return;
	}
	putc('"', fp);
	for (const char *p = s; *p; p++) {
		if (*p == '"')
			putc('"', fp);
		putc(*p, fp);
	}
	putc('"', fp);
}

/* OWASP's list of the characters a spreadsheet starts a formula with, and the guard itself. */
static bool formula_start(char c)
{
	return c && strchr("=+-@\t\r'", c) != NULL;
}

bool csv_formula_risk(const char *s)
{
	return s && formula_start(s[0]);
}

const char *csv_formula_unguard(const char *s)
{
	return s[0] == '\'' && formula_start(s[1]) ? s + 1 : s;
}

char *csv_text_dup(const char *s)
{
	char *safe = sanitize_dup(s, true);
	if (!csv_formula_risk(safe))
		return safe;
	char *guarded = xasprintf("'%s", safe);
	free(safe);
	return guarded;
}

/* Printable ASCII that needs no guard: the common case, written without a copy. */
static bool plain_text(const char *s)
{
	if (csv_formula_risk(s))
		return false;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p < 0x20 || *p >= 0x7F)
			return false;
	return true;
}

char *csv_text_field_dup(const char *s)
{
	char *cell = csv_text_dup(s);
	if (cell[0] != '\'' || csv_needs_quotes(cell)) {
		char *field = csv_quote_dup(cell);
		free(cell);
		return field;
	}
	/* a guarded cell is quoted too, as OWASP asks */
	char *field = xasprintf("\"%s\"", cell);
	free(cell);
	return field;
}

void csv_write_text_field(FILE *fp, const char *s)
{
	if (!s)
		return;
	if (plain_text(s)) {
		csv_write_field(fp, s);
		return;
	}
	char *field = csv_text_field_dup(s);
	fputs(field, fp);
	free(field);
}

int csv_write_row(FILE *fp, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			fputc(',', fp);
		csv_write_field(fp, fields[i]);
	}
	fputc('\n', fp);
	return ferror(fp) ? -1 : 0;
}

void csv_fields_free(lt_csv_fields *f)
{
	for (size_t i = 0; i < f->n; i++)
		free(f->v[i]);
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

static void push_field(lt_csv_fields *f, size_t *cap, const char *s, size_t n)
{
	f->v = xgrow(f->v, cap, f->n + 1, sizeof *f->v);
	f->v[f->n++] = xstrndup(s, n);
}

enum split_result { SPLIT_OK = 0, SPLIT_ERROR = -1, SPLIT_OPEN_QUOTE = -2 };

static enum split_result split(const char *line, size_t len, lt_csv_fields *out, char *err, size_t errlen)
{
	csv_fields_free(out);
	if (len > 0 && line[len - 1] == '\n')
		len--;
	if (len > 0 && line[len - 1] == '\r')
		len--;

	size_t cap = 0, i = 0;
	char *field = xmalloc(len + 1);
	for (;;) {
		size_t fl = 0;
		size_t start = i;
		if (i < len && line[i] == '"') {
			i++;
			for (;;) {
				if (i >= len) {
					snprintf(err, errlen, "unterminated quoted field starting at column %zu",
						 start + 1);
					free(field);
					csv_fields_free(out);
					return SPLIT_OPEN_QUOTE;
				}
				if (line[i] == '"') {
					if (i + 1 < len && line[i + 1] == '"') {
						field[fl++] = '"';
						i += 2;
						continue;
					}
					i++;
					break;
				}
				if (line[i] == '\0')
					goto nul;
				field[fl++] = line[i++];
			}
			if (i < len && line[i] != ',') {
				snprintf(err, errlen, "unexpected character after the closing quote at column %zu",
					 i + 1);
				goto fail;
			}
		} else {
			while (i < len && line[i] != ',') {
				if (line[i] == '"') {
					snprintf(err, errlen, "stray quote in an unquoted field at column %zu", i + 1);
					goto fail;
				}
				if (line[i] == '\0')
					goto nul;
				if (line[i] == '\r' || line[i] == '\n') {
					snprintf(err, errlen, "line break in an unquoted field at column %zu", i + 1);
					goto fail;
				}
				field[fl++] = line[i++];
			}
		}
		push_field(out, &cap, field, fl);
		if (i >= len)
			break;
		i++; /* the comma: another field follows, maybe empty */
	}
	free(field);
	return SPLIT_OK;
nul:
	snprintf(err, errlen, "NUL byte at column %zu", i + 1);
fail:
	free(field);
	csv_fields_free(out);
	return SPLIT_ERROR;
}

int csv_split_line(const char *line, size_t len, lt_csv_fields *out, char *err, size_t errlen)
{
	return split(line, len, out, err, errlen) == SPLIT_OK ? 0 : -1;
}

/* Where records come from: a stream (getline) or a text in memory. */
struct line_src {
	FILE *fp;
	char *buf;
	size_t cap;
	const char *text;
	size_t len;
	size_t *pos;
};

/* The next physical line, "\n" included if there is one; -1 at the end (or on a read error). */
static ssize_t src_line(struct line_src *s, const char **line)
{
	if (s->fp) {
		ssize_t n = getline(&s->buf, &s->cap, s->fp);
		*line = s->buf;
		return n;
	}
	if (*s->pos >= s->len)
		return -1;
	const char *p = s->text + *s->pos;
	const char *nl = memchr(p, '\n', s->len - *s->pos);
	size_t n = nl ? (size_t)(nl - p) + 1 : s->len - *s->pos;
	*s->pos += n;
	*line = p;
	return (ssize_t)n;
}

static int read_record(struct line_src *src, lt_csv_fields *out, size_t *lineno, char *err, size_t errlen)
{
	char *rec = NULL;
	size_t rec_len = 0, rec_cap = 0;
	size_t first_line = *lineno + 1;
	ssize_t n;
	int rc;

	csv_fields_free(out);
	for (;;) {
		const char *line;
		n = src_line(src, &line);
		if (n < 0) {
			if (src->fp && ferror(src->fp)) {
				snprintf(err, errlen, "line %zu: read error", *lineno + 1);
				rc = -1;
			} else if (rec_len == 0) {
				rc = 0;
			} else {
				/* EOF inside a quoted field: report where it started */
				char e2[200];
				split(rec, rec_len, out, e2, sizeof e2);
				snprintf(err, errlen, "line %zu: %s", first_line, e2);
				rc = -1;
			}
			break;
		}
		(*lineno)++;
		rec = xgrow(rec, &rec_cap, rec_len + (size_t)n + 1, 1);
		memcpy(rec + rec_len, line, (size_t)n);
		rec_len += (size_t)n;
		rec[rec_len] = '\0';

		char e2[200];
		enum split_result r = split(rec, rec_len, out, e2, sizeof e2);
		if (r == SPLIT_OK) {
			rc = 1;
			break;
		}
		if (r == SPLIT_OPEN_QUOTE && rec[rec_len - 1] == '\n')
			continue; /* the quoted field goes on on the next line */
		snprintf(err, errlen, "line %zu: %s", first_line, e2);
		rc = -1;
		break;
	}
	free(rec);
	return rc;
}

int csv_read_record(FILE *fp, lt_csv_fields *out, size_t *lineno, char *err, size_t errlen)
{
	struct line_src src = { .fp = fp };
	int rc = read_record(&src, out, lineno, err, errlen);
	free(src.buf);
	return rc;
}

int csv_next_record(const char *text, size_t len, size_t *pos, lt_csv_fields *out, size_t *lineno, char *err,
		    size_t errlen)
{
	struct line_src src = { .text = text, .len = len, .pos = pos };
	return read_record(&src, out, lineno, err, errlen);
}
