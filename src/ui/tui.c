/* tui.c — the dashboard loop and mode_tui.
 *
 * One thread, one loop (tmux's shape): poll() stdin, the source's wake fd and a self-pipe that the
 * signal handlers write to; every change only sets dirty flags; at the top of each pass the rows
 * are rebuilt if needed and the screen is drawn once. Nothing here waits on the network: the
 * collector thread does that and publishes immutable snapshots.
 */
#include "config.h"

#include "ui/tui.h"

#include <curses.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli/modes.h"
#include "config/config.h"
#include "kafka/collector.h"
#include "ui/keys.h"
#include "ui/replay.h"
#include "ui/ui.h"
#include "util/regex.h"
#include "util/sanitize.h"
#include "util/xalloc.h"
#include "util/timeutil.h"

#define KEY_ESC 27

/* ---- signals become events: the handlers only write the signal number to a pipe ---- */

static int sig_pipe[2] = {-1, -1};
static const int caught_signals[] = {SIGWINCH, SIGTERM, SIGINT, SIGHUP};
#define N_CAUGHT (sizeof caught_signals / sizeof caught_signals[0])
static struct sigaction saved_actions[N_CAUGHT];

static void on_signal(int sig)
{
	int saved = errno;
	unsigned char c = (unsigned char)sig;
	if (write(sig_pipe[1], &c, 1) < 0) {
		/* pipe full: an event of this kind is already queued */
	}
	errno = saved;
}

static int signals_install(char *err, size_t errlen)
{
	if (pipe2(sig_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
		return -1;
	}
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < N_CAUGHT; i++)
		sigaction(caught_signals[i], &sa, &saved_actions[i]);
	return 0;
}

static void signals_restore(void)
{
	for (size_t i = 0; i < N_CAUGHT; i++)
		sigaction(caught_signals[i], &saved_actions[i], NULL);
	for (int i = 0; i < 2; i++)
		if (sig_pipe[i] >= 0) {
			close(sig_pipe[i]);
			sig_pipe[i] = -1;
		}
}

/* Out-of-memory aborts restore the terminal first. */
static void restore_terminal(void)
{
	if (!isendwin())
		endwin();
}

/* ---- rows ---- */

static lt_row_kind list_kind_for(const struct ui *u, const struct ui_list *l)
{
	(void)u;
	return l->kind;
}

const lt_group *ui_open_group_ptr(const struct ui *u)
{
	if (!u->open_group || !u->snap)
		return NULL;
	return snapshot_find_group(u->snap, u->open_group);
}

/* Cells a name takes on screen. Plain ASCII (nearly every name) is its length, which is cheap over
 * 100,000 rows; anything else goes through the sanitizer's measure (escapes are wider). */
static int name_cells(const char *name, bool utf8)
{
	const unsigned char *p = (const unsigned char *)name;
	for (; *p; p++)
		if (*p < 0x20 || *p >= 0x7f)
			return display_width(name, utf8);
	return (int)(p - (const unsigned char *)name);
}

static void list_rebuild(struct ui *u, struct ui_list *l, const lt_group *group)
{
	lt_row *rows = NULL;
	size_t n = 0;

	if (u->snap && (l->kind == LT_ROWS_GROUPS || group))
		rows = rows_build(u->snap, list_kind_for(u, l), group, l->filter, &n);
	if (n)
		rows_sort(rows, n, l->sort_col, l->sort_desc);

	size_t cursor = l->cursor;
	if (l->has_sel) {
		for (size_t i = 0; i < n; i++)
			if (row_key_equal(&l->sel, &rows[i])) {
				cursor = i;
				break;
			}
	}
	if (cursor >= n)
		cursor = n ? n - 1 : 0;
	/* keep the cursor on the same screen line when its row moved */
	if (cursor != l->cursor) {
		size_t line = l->cursor >= l->top ? l->cursor - l->top : 0;
		l->top = cursor >= line ? cursor - line : 0;
	}
	l->cursor = cursor;
	free(l->rows);
	l->rows = rows;
	l->n_rows = n;
	row_key_clear(&l->sel);
	l->has_sel = n > 0;
	if (n)
		row_key_set(&l->sel, &rows[cursor]);

	int want = 0;
	for (size_t i = 0; i < n; i++) {
		const char *name = l->kind == LT_ROWS_GROUPS ? rows[i].group->group : rows[i].part->topic;
		int w = name_cells(name, !u->ascii);
		if (w > want)
			want = w;
	}
	l->name_want = want;
}

void ui_rebuild_rows(struct ui *u)
{
	list_rebuild(u, &u->groups, NULL);
	list_rebuild(u, &u->parts, ui_open_group_ptr(u));
	if (u->open_group) {
		size_t nm = screen_members_count(u);
		if (u->mem_cursor >= nm)
			u->mem_cursor = nm ? nm - 1 : 0;
	}
}

struct ui_list *ui_focused_list(struct ui *u)
{
	switch (u->focus) {
	case UI_PANE_GROUPS: return &u->groups;
	case UI_PANE_PARTS: return &u->parts;
	default: return NULL;
	}
}

int ui_page_rows(const struct ui *u)
{
	int h = u->focus == UI_PANE_GROUPS ? u->geom.main_h : u->geom.bottom_h;
	return h > 2 ? h - 2 : 1; /* title and header lines */
}

static void cursor_moved(struct ui *u, struct ui_list *l)
{
	row_key_clear(&l->sel);
	l->has_sel = l->n_rows > 0;
	if (l->n_rows)
		row_key_set(&l->sel, &l->rows[l->cursor]);
	/* hold re-sorting and new data while the user moves through the rows */
	u->hold_until = now_mono_ms() + UI_HOLD_MS;
	u->dirty |= UI_DIRTY_DRAW;
}

void ui_move(struct ui *u, long delta)
{
	struct ui_list *l = ui_focused_list(u);
	size_t *cursor, n;
	if (l) {
		cursor = &l->cursor;
		n = l->n_rows;
	} else {
		cursor = &u->mem_cursor;
		n = screen_members_count(u);
	}
	if (n == 0)
		return;
	long c = (long)*cursor + delta;
	if (c < 0)
		c = 0;
	if (c >= (long)n)
		c = (long)n - 1;
	*cursor = (size_t)c;
	if (l)
		cursor_moved(u, l);
	else
		u->dirty |= UI_DIRTY_DRAW;
}

void ui_move_to(struct ui *u, bool end)
{
	struct ui_list *l = ui_focused_list(u);
	size_t n = l ? l->n_rows : screen_members_count(u);
	ui_move(u, end ? (long)n : -(long)n);
}

void ui_set_message(struct ui *u, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(u->msg, sizeof u->msg, fmt, ap);
	va_end(ap);
	u->msg_until = now_mono_ms() + 2500;
	u->dirty |= UI_DIRTY_DRAW;
}

void ui_open_group(struct ui *u, const lt_group *g)
{
	free(u->open_group);
	u->open_group = xstrdup(g->group);
	u->parts.cursor = u->parts.top = 0;
	row_key_clear(&u->parts.sel);
	u->parts.has_sel = false;
	if (u->parts.filter) {
		filter_free(u->parts.filter);
		u->parts.filter = NULL;
	}
	u->mem_cursor = u->mem_top = 0;
	u->focus = u->show_members ? UI_PANE_MEMBERS : UI_PANE_PARTS;
	u->dirty |= UI_DIRTY_ROWS;
}

void ui_apply_filter_text(struct ui *u)
{
	struct ui_list *l = ui_focused_list(u);
	if (!l)
		return;
	u->filter_err[0] = '\0';
	lt_filter *f = NULL;
	if (u->filter_buf[0]) {
		f = filter_new(u->filter_buf, u->filter_err, sizeof u->filter_err);
		if (!f) {
			/* keep the last good filter while the regex is being typed */
			u->dirty |= UI_DIRTY_DRAW;
			return;
		}
	}
	if (l->filter)
		filter_free(l->filter);
	l->filter = f;
	u->hold_until = 0;
	u->dirty |= UI_DIRTY_ROWS;
}

void ui_next_theme(struct ui *u)
{
	char err[256] = "";
	for (size_t step = 1; step <= u->themes.n; step++) {
		size_t i = (u->theme_idx + step) % u->themes.n;
		struct ui_theme t;
		if (theme_list_load(&u->themes, i, &t, err, sizeof err) != 0)
			continue; /* a broken file is skipped, and said so below */
		u->theme_idx = i;
		u->theme = t;
		theme_apply(&u->theme, u->color);
		if (err[0])
			ui_set_message(u, "theme %s; skipped: %s", t.name, err);
		else
			ui_set_message(u, "theme %s%s", t.name, u->color ? "" : " (no colours on this terminal)");
		return;
	}
}

/* ---- input ---- */

static void filter_key(struct ui *u, int ch)
{
	size_t len = strlen(u->filter_buf);
	switch (ch) {
	case '\n':
	case '\r':
	case KEY_ENTER:
		u->filter_editing = false;
		u->filter_err[0] = '\0';
		u->dirty |= UI_DIRTY_DRAW;
		return;
	case KEY_ESC:
		u->filter_editing = false;
		u->filter_buf[0] = '\0';
		ui_apply_filter_text(u);
		return;
	case KEY_BACKSPACE:
	case 127:
	case 8:
		/* one whole UTF-8 character */
		while (len > 0 && ((unsigned char)u->filter_buf[len - 1] & 0xC0) == 0x80)
			len--;
		if (len > 0)
			len--;
		u->filter_buf[len] = '\0';
		ui_apply_filter_text(u);
		return;
	case 21: /* ^U */
		u->filter_buf[0] = '\0';
		ui_apply_filter_text(u);
		return;
	default: break;
	}
	if (ch >= 32 && ch < 256 && ch != 127) {
		if (len + 1 < sizeof u->filter_buf) {
			u->filter_buf[len] = (char)ch;
			u->filter_buf[len + 1] = '\0';
			ui_apply_filter_text(u);
		}
		return;
	}
	keys_dispatch(u, ch); /* arrows and the like still move */
}

static void switch_cluster(struct ui *u, size_t i)
{
	struct tui_clusters *cl = u->clusters;
	char err[512];
	int interval = u->interval_ms;
	bool ro = u->read_only;
	ui_source *src = cl->open(cl->ctx, i, &interval, &ro, err, sizeof err);
	if (!src) {
		ui_set_message(u, "%s", err);
		return;
	}
	cl->retire(cl->ctx, u->src);
	cl->current = i;
	u->src = src;
	u->interval_ms = interval;
	u->read_only = ro || u->opts->read_only;
	u->paused = false;
	/* everything shown belonged to the old cluster */
	if (u->next)
		snapshot_unref(u->next);
	u->next = NULL;
	free(u->open_group);
	u->open_group = NULL;
	u->show_members = false;
	u->focus = UI_PANE_GROUPS;
	u->groups.cursor = u->groups.top = 0;
	u->groups.has_sel = false;
	row_key_clear(&u->groups.sel);
	lt_snapshot *old = u->snap;
	u->snap = NULL;
	ui_rebuild_rows(u); /* empty: the rows pointed into the old snapshot */
	if (old)
		snapshot_unref(old);
	u->src->ops->set_interval(u->src, u->interval_ms);
	ui_set_message(u, "cluster %s", cl->names[i]);
	u->dirty |= UI_DIRTY_ROWS;
}

void ui_choose_cluster(struct ui *u)
{
	if (!u->clusters || u->clusters->n == 0) {
		ui_set_message(u, "no clusters to choose from: define them in the config file (see lagtop(1))");
		return;
	}
	u->popup = UI_POPUP_CLUSTERS;
	u->popup_top = u->clusters->current < u->clusters->n ? (int)u->clusters->current : 0;
	u->dirty |= UI_DIRTY_DRAW;
}

static void clusters_key(struct ui *u, int ch)
{
	int n = (int)u->clusters->n;
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (u->popup_top > 0)
			u->popup_top--;
		break;
	case KEY_DOWN:
	case 'j':
		if (u->popup_top + 1 < n)
			u->popup_top++;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
		u->popup = UI_POPUP_NONE;
		if ((size_t)u->popup_top != u->clusters->current)
			switch_cluster(u, (size_t)u->popup_top);
		break;
	case KEY_ESC:
	case 'q':
	case 'c': u->popup = UI_POPUP_NONE; break;
	default: return;
	}
	u->dirty |= UI_DIRTY_DRAW;
}

static void popup_key(struct ui *u, int ch)
{
	if (u->popup == UI_POPUP_CLUSTERS) {
		clusters_key(u, ch);
		return;
	}
	switch (ch) {
	case KEY_UP:
	case 'k':
		if (u->popup_top > 0)
			u->popup_top--;
		break;
	case KEY_DOWN:
	case 'j': u->popup_top++; break;
	case KEY_PPAGE: u->popup_top = u->popup_top > 10 ? u->popup_top - 10 : 0; break;
	case KEY_NPAGE:
	case ' ': u->popup_top += 10; break;
	case KEY_HOME: u->popup_top = 0; break;
	case KEY_ESC:
	case 'q':
	case '?':
	case '\n':
	case '\r':
	case KEY_ENTER:
	case 'e':
		u->popup = UI_POPUP_NONE;
		u->popup_top = 0;
		break;
	default: return;
	}
	u->dirty |= UI_DIRTY_DRAW;
}

static void on_resize(struct ui *u)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resize_term(ws.ws_row, ws.ws_col);
	/* the terminal has reflowed or cut what was on it: repaint everything, not a diff */
	clearok(curscr, TRUE);
	u->dirty |= UI_DIRTY_DRAW;
}

void ui_on_key(struct ui *u, int ch)
{
	/* Keys that arrive together (typed fast, pasted, sent by a script) are read in one batch: each must
	 * act on the rows the keys before it made. "/evil Enter m" must open evil's members, not those of
	 * the row that was selected before the filter applied — and the same for R on a reset. */
	if (u->dirty & UI_DIRTY_ROWS) {
		ui_rebuild_rows(u);
		u->dirty &= ~UI_DIRTY_ROWS;
		u->dirty |= UI_DIRTY_DRAW;
	}
	if (ch == KEY_RESIZE) {
		clearok(curscr, TRUE);
		u->dirty |= UI_DIRTY_DRAW;
		return;
	}
	if (replay_on_key(u, ch))
		return;
	if (u->popup == UI_POPUP_RESET) {
		ui_reset_key(u, ch);
		return;
	}
	if (u->popup != UI_POPUP_NONE) {
		popup_key(u, ch);
		return;
	}
	if (u->filter_editing) {
		filter_key(u, ch);
		return;
	}
	keys_dispatch(u, ch);
}

/* ---- the loop ---- */

void ui_take_snapshot(struct ui *u)
{
	lt_snapshot *s = u->src->ops->latest(u->src);
	if (!s)
		return;
	if (s == u->snap || s == u->next) {
		snapshot_unref(s);
		return;
	}
	if (u->next)
		snapshot_unref(u->next);
	else
		u->next_since = now_mono_ms();
	u->next = s;
}

void ui_adopt_next(struct ui *u, int64_t now)
{
	if (!u->next || (now < u->hold_until && now < u->next_since + UI_HOLD_MAX_MS))
		return;
	/* the rows point into the old snapshot: rebuild them before it goes */
	lt_snapshot *old = u->snap;
	u->snap = u->next;
	u->next = NULL;
	ui_rebuild_rows(u);
	u->dirty &= ~UI_DIRTY_ROWS;
	u->dirty |= UI_DIRTY_DRAW;
	if (old)
		snapshot_unref(old);
}

static int next_timeout(const struct ui *u, int64_t now)
{
	/* the top bar's clock ("updated 3s ago") ticks once a second */
	int64_t wall = now_wall_ms();
	int64_t t = 1000 - wall % 1000;
	if (u->next && u->hold_until > now) {
		int64_t until =
		    u->hold_until < u->next_since + UI_HOLD_MAX_MS ? u->hold_until : u->next_since + UI_HOLD_MAX_MS;
		if (until - now < t)
			t = until - now;
	}
	if (u->msg_until && u->msg_until > now && u->msg_until - now < t)
		t = u->msg_until - now;
	return t < 1 ? 1 : (int)t;
}

void ui_state_free(struct ui *u)
{
	ui_reset_free(u);
	struct ui_list *lists[] = {&u->groups, &u->parts};
	for (size_t i = 0; i < 2; i++) {
		free(lists[i]->rows);
		row_key_clear(&lists[i]->sel);
		if (lists[i]->filter)
			filter_free(lists[i]->filter);
	}
	row_key_clear(&u->detail);
	free(u->open_group);
	if (u->snap)
		snapshot_unref(u->snap);
	if (u->next)
		snapshot_unref(u->next);
	theme_list_free(&u->themes);
	replay_ui_free(u->replay);
}

int tui_interval_ms(const struct lt_options *o)
{
	return o->interval_ms > 0 ? o->interval_ms : 2000;
}

static int themes_init(struct ui *u, const struct lt_options *o, char *err, size_t errlen)
{
	char *dirs[5];
	size_t nd = theme_dirs(dirs, 5);
	theme_list_scan(&u->themes, (const char *const *)dirs, nd);
	for (size_t i = 0; i < nd; i++)
		free(dirs[i]);
	const char *want = o->theme ? o->theme : "default";
	int idx = theme_list_find(&u->themes, want);
	if (idx < 0) {
		char names[256] = "";
		for (size_t i = 0; i < u->themes.n; i++)
			snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", i ? ", " : "",
			         u->themes.e[i].name);
		char *safe = sanitize_dup(want, false);
		snprintf(err, errlen, "unknown theme '%s' (known: %s)", safe, names);
		free(safe);
		return -1;
	}
	if (theme_list_load(&u->themes, (size_t)idx, &u->theme, err, errlen) != 0) {
		if (o->theme)
			return -1;
		theme_builtin(&u->theme, false); /* a broken default.conf must not stop the dashboard */
	}
	u->theme_idx = (size_t)idx;
	return 0;
}

/* The chosen theme checked before anything connects: a bad --theme or theme file is a usage error
 * that must fail at once, not after closing a connection to an unreachable cluster. */
static int theme_preflight(const struct lt_options *o, char *err, size_t errlen)
{
	struct ui u;
	memset(&u, 0, sizeof u);
	int rc = themes_init(&u, o, err, errlen);
	theme_list_free(&u.themes);
	return rc;
}

void ui_state_init(struct ui *u, const struct lt_options *o, ui_source *src, int interval_ms)
{
	memset(u, 0, sizeof *u);
	u->opts = o;
	u->src = src;
	u->interval_ms = interval_ms;
	u->read_only = o->read_only;
	u->focus = UI_PANE_GROUPS;
	u->groups.kind = LT_ROWS_GROUPS;
	u->groups.sort_col = LT_COL_GROUP;
	u->parts.kind = LT_ROWS_PARTITIONS;
	u->parts.sort_col = LT_COL_TOPIC;
	u->ascii = o->ascii || !locale_is_utf8();
	u->glyphs = glyphs_get(u->ascii);
	u->replay = replay_ui_new(src);
}

int tui_run(const struct lt_options *o, ui_source *src, int interval_ms, struct tui_clusters *clusters)
{
	struct ui u;
	char err[512];
	int rc = LT_EXIT_OK;
	const char *nc = getenv("NO_COLOR");

	ui_state_init(&u, o, src, interval_ms);
	u.clusters = clusters;
	if (themes_init(&u, o, err, sizeof err) != 0) {
		/* a theme file's error quotes its bytes: terminal-safe, one line */
		char *safe = sanitize_dup(err, locale_is_utf8());
		fprintf(stderr, "lagtop: %s\n", safe);
		free(safe);
		ui_state_free(&u);
		return LT_EXIT_USAGE;
	}
	/* the terminal was checked by the caller (mode_tui, mode_demo), before anything connected */
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		const char *term = getenv("TERM");
		char *safe = sanitize_dup(term ? term : "", false);
		fprintf(stderr, "lagtop: cannot open the terminal (TERM='%s' unknown?)\n", safe);
		free(safe);
		ui_state_free(&u);
		return LT_EXIT_USAGE;
	}
	/* after newterm, so ours replace the handlers curses installs: a resize must wake poll() */
	if (signals_install(err, sizeof err) != 0) {
		endwin();
		delscreen(scr);
		fprintf(stderr, "lagtop: %s\n", err);
		ui_state_free(&u);
		return LT_EXIT_CLUSTER;
	}
	xalloc_set_fatal_hook(restore_terminal);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	u.color = !o->no_color && !(nc && *nc) && has_colors();
	if (u.color && start_color() != OK)
		u.color = false;
	theme_apply(&u.theme, u.color);

	u.src->ops->set_interval(u.src, u.interval_ms);
	ui_take_snapshot(&u);
	u.dirty = UI_DIRTY_ROWS | UI_DIRTY_DRAW;

	while (!u.quit) {
		int64_t now = now_mono_ms();
		ui_adopt_next(&u, now);
		if (u.msg_until && now >= u.msg_until) {
			u.msg[0] = '\0';
			u.msg_until = 0;
			u.dirty |= UI_DIRTY_DRAW;
		}
		if (u.dirty & UI_DIRTY_ROWS)
			ui_rebuild_rows(&u);
		if (u.dirty) {
			screen_draw(&u);
			u.dirty = 0;
		}

		/* poll() skips entries with a negative fd: no source wake fd, no reset job running */
		struct pollfd pfd[4] = {
		    {.fd = STDIN_FILENO, .events = POLLIN},
		    {.fd = sig_pipe[0], .events = POLLIN},
		    {.fd = u.src->ops->wake_fd(u.src), .events = POLLIN},
		    {.fd = ui_reset_fd(&u), .events = POLLIN},
		};
		int pr = poll(pfd, 4, next_timeout(&u, now));
		if (pr < 0 && errno != EINTR) {
			snprintf(err, sizeof err, "poll: %s", strerror(errno));
			rc = LT_EXIT_CLUSTER;
			break;
		}
		u.dirty |= UI_DIRTY_DRAW; /* the clock in the top bar moved */
		if (pr <= 0)
			continue;
		if (pfd[1].revents & POLLIN) {
			unsigned char sigs[32];
			ssize_t n = read(sig_pipe[0], sigs, sizeof sigs);
			for (ssize_t i = 0; i < n; i++) {
				if (sigs[i] == SIGWINCH)
					on_resize(&u);
				else
					u.quit = true;
			}
		}
		if (pfd[2].fd >= 0 && (pfd[2].revents & POLLIN)) {
			u.src->ops->ack(u.src);
			ui_take_snapshot(&u);
		}
		if (pfd[3].fd >= 0 && (pfd[3].revents & POLLIN))
			ui_reset_wake(&u);
		if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
			if (pfd[0].revents & (POLLHUP | POLLERR) && !(pfd[0].revents & POLLIN))
				u.quit = true; /* the terminal went away */
			int ch;
			while (!u.quit && (ch = getch()) != ERR)
				ui_on_key(&u, ch);
		}
	}

	erase();
	refresh();
	endwin();
	delscreen(scr);
	xalloc_set_fatal_hook(NULL);
	signals_restore();
	ui_state_free(&u);
	if (rc != LT_EXIT_OK)
		fprintf(stderr, "lagtop: %s\n", err);
	return rc;
}

/* ---- mode_tui: the dashboard on a live cluster ---- */

/* The clusters of the config file, and the collectors opened on them. A replaced collector is
 * freed on its own thread: its refresh may be waiting on a dead broker, and the UI must not. */
struct live {
	const struct lt_options *o;
	struct lt_config cfg;
	const char **names;
	lt_collector *cur;
	ui_source *cur_src; /* the source over cur, handed to the UI */
	struct rec_writer *rec; /* --record FILE: every refresh shown goes there (source_record.c); NULL: none */
	struct lt_cluster_conf cc; /* cur's cluster settings (the reset dialog connects with them) */
	size_t n_retiring;
	pthread_t *retiring;
};

static void *collector_free_thread(void *arg)
{
	collector_free(arg);
	return NULL;
}

/* How long quitting waits for the cluster connections to close, beyond the refresh timeout (a refresh
 * in progress ends at its own deadline first). */
#define SHUTDOWN_GRACE_MS 5000

/* Waits for a closing thread until the shutdown deadline; false when it is still running. librdkafka
 * 2.0.2's rd_kafka_destroy can block for as long as a coordinator lookup stays pending (a broker that
 * stays away): quitting must not turn into a process that lingers after its terminal is gone. */
static bool join_by(pthread_t t, const struct timespec *deadline)
{
	return pthread_timedjoin_np(t, NULL, deadline) == 0;
}

static void shutdown_deadline(struct timespec *ts, int timeout_ms)
{
	clock_gettime(CLOCK_REALTIME, ts);
	int64_t ns = ts->tv_nsec + (int64_t)(timeout_ms + SHUTDOWN_GRACE_MS) * 1000000;
	ts->tv_sec += (time_t)(ns / 1000000000);
	ts->tv_nsec = (long)(ns % 1000000000);
}

/* Connects to the cluster cc describes (taken over: kept in l->cc on success, freed otherwise). */
static lt_collector *live_connect(struct live *l, const struct lt_options *o, struct lt_cluster_conf cc,
				  int *interval_ms, bool *read_only, char *err, size_t errlen)
{
	/* -g (exact ids) and -G (regexes) replace the cluster's own include list; without them the config's
	 * list applies */
	size_t n_filter = o->n_groups + o->n_group_regex;
	char **filter = xcalloc(n_filter + 1, sizeof *filter);
	for (size_t i = 0; i < o->n_groups; i++)
		filter[i] = regex_for_exact(o->groups[i]);
	for (size_t i = 0; i < o->n_group_regex; i++)
		filter[o->n_groups + i] = xstrdup(o->group_regex[i]);
	struct lt_collector_conf conf = {
	    .cluster_name = cc.name ? cc.name : cc.bootstrap,
	    .bootstrap = cc.bootstrap,
	    .n_props = cc.n_props,
	    .prop_keys = (const char *const *)cc.prop_keys,
	    .prop_values = (const char *const *)cc.prop_values,
	    .n_group_regex = n_filter ? n_filter : cc.n_include,
	    .group_regex = n_filter ? (const char *const *)filter : (const char *const *)cc.include,
	    .n_extra_groups = o->n_groups,
	    .extra_groups = o->groups,
	    .n_group_exclude = cc.n_exclude,
	    .group_exclude = (const char *const *)cc.exclude,
	    .interval_ms = cc.refresh_ms,
	    .timeout_ms = o->timeout_ms,
	    .commit_stream = cc.commit_stream,
	    .expiry_horizon_ms = cc.expiry_horizon_ms,
	};
	lt_pos_sources_conf positions; /* the collector copies what it keeps */
	config_position_sources(&cc.positions, &positions);
	conf.positions = &positions;
	model_params_default(&conf.model);
	conf.model.allowed_lag = cc.lag_threshold;
	conf.model.time_lag_threshold_ms = cc.time_lag_threshold_ms;
	lt_collector *c = collector_new(&conf, err, errlen);
	for (size_t i = 0; i < n_filter; i++)
		free(filter[i]);
	free(filter);
	if (c && collector_start(c, err, errlen) != 0) {
		collector_free(c);
		c = NULL;
	}
	*interval_ms = cc.refresh_ms;
	*read_only = cc.read_only;
	if (c) {
		cluster_conf_free(&l->cc);
		l->cc = cc;
	} else {
		cluster_conf_free(&cc);
	}
	return c;
}

static int live_reset_conf(void *ctx, struct tui_reset_conf *out)
{
	struct live *l = ctx;
	if (!l->cc.bootstrap)
		return -1;
	out->conn = (struct lt_reset_conn_conf){
	    .cluster_name = l->cc.name ? l->cc.name : l->cc.bootstrap,
	    .bootstrap = l->cc.bootstrap,
	    .n_props = l->cc.n_props,
	    .prop_keys = (const char *const *)l->cc.prop_keys,
	    .prop_values = (const char *const *)l->cc.prop_values,
	    .timeout_ms = l->o->timeout_ms,
	};
	out->confirm_threshold = l->cc.reset_confirm_threshold;
	return 0;
}

static ui_source *live_open(void *ctx, size_t i, int *interval_ms, bool *read_only, char *err, size_t errlen)
{
	struct live *l = ctx;
	struct lt_cluster_conf cc;
	/* the file's cluster with its own bootstrap servers (config_select_switch says what carries over) */
	if (config_select_switch(&l->cfg, l->o, i, &cc, err, errlen) != 0)
		return NULL;
	lt_collector *c = live_connect(l, l->o, cc, interval_ms, read_only, err, errlen);
	if (!c)
		return NULL;
	pthread_t t;
	if (pthread_create(&t, NULL, collector_free_thread, l->cur) == 0) {
		l->retiring = xrealloc(l->retiring, (l->n_retiring + 1) * sizeof *l->retiring);
		l->retiring[l->n_retiring++] = t;
	} else {
		collector_free(l->cur);
	}
	l->cur = c;
	l->cur_src = source_record_new(source_collector_new(c), l->rec);
	return l->cur_src;
}

static void live_retire(void *ctx, ui_source *old)
{
	(void)ctx;
	source_free(old); /* the wrapper; its collector is being freed by live_open's thread */
}

int mode_tui(const struct lt_options *o)
{
	char err[1024];
	struct live l;
	memset(&l, 0, sizeof l);
	l.o = o;
	if (config_load(&l.cfg, o->config_path, stderr, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	int interval_ms;
	bool read_only;
	struct lt_cluster_conf cc;
	if (config_select(&l.cfg, o, &cc, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	struct lt_options eff = *o;
	eff.theme = o->theme ? o->theme : l.cfg.theme; /* --theme, else the config's */
	if (theme_preflight(&eff, err, sizeof err) != 0) {
		char *safe = sanitize_dup(err, locale_is_utf8());
		fprintf(stderr, "lagtop: %s\n", safe);
		free(safe);
		cluster_conf_free(&cc);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	/* before connecting: without a terminal the answer is immediate, not after the connection closes */
	if (tui_terminal_check(err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		cluster_conf_free(&cc);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	if (o->record_path && tui_record_open(&l.rec, o, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		cluster_conf_free(&cc);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	l.cur = live_connect(&l, o, cc, &interval_ms, &read_only, err, sizeof err); /* takes cc over */
	if (!l.cur) {
		fprintf(stderr, "lagtop: %s\n", err);
		tui_record_close(l.rec, NULL, 0);
		config_free(&l.cfg);
		return LT_EXIT_USAGE;
	}
	const char *first = l.cc.name;
	eff.read_only = read_only;

	struct tui_clusters clusters = {
	    .open = live_open, .retire = live_retire, .reset_conf = live_reset_conf, .ctx = &l};
	l.names = xcalloc(l.cfg.n_clusters + 1, sizeof *l.names);
	for (size_t i = 0; i < l.cfg.n_clusters; i++)
		l.names[i] = l.cfg.clusters[i].name;
	clusters.n = l.cfg.n_clusters;
	clusters.names = l.names;
	clusters.current = l.cfg.n_clusters;
	/* the cluster shown is the file's one unless -b or -X bootstrap.servers pointed it elsewhere */
	for (size_t i = 0; first && i < l.cfg.n_clusters; i++)
		if (strcmp(l.cfg.clusters[i].name, first) == 0 && l.cfg.clusters[i].bootstrap &&
		    strcmp(l.cfg.clusters[i].bootstrap, l.cc.bootstrap) == 0)
			clusters.current = i;

	l.cur_src = source_record_new(source_collector_new(l.cur), l.rec);
	int rc = tui_run(&eff, l.cur_src, interval_ms, &clusters);
	rc = tui_record_close(l.rec, l.cur_src, rc);
	source_free(l.cur_src);
	/* The terminal is restored by now; close the connections, but not forever (see join_by). */
	struct timespec deadline;
	shutdown_deadline(&deadline, o->timeout_ms);
	pthread_t closing;
	bool closed = true;
	if (pthread_create(&closing, NULL, collector_free_thread, l.cur) == 0)
		closed = join_by(closing, &deadline);
	else
		collector_free(l.cur);
	for (size_t i = 0; i < l.n_retiring; i++)
		closed = join_by(l.retiring[i], &deadline) && closed;
	if (!closed) {
		fprintf(stderr, "lagtop: the cluster connection did not close within %d s (a broker is unreachable); "
				"exiting without waiting\n",
			(o->timeout_ms + SHUTDOWN_GRACE_MS) / 1000);
		fflush(NULL);
		_exit(rc);
	}
	free(l.retiring);
	free(l.names);
	cluster_conf_free(&l.cc);
	config_free(&l.cfg);
	return rc;
}

/* ---- the offscreen draw benchmark ---- */

int tui_draw_bench(ui_source *src, int cols, int lines, int frames, bool open_biggest, struct tui_bench *r, char *err,
		   size_t errlen)
{
	struct lt_options o;
	struct ui u;
	memset(&o, 0, sizeof o);
	ui_state_init(&u, &o, src, 2000);
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");
	if (!out || !in) {
		snprintf(err, errlen, "cannot open /dev/null");
		if (out)
			fclose(out);
		if (in)
			fclose(in);
		return -1;
	}
	SCREEN *scr = newterm("xterm-256color", out, in);
	if (!scr) {
		snprintf(err, errlen, "no terminfo entry for xterm-256color");
		fclose(out);
		fclose(in);
		return -1;
	}
	resize_term(lines, cols);
	u.color = has_colors() && start_color() == OK;
	theme_builtin(&u.theme, false);
	theme_apply(&u.theme, u.color);

	ui_take_snapshot(&u);
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	ui_adopt_next(&u, now_mono_ms()); /* adopting rebuilds the rows */
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->rebuild_ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
	if (open_biggest && u.snap) {
		const lt_group *big = NULL;
		for (size_t i = 0; i < u.snap->n_groups; i++)
			if (!big || u.snap->groups[i].n_partitions > big->n_partitions)
				big = &u.snap->groups[i];
		if (big) {
			ui_open_group(&u, big);
			clock_gettime(CLOCK_MONOTONIC, &a);
			ui_rebuild_rows(&u);
			clock_gettime(CLOCK_MONOTONIC, &b);
			r->rebuild_ms = (double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6;
		}
	}
	struct ui_list *l = ui_focused_list(&u);
	r->rows = l ? l->n_rows : 0;
	screen_draw(&u);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < frames; i++) {
		ui_move(&u, ui_page_rows(&u) - 1); /* a page down per frame: new rows to format each time */
		screen_draw(&u);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	r->frames = frames;
	r->ms_per_frame = ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6) / frames;
	endwin();
	delscreen(scr);
	fclose(out);
	fclose(in);
	ui_state_free(&u);
	return 0;
}
