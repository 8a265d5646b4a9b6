/* layout.c — see layout.h. */
#include "config.h"

#include "ui/layout.h"

#include <string.h>

void layout_screen(int lines, int cols, bool bottom_open, struct ui_geom *g)
{
	memset(g, 0, sizeof *g);
	g->lines = lines;
	g->cols = cols;
	g->too_small = lines < UI_MIN_LINES || cols < UI_MIN_COLS;
	if (g->too_small)
		return;
	g->top_y = 0;
	g->keys_y = lines - 1;
	g->main_y = 1;
	int avail = lines - 2;
	if (!bottom_open) {
		g->main_h = avail;
		return;
	}
	/* the open group's partitions get the larger share; the groups pane keeps a few rows for context */
	g->main_h = avail * 2 / 5;
	if (g->main_h < 4)
		g->main_h = 4;
	g->bottom_y = g->main_y + g->main_h;
	g->bottom_h = avail - g->main_h;
}

static int title_width(const lt_column *c)
{
	/* room for the title plus the sort marker */
	int w = (int)strlen(c->title) + 1;
	return c->width > w ? c->width : w;
}

/* Drops the kept column with the lowest priority below 100 (the rightmost among equals); false when none. */
static bool drop_lowest(const lt_column *const *cols, size_t n, bool *keep, int *w, int *total)
{
	size_t victim = n;
	for (size_t i = 0; i < n; i++)
		if (keep[i] && cols[i]->priority < 100 && (victim == n || cols[i]->priority <= cols[victim]->priority))
			victim = i;
	if (victim == n)
		return false;
	keep[victim] = false;
	*total -= w[victim] + 1;
	return true;
}

/* Even the undroppable columns do not fit beside the name at its minimum: the rightmost go (never the name)
 * rather than end past the edge with their headers cut. */
static void drop_overflow(size_t n, bool *keep, const int *w, int width)
{
	int x = UI_NAME_MIN + 1; /* the name's floor (layout_columns_of) */
	for (size_t i = 1; i < n; i++) {
		if (!keep[i])
			continue;
		if (x + w[i] > width)
			keep[i] = false;
		else
			x += w[i] + 1;
	}
}

size_t layout_columns(const lt_column *cols, size_t n, int width, int name_want, struct ui_col_slot *out)
{
	const lt_column *ptrs[LT_COL__COUNT];
	if (n > LT_COL__COUNT)
		return 0;
	for (size_t i = 0; i < n; i++)
		ptrs[i] = &cols[i];
	return layout_columns_of(ptrs, n, width, name_want, out);
}

size_t layout_columns_of(const lt_column *const *cols, size_t n, int width, int name_want, struct ui_col_slot *out)
{
	bool keep[LT_COL__COUNT];
	int w[LT_COL__COUNT];
	int total = 0;

	if (n == 0 || n > LT_COL__COUNT)
		return 0;
	for (size_t i = 0; i < n; i++) {
		keep[i] = true;
		w[i] = title_width(cols[i]);
		total += w[i] + (i ? 1 : 0);
	}
	/* the name column starts at what the names need (within its preferred width), so short names
	 * leave room for more columns */
	if (name_want > 0 && name_want < w[0]) {
		int need = (int)strlen(cols[0]->title) + 1;
		int nw = name_want > need ? name_want : need;
		total -= w[0] - nw;
		w[0] = nw;
	}
	while (total > width && drop_lowest(cols, n, keep, w, &total))
		;
	drop_overflow(n, keep, w, width);

	size_t k = 0;
	total = -1;
	for (size_t i = 0; i < n; i++) {
		if (!keep[i])
			continue;
		out[k].col = cols[i];
		out[k].width = w[i];
		total += w[i] + 1;
		k++;
	}
	/* the name column absorbs the difference: grows into spare room up to the longest name,
	 * shrinks (to a minimum) when even the undroppable columns do not fit */
	int diff = width - total;
	if (diff > 0)
		diff = name_want > out[0].width ? (name_want - out[0].width < diff ? name_want - out[0].width : diff)
						: 0;
	out[0].width += diff;
	if (out[0].width < UI_NAME_MIN)
		out[0].width = UI_NAME_MIN;
	int x = 0;
	for (size_t i = 0; i < k; i++) {
		out[i].x = x;
		x += out[i].width + 1;
	}
	return k;
}

bool layout_offsets_exact(const struct ui_col_slot *slots, size_t n, const lt_row *r, char (*exact)[LAYOUT_CELL_BYTES])
{
	for (size_t i = 0; i < n; i++) {
		if (!slots[i].col->offset)
			continue;
		slots[i].col->format(r, exact[i], LAYOUT_CELL_BYTES, true);
		if ((int)strlen(exact[i]) > slots[i].width)
			return false;
	}
	return true;
}
