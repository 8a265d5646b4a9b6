/* test_ui_state.c — the dashboard's state machine without a terminal, on a fixed data source:
 * the selection follows its row across refreshes and re-sorts, new data waits while the user moves
 * (but not forever), the filter narrows and clears, Enter/m/Tab/Esc move between panes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "ui/keys.h"
#include "ui/ui.h"
#include "util/timeutil.h"
#include "../lib/cmocka_main.h"
#include "../lib/lagtop_test.h"

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

static void sort_by_lag_desc(struct ui *u)
{
	layout_screen(24, 240, false, &u->geom); /* < and > sort by the columns on screen: here every one */
	test_ui_keys(u, ">>>>>>");               /* GROUP -> STATE -> TYPE -> MEMBERS -> TOPICS -> PARTITIONS -> LAG */
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
	test_ui_keys(u, "I");
	assert_string_equal(row_name(&u->groups, 0), "g3");
	assert_string_equal(row_name(&u->groups, u->groups.cursor), "g1");
	test_ui_keys(u, "I");

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
	test_ui_keys(u, "/g2");
	assert_true(u->filter_editing);
	assert_int_equal(u->groups.n_rows, 1);
	assert_string_equal(row_name(&u->groups, 0), "g2");
	test_ui_keys(u, "("); /* "g2(" is not a valid regex: the last good filter stays, the error is shown */
	assert_int_equal(u->groups.n_rows, 1);
	assert_true(u->filter_err[0] != '\0');
	ui_on_key(u, KEY_BACKSPACE);
	test_ui_keys(u, "\n"); /* Enter keeps the filter */
	assert_false(u->filter_editing);
	assert_int_equal(u->groups.n_rows, 1);
	assert_string_equal(filter_text(u->groups.filter), "g2");
	test_ui_keys(u, "\x1b"); /* Esc clears it */
	assert_null(u->groups.filter);
	assert_int_equal(u->groups.n_rows, 3);
}

static void panes_enter_members_tab_esc(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	test_ui_keys(u, "j\n"); /* g2 */
	assert_non_null(u->open_group);
	assert_string_equal(u->open_group, "g2");
	assert_int_equal(u->focus, UI_PANE_PARTS);
	assert_int_equal(u->parts.n_rows, 3);
	test_ui_keys(u, "\n"); /* Enter on a partition: the detail popup */
	assert_int_equal(u->popup, UI_POPUP_DETAIL);
	assert_string_equal(u->detail.topic, "t");
	test_ui_keys(u, "\x1b");
	assert_int_equal(u->popup, UI_POPUP_NONE);
	test_ui_keys(u, "m");
	assert_true(u->show_members);
	assert_int_equal(u->focus, UI_PANE_MEMBERS);
	assert_int_equal(screen_members_count(u), 1);
	test_ui_keys(u, "\t");
	assert_int_equal(u->focus, UI_PANE_GROUPS);
	test_ui_keys(u, "\t");
	assert_int_equal(u->focus, UI_PANE_MEMBERS);
	test_ui_keys(u, "\x1b"); /* back: the group closes */
	assert_null(u->open_group);
	assert_int_equal(u->focus, UI_PANE_GROUPS);
	test_ui_keys(u, "?");
	assert_int_equal(u->popup, UI_POPUP_HELP);
	test_ui_keys(u, "q"); /* q in a popup closes the popup, it does not quit */
	assert_int_equal(u->popup, UI_POPUP_NONE);
	assert_false(u->quit);
	test_ui_keys(u, "q");
	assert_true(u->quit);
}

/* T: the topic view; Enter a topic's groups, Enter a group's partitions, Esc back one step at a time. */
static void topic_view_enter_and_back(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	layout_screen(24, 240, false, &u->geom); /* < and > sort by the columns on screen: here every one */
	test_ui_keys(u, "T");
	assert_true(u->topic_view);
	assert_int_equal(u->focus, UI_PANE_TOPICS);
	assert_int_equal(u->topics.n_rows, 1);
	const lt_topic_stats *t = u->topics.rows[0].topic;
	assert_string_equal(t->topic, "t");
	assert_int_equal(t->n_groups, 3);
	assert_int_equal(t->n_partitions, 4);
	assert_int_equal(t->total_lag, 63); /* 10*2 + 13*3 + 1*4: the lags as snap3 divides them */
	test_ui_keys(u, "\n");
	assert_int_equal(u->focus, UI_PANE_TOPIC_GROUPS);
	assert_string_equal(u->open_topic, "t");
	assert_int_equal(u->tgroups.n_rows, 3);
	/* sorted by lag on the topic, descending: g2 first */
	test_ui_keys(u, ">>>");
	assert_int_equal(u->tgroups.sort_col, LT_COL_TG_LAG);
	assert_string_equal(u->tgroups.rows[0].group->group, "g2");
	test_ui_keys(u, "\x1b"); /* a keypress of Esc alone: nothing to clear, the topic closes */
	assert_null(u->open_topic);
	assert_int_equal(u->focus, UI_PANE_TOPICS);
	test_ui_keys(u, "\n");
	assert_int_equal(u->tgroups.sort_col, LT_COL_TG_LAG); /* the sort is kept */
	test_ui_keys(u, "g");                                 /* nothing bound */
	test_ui_keys(u, "k\n");                               /* the first row: g2; Enter: its partitions */
	assert_string_equal(u->open_group, "g2");
	assert_int_equal(u->focus, UI_PANE_PARTS);
	assert_int_equal(u->parts.n_rows, 3);
	assert_string_equal(u->parts.rows[u->parts.cursor].part->topic, "t");
	assert_int_equal(u->parts.rows[u->parts.cursor].part->partition, 0);
	assert_int_equal(ui_bottom_pane(u), UI_PANE_PARTS);
	test_ui_keys(u, "\t");
	assert_int_equal(u->focus, UI_PANE_TOPICS);
	test_ui_keys(u, "\t");
	assert_int_equal(u->focus, UI_PANE_PARTS);
	test_ui_keys(u, "\x1b"); /* back to the topic's groups */
	assert_null(u->open_group);
	assert_int_equal(u->focus, UI_PANE_TOPIC_GROUPS);
	test_ui_keys(u, "\x1b\x1b"); /* the topic closes; then nothing more to close */
	assert_int_equal(u->focus, UI_PANE_TOPICS);
	/* a filter in the topics pane: by topic, or a group reading it */
	snprintf(u->filter_buf, sizeof u->filter_buf, "g3");
	ui_apply_filter_text(u);
	test_ui_keys(u, "");
	assert_int_equal(u->topics.n_rows, 1);
	snprintf(u->filter_buf, sizeof u->filter_buf, "nothing");
	ui_apply_filter_text(u);
	test_ui_keys(u, "");
	assert_int_equal(u->topics.n_rows, 0);
	test_ui_keys(u, "\x1b");
	assert_int_equal(u->topics.n_rows, 1);
	/* a new snapshot: the view is rebuilt from it, the cursor stays on its topic */
	lt_snapshot *s = snap3(90, 40, 6, 2);
	source_fixed_set(f->src, s);
	snapshot_unref(s);
	ui_take_snapshot(u);
	ui_adopt_next(u, now_mono_ms() + 10 * UI_HOLD_MAX_MS);
	assert_ptr_equal(u->tview_snap, u->snap);
	assert_int_equal(u->topics.rows[0].topic->total_lag, 133);
	test_ui_keys(u, "T");
	assert_false(u->topic_view);
	assert_null(u->tview);
	assert_int_equal(u->topics.n_rows, 0);
	assert_int_equal(u->focus, UI_PANE_GROUPS);
}

/* Space marks and moves down (in the partitions pane only; elsewhere it pauses), marks follow their
 * partitions across re-sorts and refreshes, survive closing and reopening the group, go with another group. */
static void marks_follow_partitions(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	layout_screen(24, 240, false, &u->geom); /* < and > sort by the columns on screen: here every one */
	test_ui_keys(u, "jj\n");                 /* g3: partitions 0..3 */
	assert_string_equal(u->open_group, "g3");
	assert_int_equal(u->parts.n_rows, 4);
	test_ui_keys(u, "j "); /* mark partition 1, the cursor moves to 2 */
	assert_int_equal(u->parts.cursor, 2);
	test_ui_keys(u, "j "); /* mark 3; the last row: the cursor stays */
	assert_int_equal(u->parts.cursor, 3);
	assert_false(u->paused); /* Space did not pause here */
	const lt_markset *m = ui_open_marks(u);
	assert_non_null(m);
	assert_int_equal(m->n, 2);
	assert_true(markset_has_tp(m, "t", 1) && markset_has_tp(m, "t", 3));
	test_ui_keys(u, ">I"); /* by partition, descending: the marks stay on their partitions */
	assert_int_equal(u->parts.rows[0].part->partition, 3);
	assert_true(markset_has(m, &u->parts.rows[0]));
	assert_false(markset_has(m, &u->parts.rows[1]));
	lt_snapshot *s = snap3(20, 40, 60, 2); /* a refresh */
	source_fixed_set(f->src, s);
	snapshot_unref(s);
	ui_take_snapshot(u);
	ui_adopt_next(u, now_mono_ms() + 10 * UI_HOLD_MAX_MS);
	assert_int_equal(ui_open_marks(u)->n, 2);
	test_ui_keys(u, " "); /* unmark 3 (the cursor stayed on it) */
	assert_int_equal(ui_open_marks(u)->n, 1);
	test_ui_keys(u, "\x1b"); /* close the group: the marks wait for it */
	assert_null(ui_open_marks(u));
	test_ui_keys(u, " "); /* the groups pane: Space pauses */
	assert_true(u->paused);
	test_ui_keys(u, " ");
	test_ui_keys(u, "\n");
	assert_int_equal(ui_open_marks(u)->n, 1);
	test_ui_keys(u, "u");
	assert_null(ui_open_marks(u));
	test_ui_keys(u, " ");
	assert_int_equal(ui_open_marks(u)->n, 1);
	test_ui_keys(u, "\x1bk\n"); /* another group: its own (no) marks */
	assert_string_equal(u->open_group, "g2");
	assert_null(ui_open_marks(u));
}

/* The x of a column's header in the list as drawn. */
static int column_x(struct ui *u, struct ui_list *l, lt_col_id id)
{
	struct ui_col_slot slots[LT_COL__COUNT];
	size_t n = screen_list_slots(u, l, slots);
	for (size_t i = 0; i < n; i++)
		if (slots[i].col->id == id)
			return slots[i].x + 1;
	fail_msg("column %d not shown", (int)id);
	return -1;
}

/* The x of the key bar's key labelled `label` (the bar as drawn now); fails when it is not shown. */
static int bar_x(const struct ui *u, const char *label)
{
	struct ui_bar_slot slots[UI_KEY_BAR_MAX];
	size_t n = screen_key_bar_slots(u, slots, UI_KEY_BAR_MAX);
	for (size_t i = 0; i < n; i++)
		if (strcmp(slots[i].key->bar, label) == 0)
			return slots[i].x + slots[i].width - 1; /* the label's last cell */
	fail_msg("key bar: no %s", label);
	return -1;
}

/* A click on a key of the key bar is that key, as typed: the bar's slots are where the keys are drawn, a
 * click between two keys or on a message does nothing, and a key the mode refuses is refused. */
static void key_bar_clicks_are_keys(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	u->mouse = true;
	layout_screen(24, 80, false, &u->geom);
	u->msg[0] = '\0';
	struct ui_bar_slot slots[UI_KEY_BAR_MAX];
	size_t n = screen_key_bar_slots(u, slots, UI_KEY_BAR_MAX);
	assert_true(n >= 4);
	assert_string_equal(slots[0].key->name, "q"); /* 80 columns: the letters, not F10 */
	for (size_t i = 1; i < n; i++) {              /* left to right, a blank between, inside the line */
		assert_int_equal(slots[i].x, slots[i - 1].x + slots[i - 1].width + 1);
		assert_true(slots[i].x + slots[i].width <= 80);
	}

	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.keys_y, slots[1].x - 1); /* the blank after "qQuit" */
	assert_int_equal(u->popup, UI_POPUP_NONE);
	assert_false(u->quit);
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.keys_y, bar_x(u, "Help"));
	assert_int_equal(u->popup, UI_POPUP_HELP);
	test_ui_keys(u, "\x1b");
	assert_int_equal(u->popup, UI_POPUP_NONE);

	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.keys_y, bar_x(u, "Pause"));
	assert_true(u->paused);
	assert_string_equal(u->msg, "paused: no refreshes until p");
	/* the bar shows that message now: a click where "Pause" was does nothing */
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.keys_y, 3);
	assert_true(u->paused);
	u->msg[0] = '\0';
	ui_mouse_event(u, UI_MOUSE_WHEEL_DOWN, u->geom.keys_y, bar_x(u, "Pause")); /* the wheel is no click */
	assert_true(u->paused);
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.keys_y, bar_x(u, "Pause"));
	assert_false(u->paused);

	/* 120 columns: F10 Quit first, and a click on it quits */
	layout_screen(24, 120, false, &u->geom);
	u->msg[0] = '\0';
	n = screen_key_bar_slots(u, slots, UI_KEY_BAR_MAX);
	assert_string_equal(slots[0].key->name, "F10");
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.keys_y, slots[0].x);
	assert_true(u->quit);
	u->quit = false;

	/* read-only: the bar has no Reset, so no click can reach it */
	u->read_only = true;
	n = screen_key_bar_slots(u, slots, UI_KEY_BAR_MAX);
	for (size_t i = 0; i < n; i++)
		assert_string_not_equal(slots[i].key->bar, "Reset");
	u->read_only = false;

	/* with the mouse off the bar is the terminal's */
	test_ui_keys(u, "M");
	u->msg[0] = '\0';
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.keys_y, bar_x(u, "Help"));
	assert_int_equal(u->popup, UI_POPUP_NONE);
}

/* Mouse events as the screen was laid out: a click selects a row and focuses its pane, a click on a
 * header sorts (again: the other direction), the wheel moves the cursor; nothing with the mouse off. */
static void mouse_events_map_to_actions(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	u->mouse = true;
	layout_screen(24, 80, false, &u->geom); /* top bar 0, title 1, header 2, rows from 3 */
	u->groups.top = 0;
	ui_mouse_event(u, UI_MOUSE_PRESS, 4, 5);
	assert_int_equal(u->groups.cursor, 1);
	assert_string_equal(row_name(&u->groups, 1), "g2");
	ui_mouse_event(u, UI_MOUSE_PRESS, 12, 5); /* below the last row: nothing */
	assert_int_equal(u->groups.cursor, 1);
	int lag_x = column_x(u, &u->groups, LT_COL_LAG);
	ui_mouse_event(u, UI_MOUSE_PRESS, 2, lag_x);
	test_ui_keys(u, "");
	assert_int_equal(u->groups.sort_col, LT_COL_LAG);
	assert_true(u->groups.sort_desc); /* the column's first direction */
	assert_string_equal(row_name(&u->groups, 0), "g2");
	assert_string_equal(row_name(&u->groups, u->groups.cursor), "g2"); /* the cursor kept its row */
	ui_mouse_event(u, UI_MOUSE_PRESS, 2, lag_x);                       /* again: the other direction */
	test_ui_keys(u, "");
	assert_false(u->groups.sort_desc);
	assert_string_equal(row_name(&u->groups, 0), "g3");
	ui_mouse_event(u, UI_MOUSE_WHEEL_UP, 5, 5);
	assert_int_equal(u->groups.cursor, 0);
	ui_mouse_event(u, UI_MOUSE_WHEEL_DOWN, 5, 5);
	assert_int_equal(u->groups.cursor, 2);
	ui_mouse_event(u, UI_MOUSE_PRESS, 0, 5);  /* the top bar: nothing */
	ui_mouse_event(u, UI_MOUSE_PRESS, 23, 5); /* the key bar: nothing */
	assert_int_equal(u->groups.cursor, 2);

	/* the bottom pane: a click there focuses it and selects the row */
	test_ui_keys(u, "\n");
	assert_int_equal(u->focus, UI_PANE_PARTS);
	layout_screen(24, 80, true, &u->geom);
	u->groups.top = u->parts.top = 0;                         /* as a draw of these few rows leaves them */
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.main_y + 2, 3); /* the first group row */
	assert_int_equal(u->focus, UI_PANE_GROUPS);
	assert_int_equal(u->groups.cursor, 0);
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.bottom_y + 3, 3); /* the second partition */
	assert_int_equal(u->focus, UI_PANE_PARTS);
	assert_int_equal(u->parts.cursor, 1);
	int part_x = column_x(u, &u->parts, LT_COL_PARTITION);
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.bottom_y + 1, part_x);
	test_ui_keys(u, "");
	assert_int_equal(u->parts.sort_col, LT_COL_PARTITION);

	/* off: the terminal keeps its selection; nothing moves */
	test_ui_keys(u, "M");
	assert_false(u->mouse);
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.bottom_y + 2, 3);
	assert_int_equal(u->parts.cursor, 1);
	test_ui_keys(u, "M");
	assert_true(u->mouse);

	/* the help popup scrolls with the wheel, clicks do nothing there */
	test_ui_keys(u, "?");
	ui_mouse_event(u, UI_MOUSE_WHEEL_DOWN, 10, 10);
	assert_int_equal(u->popup_top, 3);
	ui_mouse_event(u, UI_MOUSE_PRESS, u->geom.bottom_y + 2, 3);
	assert_int_equal(u->parts.cursor, 1);
	assert_int_equal(u->popup, UI_POPUP_HELP);
}

/* The column setup (S, F2): Space hides the column under the cursor, [ ] move it, Enter applies; a list sorted by
 * a column it hid sorts by its name again. The sort chooser (.) offers only the columns on screen. */
static void column_setup_and_sort_chooser(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	sort_by_lag_desc(u);
	test_ui_keys(u, "S");
	assert_int_equal(u->popup, UI_POPUP_COLUMNS);
	test_ui_keys(u, "jjjjjj ");                  /* group state type members topics partitions [lag] */
	test_ui_keys(u, "k]");                       /* partitions moves after lag */
	u->config_path = "/nonexistent/lagtop.conf"; /* a file that cannot be rewritten */
	test_ui_keys(u, "\n");
	assert_int_equal(u->popup, UI_POPUP_NONE);
	const lt_column *cols[LT_COL__COUNT];
	size_t n = ui_pane_columns(u, &u->groups, cols);
	for (size_t i = 0; i < n; i++)
		assert_int_not_equal(cols[i]->id, LT_COL_LAG);
	assert_int_equal(u->colsets[LT_ROWS_GROUPS].ids[5], LT_COL_LAG);
	assert_int_equal(u->colsets[LT_ROWS_GROUPS].ids[6], LT_COL_PARTITIONS);
	assert_int_equal(u->groups.sort_col, LT_COL_GROUP);
	assert_non_null(strstr(u->msg, "columns kept for this session: cannot save them to /nonexistent/lagtop.conf"));

	test_ui_keys(u, ".");
	assert_int_equal(u->popup, UI_POPUP_SORT);
	struct ui_list_popup v;
	ui_list_popup_view(u, &v);
	struct ui_col_slot slots[LT_COL__COUNT];
	size_t ns = screen_list_slots(u, &u->groups, slots), k = 0;
	for (size_t i = 0; i < ns; i++)
		if (slots[i].col->key)
			assert_int_equal(strncmp(v.lines[k++], slots[i].col->title, strlen(slots[i].col->title)), 0);
	assert_int_equal(v.n, k);
	ui_list_popup_free(&v);
	test_ui_keys(u, "j\n");
	assert_int_equal(u->groups.sort_col, LT_COL_STATE);
	/* Esc leaves everything as it was */
	test_ui_keys(u, "S \x1b");
	assert_int_equal(u->popup, UI_POPUP_NONE);
	assert_int_equal(u->groups.sort_col, LT_COL_STATE);
}

static const struct CMUnitTest tests[] = {
	LT_FIXTURE_TEST(selection_follows_identity),
	LT_FIXTURE_TEST(new_data_waits_while_moving_but_not_forever),
	LT_FIXTURE_TEST(filter_narrows_keeps_last_good_and_clears),
	LT_FIXTURE_TEST(panes_enter_members_tab_esc),
	LT_FIXTURE_TEST(topic_view_enter_and_back),
	LT_FIXTURE_TEST(marks_follow_partitions),
	LT_FIXTURE_TEST(mouse_events_map_to_actions),
	LT_FIXTURE_TEST(key_bar_clicks_are_keys),
	LT_FIXTURE_TEST(column_setup_and_sort_chooser),
};

LT_TEST_MAIN(NULL, NULL)
