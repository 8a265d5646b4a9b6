/* csv.c — reset CSV import and export (see csv.h). */
#include "reset/csv.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reset/strbuf.h"
#include "util/errbuf.h"
#include "util/xalloc.h"

#define MAX_FIELDS 5

/* Splits one line (modified in place) at commas; a field wholly wrapped in double quotes is unwrapped.
 * Returns the number of fields, or MAX_FIELDS+1 if there are more than MAX_FIELDS. */
static size_t split_fields(char *line, char **f)
{
	size_t n = 0;
	char *p = line;
	for (;;) {
		if (n == MAX_FIELDS)
			return MAX_FIELDS + 1;
		f[n++] = p;
		char *c = strchr(p, ',');
		if (!c)
			break;
		*c = '\0';
		p = c + 1;
	}
	for (size_t i = 0; i < n; i++) {
		size_t l = strlen(f[i]);
		if (l >= 2 && f[i][0] == '"' && f[i][l - 1] == '"') {
			f[i][l - 1] = '\0';
			f[i]++;
		}
	}
	return n;
}

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

int reset_csv_parse(const char *text, const char *group, lt_reset_csv_row **out, size_t *n_out, char *err,
		    size_t errlen)
{
	char *copy = xstrdup(text);
	lt_reset_csv_row *rows = NULL;
	size_t n = 0, cap = 0, lineno = 0;
	size_t form = 0; /* 3 or 4 once the first line is seen */
	int rc = -1;
	char *save = copy;

	while (save) {
		char *line = save;
		char *nl = strchr(save, '\n');
		if (nl) {
			*nl = '\0';
			save = nl + 1;
		} else {
			save = NULL;
		}
		lineno++;
		size_t len = strlen(line);
		if (len && line[len - 1] == '\r')
			line[--len] = '\0';
		if (strspn(line, " \t") == len)
			continue;

		char *f[MAX_FIELDS];
		size_t nf = split_fields(line, f);
		if (form == 0)
			form = nf == 3 ? 3 : 4;
		if (nf != form) {
			if (nf > MAX_FIELDS)
				err_set(err, errlen, "line %zu: expected %zu fields (%s), got more than %d", lineno, form,
					form == 3 ? "topic,partition,offset" : "group,topic,partition,offset", MAX_FIELDS);
			else
				err_set(err, errlen, "line %zu: expected %zu fields (%s), got %zu", lineno, form,
					form == 3 ? "topic,partition,offset" : "group,topic,partition,offset", nf);
			goto out;
		}
		char **tf = form == 4 ? f + 1 : f;
		if (form == 4 && !*f[0]) {
			err_set(err, errlen, "line %zu: the group is empty", lineno);
			goto out;
		}
		if (!legal_topic(tf[0])) {
			err_set(err, errlen, "line %zu: '%s' is not a valid topic name", lineno, tf[0]);
			goto out;
		}
		int64_t part, off;
		if (!parse_i64(tf[1], 0, INT32_MAX, &part)) {
			err_set(err, errlen, "line %zu: partition '%s' is not a whole number from 0 to %d", lineno, tf[1],
				INT32_MAX);
			goto out;
		}
		if (!parse_i64(tf[2], INT64_MIN, INT64_MAX, &off)) {
			err_set(err, errlen, "line %zu: offset '%s' is not a whole number", lineno, tf[2]);
			goto out;
		}
		if (off < 0) {
			err_set(err, errlen, "line %zu: offset %" PRId64 " is negative", lineno, off);
			goto out;
		}
		if (form == 4 && strcmp(f[0], group) != 0)
			continue;
		bool dup = false;
		for (size_t i = 0; i < n; i++) {
			if (rows[i].partition == part && strcmp(rows[i].topic, tf[0]) == 0) {
				if (rows[i].offset != off) {
					err_set(err, errlen, "line %zu: partition %s-%" PRId64 " was already given on line %zu "
						"with another offset (%" PRId64 ")", lineno, tf[0], part, rows[i].line,
						rows[i].offset);
					goto out;
				}
				dup = true;
			}
		}
		if (dup)
			continue;
		rows = xgrow(rows, &cap, n + 1, sizeof *rows);
		rows[n++] = (lt_reset_csv_row){ .group = form == 4 ? xstrdup(f[0]) : NULL,
						.topic = xstrdup(tf[0]),
						.partition = (int32_t)part,
						.offset = off,
						.line = lineno };
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
	reset_csv_rows_free(rows, n);
	free(copy);
	return rc;
}

char *reset_csv_export(const lt_reset_plan *const *plans, size_t n_plans)
{
	lt_strbuf b = { 0 };
	for (size_t i = 0; i < n_plans; i++)
		for (size_t r = 0; r < plans[i]->n_rows; r++) {
			const lt_reset_row *row = &plans[i]->rows[r];
			if (n_plans > 1)
				sb_printf(&b, "%s,", plans[i]->group);
			sb_printf(&b, "%s,%d,%" PRId64 "\n", row->topic, row->partition, row->new_offset);
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
		if (in->parts[i].committed >= 0)
			v[n++] = &in->parts[i];
	qsort(v, n, sizeof *v, cmp_part_ptr);
	lt_strbuf b = { 0 };
	for (size_t i = 0; i < n; i++)
		sb_printf(&b, "%s,%d,%" PRId64 "\n", v[i]->topic, v[i]->partition, v[i]->committed);
	free(v);
	return sb_take(&b);
}
