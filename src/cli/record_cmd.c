/* record_cmd.c — --record FILE --headless: the collector's refreshes into a recording, no terminal.
 *
 * Runs until SIGINT or SIGTERM (or SIGHUP), then closes the file with its index. Quiet but for one
 * line on stderr per rotation and per error; with --format, each refresh recorded is also printed
 * as --once prints it (once_print). The signals are blocked before any thread starts (the
 * collector's, librdkafka's) and read from a signalfd, so no thread is interrupted and none dies of
 * them: the loop sees them in order with the collector's wake fd.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "cli/modes.h"
#include "cli/output.h"
#include "cli/target.h"
#include "kafka/collector.h"
#include "record/record.h"

static void say(const char *what, const char *detail)
{
	char *e = output_sanitize(detail);
	fprintf(stderr, "lagtop: %s%s\n", what, e);
	free(e);
}

void record_writer_opts(const struct lt_options *o, rec_writer_opts *w)
{
	memset(w, 0, sizeof *w);
	w->max_size = o->record_max_size;
	w->keep = o->record_keep >= 0 ? (unsigned)o->record_keep : LT_REC_KEEP_DEFAULT;
}

int mode_record_headless(const struct lt_options *o)
{
	struct lt_target t;
	char err[1024];
	if (target_from_options(o, &t, stderr, NULL, err, sizeof err) != 0) {
		say("", err);
		return LT_EXIT_USAGE;
	}
	sigset_t stop, saved;
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &stop, &saved);
	int sfd = signalfd(-1, &stop, SFD_CLOEXEC);

	int rc = LT_EXIT_OK;
	lt_collector *c = NULL;
	rec_writer *w = NULL;
	if (sfd < 0) {
		fprintf(stderr, "lagtop: signalfd: %s\n", strerror(errno));
		rc = LT_EXIT_CLUSTER;
		goto out;
	}
	rec_writer_opts wo;
	record_writer_opts(o, &wo);
	w = rec_writer_open(o->record_path, &wo, err, sizeof err);
	if (!w) {
		say("", err);
		rc = LT_EXIT_USAGE;
		goto out;
	}
	struct lt_collector_conf conf;
	target_collector_conf(&t, o->timeout_ms, &conf);
	lt_pos_sources_conf positions;
	config_position_sources(&t.positions, &positions);
	conf.positions = &positions;
	c = collector_new(&conf, err, sizeof err);
	if (!c || collector_start(c, err, sizeof err) != 0) {
		say("", err);
		rc = LT_EXIT_USAGE;
		goto out;
	}

	lt_snapshot *last = NULL; /* the snapshot recorded last: a wake without a new one records nothing */
	unsigned rotations = 0;
	for (;;) {
		struct pollfd pfd[2] = {
			{ .fd = collector_wake_fd(c), .events = POLLIN },
			{ .fd = sfd, .events = POLLIN },
		};
		if (poll(pfd, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			fprintf(stderr, "lagtop: poll: %s\n", strerror(errno));
			rc = LT_EXIT_CLUSTER;
			break;
		}
		if (pfd[1].revents & POLLIN) {
			/* consumed, or it would be delivered (and kill) when the mask is restored below */
			struct signalfd_siginfo si;
			if (read(sfd, &si, sizeof si) < 0) {
				/* it was there: poll said so; stopping is all that matters */
			}
			break;
		}
		if (!(pfd[0].revents & POLLIN))
			continue;
		collector_ack(c);
		lt_snapshot *s = collector_latest(c);
		if (!s || s == last) {
			if (s)
				snapshot_unref(s);
			continue;
		}
		if (last)
			snapshot_unref(last);
		last = s;
		if (rec_writer_append(w, s, err, sizeof err) != 0) {
			say("recording stopped: ", err);
			rc = LT_EXIT_CLUSTER;
			break;
		}
		/* --format: the refresh as --once prints it (a script's oracle, or a live tail) */
		if (o->format_given && once_print(o, s) == LT_EXIT_CLUSTER) {
			rc = LT_EXIT_CLUSTER;
			break;
		}
		if (rec_writer_rotations(w) != rotations) {
			rotations = rec_writer_rotations(w);
			char *p = output_sanitize(o->record_path);
			fprintf(stderr,
				"lagtop: %s reached %llu bytes: it is now %s.1, recording goes on in a new %s\n", p,
				(unsigned long long)o->record_max_size, p, p);
			free(p);
		}
	}
	if (last)
		snapshot_unref(last);
out:
	collector_free(c);
	if (w && rec_writer_close(w, err, sizeof err) != 0) {
		say("", err);
		rc = LT_EXIT_CLUSTER;
	}
	if (sfd >= 0)
		close(sfd);
	pthread_sigmask(SIG_SETMASK, &saved, NULL);
	target_free(&t);
	return rc;
}
