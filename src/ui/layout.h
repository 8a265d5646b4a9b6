/* layout.h — where things go on the screen: pure arithmetic over sizes and the column tables, so
 * the rules (minimum size, pane split, which columns drop first as the width shrinks) are unit
 * tested without a terminal. */
#ifndef LAGTOP_UI_LAYOUT_H
#define LAGTOP_UI_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>

#include "model/columns.h"

/* Below this the screen shows only "terminal too small". 80x24 is the size everything is designed for. */
#define UI_MIN_COLS  50
#define UI_MIN_LINES 12
#define UI_NAME_MIN  8 /* the first (name) column never shrinks below this */

struct ui_geom {
	bool too_small;
	int lines, cols;
	int top_y;              /* top bar */
	int main_y, main_h;     /* groups pane: title line, header line, rows */
	int bottom_y, bottom_h; /* partitions/members pane, 0 height when closed */
	int keys_y;             /* bottom key bar */
};

void layout_screen(int lines, int cols, bool bottom_open, struct ui_geom *g);

struct ui_col_slot {
	const lt_column *col;
	int x, width;
};

/* Fits a column table into `width` cells: columns with the lowest priority go first (the rightmost
 * among equals); priority 100 never goes. Extra room widens the first column (the name). Columns are
 * separated by one space. The name column grows up to name_want cells (the longest name shown), so
 * numbers stay near the names on wide terminals. Returns how many slots were written (room for n). */
size_t layout_columns(const lt_column *cols, size_t n, int width, int name_want, struct ui_col_slot *out);
/* The same over the columns a pane shows (its colset, in the operator's order). A header is never cut: a
 * column that would not end within the width, even with the name at its minimum, is dropped too. */
size_t layout_columns_of(const lt_column *const *cols, size_t n, int width, int name_want, struct ui_col_slot *out);

#define LAYOUT_CELL_BYTES 64 /* an offset cell's text: a 64-bit number and its sign fit many times */

/* Whether a row shows its offsets (lt_column.offset) exactly: only when every offset cell of the row fits its
 * exact form, so that an abbreviated offset never stands beside an exact one. The exact forms are left in
 * exact[i] for the offset slots (slot i): when true, they are the cells' text, not formatted a second time. */
bool layout_offsets_exact(const struct ui_col_slot *slots, size_t n, const lt_row *r, char (*exact)[LAYOUT_CELL_BYTES]);

#endif
