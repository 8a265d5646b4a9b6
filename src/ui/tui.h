/* tui.h — the dashboard loop over any data source (source.h). mode_tui (live cluster) and
 * mode_demo (in-process simulated cluster), both in src/cli, end up here. */
#ifndef LAGTOP_UI_TUI_H
#define LAGTOP_UI_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "config/connection.h"
#include "model/columns.h"
#include "ui/source.h"

/* What the dashboard takes from the command line and the configuration (src/cli fills it: the dashboard
 * knows nothing of either). */
struct tui_settings {
	const char *theme; /* --theme, else the configuration's; NULL: "default", a broken one falling back to
			    * the built-in colours */
	bool read_only;    /* the first cluster's: --read-only or its read_only */
	bool no_color;     /* --no-color */
	bool ascii;        /* --ascii */
	bool no_mouse;     /* --no-mouse, or the configuration's mouse = false */
	const char *note;  /* in the key bar at the start, for TUI_NOTE_MS (a replayed file cut short); or NULL */
	const lt_colset *columns; /* each pane's columns (LT_ROW_KINDS of them, the configuration's); NULL: defaults */
	const char *config_path;  /* where the column setup (F2) saves them; NULL: no file was read */
};

/* How long the starting note stays in the key bar (a key's message: UI_MESSAGE_MS). */
#define TUI_NOTE_MS 10000

/* What the reset dialog (R, U) needs to reach the cluster shown. */
struct tui_reset_conf {
	const struct lt_connection *conn; /* borrowed: valid until the next cluster switch */
	int timeout_ms;                   /* --timeout */
	int64_t confirm_threshold;        /* general.reset_confirm_threshold */
};

/* The clusters the `c` key offers (from the config file). open() connects to cluster i and returns a
 * started source, with the cluster's interval and read-only flag (--read-only included); it must not wait
 * on the network.
 * The source it replaces goes to retire(), which must not block either (a collector's thread may be
 * in the middle of a refresh). */
struct tui_clusters {
	size_t n;
	const char *const *names;
	size_t current; /* n when the cluster shown is none of them (-b only) */
	ui_source *(*open)(void *ctx, size_t i, int *interval_ms, bool *read_only, char *err, size_t errlen);
	void (*retire)(void *ctx, ui_source *old);
	/* The connection settings of the cluster shown, for resets; NULL (or returning -1): no resets. */
	int (*reset_conf)(void *ctx, struct tui_reset_conf *out);
	void *ctx;
};

/* Runs the dashboard until the user quits or SIGTERM/SIGINT/SIGHUP. Restores the terminal on every
 * way out. clusters may be NULL (no `c` key). Returns an LT_EXIT_* status; errors before the screen
 * opens are printed ("lagtop: ..."). The caller has checked the terminal (tui_terminal_check). */
int tui_run(const struct tui_settings *s, ui_source *src, int interval_ms, struct tui_clusters *clusters);

/* The theme s asks for, checked before anything connects: a bad --theme or theme file is a usage error
 * that must fail at once, not after closing a connection to an unreachable cluster. 0, or -1 with err. */
int tui_theme_check(const struct tui_settings *s, char *err, size_t errlen);

/* 0 when stdin and stdout are a terminal that curses knows (TERM); else -1 with the one-line error
 * ("the dashboard needs a terminal ..."). The dashboard modes ask it before they connect anywhere. */
int tui_terminal_check(char *err, size_t errlen);

/* Offscreen draw benchmark (bench/bench_ui_draw): draws `frames` frames of cols x lines into
 * /dev/null, moving a page down each frame; with open_biggest, in the partitions pane of the
 * group with the most partitions. */
struct tui_bench {
	size_t rows; /* rows in the pane drawn */
	int frames;
	double rebuild_ms;   /* build + filter + sort of the rows, once (the topics pane: the topic view's too) */
	double ms_per_frame; /* layout + formatting of the visible rows + curses update */
};
/* The pane drawn: the groups pane, the biggest group's partitions, or the topic view's topics pane. */
enum tui_bench_pane { TUI_BENCH_GROUPS, TUI_BENCH_PARTITIONS, TUI_BENCH_TOPICS };
int tui_draw_bench(ui_source *src, int cols, int lines, int frames, enum tui_bench_pane pane, struct tui_bench *r,
		   char *err, size_t errlen);

#endif
