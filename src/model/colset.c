/* colset.c — a pane's columns as the operator chose them: which are shown and in which order (columns.h).
 * The configuration stores names (panes.NAME.columns), the dashboard's F2 screen edits the set. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/columns.h"
#include "model/model.h"

static const char *const kind_names[LT_ROW_KINDS] = {
	[LT_ROWS_GROUPS] = "groups",
	[LT_ROWS_PARTITIONS] = "partitions",
	[LT_ROWS_TOPICS] = "topics",
	[LT_ROWS_TOPIC_GROUPS] = "topic_groups",
};

const char *row_kind_name(lt_row_kind kind)
{
	return (unsigned)kind < LT_ROW_KINDS ? kind_names[kind] : NULL;
}

bool row_kind_by_name(const char *name, lt_row_kind *kind)
{
	for (unsigned k = 0; name && k < LT_ROW_KINDS; k++)
		if (strcmp(kind_names[k], name) == 0) {
			*kind = (lt_row_kind)k;
			return true;
		}
	return false;
}

/* The table's order, but the consumer's position sits between the committed offset and the log end. */
static void default_order(lt_row_kind kind, lt_col_id *ids, size_t *n)
{
	const lt_column *cols = columns_for(kind, n);
	size_t k = 0;
	for (size_t i = 0; i < *n; i++) {
		if (cols[i].id == LT_COL_POSITION)
			continue;
		ids[k++] = cols[i].id;
		if (cols[i].id == LT_COL_COMMITTED)
			ids[k++] = LT_COL_POSITION;
	}
}

void colset_default(lt_row_kind kind, lt_colset *s)
{
	memset(s, 0, sizeof *s);
	s->kind = kind;
	default_order(kind, s->ids, &s->n);
	for (size_t i = 0; i < s->n; i++)
		s->shown[i] = true;
}

static void known_names(lt_row_kind kind, char *buf, size_t len)
{
	size_t n;
	const lt_column *cols = columns_for(kind, &n);
	buf[0] = '\0';
	for (size_t i = 0; i < n; i++) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, "%s%s", i ? ", " : "", cols[i].name);
	}
}

static size_t index_of(const lt_col_id *ids, size_t n, lt_col_id id)
{
	for (size_t i = 0; i < n; i++)
		if (ids[i] == id)
			return i;
	return n;
}

int colset_parse(lt_row_kind kind, const char *const *names, size_t n, lt_colset *s, char *err, size_t errlen)
{
	lt_colset def, out;
	colset_default(kind, &def);
	memset(&out, 0, sizeof out);
	out.kind = kind;
	out.ids[out.n] = def.ids[0]; /* the name column, always first */
	out.shown[out.n++] = true;
	bool named_first = false;
	for (size_t i = 0; i < n; i++) {
		const lt_column *c = column_by_name(kind, names[i]);
		if (!c) {
			char known[512];
			known_names(kind, known, sizeof known);
			snprintf(err, errlen, "unknown column '%s' in %s (known: %s)", names[i], row_kind_name(kind),
				 known);
			return -1;
		}
		if (c->id == def.ids[0] && !named_first) {
			named_first = true;
			continue;
		}
		if (index_of(out.ids, out.n, c->id) < out.n) {
			snprintf(err, errlen, "column '%s' is named twice in %s", names[i], row_kind_name(kind));
			return -1;
		}
		out.ids[out.n] = c->id;
		out.shown[out.n++] = true;
	}
	for (size_t i = 0; i < def.n; i++) /* the rest, hidden, in the default order */
		if (index_of(out.ids, out.n, def.ids[i]) == out.n)
			out.ids[out.n++] = def.ids[i];
	*s = out;
	return 0;
}

size_t colset_names(const lt_colset *s, const char **out, size_t max)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n && k < max; i++)
		if (s->shown[i])
			out[k++] = column_by_id(s->ids[i])->name;
	return k;
}

size_t colset_shown_columns(const lt_colset *s, const lt_column **out)
{
	size_t k = 0;
	for (size_t i = 0; i < s->n; i++)
		if (s->shown[i])
			out[k++] = column_by_id(s->ids[i]);
	return k;
}

size_t colset_move(lt_colset *s, size_t i, int dir)
{
	if (i == 0 || i >= s->n)
		return i;
	size_t j = dir < 0 ? i - 1 : i + 1;
	if (j == 0 || j >= s->n)
		return i;
	lt_col_id id = s->ids[i];
	bool shown = s->shown[i];
	s->ids[i] = s->ids[j];
	s->shown[i] = s->shown[j];
	s->ids[j] = id;
	s->shown[j] = shown;
	return j;
}

void colset_toggle(lt_colset *s, size_t i)
{
	if (i > 0 && i < s->n)
		s->shown[i] = !s->shown[i];
}

bool colset_equal(const lt_colset *a, const lt_colset *b)
{
	if (a->kind != b->kind || a->n != b->n)
		return false;
	for (size_t i = 0; i < a->n; i++)
		if (a->ids[i] != b->ids[i] || a->shown[i] != b->shown[i])
			return false;
	return true;
}

bool column_absent_for(const lt_column *c, const lt_group *g)
{
	if (!g || (c->id != LT_COL_POSITION && c->id != LT_COL_UNCOMMITTED))
		return false;
	for (size_t i = 0; i < g->n_partitions; i++)
		if (g->partitions[i].has_position)
			return false;
	return true;
}
