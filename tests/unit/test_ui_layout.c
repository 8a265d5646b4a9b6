/* test_ui_layout.c — screen geometry and which columns drop first as the terminal narrows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <string.h>

#include "model/columns.h"
#include "ui/layout.h"
#include "../lib/cmocka_main.h"

/* A table shaped like the groups pane: name first (never dropped), numbers with priorities. */
static const lt_column cols[] = {
	{ .title = "GROUP", .width = 20, .priority = 100 },
	{ .title = "STATE", .width = 10, .priority = 40 },
	{ .title = "MEMBERS", .width = 7, .priority = 50 },
	{ .title = "LAG", .width = 8, .priority = 100, .align_right = true },
	{ .title = "TREND", .width = 10, .priority = 10 },
	{ .title = "STATUS", .width = 6, .priority = 90 },
};
#define N (sizeof cols / sizeof cols[0])

static bool has(const struct ui_col_slot *s, size_t n, const char *title)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s[i].col->title, title) == 0)
			return true;
	return false;
}

/* The n slots laid out show every title of shown and none of dropped (NULL-terminated lists). */
static void expect_titles(const struct ui_col_slot *s, size_t n, const char *const *shown, const char *const *dropped)
{
	for (; *shown; shown++)
		if (!has(s, n, *shown))
			fail_msg("column %s was dropped", *shown);
	for (; *dropped; dropped++)
		if (has(s, n, *dropped))
			fail_msg("column %s is still shown", *dropped);
}

static void wide_keeps_everything_and_name_grows_to_want(void **state)
{
	(void)state;
	struct ui_col_slot s[N];
	size_t n = layout_columns(cols, N, 200, 30, s);
	assert_int_equal(n, N);
	assert_int_equal(s[0].width, 30); /* grew to the longest name, not to the whole width */
	assert_int_equal(s[1].x, 31);
	for (size_t i = 1; i < n; i++)
		assert_int_equal(s[i].x, s[i - 1].x + s[i - 1].width + 1);
}

static void narrow_drops_lowest_priority_first(void **state)
{
	(void)state;
	struct ui_col_slot s[N];
	/* natural width: 20+10+8+8+10+7 + 5 gaps = 68 */
	size_t n = layout_columns(cols, N, 67, 0, s);
	assert_int_equal(n, N - 1);
	assert_false(has(s, n, "TREND"));
	n = layout_columns(cols, N, 50, 0, s);
	expect_titles(s, n, (const char *const[]){ "MEMBERS", "STATUS", NULL },
		      (const char *const[]){ "TREND", "STATE", NULL });
	/* the last column ends within the width */
	assert_true(s[n - 1].x + s[n - 1].width <= 50);
}

static void priority_100_never_dropped_name_shrinks_to_minimum(void **state)
{
	(void)state;
	struct ui_col_slot s[N];
	size_t n = layout_columns(cols, N, 25, 0, s);
	assert_int_equal(n, 2);
	assert_int_equal(s[0].width, 25 - 1 - 8); /* the name gives up what the undroppable columns need */
	n = layout_columns(cols, N, 17, 0, s);
	assert_int_equal(n, 2);
	assert_string_equal(s[0].col->title, "GROUP");
	assert_string_equal(s[1].col->title, "LAG");
	assert_int_equal(s[0].width, UI_NAME_MIN);
	/* one cell less and LAG would end past the edge, its header cut: it goes instead */
	n = layout_columns(cols, N, 16, 0, s);
	assert_int_equal(n, 1);
	assert_string_equal(s[0].col->title, "GROUP");
}

/* Every pane's columns, at every width from the smallest screen up: each header whole (the column at least
 * as wide as its title) and every column ending within the width. */
static void headers_never_cut(void **state)
{
	(void)state;
	for (unsigned k = 0; k < LT_ROW_KINDS; k++) {
		lt_colset set;
		colset_default((lt_row_kind)k, &set);
		const lt_column *shown[LT_COL__COUNT];
		size_t nc = colset_shown_columns(&set, shown);
		for (int width = UI_MIN_COLS; width <= 260; width++)
			for (int name_want = 0; name_want <= 40; name_want += 8) {
				struct ui_col_slot s[LT_COL__COUNT];
				size_t n = layout_columns_of(shown, nc, width, name_want, s);
				assert_true(n >= 1);
				for (size_t i = 0; i < n; i++) {
					assert_true(s[i].width >= (int)strlen(s[i].col->title));
					assert_true(s[i].x + s[i].width <= width);
				}
			}
	}
}

static bool has_at(const struct ui_col_slot *s, size_t n, const char *title, size_t *at)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s[i].col->title, title) == 0) {
			*at = i;
			return true;
		}
	return false;
}

/* At 80 columns, for a group whose consumers report their position: COMMITTED POSITION LOG-END side by side,
 * and LAG, even with topic names as long as the demo's "clickstream"; lower-value columns went first. */
static void partitions_at_80_show_position(void **state)
{
	(void)state;
	lt_colset set;
	colset_default(LT_ROWS_PARTITIONS, &set);
	const lt_column *shown[LT_COL__COUNT];
	size_t nc = colset_shown_columns(&set, shown);
	for (int name_want = 6; name_want <= 12; name_want++) {
		struct ui_col_slot s[LT_COL__COUNT];
		size_t n = layout_columns_of(shown, nc, 80, name_want, s);
		size_t c, p, e, l;
		assert_true(has_at(s, n, "COMMITTED", &c));
		assert_true(has_at(s, n, "POSITION", &p));
		assert_true(has_at(s, n, "LOG-END", &e));
		assert_true(has_at(s, n, "LAG", &l));
		assert_int_equal(p, c + 1);
		assert_int_equal(e, p + 1);
		assert_true(has(s, n, "STATUS"));
	}
}

/* A row's offsets all exact or all abbreviated: one that does not fit its cell exactly takes the others with it. */
static void offsets_share_one_format(void **state)
{
	(void)state;
	char topic[] = "t", gid[] = "g";
	lt_partition parts[1] = { { .topic = topic,
				    .partition = 0,
				    .log_start = 0,
				    .committed = 143955,
				    .log_end = 150756,
				    .has_position = true,
				    .ext = 1 } };
	lt_partition_ext ext[1] = { { .position = 150000 } };
	lt_group g = { .group = gid, .partitions = parts, .n_partitions = 1, .pext = ext, .n_pext = 1 };
	lt_row r = { .group = &g, .part = &parts[0] };
	const lt_column *oc[] = { column_by_id(LT_COL_TOPIC), column_by_id(LT_COL_COMMITTED),
				  column_by_id(LT_COL_POSITION), column_by_id(LT_COL_LOG_END) };
	struct ui_col_slot s[4];
	size_t n = layout_columns_of(oc, 4, 80, 10, s);
	assert_int_equal(n, 4);
	char exact[4][LAYOUT_CELL_BYTES];
	memset(exact, 0, sizeof exact);
	ext[0].position = 150000;
	assert_true(layout_offsets_exact(s, n, &r, exact));
	/* the cells' exact text, formatted once: what the screen draws without formatting them again */
	for (size_t i = 0; i < n; i++) {
		char want[LAYOUT_CELL_BYTES] = "";
		if (s[i].col->offset)
			s[i].col->format(&r, want, sizeof want, true);
		assert_string_equal(exact[i], want);
	}
	assert_string_equal(exact[1], "143955");
	assert_string_equal(exact[2], "150000");
	assert_string_equal(exact[3], "150756");
	ext[0].position = INT64_C(12345678901); /* 11 digits in a 9-cell column */
	assert_false(layout_offsets_exact(s, n, &r, exact));
	ext[0].position = 150000;
	parts[0].log_end = INT64_C(98765432109876);
	assert_false(layout_offsets_exact(s, n, &r, exact));
}

static void short_names_make_room_for_more_columns(void **state)
{
	(void)state;
	struct ui_col_slot s[N];
	/* with names of 10 cells the name column starts at 10, not 20: TREND fits again at 58 */
	size_t n = layout_columns(cols, N, 58, 10, s);
	assert_int_equal(n, N);
	assert_int_equal(s[0].width, 10);
	n = layout_columns(cols, N, 58, 0, s);
	assert_int_equal(n, N - 1);
}

/* The real groups pane: TYPE (classic/consumer) is the first column to go when the terminal narrows, and
 * it is gone at 80 columns. */
static void groups_pane_type_drops_first(void **state)
{
	(void)state;
	size_t nc;
	const lt_column *gc = columns_for(LT_ROWS_GROUPS, &nc);
	struct ui_col_slot s[32];
	assert_true(nc <= 32);
	int natural = -1;
	for (size_t i = 0; i < nc; i++) { /* a column is as wide as its title and sort marker at least */
		int tw = (int)strlen(gc[i].title) + 1;
		natural += (gc[i].width > tw ? gc[i].width : tw) + 1;
	}
	/* with names of the GROUP column's own width */
	size_t n = layout_columns(gc, nc, natural, gc[0].width, s);
	assert_int_equal(n, nc);
	assert_true(has(s, n, "TYPE"));
	n = layout_columns(gc, nc, natural - 1, gc[0].width, s);
	assert_int_equal(n, nc - 1);
	assert_false(has(s, n, "TYPE"));
	n = layout_columns(gc, nc, 80, 20, s);
	expect_titles(s, n, (const char *const[]){ "STATE", "LAG", NULL }, (const char *const[]){ "TYPE", NULL });
}

static void screen_split_and_too_small(void **state)
{
	(void)state;
	struct ui_geom g;
	layout_screen(24, 80, false, &g);
	assert_false(g.too_small);
	assert_int_equal(g.main_y, 1);
	assert_int_equal(g.main_h, 22);
	assert_int_equal(g.keys_y, 23);
	assert_int_equal(g.bottom_h, 0);
	layout_screen(24, 80, true, &g);
	assert_int_equal(g.main_h + g.bottom_h, 22);
	assert_true(g.bottom_h > g.main_h);
	assert_int_equal(g.bottom_y, g.main_y + g.main_h);
	layout_screen(10, 40, false, &g);
	assert_true(g.too_small);
	layout_screen(UI_MIN_LINES, UI_MIN_COLS, true, &g);
	assert_false(g.too_small);
	assert_true(g.main_h >= 4);
	layout_screen(UI_MIN_LINES - 1, 200, false, &g);
	assert_true(g.too_small);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(wide_keeps_everything_and_name_grows_to_want),
	cmocka_unit_test(headers_never_cut),
	cmocka_unit_test(partitions_at_80_show_position),
	cmocka_unit_test(offsets_share_one_format),
	cmocka_unit_test(narrow_drops_lowest_priority_first),
	cmocka_unit_test(priority_100_never_dropped_name_shrinks_to_minimum),
	cmocka_unit_test(short_names_make_room_for_more_columns),
	cmocka_unit_test(groups_pane_type_drops_first),
	cmocka_unit_test(screen_split_and_too_small),
};

LT_TEST_MAIN(NULL, NULL)
