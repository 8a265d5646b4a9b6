/* replay.c — mode_replay: --replay FILE [--at TIME], the dashboard on a recording. Every pane, sort
 * and filter works as on a cluster (the snapshots are the ones recorded); the replay keys
 * (replay_keys.c) move through time; nothing can reach a cluster (read-only, no cluster list). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/modes.h"
#include "config/config_file.h"
#include "record/record.h"
#include "ui/source.h"
#include "ui/tui.h"
#include "util/sanitize.h"
#include "ui/theme.h" /* locale_is_utf8 */

static int fail(const char *err)
{
	char *e = sanitize_dup(err, locale_is_utf8());
	fprintf(stderr, "lagtop: %s\n", e);
	free(e);
	return LT_EXIT_USAGE;
}

int mode_replay(const struct lt_options *o)
{
	char err[1024];
	rec_reader *r = rec_reader_open(o->replay_path, err, sizeof err);
	if (!r)
		return fail(err);
	size_t n = rec_reader_count(r), start = 0;
	if (o->replay_at) {
		int64_t t;
		if (rec_parse_at(o->replay_at, rec_reader_time(r, 0), rec_reader_time(r, n - 1), &t, err, sizeof err) !=
		    0) {
			rec_reader_close(r);
			return fail(err);
		}
		start = rec_reader_find(r, t);
	}
	struct tui_settings check = { .theme = o->theme };
	if (tui_theme_check(&check, err, sizeof err) != 0 || tui_terminal_check(err, sizeof err) != 0) {
		rec_reader_close(r);
		return fail(err);
	}
	char note[300] = "";
	if (rec_reader_note(r))
		snprintf(note, sizeof note, "%s", rec_reader_note(r));
	ui_source *src = source_replay_new(r, start, err, sizeof err); /* takes r over */
	if (!src)
		return fail(err);
	/* read-only: the second lock; R, U and D are refused by the replay keys first */
	struct tui_settings ts = { .theme = o->theme,
				   .read_only = true,
				   .no_color = o->no_color,
				   .ascii = o->ascii,
				   .no_mouse = o->no_mouse,
				   .note = note[0] ? note : NULL };
	/* of the configuration file, a replay takes only the panes' columns (as --demo) */
	struct lt_config file;
	if (config_load(&file, o->config_path, 0, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: warning: %s (the replay shows the default columns)\n", err);
		config_init_defaults(&file);
	}
	ts.columns = file.columns;
	ts.config_path = file.path;
	int rc = tui_run(&ts, src, o->interval_ms > 0 ? o->interval_ms : 2000, NULL);
	config_free(&file);
	source_free(src);
	if (note[0]) /* in the key bar at the start, and again after the dashboard, which hid it while it ran */
		fprintf(stderr, "lagtop: note: %s\n", note);
	return rc;
}
