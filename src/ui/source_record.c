/* source_record.c — a ui_source that records: every new snapshot the dashboard takes from the source
 * it wraps is appended to a recording (--record FILE with the dashboard), so the file holds what was
 * shown, refresh by refresh. The writer is borrowed; the wrapped source is owned.
 *
 * Writing happens in the UI thread when the dashboard takes a snapshot (once per refresh). A write
 * error stops the recording (the dashboard goes on) and is kept for the top bar and the exit. */
#include "config.h"

#include "ui/source.h"

#include <stdio.h>
#include <stdlib.h>

#include "record/record.h"
#include "util/xalloc.h"

struct rec_src {
	ui_source base;
	ui_source *inner;
	rec_writer *w;
	lt_snapshot *last; /* the snapshot appended last (one reference) */
	char err[512];
};

#define R(s)  ((struct rec_src *)(s))
#define CR(s) ((const struct rec_src *)(s))
#define IN(s) (R(s)->inner)

static int rs_wake_fd(ui_source *s)
{
	return IN(s)->ops->wake_fd(IN(s));
}
static void rs_ack(ui_source *s)
{
	IN(s)->ops->ack(IN(s));
}

static lt_snapshot *rs_latest(ui_source *s)
{
	struct rec_src *r = R(s);
	lt_snapshot *snap = r->inner->ops->latest(r->inner);
	if (!snap || snap == r->last || !r->w || r->err[0])
		return snap;
	if (r->last)
		snapshot_unref(r->last);
	r->last = snapshot_ref(snap);
	if (rec_writer_append(r->w, snap, r->err, sizeof r->err) != 0 && !r->err[0])
		snprintf(r->err, sizeof r->err, "cannot write the recording");
	return snap;
}

static size_t rs_partition_lags(ui_source *s, const char *group, const char *topic, int32_t partition, int64_t *out,
				size_t max)
{
	return IN(s)->ops->partition_lags(IN(s), group, topic, partition, out, max);
}

static void rs_refresh_now(ui_source *s)
{
	IN(s)->ops->refresh_now(IN(s));
}
static void rs_set_interval(ui_source *s, int ms)
{
	IN(s)->ops->set_interval(IN(s), ms);
}
static void rs_set_paused(ui_source *s, bool p)
{
	IN(s)->ops->set_paused(IN(s), p);
}
static bool rs_busy(ui_source *s)
{
	return IN(s)->ops->busy(IN(s));
}
static int64_t rs_refresh_started_ms(ui_source *s)
{
	return IN(s)->ops->refresh_started_ms(IN(s));
}

static void rs_free(ui_source *s)
{
	struct rec_src *r = R(s);
	if (r->last)
		snapshot_unref(r->last);
	source_free(r->inner);
	free(r);
}

static const struct ui_source_ops rs_ops = {
	.wake_fd = rs_wake_fd,
	.ack = rs_ack,
	.latest = rs_latest,
	.partition_lags = rs_partition_lags,
	.refresh_now = rs_refresh_now,
	.set_interval = rs_set_interval,
	.set_paused = rs_set_paused,
	.busy = rs_busy,
	.refresh_started_ms = rs_refresh_started_ms,
	.free = rs_free,
};

ui_source *source_record_new(ui_source *inner, struct rec_writer *w)
{
	if (!w)
		return inner;
	struct rec_src *r = xcalloc(1, sizeof *r);
	r->base.ops = &rs_ops;
	r->inner = inner;
	r->w = w;
	return &r->base;
}

bool source_record_active(const ui_source *s)
{
	return s && s->ops == &rs_ops;
}

const char *source_record_error(const ui_source *s)
{
	if (!s || s->ops != &rs_ops)
		return NULL;
	return CR(s)->err[0] ? CR(s)->err : NULL;
}
