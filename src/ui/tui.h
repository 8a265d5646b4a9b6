/* tui.h — the dashboard loop over any data source (source.h). mode_tui (live cluster) and
 * mode_demo (in-process simulated cluster) both end up here. */
#ifndef LAGTOP_UI_TUI_H
#define LAGTOP_UI_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"
#include "kafka/reset_exec.h"
#include "ui/source.h"

/* What the reset dialog (R, U) needs to reach the cluster shown. */
struct tui_reset_conf {
	struct lt_reset_conn_conf conn; /* borrowed: valid until the next cluster switch */
	int64_t confirm_threshold;      /* general.reset_confirm_threshold */
};

/* The clusters the `c` key offers (from the config file). open() connects to cluster i and returns a
 * started source, with the cluster's interval and read-only flag; it must not wait on the network.
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
int tui_run(const struct lt_options *o, ui_source *src, int interval_ms, struct tui_clusters *clusters);

/* 0 when stdin and stdout are a terminal that curses knows (TERM); else -1 with the one-line error
 * ("the dashboard needs a terminal ..."). The dashboard modes ask it before they connect anywhere. */
int tui_terminal_check(char *err, size_t errlen);

/* --record FILE with the dashboard (source_record.c): opens the writer (-1 with err), and closes it
 * after the dashboard, saying on stderr why the recording stopped if it did; returns rc, or
 * LT_EXIT_CLUSTER when the recording failed. w NULL: nothing to do. */
struct rec_writer;
int tui_record_open(struct rec_writer **w, const struct lt_options *o, char *err, size_t errlen);
int tui_record_close(struct rec_writer *w, const ui_source *src, int rc);

/* The refresh interval the options ask for (default 2 s). */
int tui_interval_ms(const struct lt_options *o);

/* Offscreen draw benchmark (bench/bench_ui_draw): draws `frames` frames of cols x lines into
 * /dev/null, moving a page down each frame; with open_biggest, in the partitions pane of the
 * group with the most partitions. */
struct tui_bench {
	size_t rows; /* rows in the pane drawn */
	int frames;
	double rebuild_ms;   /* build + filter + sort of the rows, once */
	double ms_per_frame; /* layout + formatting of the visible rows + curses update */
};
int tui_draw_bench(ui_source *src, int cols, int lines, int frames, bool open_biggest, struct tui_bench *r, char *err,
		   size_t errlen);

#endif
