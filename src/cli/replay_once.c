/* replay_once.c — --replay FILE --once [--at TIME]: one recorded moment, printed as --once printed it
 * then (once_print: the same warnings, formats and --fail-on). Without --at, the last record. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cli/modes.h"
#include "cli/output.h"
#include "record/record.h"

int mode_replay_once(const struct lt_options *o)
{
	char err[1024];
	rec_reader *r = rec_reader_open(o->replay_path, err, sizeof err);
	if (!r) {
		char *e = output_sanitize(err);
		fprintf(stderr, "lagtop: %s\n", e);
		free(e);
		return LT_EXIT_USAGE;
	}
	size_t n = rec_reader_count(r);
	size_t i = n - 1;
	if (o->replay_at) {
		int64_t t;
		if (rec_parse_at(o->replay_at, rec_reader_time(r, 0), rec_reader_time(r, n - 1), &t, err, sizeof err) !=
		    0) {
			char *e = output_sanitize(err);
			fprintf(stderr, "lagtop: %s\n", e);
			free(e);
			rec_reader_close(r);
			return LT_EXIT_USAGE;
		}
		i = rec_reader_find(r, t);
	}
	if (rec_reader_note(r)) {
		char *e = output_sanitize(rec_reader_note(r));
		fprintf(stderr, "lagtop: warning: %s\n", e);
		free(e);
	}
	lt_snapshot *s = rec_reader_get(r, i, err, sizeof err);
	int rc;
	if (!s) {
		char *e = output_sanitize(err);
		fprintf(stderr, "lagtop: %s\n", e);
		free(e);
		rc = LT_EXIT_USAGE;
	} else {
		rc = once_print(o, s);
		snapshot_unref(s);
	}
	rec_reader_close(r);
	return rc;
}
