/* test_ui_draw.c — what the dashboard draws, read back from curses' screen (offscreen: the terminal is
 * /dev/null), on a fixed snapshot: a consumer-protocol (KIP-848) group whose members cannot be read shows
 * its state, "?" members, and says why in the members pane and the 'e' popup; a classic group beside it
 * keeps its count; the help lists the keys of every mode's table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <curses.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include "ui/theme.h"
#include "ui/ui.h"
#include "util/timeutil.h"
#include "util/xalloc.h"
#include "../lib/cmocka_main.h"
#include "../lib/lagtop_test.h"

#define COLS_  120
#define LINES_ 30

static struct tui_settings opts;

static lt_snapshot *snap(void)
{
	lt_snapshot *s = snapshot_new();
	s->seq = 1;
	test_add_kip848_group(s, "kip", LT_GROUP_STABLE);
	lt_group *c = snapshot_add_group(s, "classic");
	c->state = LT_GROUP_STABLE;
	c->type = LT_GTYPE_CLASSIC;
	lt_member *m = group_add_member(c, "m-1", "client-1", "/10.0.0.1");
	member_add_assignment(m, "t", 0);
	snapshot_finish(s);
	return s;
}

struct fx {
	struct ui u;
	ui_source *src;
	SCREEN *scr;
	FILE *out, *in;
};

/* A refresh 30 s ago that could not read "old", whose data was a minute old then. */
static lt_snapshot *stale_snap(void)
{
	lt_snapshot *s = snapshot_new();
	s->seq = 1;
	s->taken_at_ms = now_wall_ms() - 30000;
	lt_group *g = snapshot_add_group(s, "old");
	g->state = LT_GROUP_STABLE;
	g->stale_ms = 60000;
	g->error = xstrdup("not read this time");
	lt_group *f = snapshot_add_group(s, "fresh");
	f->state = LT_GROUP_STABLE;
	snapshot_finish(s);
	return s;
}

/* "wide": member a reads every fourth of clickstream's 96 partitions and orders 0-5 (wrapped over several lines at
 * 120 columns), b reads `b_topic`:7. seq tells two of them apart. */
static lt_snapshot *members_snap(int64_t seq, const char *b_topic)
{
	lt_snapshot *s = snapshot_new();
	s->seq = seq;
	lt_group *g = snapshot_add_group(s, "wide");
	g->state = LT_GROUP_STABLE;
	g->type = LT_GTYPE_CLASSIC;
	lt_member *a = group_add_member(g, "member-a", "client-a", "/10.0.0.1");
	for (int32_t p = 0; p < 96; p += 4)
		member_add_assignment(a, "clickstream", p);
	for (int32_t p = 0; p < 6; p++)
		member_add_assignment(a, "orders", p);
	lt_member *b = group_add_member(g, "member-b", "client-b", "/10.0.0.2");
	member_add_assignment(b, b_topic, 7);
	snapshot_finish(s);
	return s;
}

static int setup_with(void **state, lt_snapshot *s)
{
	static struct fx f;
	memset(&f, 0, sizeof f);
	memset(&opts, 0, sizeof opts);
	f.src = source_fixed_new(s, NULL, 0);
	snapshot_unref(s);
	f.out = fopen("/dev/null", "w");
	f.in = fopen("/dev/null", "r");
	assert_non_null(f.out);
	assert_non_null(f.in);
	f.scr = newterm("xterm-256color", f.out, f.in);
	assert_non_null(f.scr);
	resize_term(LINES_, COLS_);
	ui_state_init(&f.u, &opts, f.src, 2000);
	f.u.color = false;
	theme_builtin(&f.u.theme, true);
	theme_apply(&f.u.theme, false);
	ui_take_snapshot(&f.u);
	ui_adopt_next(&f.u, now_mono_ms());
	*state = &f;
	return 0;
}

static int setup(void **state)
{
	return setup_with(state, snap());
}

static int setup_members(void **state)
{
	return setup_with(state, members_snap(1, "audit"));
}

static int setup_stale(void **state)
{
	return setup_with(state, stale_snap());
}

static int teardown(void **state)
{
	struct fx *f = *state;
	ui_state_free(&f->u);
	source_free(f->src);
	endwin();
	delscreen(f->scr);
	fclose(f->out);
	fclose(f->in);
	return 0;
}

/* Draws and returns the screen line holding `needle` (NULL if none). */
static const char *screen_line(struct ui *u, const char *needle)
{
	static char line[256]; /* the screen may be wider than COLS_ */
	screen_draw(u);
	for (int y = 0; y < LINES_; y++) {
		mvinnstr(y, 0, line, COLS < 255 ? COLS : 255);
		if (strstr(line, needle))
			return line;
	}
	return NULL;
}

/* Draws and returns the screen line that starts with the word `name` (a row of the groups pane). */
static const char *screen_row(struct ui *u, const char *name)
{
	static char line[COLS_ + 1];
	screen_draw(u);
	size_t n = strlen(name);
	for (int y = 0; y < LINES_; y++) {
		mvinnstr(y, 0, line, COLS_);
		if (strncmp(line, name, n) == 0 && line[n] == ' ')
			return line;
	}
	return NULL;
}

/* The words of a line, split on blanks. */
static size_t words(const char *line, char w[][32], size_t max)
{
	size_t n = 0;
	char buf[COLS_ + 1];
	snprintf(buf, sizeof buf, "%s", line);
	for (char *tok = strtok(buf, " |"); tok && n < max; tok = strtok(NULL, " |"))
		snprintf(w[n++], 32, "%s", tok);
	return n;
}

/* The words of name's screen row into w: the row must be drawn, with at least three words. */
static void row_words(struct ui *u, const char *name, char w[16][32])
{
	const char *l = screen_row(u, name);
	assert_non_null(l);
	assert_true(words(l, w, 16) >= 3);
}

static void groups_pane_shows_state_and_unknown_members(void **state)
{
	struct fx *f = *state;
	char w[16][32];
	row_words(&f->u, "kip", w);
	/* GROUP STATE MEMBERS ... */
	assert_string_equal(w[0], "kip");
	assert_string_equal(w[1], "Stable");
	assert_string_equal(w[2], "?");
	row_words(&f->u, "classic", w);
	assert_string_equal(w[2], "1");
}

static void members_pane_and_error_popup_say_why(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	test_ui_keys(u, "\n"); /* open the selected group: "classic" sorts first */
	assert_non_null(u->open_group);
	if (strcmp(u->open_group, "kip") != 0) {
		test_ui_keys(u, "\x1bj\n");
		assert_string_equal(u->open_group, "kip");
	}
	test_ui_keys(u, "m");
	assert_true(u->show_members);
	assert_non_null(screen_line(u, "Members of kip (type consumer)"));
	assert_non_null(screen_line(u, "(" LT_MEMBERS_UNREADABLE_NOTE ")"));
	assert_null(screen_line(u, "no members: the group is empty"));
	test_ui_keys(u, "\x1b");
	test_ui_keys(u, "e");
	assert_int_equal(u->popup, UI_POPUP_ERROR);
	assert_non_null(screen_line(u, "group kip: " LT_MEMBERS_UNREADABLE_NOTE));
	assert_null(screen_line(u, "group classic:"));
}

/* A row the refresh could not read says "stale" and its data's age, which grows with the clock after the
 * refresh: a minute old when read 30 s ago is a minute and a half old now. A row read this time has no mark. */
static void stale_rows_age_with_the_clock(void **state)
{
	struct fx *f = *state;
	char w[16][32];
	row_words(&f->u, "old", w);
	assert_string_equal(w[1], "stale");
	assert_true(strncmp(w[2], "1m3", 3) == 0); /* 1m30s, and a few seconds more on a slow machine */
	const char *l = screen_row(&f->u, "fresh");
	assert_non_null(l);
	assert_null(strstr(l, "stale"));
}

/* A refresh of a cluster with a long name that could not read everything and failed part way: at 80 columns the
 * top bar cannot hold all of it, and each alert it shows keeps its "(e)", the key that explains it. */
static lt_snapshot *unread_snap(void)
{
	lt_snapshot *s = snapshot_new();
	s->seq = 1;
	s->taken_at_ms = now_wall_ms();
	s->cluster = xstrdup("payments-eu-west-1-prod");
	s->brokers_up = 3;
	s->brokers_total = 3;
	s->error = xstrdup("Local: Broker transport failure (after 3001ms in state UP)");
	for (int i = 0; i < 12; i++) {
		char name[16];
		snprintf(name, sizeof name, "g-%02d", i);
		lt_group *g = snapshot_add_group(s, name);
		g->state = LT_GROUP_STABLE;
		g->unread = i < 10;
	}
	snapshot_add_unread(s, NULL, 2, "ListGroups: Local: Timed out");
	snapshot_finish(s);
	snapshot_count_unread(s);
	return s;
}

static int setup_unread(void **state)
{
	return setup_with(state, unread_snap());
}

/* The top bar drawn `cols` wide, its trailing blanks cut, into bar. */
static void top_bar_at(struct fx *f, int cols, char *bar, size_t size)
{
	resize_term(LINES_, cols);
	const char *l = screen_line(&f->u, "payments-eu-west-1-prod");
	assert_non_null(l);
	snprintf(bar, size, "%s", l);
	for (size_t n = strlen(bar); n > 0 && bar[n - 1] == ' '; n--)
		bar[n - 1] = '\0';
	assert_true(strlen(bar) <= (size_t)cols);
}

/* The top bar's alerts at 160 columns whole; narrower, the one cut at the edge still ends with its "(e)". */
static void top_bar_keeps_each_alerts_key_when_cut(void **state)
{
	struct fx *f = *state;
	char bar[256];
	top_bar_at(f, 160, bar, sizeof bar);
	assert_non_null(strstr(bar, "| 10 unread, lists missing (e) | error: Local: Broker transport failure (after "
				    "3001ms in state UP) (e) |"));
	/* 100 columns: the unread count whole, the error cut */
	top_bar_at(f, 100, bar, sizeof bar);
	assert_non_null(strstr(bar, "| 10 unread, lists missing (e) | error: Loc"));
	assert_string_equal(bar + strlen(bar) - 5, "~ (e)");
	/* 80 columns and a long cluster name: the unread count cut, nothing after it */
	top_bar_at(f, 80, bar, sizeof bar);
	assert_non_null(strstr(bar, "| 10 unread, "));
	assert_null(strstr(bar, "error"));
	assert_string_equal(bar + strlen(bar) - 5, "~ (e)");
}

/* The members pane's lines below its header: each member's partitions column, a member's continuation lines
 * (blank before PARTITIONS) joined to its first; returns how many members, their first lines in first[]. */
static size_t members_shown(struct ui *u, char texts[][1024], int first[], size_t max)
{
	char line[COLS_ + 1];
	screen_draw(u);
	int header = -1, x = -1;
	for (int y = 0; y < LINES_ && header < 0; y++) {
		mvinnstr(y, 0, line, COLS_);
		char *p = strstr(line, "PARTITIONS");
		if (p && strstr(line, "MEMBER-ID"))
			header = y, x = (int)(p - line);
	}
	assert_true(header >= 0);
	size_t n = 0;
	for (int y = header + 1; y < LINES_ - 1; y++) {
		mvinnstr(y, 0, line, COLS_);
		char *part = line + x;
		for (char *e = part + strlen(part); e > part && e[-1] == ' ';)
			*--e = '\0';
		if (!part[0])
			break;
		bool cont = strspn(line, " ") >= (size_t)x;
		if (!cont) {
			assert_true(n < max);
			first[n] = y - header - 1;
			texts[n++][0] = '\0';
		}
		assert_true(n > 0);
		strncat(texts[n - 1], part, 1023 - strlen(texts[n - 1]));
	}
	return n;
}

/* m: each member's partitions in full, wrapped under PARTITIONS at commas (none cut, none lost), a click finds
 * the member on any of its lines; a new snapshot's assignment replaces the old at once. */
static void members_pane_wraps_each_members_partitions(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	test_ui_keys(u, "\n");
	assert_string_equal(u->open_group, "wide");
	test_ui_keys(u, "m");
	assert_true(u->show_members);
	char texts[4][1024], want[1024] = "clickstream:";
	int first[4];
	for (int p = 0; p < 96; p += 4)
		snprintf(want + strlen(want), sizeof want - strlen(want), "%s%d", p ? "," : "", p);
	strncat(want, "orders:0-5", sizeof want - strlen(want) - 1); /* the blank between topics ends a line or stays */
	size_t n = members_shown(u, texts, first, 4);
	assert_int_equal(n, 2);
	char joined[1024];
	size_t o = 0;
	for (const char *p = texts[0]; *p; p++) /* without the blank between the topics */
		if (*p != ' ')
			joined[o++] = *p;
	joined[o] = '\0';
	assert_string_equal(joined, want);
	assert_string_equal(texts[1], "audit:7");
	assert_true(first[1] >= 2); /* a took two lines at least */
	for (int line = 0; line < first[1]; line++)
		assert_int_equal(screen_member_at(u, line), 0);
	assert_int_equal(screen_member_at(u, first[1]), 1);
	assert_int_equal(screen_member_at(u, first[1] + 1), SIZE_MAX);
	/* the next refresh moved b to another topic: shown at once, nothing of the old text left */
	lt_snapshot *next = members_snap(2, "billing");
	source_fixed_set(f->src, next);
	snapshot_unref(next);
	ui_take_snapshot(u);
	ui_adopt_next(u, now_mono_ms());
	n = members_shown(u, texts, first, 4);
	assert_int_equal(n, 2);
	assert_string_equal(texts[1], "billing:7");
}

/* A cluster nothing listens on: the record popup's read fails quickly. */
static int nowhere_conf(void *ctx, struct tui_reset_conf *out)
{
	static struct lt_connection conn = { .name = (char *)"c", .bootstrap = (char *)"127.0.0.1:1" };
	(void)ctx;
	*out = (struct tui_reset_conf){ .conn = &conn, .timeout_ms = 300 };
	return 0;
}

/* v on a partition: the popup says it is reading, then shows the read's answer; its lines are made when the
 * answer arrives, not again at each draw (a redraw shows the very same lines). */
static void record_popup_is_formatted_once(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	struct tui_clusters cl = { .reset_conf = nowhere_conf };
	u->clusters = &cl;
	test_ui_keys(u, "\n");
	if (strcmp(u->open_group, "kip") != 0)
		test_ui_keys(u, "\x1bj\n");
	assert_string_equal(u->open_group, "kip");
	assert_int_equal(u->focus, UI_PANE_PARTS);
	test_ui_keys(u, "v");
	assert_int_equal(u->popup, UI_POPUP_PEEK);
	assert_non_null(screen_line(u, "Record of fx-orders:1 (read-only)"));
	assert_non_null(screen_line(u, "reading..."));
	int fd = ui_peek_fd(u);
	assert_true(fd >= 0);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	assert_int_equal(poll(&pfd, 1, 20000), 1);
	ui_peek_wake(u);
	assert_null(screen_line(u, "reading..."));
	assert_non_null(screen_line(u, "committed 650:"));
	const char *title1, *title2;
	size_t n1, n2;
	char *const *lines1 = ui_peek_lines(u, &title1, &n1);
	assert_non_null(screen_line(u, "committed 650:"));
	char *const *lines2 = ui_peek_lines(u, &title2, &n2);
	assert_true(n1 > 1);
	assert_int_equal(n1, n2);
	assert_ptr_equal(lines1, lines2);
	for (size_t i = 0; i < n1; i++)
		assert_ptr_equal(lines1[i], lines2[i]);
	assert_ptr_equal(title1, title2);
	ui_peek_free(u);
	u->clusters = NULL;
}

/* The help lists each mode's keys from its table, under its heading: scrolled through line by line. */
static void help_lists_every_modes_keys(void **state)
{
	struct fx *f = *state;
	struct ui *u = &f->u;
	test_ui_keys(u, "?");
	assert_int_equal(u->popup, UI_POPUP_HELP);
	const char *want[] = {
		"Filter prompt (/, F3, F4):",           "Backspace    delete the last character",
		"^U           clear the text",          "Cluster chooser (c):",
		"Esc, q, c    close without switching", "Popups (this help, Enter on a partition, e, v):",
		"PgDn, f, ^F  scroll a page down",      "other keys   do nothing",
		"Reset and delete dialog (R, U, D):",   "Left, Right, Tab in the preview: switch"
	};
	bool seen[sizeof want / sizeof want[0]] = { false };
	for (int step = 0; step < 300; step++) {
		for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
			seen[i] = seen[i] || screen_line(u, want[i]) != NULL;
		test_ui_keys(u, "j"); /* the popup's table: one line down */
	}
	for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
		if (!seen[i])
			fail_msg("the help never showed '%s'", want[i]);
	test_ui_keys(u, "q"); /* the popup's table: q closes the popup, it does not quit */
	assert_int_equal(u->popup, UI_POPUP_NONE);
	assert_false(u->quit);
}

static const struct CMUnitTest tests[] = {
	LT_FIXTURE_TEST(groups_pane_shows_state_and_unknown_members),
	LT_FIXTURE_TEST(members_pane_and_error_popup_say_why),
	LT_FIXTURE_TEST(help_lists_every_modes_keys),
	cmocka_unit_test_setup_teardown(stale_rows_age_with_the_clock, setup_stale, teardown),
	LT_FIXTURE_TEST(record_popup_is_formatted_once),
	cmocka_unit_test_setup_teardown(members_pane_wraps_each_members_partitions, setup_members, teardown),
	cmocka_unit_test_setup_teardown(top_bar_keeps_each_alerts_key_when_cut, setup_unread, teardown),
};

LT_TEST_MAIN(NULL, NULL)
