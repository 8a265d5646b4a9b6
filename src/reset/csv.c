/* csv.c — reset CSV import and export (see csv.h). */
#include "reset/csv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/csv.h"
#include "util/errbuf.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* More fields than this is reported as "more than" (kafka-consumer-groups' limit of what it reads). */
#define MAX_FIELDS 5

static bool legal_topic(const char *t)
{
	size_t l = strlen(t);
	if (l == 0 || l > 249 || strcmp(t, ".") == 0 || strcmp(t, "..") == 0)
		return false;
	for (const char *p = t; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '.' ||
		      *p == '_' || *p == '-'))
			return false;
	return true;
}

static bool parse_i64(const char *s, int64_t min, int64_t max, int64_t *out)
{
	if (!*s || !(*s == '-' || (*s >= '0' && *s <= '9')))
		return false;
	char *end;
	errno = 0;
	long long v = strtoll(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return false;
	*out = v;
	return true;
}

void reset_csv_rows_free(lt_reset_csv_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].group);
		free(rows[i].topic);
	}
	free(rows);
}

/* True when the record's physical lines hold only blanks (spaces, tabs, CR, LF). */
static bool blank_bytes(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r' && p[i] != '\n')
			return false;
	return true;
}

int reset_csv_parse(const char *text, const char *group, lt_reset_csv_row **out, size_t *n_out, char *err,
		    size_t errlen)
{
	return reset_csv_parse_ex(text, group, false, out, n_out, err, errlen);
}

/* A name field as lagtop meant it: --export guards a name a spreadsheet would take for a formula
 * (util/csv.h), so a file that is not a backup has the guard taken off; a backup is written unguarded. */
static const char *name_field(const char *f, bool backup)
{
	return backup ? f : csv_formula_unguard(f);
}

int reset_csv_parse_ex(const char *text, const char *group, bool backup, lt_reset_csv_row **out, size_t *n_out,
		       char *err, size_t errlen)
{
	lt_reset_csv_row *rows = NULL;
	lt_csv_fields rec = { 0 };
	size_t n = 0, cap = 0, lineno = 0, pos = 0, len = strlen(text);
	size_t form = 0; /* 3 or 4 once the first line is seen */
	int rc = -1;

	for (;;) {
		size_t at = pos;
		size_t recline = lineno + 1; /* a record spanning lines (a quoted line break) is named by its first */
		char rerr[256];
		int got = csv_next_record(text, len, &pos, &rec, &lineno, rerr, sizeof rerr);
		if (got < 0) {
			err_set(err, errlen, "%s", rerr); /* "line N: <what is wrong> at column C" */
			goto out;
		}
		if (got == 0)
			break;
		if (blank_bytes(text + at, pos - at))
			continue;

		size_t nf = rec.n;
		char **f = rec.v;
		if (form == 0)
			form = nf == 3 ? 3 : 4;
		if (nf != form) {
			if (nf > MAX_FIELDS)
				err_set(err, errlen, "line %zu: expected %zu fields (%s), got more than %d", recline,
					form, form == 3 ? "topic,partition,offset" : "group,topic,partition,offset",
					MAX_FIELDS);
			else
				err_set(err, errlen, "line %zu: expected %zu fields (%s), got %zu", recline, form,
					form == 3 ? "topic,partition,offset" : "group,topic,partition,offset", nf);
			goto out;
		}
		char **tf = form == 4 ? f + 1 : f;
		const char *row_group = form == 4 ? name_field(f[0], backup) : NULL;
		const char *topic = name_field(tf[0], backup);
		if (form == 4 && !*f[0]) {
			err_set(err, errlen, "line %zu: the group is empty", recline);
			goto out;
		}
		/* A backup holds the names the cluster gave (lagtop-sim allows any); a plan must name a legal topic. */
		if (backup ? !*topic : !legal_topic(topic)) {
			err_set(err, errlen, "line %zu: '%s' is not a valid topic name", recline, topic);
			goto out;
		}
		int64_t part, off;
		if (!parse_i64(tf[1], 0, INT32_MAX, &part)) {
			err_set(err, errlen, "line %zu: partition '%s' is not a whole number from 0 to %d", recline,
				tf[1], INT32_MAX);
			goto out;
		}
		if (backup && !*tf[2]) {
			off = LT_OFFSET_NONE; /* a backup's "no commit" */
		} else if (!parse_i64(tf[2], INT64_MIN, INT64_MAX, &off)) {
			err_set(err, errlen, "line %zu: offset '%s' is not a whole number", recline, tf[2]);
			goto out;
		}
		if (off < 0 && *tf[2]) {
			err_set(err, errlen, "line %zu: offset %" PRId64 " is negative", recline, off);
			goto out;
		}
		if (form == 4 && strcmp(row_group, group) != 0)
			continue;
		bool dup = false;
		for (size_t i = 0; i < n; i++) {
			if (rows[i].partition == part && strcmp(rows[i].topic, topic) == 0) {
				if (rows[i].offset != off) {
					char prev[32] = "no commit";
					if (rows[i].offset >= 0)
						snprintf(prev, sizeof prev, "%" PRId64, rows[i].offset);
					err_set(err, errlen,
						"line %zu: partition %s-%" PRId64 " was already given on line %zu "
						"with another offset (%s)",
						recline, topic, part, rows[i].line, prev);
					goto out;
				}
				dup = true;
			}
		}
		if (dup)
			continue;
		rows = xgrow(rows, &cap, n + 1, sizeof *rows);
		rows[n++] = (lt_reset_csv_row){ .group = form == 4 ? xstrdup(row_group) : NULL,
						.topic = xstrdup(topic),
						.partition = (int32_t)part,
						.offset = off,
						.line = recline };
	}
	if (n == 0) {
		err_set(err, errlen, "No reset plan for group %s found.", group);
		goto out;
	}
	*out = rows;
	*n_out = n;
	rows = NULL;
	n = 0;
	rc = 0;
out:
	csv_fields_free(&rec);
	reset_csv_rows_free(rows, n);
	return rc;
}

/* Appends one field (and the comma after it) as `dup` writes it. */
static void put_field(lt_strbuf *b, char *(*dup)(const char *), const char *s)
{
	char *f = dup(s);
	sb_printf(b, "%s,", f);
	free(f);
}

/* The offset column: a number, or empty for a delete (--undo of "no commit", the backup's form). */
static void put_offset(lt_strbuf *b, int64_t offset)
{
	if (offset < 0)
		sb_printf(b, "\n");
	else
		sb_printf(b, "%" PRId64 "\n", offset);
}

/* Names are text cells (terminal-safe, formula-guarded, quoted when needed): the export is printed and
 * opened in spreadsheets; reset_csv_parse takes the guard off again. */
char *reset_csv_export(const lt_reset_plan *const *plans, size_t n_plans)
{
	lt_strbuf b = { 0 };
	for (size_t i = 0; i < n_plans; i++)
		for (size_t r = 0; r < plans[i]->n_rows; r++) {
			const lt_reset_row *row = &plans[i]->rows[r];
			if (n_plans > 1)
				put_field(&b, csv_text_field_dup, plans[i]->group);
			put_field(&b, csv_text_field_dup, row->topic);
			sb_printf(&b, "%d,", row->partition);
			put_offset(&b, row->new_offset);
		}
	return sb_take(&b);
}

static int cmp_part_ptr(const void *a, const void *b)
{
	const lt_reset_part *x = *(const lt_reset_part *const *)a, *y = *(const lt_reset_part *const *)b;
	int c = strcmp(x->topic, y->topic);
	return c ? c : (x->partition > y->partition) - (x->partition < y->partition);
}

char *reset_csv_backup(const lt_reset_input *in)
{
	const lt_reset_part **v = xcalloc(in->n_parts ? in->n_parts : 1, sizeof *v);
	size_t n = 0;
	for (size_t i = 0; i < in->n_parts; i++)
		v[n++] = &in->parts[i];
	qsort(v, n, sizeof *v, cmp_part_ptr);
	lt_strbuf b = { 0 };
	for (size_t i = 0; i < n; i++) {
		/* the exact name, RFC 4180 quoted when needed: a backup is a machine file, read back as it is */
		put_field(&b, csv_quote_dup, v[i]->topic);
		sb_printf(&b, "%d,", v[i]->partition);
		put_offset(&b, v[i]->committed); /* no commit: empty, restored by deleting the commit */
	}
	free(v);
	return sb_take(&b);
}

static const lt_reset_csv_row *find_row(const lt_reset_csv_row *rows, size_t n, const lt_reset_part *p)
{
	for (size_t i = 0; i < n; i++)
		if (rows[i].partition == p->partition && strcmp(rows[i].topic, p->topic) == 0)
			return &rows[i];
	return NULL;
}

int reset_csv_backup_check(const char *text, const lt_reset_input *in, char *err, size_t errlen)
{
	lt_reset_csv_row *rows = NULL;
	size_t n = 0;
	char why[512];
	if (reset_csv_parse_ex(text, "", true, &rows, &n, why, sizeof why))
		return err_set(err, errlen, "it does not read back: %s", why);
	int rc = 0;
	for (size_t i = 0; i < in->n_parts && rc == 0; i++) {
		const lt_reset_part *p = &in->parts[i];
		const lt_reset_csv_row *r = find_row(rows, n, p);
		int64_t want = p->committed >= 0 ? p->committed : LT_OFFSET_NONE;
		if (!r || r->offset != want)
			rc = err_set(err, errlen, "it does not read back: partition %d of a topic is %s", p->partition,
				     r ? "another offset" : "missing");
	}
	if (rc == 0 && n != in->n_parts)
		rc = err_set(err, errlen, "it does not read back: %zu rows for %zu partitions", n, in->n_parts);
	reset_csv_rows_free(rows, n);
	return rc;
}
