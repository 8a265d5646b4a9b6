/* once.c — --once: one refresh (or --samples N, --interval apart), print, exit. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli/modes.h"
#include "cli/output.h"
#include "cli/target.h"
#include "cli/unread.h"
#include "kafka/collector.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static void sleep_ms(int64_t ms)
{
	if (ms <= 0)
		return;
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000L };
	while (nanosleep(&ts, &ts) != 0) {
	}
}

/* Errors are printed as warnings: --once still prints what it has (stale data is marked in JSON). */
static void print_warnings(const lt_snapshot *s)
{
	if (s->error) {
		char *e = output_sanitize(s->error);
		fprintf(stderr, "lagtop: warning: %s\n", e);
		free(e);
	}
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		if (!g->error || g->unread) /* unread groups: one line per cause below */
			continue;
		char *name = output_sanitize(g->group), *e = output_sanitize(g->error);
		if (g->stale_ms > 0) {
			char age[32];
			output_duration(age, sizeof age, g->stale_ms);
			fprintf(stderr, "lagtop: warning: group %s: %s (showing data %s old)\n", name, e, age);
		} else {
			fprintf(stderr, "lagtop: warning: group %s: %s\n", name, e);
		}
		free(name);
		free(e);
	}
	unread_warn(stderr, s);
	/* The table has no room to say why a group's owners are "?": one line for all such groups. */
	output_warn_unreadable(stderr, s);
	/* Offsets about to expire: the group will restart from auto.offset.reset when it comes back. */
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		if (g->n_expired > 0) {
			char *name = output_sanitize(g->group);
			fprintf(stderr,
				"lagtop: warning: group %s: the broker expired its committed offsets on %zu "
				"partition%s (offsets.retention.minutes): on restart its consumers start from their "
				"auto.offset.reset, which the broker does not know\n",
				name, g->n_expired, g->n_expired == 1 ? "" : "s");
			free(name);
		}
		if (!g->has_expiry || !g->expiry_warn)
			continue;
		char *name = output_sanitize(g->group);
		char in[32];
		output_duration(in, sizeof in, g->expires_in_ms);
		if (g->expires_in_ms <= 0)
			fprintf(stderr,
				"lagtop: warning: group %s: committed offsets are past their retention and will be "
				"deleted at the broker's next expiry check\n",
				name);
		else
			fprintf(stderr,
				"lagtop: warning: group %s: committed offsets expire in %s "
				"(offsets.retention.minutes after the last commit or after the group became Empty)\n",
				name, in);
		free(name);
	}
}

/* --fail-on: LT_EXIT_FAIL_ON when a printed group's status is at or above the threshold. A group whose status
 * is not evaluated yet (fewer samples than the window) counts neither as failing nor as OK: it cannot fail
 * the run, and one line on stderr says how many such groups there were, so a cron job taking too few
 * samples is told instead of passing silently. A WARN or ERR with "complete": false counts (a lower bound). */
static int fail_on_verdict(const lt_snapshot *s, lt_fail_on fail_on)
{
	if (fail_on == LT_FAIL_ON_NONE)
		return LT_EXIT_OK;
	lt_status threshold = fail_on == LT_FAIL_ON_ERR ? LT_STATUS_ERR : LT_STATUS_WARN;
	size_t failing = 0, unevaluated = 0;
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		if (status_at_least(g->status, threshold))
			failing++;
		else if (!status_evaluated(g->status))
			unevaluated++;
	}
	if (unevaluated)
		fprintf(stderr,
			"lagtop: --fail-on: %zu of %zu groups have no status yet and are not counted "
			"(a status needs %zu samples: --samples %zu)\n",
			unevaluated, s->n_groups, s->status_window, s->status_window);
	return failing ? LT_EXIT_FAIL_ON : LT_EXIT_OK;
}

int once_print(const struct lt_options *o, const lt_snapshot *s)
{
	int rc;
	print_warnings(s);
	int wr = 0;
	switch (o->format) {
	case LT_FORMAT_JSON: wr = output_json(stdout, s); break;
	case LT_FORMAT_CSV: wr = output_csv(stdout, s); break;
	case LT_FORMAT_PROMETHEUS: wr = output_prometheus(stdout, s); break;
	case LT_FORMAT_TABLE:
	default: output_table(stdout, s); break;
	}
	if (fflush(stdout) != 0 || wr != 0) {
		fprintf(stderr, "lagtop: cannot write the output\n");
		rc = LT_EXIT_CLUSTER;
	} else {
		/* a group found failing is a finding whatever else was not read; otherwise a refresh that did
		 * not read every group cannot say "all fine" */
		rc = fail_on_verdict(s, o->fail_on);
		if (rc == LT_EXIT_OK)
			rc = unread_exit(s, rc);
	}
	return rc;
}

int mode_once(const struct lt_options *o)
{
	struct lt_target t;
	char err[1024];
	if (target_from_options(o, &t, stderr, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}

	struct lt_collector_conf conf;
	target_collector_conf(&t, o->timeout_ms, &conf);
	conf.one_shot = true;
	lt_pos_sources_conf positions;
	config_position_sources(&t.positions, &positions);
	conf.positions = &positions;

	int rc = LT_EXIT_OK;
	lt_collector *c = collector_new(&conf, err, sizeof err);
	if (!c) {
		fprintf(stderr, "lagtop: %s\n", err);
		rc = LT_EXIT_USAGE;
		goto out;
	}

	lt_snapshot *s = NULL;
	int samples = o->samples > 0 ? o->samples : 1;
	for (int i = 0; i < samples; i++) {
		int64_t t0 = now_mono_ms();
		snapshot_unref(s);
		if (collector_refresh_once(c, &s, err, sizeof err) != 0) {
			char *e = output_sanitize(err);
			fprintf(stderr, "lagtop: %s\n", e);
			free(e);
			rc = LT_EXIT_CLUSTER;
			break;
		}
		/* The cluster answered: the commit times need the reader to have read __consumer_offsets'
		 * history first; wait for it (bounded by --timeout; commit_stream in the JSON says if it
		 * was not loaded in time). */
		if (i + 1 == samples)
			collector_complete_commit_stream(c, s, o->timeout_ms);
		if (i + 1 < samples)
			sleep_ms(t0 + t.interval_ms - now_mono_ms());
	}
	if (rc == LT_EXIT_OK)
		rc = once_print(o, s);
	snapshot_unref(s);
	collector_free(c);
out:
	target_free(&t);
	return rc;
}
