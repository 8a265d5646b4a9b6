/* test_ui_state.c — the dashboard's state machine without a terminal, on a fixed data source:
 * the selection follows its row across refreshes and re-sorts, new data waits while the user moves
 * (but not forever), the filter narrows and clears, Enter/m/Tab/Esc move between panes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <string.h>

#include "ui/ui.h"
#include "util/timeutil.h"

static struct tui_settings opts;

/* Three groups with the given total lags; each has `parts` partitions of topic "t". */
static lt_snapshot *snap3(int64_t l1, int64_t l2, int64_t l3, uint64_t seq)
{
	lt_snapshot *s = snapshot_new();
	s->seq = seq;
	const char *names[] = { "g1", "g2", "g3" };
	int64_t lags[] = { l1, l2, l3 };
	for (int i = 0; i < 3; i++) {
		lt_group *g = snapshot_add_group(s, names[i]);
		g->state = LT_GROUP_STABLE;
		for (int p = 0; p < 2 + i; p++) {
			lt_partition *pt = group_add_partition(g, "t", p);
			pt->has_lag = true;
			pt->lag = lags[i] / (2 + i);
			pt->committed = 0;
			pt->log_end = pt->lag;
		}
		lt_member *m = group_add_member(g, "member-1", "client-1", "/10.0.0.1");
		member_add_assignment(m, "t", 0);
	}
	snapshot_finish(s);
	for (size_t i = 0; i < 3; i++) { /* the derived totals the LAG column sorts on */
		s->groups[i].total_lag = 0;
		for (size_t p = 0; p < s->groups[i].n_partitions; p++)
			s->groups[i].total_lag += s->groups[i].partitions[p].lag;
	}
	return s;
}

struct fx {
	struct ui u;
	ui_source *src;
};

static int setup(void **state)
{
	static struct fx f;
	memset(&opts, 0, sizeof opts);
	lt_snapshot *s = snap3(20, 40, 6, 1);
	f.src = source_fixed_new(s, NULL, 0);
	snapshot_unref(s);
	ui_state_init(&f.u, &opts, f.src, 2000);
	ui_take_snapshot(&f.u);
	ui_adopt_next(&f.u, now_mono_ms());
	*state = &f;
	return 0;
}

static int teardown(void **state)
{
	struct fx *f = *state;
	ui_state_free(&f->u);
	source_free(f->src);
	return 0;
}

static const char *row_name(const struct ui_list *l, size_t i)
{
	return i < l->n_rows ? l->rows[i].group->group : "(none)";
}

static void keys(struct ui *u, const char *k)
{
	for (; *k; k++)
		ui_on_key(u, (unsigned char)*k);
	if (u->dirty & UI_DIRTY_ROWS)
		ui_rebuild_rows(u);
	u->dirty = 0;
}

static void sort_by_lag_desc(struct ui *u)
{
	keys(u, ">>>>>>"); /* GROUP -> STATE -> TYPE -> MEMBERS -> TOPICS -> PARTITIONS -> LAG */
	assert_int_equal(u->groups.sort_col, LT_COL_LAG);
	assert_true(u->groups.sort_desc);
}

static void selection_follows_identity(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	assert_int_equal(u->groups.n_rows, 3);
	assert_string_equal(row_name(&u->groups, 0), "g1"); /* by name at first */
	sort_by_lag_desc(u);
	assert_string_equal(row_name(&u->groups, 0), "g2");
	assert_string_equal(row_name(&u->groups, 1), "g1");
	/* the cursor was on g1 (row 0 by name); it followed g1 to row 1 */
	assert_int_equal(u->groups.cursor, 1);
	keys(u, "I");
	assert_string_equal(row_name(&u->groups, 0), "g3");
	assert_string_equal(row_name(&u->groups, u->groups.cursor), "g1");
	keys(u, "I");

	/* a refresh where g1 overtakes g2: g1 moves to the top and the cursor with it */
	lt_snapshot *s = snap3(90, 40, 6, 2);
	source_fixed_set(f->src, s);
	snapshot_unref(s);
	ui_take_snapshot(u);
	ui_adopt_next(u, now_mono_ms() + 10 * UI_HOLD_MAX_MS);
	assert_string_equal(row_name(&u->groups, 0), "g1");
	assert_int_equal(u->groups.cursor, 0);
}

static void new_data_waits_while_moving_but_not_forever(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	sort_by_lag_desc(u);
	ui_on_key(u, KEY_DOWN); /* a movement starts the hold */
	int64_t now = now_mono_ms();
	assert_true(u->hold_until > now);
	lt_snapshot *s = snap3(90, 40, 6, 2);
	source_fixed_set(f->src, s);
	snapshot_unref(s);
	ui_take_snapshot(u);
	assert_non_null(u->next);
	ui_adopt_next(u, now);
	assert_non_null(u->next); /* held: rows do not jump under the cursor */
	assert_int_equal(u->snap->seq, 1);
	ui_adopt_next(u, u->hold_until);
	assert_null(u->next);
	assert_int_equal(u->snap->seq, 2);

	/* a user who never stops moving still gets new data after UI_HOLD_MAX_MS */
	s = snap3(1, 2, 3, 3);
	source_fixed_set(f->src, s);
	snapshot_unref(s);
	ui_take_snapshot(u);
	u->hold_until = u->next_since + 100 * UI_HOLD_MAX_MS;
	ui_adopt_next(u, u->next_since + UI_HOLD_MAX_MS - 1);
	assert_non_null(u->next);
	ui_adopt_next(u, u->next_since + UI_HOLD_MAX_MS);
	assert_int_equal(u->snap->seq, 3);
}

static void filter_narrows_keeps_last_good_and_clears(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	keys(u, "/g2");
	assert_true(u->filter_editing);
	assert_int_equal(u->groups.n_rows, 1);
	assert_string_equal(row_name(&u->groups, 0), "g2");
	keys(u, "(");    /* "g2(" is not a valid regex: the last good filter stays, the error is shown */
	assert_int_equal(u->groups.n_rows, 1);
	assert_true(u->filter_err[0] != '\0');
	ui_on_key(u, KEY_BACKSPACE);
	keys(u, "\n"); /* Enter keeps the filter */
	assert_false(u->filter_editing);
	assert_int_equal(u->groups.n_rows, 1);
	assert_string_equal(filter_text(u->groups.filter), "g2");
	keys(u, "\x1b"); /* Esc clears it */
	assert_null(u->groups.filter);
	assert_int_equal(u->groups.n_rows, 3);
}

static void panes_enter_members_tab_esc(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	keys(u, "j\n"); /* g2 */
	assert_non_null(u->open_group);
	assert_string_equal(u->open_group, "g2");
	assert_int_equal(u->focus, UI_PANE_PARTS);
	assert_int_equal(u->parts.n_rows, 3);
	keys(u, "\n"); /* Enter on a partition: the detail popup */
	assert_int_equal(u->popup, UI_POPUP_DETAIL);
	assert_string_equal(u->detail.topic, "t");
	keys(u, "\x1b");
	assert_int_equal(u->popup, UI_POPUP_NONE);
	keys(u, "m");
	assert_true(u->show_members);
	assert_int_equal(u->focus, UI_PANE_MEMBERS);
	assert_int_equal(screen_members_count(u), 1);
	keys(u, "\t");
	assert_int_equal(u->focus, UI_PANE_GROUPS);
	keys(u, "\t");
	assert_int_equal(u->focus, UI_PANE_MEMBERS);
	keys(u, "\x1b"); /* back: the group closes */
	assert_null(u->open_group);
	assert_int_equal(u->focus, UI_PANE_GROUPS);
	keys(u, "?");
	assert_int_equal(u->popup, UI_POPUP_HELP);
	keys(u, "q"); /* q in a popup closes the popup, it does not quit */
	assert_int_equal(u->popup, UI_POPUP_NONE);
	assert_false(u->quit);
	keys(u, "q");
	assert_true(u->quit);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(selection_follows_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(new_data_waits_while_moving_but_not_forever, setup, teardown),
		cmocka_unit_test_setup_teardown(filter_narrows_keeps_last_good_and_clears, setup, teardown),
		cmocka_unit_test_setup_teardown(panes_enter_members_tab_esc, setup, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
