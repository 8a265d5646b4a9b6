/* keys.c — the main key table (the panes) and the actions behind it, and the one lookup every mode's
 * table goes through. Actions only change state and set dirty flags; drawing happens once per loop
 * pass (tui.c). */
#include "config.h"

#include "ui/keys.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"
#include "util/xalloc.h"

#define KEY_ESC    27
#define KEY_CTRL_A 1
#define KEY_CTRL_B 2
#define KEY_CTRL_E 5
#define KEY_CTRL_F 6

static void act_quit(struct ui *u)
{
	u->quit = true;
}

static void act_help(struct ui *u)
{
	u->popup = UI_POPUP_HELP;
	u->popup_top = 0;
	u->dirty |= UI_DIRTY_DRAW;
}

static void act_up(struct ui *u)
{
	ui_move(u, -1);
}

static void act_down(struct ui *u)
{
	ui_move(u, 1);
}

static void act_page_up(struct ui *u)
{
	ui_move(u, -(long)(ui_page_rows(u) > 1 ? ui_page_rows(u) - 1 : 1));
}

static void act_page_down(struct ui *u)
{
	ui_move(u, ui_page_rows(u) > 1 ? ui_page_rows(u) - 1 : 1);
}

static void act_home(struct ui *u)
{
	ui_move_to(u, false);
}

static void act_end(struct ui *u)
{
	ui_move_to(u, true);
}

static void act_tab(struct ui *u)
{
	unsigned bottom = ui_bottom_pane(u);
	if (!bottom)
		return;
	u->focus = u->focus == ui_top_pane(u) ? bottom : ui_top_pane(u);
	u->dirty |= UI_DIRTY_DRAW;
}

static void act_enter(struct ui *u)
{
	if (u->focus == UI_PANE_TOPICS) {
		if (u->topics.cursor < u->topics.n_rows)
			ui_open_topic(u, u->topics.rows[u->topics.cursor].topic);
	} else if (u->focus == UI_PANE_TOPIC_GROUPS) {
		ui_open_topic_group(u);
	} else if (u->focus == UI_PANE_GROUPS) {
		if (u->groups.cursor < u->groups.n_rows) {
			u->show_members = false;
			ui_open_group(u, u->groups.rows[u->groups.cursor].group);
		}
	} else if (u->focus == UI_PANE_PARTS && u->parts.cursor < u->parts.n_rows) {
		row_key_clear(&u->detail);
		row_key_set(&u->detail, &u->parts.rows[u->parts.cursor]);
		u->popup = UI_POPUP_DETAIL;
		u->dirty |= UI_DIRTY_DRAW;
	}
}

static void act_back(struct ui *u)
{
	struct ui_list *l = ui_focused_list(u);
	if (l && l->filter) {
		u->filter_buf[0] = '\0';
		ui_apply_filter_text(u);
		return;
	}
	if (ui_back_topic(u))
		return;
	if (u->open_group) {
		free(u->open_group);
		u->open_group = NULL;
		u->focus = UI_PANE_GROUPS;
		u->show_members = false;
		u->dirty |= UI_DIRTY_ROWS;
	}
}

static void act_filter(struct ui *u)
{
	struct ui_list *l = ui_focused_list(u);
	if (!l)
		return;
	snprintf(u->filter_buf, sizeof u->filter_buf, "%s", l->filter ? filter_text(l->filter) : "");
	u->filter_err[0] = '\0';
	u->filter_editing = true;
	u->dirty |= UI_DIRTY_DRAW;
}

static void sort_step(struct ui *u, int dir)
{
	struct ui_list *l = ui_focused_list(u);
	if (!l)
		return;
	/* in the order on screen (the pane's columns as set up with F2), and only those: a sort by a column the
	 * width hides would order the rows by values nobody sees, and no header would carry the arrow */
	struct ui_col_slot shown[LT_COL__COUNT];
	size_t n = screen_list_slots(u, l, shown);
	size_t cur = 0;
	for (size_t i = 0; i < n; i++)
		if (shown[i].col->id == l->sort_col)
			cur = i;
	for (size_t step = 1; step <= n; step++) {
		long li = ((long)cur + (long)dir * (long)step) % (long)n;
		const lt_column *c = shown[li < 0 ? li + (long)n : li].col;
		if (c->key) {
			l->sort_col = c->id;
			l->sort_desc = c->default_desc;
			ui_set_message(u, "sorted by %s%s", c->title, l->sort_desc ? ", descending" : "");
			break;
		}
	}
	u->hold_until = 0; /* an explicit sort applies at once */
	u->dirty |= UI_DIRTY_ROWS;
}

static void act_sort_prev(struct ui *u)
{
	sort_step(u, -1);
}

static void act_sort_next(struct ui *u)
{
	sort_step(u, 1);
}

static void act_sort_list(struct ui *u)
{
	ui_sort_open(u);
}

static void act_columns(struct ui *u)
{
	ui_columns_open(u);
}

static void act_invert(struct ui *u)
{
	struct ui_list *l = ui_focused_list(u);
	if (!l)
		return;
	l->sort_desc = !l->sort_desc;
	u->hold_until = 0;
	u->dirty |= UI_DIRTY_ROWS;
}

static void act_pause(struct ui *u)
{
	u->paused = !u->paused;
	u->src->ops->set_paused(u->src, u->paused);
	ui_set_message(u, "%s", u->paused ? "paused: no refreshes until p" : "resumed");
}

static const int intervals_ms[] = { 500, 1000, 2000, 5000, 10000, 30000, 60000 };
#define N_INTERVALS (sizeof intervals_ms / sizeof intervals_ms[0])

static void interval_step(struct ui *u, int dir)
{
	size_t i = 0;
	if (dir > 0) {
		while (i < N_INTERVALS - 1 && intervals_ms[i] <= u->interval_ms)
			i++;
	} else {
		i = N_INTERVALS - 1;
		while (i > 0 && intervals_ms[i] >= u->interval_ms)
			i--;
	}
	u->interval_ms = intervals_ms[i];
	u->src->ops->set_interval(u->src, u->interval_ms);
	ui_set_message(u, "refresh every %g s", u->interval_ms / 1000.0);
}

static void act_slower(struct ui *u)
{
	interval_step(u, 1);
}

static void act_faster(struct ui *u)
{
	interval_step(u, -1);
}

static void act_refresh(struct ui *u)
{
	u->src->ops->refresh_now(u->src);
	ui_set_message(u, "refreshing");
}

static void act_members(struct ui *u)
{
	if (!u->open_group) {
		/* the group under the cursor: in the groups pane, or in a topic's groups */
		struct ui_list *l = u->focus == UI_PANE_TOPIC_GROUPS ? &u->tgroups
				    : u->focus == UI_PANE_GROUPS     ? &u->groups
								     : NULL;
		if (!l || l->cursor >= l->n_rows)
			return;
		u->show_members = true;
		ui_open_group(u, l->rows[l->cursor].group);
		u->focus = UI_PANE_MEMBERS;
		return;
	}
	u->show_members = !u->show_members;
	if (u->focus != ui_top_pane(u))
		u->focus = u->show_members ? UI_PANE_MEMBERS : UI_PANE_PARTS;
	u->dirty |= UI_DIRTY_DRAW;
}

static void act_theme(struct ui *u)
{
	ui_next_theme(u);
}

static void act_cluster(struct ui *u)
{
	ui_choose_cluster(u);
}

static void act_error(struct ui *u)
{
	u->popup = UI_POPUP_ERROR;
	u->dirty |= UI_DIRTY_DRAW;
}

static void act_reset(struct ui *u)
{
	ui_reset_open(u, false);
}

static void act_undo(struct ui *u)
{
	ui_reset_open(u, true);
}

static void act_delete(struct ui *u)
{
	ui_delete_open(u);
}

static void act_topics(struct ui *u)
{
	ui_toggle_topic_view(u);
}

static void act_mark(struct ui *u)
{
	ui_toggle_mark(u);
}

static void act_clear_marks(struct ui *u)
{
	ui_clear_marks(u);
}

static void act_mouse(struct ui *u)
{
	ui_set_mouse(u, !u->mouse);
	ui_set_message(u, "%s",
		       u->mouse ? "mouse on: click selects, wheel scrolls, a header sorts (Shift-drag selects text)"
				: "mouse off: the terminal's own selection copies text");
}

/* clang-format off */
/* The table. Order is the help screen's order (consecutive keys with the same help share a line); the key bar
 * shows entries with a label, in order. htop's function keys sit beside their letters. */
#define NARROW UI_KEY_BAR_NARROW
#define WIDE UI_KEY_BAR_WIDE
static const struct ui_key key_table[] = {
	{ { 'q' }, "q", "Quit", "quit (restores the terminal)", UI_PANE_ALL, NARROW, act_quit },
	{ { KEY_F(10) }, "F10", "Quit", "quit (restores the terminal)", UI_PANE_ALL, WIDE, act_quit },
	{ { '?' }, "?", "Help", "this help (Esc closes it)", UI_PANE_ALL, NARROW, act_help },
	{ { KEY_F(1) }, "F1", "Help", "this help (Esc closes it)", UI_PANE_ALL, WIDE, act_help },
	{ { KEY_UP }, "Up", NULL, "move up", UI_PANE_ALL, 0, act_up },
	{ { 'k' }, "k", NULL, "move up", UI_PANE_ALL, 0, act_up },
	{ { KEY_DOWN }, "Down", NULL, "move down", UI_PANE_ALL, 0, act_down },
	{ { 'j' }, "j", NULL, "move down", UI_PANE_ALL, 0, act_down },
	/* A terminal without these keys (vt100) has less's and vi's: b f ^B ^F, G; and ^A ^E (less's g is the
	 * replay's go-to) */
	{ { KEY_PPAGE }, "PgUp", NULL, "move one page up", UI_PANE_ALL, 0, act_page_up },
	{ { 'b' }, "b", NULL, "move one page up", UI_PANE_ALL, 0, act_page_up },
	{ { KEY_CTRL_B }, "^B", NULL, "move one page up", UI_PANE_ALL, 0, act_page_up },
	{ { KEY_NPAGE }, "PgDn", NULL, "move one page down", UI_PANE_ALL, 0, act_page_down },
	{ { 'f' }, "f", NULL, "move one page down", UI_PANE_ALL, 0, act_page_down },
	{ { KEY_CTRL_F }, "^F", NULL, "move one page down", UI_PANE_ALL, 0, act_page_down },
	{ { KEY_HOME }, "Home", NULL, "first row", UI_PANE_ALL, 0, act_home },
	{ { KEY_CTRL_A }, "^A", NULL, "first row", UI_PANE_ALL, 0, act_home },
	{ { KEY_END }, "End", NULL, "last row", UI_PANE_ALL, 0, act_end },
	{ { 'G' }, "G", NULL, "last row", UI_PANE_ALL, 0, act_end },
	{ { KEY_CTRL_E }, "^E", NULL, "last row", UI_PANE_ALL, 0, act_end },
	{ { '\t' }, "Tab", "Pane", "switch between the top pane and the bottom one", UI_PANE_ALL, 0, act_tab },
	{ { '\n', '\r', KEY_ENTER }, "Enter", "Open",
	  "open: a group's partitions, a partition's detail, a topic's groups (then a group's partitions)",
	  UI_PANE_LISTS, 0, act_enter },
	{ { KEY_ESC }, "Esc", "Back", "back: close a popup, clear the filter, close the bottom pane (one step)",
	  UI_PANE_ALL, 0, act_back },
	{ { '/' }, "/", "Filter", "filter the pane (substring or regex, see FILTER); Enter keeps it, Esc clears it",
	  UI_PANE_LISTS, NARROW, act_filter },
	{ { KEY_F(3) }, "F3", "Filter", "filter the pane (substring or regex, see FILTER); Enter keeps it, Esc clears it",
	  UI_PANE_LISTS, WIDE, act_filter },
	{ { KEY_F(4) }, "F4", NULL, "filter the pane (substring or regex, see FILTER); Enter keeps it, Esc clears it",
	  UI_PANE_LISTS, 0, act_filter },
	{ { '<' }, "<", NULL, "sort by the previous column on screen", UI_PANE_LISTS, 0, act_sort_prev },
	{ { '>' }, ">", "Sort", "sort by the next column on screen (or click a column's header)", UI_PANE_LISTS, NARROW,
	  act_sort_next },
	{ { KEY_F(6) }, "F6", "Sort", "choose the sort from the columns on screen", UI_PANE_LISTS, WIDE, act_sort_list },
	{ { '.' }, ".", NULL, "choose the sort from the columns on screen", UI_PANE_LISTS, 0, act_sort_list },
	{ { KEY_F(2) }, "F2", "Setup", "column setup: show, hide and order the pane's columns (saved to the config file)",
	  UI_PANE_LISTS, WIDE, act_columns },
	{ { 'S' }, "S", NULL, "column setup: show, hide and order the pane's columns (saved to the config file)",
	  UI_PANE_LISTS, 0, act_columns },
	{ { 'I' }, "I", "Invert", "invert the sort order", UI_PANE_LISTS, 0, act_invert },
	{ { 'p' }, "p", "Pause", "pause or resume refreshing", UI_PANE_ALL, 0, act_pause },
	{ { ' ' }, "Space", NULL, "pause or resume refreshing", UI_PANE_ALL & ~UI_PANE_PARTS, 0, act_pause },
	{ { '+' }, "+", NULL, "refresh less often (longer interval)", UI_PANE_ALL, 0, act_slower },
	{ { '-' }, "-", NULL, "refresh more often (shorter interval)", UI_PANE_ALL, 0, act_faster },
	{ { KEY_F(5) }, "F5", NULL, "refresh now", UI_PANE_ALL, 0, act_refresh },
	{ { 'm' }, "m", "Members", "show or hide the group's members", UI_PANE_ALL, 0, act_members },
	{ { 'c' }, "c", NULL, "choose the cluster (from the config file)", UI_PANE_ALL, 0, act_cluster },
	{ { 'e' }, "e", NULL, "show the last collection error in full", UI_PANE_ALL, 0, act_error },
	{ { 'v' }, "v", NULL, "in the partitions pane: view the record at the committed offset and position (read-only)",
	  UI_PANE_PARTS, 0, ui_peek_open },
	{ { 't' }, "t", "Theme", "next colour theme", UI_PANE_ALL, 0, act_theme },
	{ { 'T' }, "T", "Topics", "topic view: topics, the groups reading each and their lag on it; T again: groups",
	  UI_PANE_ALL, 0, act_topics },
	/* the partitions pane's marks (htop's tags): R and D then act on the marked partitions only */
	{ { ' ' }, "Space", "Mark", "in the partitions pane: mark or unmark the partition and move down",
	  UI_PANE_PARTS, 0, act_mark },
	{ { 'u' }, "u", NULL, "in the partitions pane: clear the marks", UI_PANE_PARTS, 0, act_clear_marks },
	{ { 'M' }, "M", NULL, "mouse on or off (off: the terminal's own selection copies text)", UI_PANE_ALL, 0,
	  act_mouse },
	/* Offset resets: flagged UI_KEY_WRITES so that --read-only never offers them. */
	{ { 'R' }, "R", "Reset",
	  "reset the offsets of the group (of the marked partitions, or the one under the cursor; of the topic in a "
	  "topic's groups)", UI_PANE_ALL, UI_KEY_WRITES, act_reset },
	{ { 'U' }, "U", "Undo", "undo the group's last reset or delete (restore its newest backup)", UI_PANE_ALL,
	  UI_KEY_WRITES, act_undo },
	{ { 'D' }, "D", NULL,
	  "delete the group (or the committed offsets of the marked partitions, or of the one under the cursor)",
	  UI_PANE_ALL, UI_KEY_WRITES, act_delete },
};
#undef NARROW
#undef WIDE
/* clang-format on */

#define N_KEYS (sizeof key_table / sizeof key_table[0])

const struct ui_key_mode keys_main_mode = {
	.name = "Dashboard", .opened_by = NULL, .other_help = NULL, .keys = key_table, .n = N_KEYS, .other = NULL
};

static const struct ui_key_mode *const modes[] = { &keys_main_mode,  &keys_filter_mode,  &keys_clusters_mode,
						   &keys_popup_mode, &keys_columns_mode, &keys_sort_mode };

const struct ui_key_mode *keys_mode_at(size_t i)
{
	return i < sizeof modes / sizeof modes[0] ? modes[i] : NULL;
}

const struct ui_key *keys_at(size_t i)
{
	return i < N_KEYS ? &key_table[i] : NULL;
}

bool keys_enabled(const struct ui_key *k, bool read_only)
{
	return !(read_only && (k->flags & UI_KEY_WRITES));
}

bool keys_in_bar(const struct ui_key *k, int cols)
{
	if (!k->bar)
		return false;
	if (k->flags & UI_KEY_BAR_NARROW)
		return cols < UI_KEY_BAR_WIDE_COLS;
	if (k->flags & UI_KEY_BAR_WIDE)
		return cols >= UI_KEY_BAR_WIDE_COLS;
	return true;
}

bool keys_dispatch_mode(struct ui *u, const struct ui_key_mode *m, int code)
{
	bool known = false;
	for (size_t i = 0; i < m->n; i++) {
		const struct ui_key *k = &m->keys[i];
		if (!keys_enabled(k, u->read_only))
			continue;
		for (int j = 0; j < 3 && k->codes[j]; j++)
			if (k->codes[j] == code) {
				known = true;
				/* Space marks in the partitions pane and pauses elsewhere: the entry for this pane */
				if (k->panes & u->focus) {
					k->action(u);
					return true;
				}
			}
	}
	if (!known && m->other)
		m->other(u, code);
	return known;
}

bool keys_dispatch(struct ui *u, int code)
{
	return keys_dispatch_mode(u, &keys_main_mode, code);
}

char **keys_help_join(size_t n, const char *const *names, const char *const *helps, int name_width)
{
	char **lines = xcalloc(n + 1, sizeof *lines);
	size_t out = 0;
	for (size_t i = 0; i < n;) {
		char joined[64] = "";
		size_t j = i;
		for (; j < n && strcmp(helps[j], helps[i]) == 0; j++)
			snprintf(joined + strlen(joined), sizeof joined - strlen(joined), "%s%s", j > i ? ", " : "",
				 names[j]);
		lines[out++] = xasprintf("%-*s %s", name_width, joined, helps[i]);
		i = j;
	}
	lines[out] = NULL;
	return lines;
}

char **keys_mode_help_lines(const struct ui_key_mode *m, bool read_only, int name_width)
{
	const char **names = xcalloc(m->n + 1, sizeof *names), **helps = xcalloc(m->n + 1, sizeof *helps);
	size_t n = 0;
	for (size_t i = 0; i < m->n; i++)
		if (keys_enabled(&m->keys[i], read_only)) {
			names[n] = m->keys[i].name;
			helps[n++] = m->keys[i].help;
		}
	char **lines = keys_help_join(n, names, helps, name_width);
	free(names);
	free(helps);
	return lines;
}

char **keys_help_lines(bool read_only, int name_width)
{
	return keys_mode_help_lines(&keys_main_mode, read_only, name_width);
}

void keys_help_free(char **lines)
{
	if (!lines)
		return;
	for (size_t i = 0; lines[i]; i++)
		free(lines[i]);
	free(lines);
}
