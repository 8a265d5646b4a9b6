/* rows.c — building the rows of a snapshot, sorting them, and row identities.
 *
 * Sorting decorates each row with its key once (one column_key call per row, not per comparison)
 * and sorts the decorated array with qsort_r and an explicit context (no file-static state), so
 * 100,000 rows sort in a few milliseconds. One temporary array per sort; no per-row allocation. */
#include "config.h" /* _GNU_SOURCE: qsort_r */

#include <stdlib.h>
#include <string.h>

#include "model/colkey.h"
#include "util/xalloc.h"

typedef struct {
	lt_sort_key key;
	lt_row row;
} decorated;

typedef struct {
	lt_key_kind kind;
	bool descending;
} sort_ctx;

static int decorated_compare(const void *pa, const void *pb, void *arg)
{
	const decorated *a = pa, *b = pb;
	const sort_ctx *ctx = arg;
	int c = sort_key_compare(ctx->kind, &a->key, &b->key, ctx->descending);
	return c ? c : row_tiebreak(&a->row, &b->row);
}

void rows_sort(lt_row *rows, size_t n, lt_col_id col, bool descending)
{
	if (n < 2 || (unsigned)col >= LT_COL__COUNT)
		return;
	decorated *d = xmalloc(n * sizeof *d);
	for (size_t i = 0; i < n; i++) {
		d[i].row = rows[i];
		column_key(col, &rows[i], &d[i].key);
	}
	sort_ctx ctx = { column_key_kind(col), descending };
	qsort_r(d, n, sizeof *d, decorated_compare, &ctx);
	for (size_t i = 0; i < n; i++)
		rows[i] = d[i].row;
	free(d);
}

lt_row *rows_build(const lt_snapshot *s, lt_row_kind kind, const lt_group *group, const lt_filter *f, size_t *n)
{
	size_t cap = 0, k = 0;
	*n = 0;
	if (!s)
		return xmalloc(sizeof(lt_row));
	if (kind == LT_ROWS_GROUPS) {
		cap = s->n_groups;
	} else if (group) {
		cap = group->n_partitions;
	} else {
		for (size_t i = 0; i < s->n_groups; i++)
			cap += s->groups[i].n_partitions;
	}
	lt_row *rows = xmalloc((cap ? cap : 1) * sizeof *rows);
	if (kind == LT_ROWS_GROUPS) {
		for (size_t i = 0; i < s->n_groups; i++) {
			lt_row r = { &s->groups[i], NULL };
			if (!f || filter_match(f, &r))
				rows[k++] = r;
		}
	} else {
		if (group) {
			/* The caller's group (of s) is used directly, not looked up again. */
			for (size_t j = 0; j < group->n_partitions; j++) {
				lt_row r = { group, &group->partitions[j] };
				if (!f || filter_match(f, &r))
					rows[k++] = r;
			}
		} else {
			for (size_t i = 0; i < s->n_groups; i++)
				for (size_t j = 0; j < s->groups[i].n_partitions; j++) {
					lt_row r = { &s->groups[i], &s->groups[i].partitions[j] };
					if (!f || filter_match(f, &r))
						rows[k++] = r;
				}
		}
	}
	*n = k;
	return rows;
}

void row_key_set(lt_row_key *k, const lt_row *r)
{
	row_key_clear(k);
	if (!r || !r->group)
		return;
	k->group = xstrdup(r->group->group);
	if (r->part) {
		k->topic = xstrdup(r->part->topic);
		k->partition = r->part->partition;
	}
}

bool row_key_equal(const lt_row_key *k, const lt_row *r)
{
	if (!k || !k->group || !r || !r->group)
		return false;
	if (strcmp(k->group, r->group->group) != 0)
		return false;
	if (!k->topic || !r->part)
		return !k->topic && !r->part;
	return k->partition == r->part->partition && strcmp(k->topic, r->part->topic) == 0;
}

void row_key_clear(lt_row_key *k)
{
	if (!k)
		return;
	free(k->group);
	free(k->topic);
	k->group = NULL;
	k->topic = NULL;
	k->partition = -1;
}
