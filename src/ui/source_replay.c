/* source_replay.c — a ui_source over a recording (--replay FILE): the dashboard shows one recorded
 * refresh at a time; the replay keys (replay_keys.c) move it, and play advances it on a timer.
 *
 * The wake fd is a timerfd, armed only while playing: each expiry moves to the next record and arms
 * the timer for the recorded gap to the one after, divided by the speed. Nothing here blocks on more
 * than reading the file. */
#include "config.h"

#include "ui/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "record/record.h"
#include "util/xalloc.h"

struct replay_src {
	ui_source base;
	rec_reader *r;
	size_t cur;        /* the record shown */
	lt_snapshot *snap; /* record cur (one reference) */
	int tfd;           /* play timer; -1 when timerfd is unavailable (no play) */
	bool playing;
	int speed;
};

#define P(s)  ((struct replay_src *)(s))
#define CP(s) ((const struct replay_src *)(s))

/* The gap to the next record at this speed, at least 20 ms (a screen cannot show faster). */
static void arm(struct replay_src *p)
{
	struct itimerspec its;
	memset(&its, 0, sizeof its);
	if (p->playing && p->cur + 1 < rec_reader_count(p->r)) {
		int64_t gap = rec_reader_time(p->r, p->cur + 1) - rec_reader_time(p->r, p->cur);
		int64_t ms = gap / (p->speed > 0 ? p->speed : 1);
		if (ms < 20)
			ms = 20;
		its.it_value.tv_sec = (time_t)(ms / 1000);
		its.it_value.tv_nsec = (long)(ms % 1000) * 1000000L;
	}
	if (p->tfd >= 0)
		timerfd_settime(p->tfd, 0, &its, NULL); /* all zero: disarmed */
}

static int rp_wake_fd(ui_source *s)
{
	return P(s)->tfd;
}

static void rp_ack(ui_source *s)
{
	struct replay_src *p = P(s);
	uint64_t expirations;
	if (p->tfd < 0 || read(p->tfd, &expirations, sizeof expirations) != (ssize_t)sizeof expirations)
		return;
	if (!p->playing)
		return;
	char err[256];
	if (p->cur + 1 >= rec_reader_count(p->r) || source_replay_seek(s, p->cur + 1, err, sizeof err) != 0) {
		p->playing = false; /* the end of the recording, or a record that does not read: stop there */
		arm(p);
	}
}

static lt_snapshot *rp_latest(ui_source *s)
{
	struct replay_src *p = P(s);
	return p->snap ? snapshot_ref(p->snap) : NULL;
}

static size_t rp_partition_lags(ui_source *s, const char *group, const char *topic, int32_t partition, int64_t *out,
				size_t max)
{
	return rec_reader_partition_lags(P(s)->r, group, topic, partition, out, max);
}

static void rp_refresh_now(ui_source *s)
{
	(void)s;
}

static void rp_set_interval(ui_source *s, int interval_ms)
{
	(void)s, (void)interval_ms;
}

/* p and Space pause the play (they never start it: that is the replay's own key). */
static void rp_set_paused(ui_source *s, bool paused)
{
	if (paused)
		source_replay_play(s, false);
}

static bool rp_busy(ui_source *s)
{
	(void)s;
	return false;
}

static int64_t rp_refresh_started_ms(ui_source *s)
{
	struct replay_src *p = P(s);
	return p->snap ? p->snap->taken_at_ms : 0;
}

static void rp_free(ui_source *s)
{
	struct replay_src *p = P(s);
	if (p->snap)
		snapshot_unref(p->snap);
	if (p->tfd >= 0)
		close(p->tfd);
	rec_reader_close(p->r);
	free(p);
}

static const struct ui_source_ops replay_ops = {
	.wake_fd = rp_wake_fd,
	.ack = rp_ack,
	.latest = rp_latest,
	.partition_lags = rp_partition_lags,
	.refresh_now = rp_refresh_now,
	.set_interval = rp_set_interval,
	.set_paused = rp_set_paused,
	.busy = rp_busy,
	.refresh_started_ms = rp_refresh_started_ms,
	.free = rp_free,
};

ui_source *source_replay_new(struct rec_reader *r, size_t start, char *err, size_t errlen)
{
	struct replay_src *p = xcalloc(1, sizeof *p);
	p->base.ops = &replay_ops;
	p->r = r;
	p->speed = 1;
	p->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (source_replay_seek(&p->base, start, err, errlen) != 0) {
		rec_reader_close(r);
		if (p->tfd >= 0)
			close(p->tfd);
		free(p);
		return NULL;
	}
	return &p->base;
}

bool source_is_replay(const ui_source *s)
{
	return s && s->ops == &replay_ops;
}

int source_replay_seek(ui_source *s, size_t i, char *err, size_t errlen)
{
	struct replay_src *p = P(s);
	size_t n = rec_reader_count(p->r);
	if (i >= n)
		i = n - 1;
	if (p->snap && i == p->cur)
		return 0;
	lt_snapshot *snap = rec_reader_get(p->r, i, err, errlen);
	if (!snap)
		return -1;
	if (p->snap)
		snapshot_unref(p->snap);
	p->snap = snap;
	p->cur = i;
	arm(p);
	return 0;
}

void source_replay_play(ui_source *s, bool playing)
{
	struct replay_src *p = P(s);
	p->playing = playing && p->tfd >= 0 && p->cur + 1 < rec_reader_count(p->r);
	arm(p);
}

void source_replay_set_speed(ui_source *s, int speed)
{
	struct replay_src *p = P(s);
	p->speed = speed > 0 ? speed : 1;
	arm(p);
}

void source_replay_state(const ui_source *s, struct source_replay_state *st)
{
	const struct replay_src *p = CP(s);
	st->index = p->cur;
	st->count = rec_reader_count(p->r);
	st->t_ms = rec_reader_time(p->r, p->cur);
	st->first_ms = rec_reader_time(p->r, 0);
	st->last_ms = rec_reader_time(p->r, st->count - 1);
	st->playing = p->playing;
	st->speed = p->speed;
}

size_t source_replay_find(const ui_source *s, int64_t t_ms)
{
	return rec_reader_find(CP(s)->r, t_ms);
}
