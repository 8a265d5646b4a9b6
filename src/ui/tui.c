/* tui.c — the dashboard loop: the terminal, signals, poll() and its timeout (tui_run).
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
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ui/ui.h"
#include "util/exit_status.h"
#include "util/sanitize.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* ---- signals become events: the handlers only write the signal number to a pipe ---- */

static int sig_pipe[2] = { -1, -1 };
static const int caught_signals[] = { SIGWINCH, SIGTERM, SIGINT, SIGHUP };
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

static void on_resize(struct ui *u)
{
	struct winsize ws;
	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 && ws.ws_col > 0)
		resize_term(ws.ws_row, ws.ws_col);
	/* the terminal has reflowed or cut what was on it: repaint everything, not a diff */
	clearok(curscr, TRUE);
	u->dirty |= UI_DIRTY_DRAW;
}

/* ---- the loop ---- */

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

/* curses' settings for the dashboard, after newterm; colours unless --no-color, NO_COLOR or the terminal says no. */
static void terminal_setup(struct ui *u, const struct tui_settings *o)
{
	const char *nc = getenv("NO_COLOR");
	xalloc_set_fatal_hook(restore_terminal);
	cbreak();
	noecho();
	keypad(stdscr, TRUE);
	nodelay(stdscr, TRUE);
	set_escdelay(25);
	curs_set(0);
	ui_set_mouse(u, u->mouse);
	u->color = !o->no_color && !(nc && *nc) && has_colors();
	if (u->color && start_color() != OK)
		u->color = false;
	theme_apply(&u->theme, u->color);
}

/* The top of a pass: adopt new data unless held, expire the message, rebuild the rows if needed, draw once. */
static void draw_pass(struct ui *u, int64_t now)
{
	ui_adopt_next(u, now);
	if (u->msg_until && now >= u->msg_until) {
		u->msg[0] = '\0';
		u->msg_until = 0;
		u->dirty |= UI_DIRTY_DRAW;
	}
	if (u->dirty & UI_DIRTY_ROWS)
		ui_rebuild_rows(u);
	if (u->dirty) {
		screen_draw(u);
		u->dirty = 0;
	}
}

static void read_signals(struct ui *u)
{
	unsigned char sigs[32];
	ssize_t n = read(sig_pipe[0], sigs, sizeof sigs);
	for (ssize_t i = 0; i < n; i++) {
		if (sigs[i] == SIGWINCH)
			on_resize(u);
		else
			u->quit = true;
	}
}

/* One poll() and the events it returned: signals, a new snapshot, the reset worker, keys. -1 and err when
 * poll() itself failed. */
static int wait_events(struct ui *u, int64_t now, char *err, size_t errlen)
{
	/* poll() skips entries with a negative fd: no source wake fd, no reset job running */
	struct pollfd pfd[5] = {
		{ .fd = STDIN_FILENO, .events = POLLIN },
		{ .fd = sig_pipe[0], .events = POLLIN },
		{ .fd = u->src->ops->wake_fd(u->src), .events = POLLIN },
		{ .fd = ui_reset_fd(u), .events = POLLIN },
		{ .fd = ui_peek_fd(u), .events = POLLIN },
	};
	int pr = poll(pfd, 5, next_timeout(u, now));
	if (pr < 0 && errno != EINTR) {
		snprintf(err, errlen, "poll: %s", strerror(errno));
		return -1;
	}
	u->dirty |= UI_DIRTY_DRAW; /* the clock in the top bar moved */
	if (pr <= 0)
		return 0;
	if (pfd[1].revents & POLLIN)
		read_signals(u);
	if (pfd[2].fd >= 0 && (pfd[2].revents & POLLIN)) {
		u->src->ops->ack(u->src);
		ui_take_snapshot(u);
	}
	if (pfd[3].fd >= 0 && (pfd[3].revents & POLLIN))
		ui_reset_wake(u);
	if (pfd[4].fd >= 0 && (pfd[4].revents & POLLIN))
		ui_peek_wake(u);
	if (pfd[0].revents & (POLLIN | POLLHUP | POLLERR)) {
		if (pfd[0].revents & (POLLHUP | POLLERR) && !(pfd[0].revents & POLLIN))
			u->quit = true; /* the terminal went away */
		int ch;
		while (!u->quit && (ch = getch()) != ERR)
			ui_on_key(u, ch);
	}
	return 0;
}

/* The terminal (newterm on stdin and stdout), then our signal handlers; NULL with err and *rc when either
 * fails. The terminal was checked by the caller (mode_tui, mode_demo), before anything connected. */
static SCREEN *terminal_open(char *err, size_t errlen, int *rc)
{
	SCREEN *scr = newterm(NULL, stdout, stdin);
	if (!scr) {
		const char *term = getenv("TERM");
		char *safe = sanitize_dup(term ? term : "", false);
		snprintf(err, errlen, "cannot open the terminal (TERM='%s' unknown?)", safe);
		free(safe);
		*rc = LT_EXIT_USAGE;
		return NULL;
	}
	/* after newterm, so ours replace the handlers curses installs: a resize must wake poll() */
	if (signals_install(err, errlen) != 0) {
		endwin();
		delscreen(scr);
		*rc = LT_EXIT_CLUSTER;
		return NULL;
	}
	return scr;
}

int tui_run(const struct tui_settings *o, ui_source *src, int interval_ms, struct tui_clusters *clusters)
{
	struct ui u;
	char err[512];
	int rc = LT_EXIT_OK;

	ui_state_init(&u, o, src, interval_ms);
	u.clusters = clusters;
	if (ui_themes_init(&u, o, err, sizeof err) != 0) {
		/* a theme file's error quotes its bytes: terminal-safe, one line */
		char *safe = sanitize_dup(err, locale_is_utf8());
		fprintf(stderr, "lagtop: %s\n", safe);
		free(safe);
		ui_state_free(&u);
		return LT_EXIT_USAGE;
	}
	SCREEN *scr = terminal_open(err, sizeof err, &rc);
	if (!scr) {
		fprintf(stderr, "lagtop: %s\n", err);
		ui_state_free(&u);
		return rc;
	}
	terminal_setup(&u, o);

	u.src->ops->set_interval(u.src, u.interval_ms);
	ui_take_snapshot(&u);
	u.dirty = UI_DIRTY_ROWS | UI_DIRTY_DRAW;
	if (o->note) /* longer than a key's message: it is about what the whole session shows */
		ui_set_message_for(&u, TUI_NOTE_MS, "note: %s", o->note);

	while (!u.quit) {
		int64_t now = now_mono_ms();
		draw_pass(&u, now);
		if (wait_events(&u, now, err, sizeof err) != 0) {
			rc = LT_EXIT_CLUSTER;
			break;
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
