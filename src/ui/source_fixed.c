/* source_fixed.c — a ui_source over one snapshot that never changes (tests, draw benchmark). */
#include "config.h"

#include "ui/source.h"

#include <stdlib.h>

#include <string.h>

#include "util/xalloc.h"

struct fixed {
	ui_source base;
	lt_snapshot *snap;
	int64_t *lags;
	size_t n_lags;
	bool paused;
};

static int fixed_wake_fd(ui_source *s)
{
	(void)s;
	return -1;
}

static void fixed_ack(ui_source *s)
{
	(void)s;
}

static lt_snapshot *fixed_latest(ui_source *s)
{
	struct fixed *f = (struct fixed *)s;
	return f->snap ? snapshot_ref(f->snap) : NULL;
}

static size_t fixed_partition_lags(ui_source *s, const char *group, const char *topic, int32_t partition, int64_t *out,
				   size_t max)
{
	struct fixed *f = (struct fixed *)s;
	(void)group, (void)topic, (void)partition;
	size_t n = f->n_lags < max ? f->n_lags : max;
	if (n)
		memcpy(out, f->lags, n * sizeof *out);
	return n;
}

static void fixed_refresh_now(ui_source *s)
{
	(void)s;
}

static void fixed_set_interval(ui_source *s, int interval_ms)
{
	(void)s, (void)interval_ms;
}

static void fixed_set_paused(ui_source *s, bool paused)
{
	((struct fixed *)s)->paused = paused;
}

static bool fixed_busy(ui_source *s)
{
	(void)s;
	return false;
}

static int64_t fixed_refresh_started_ms(ui_source *s)
{
	struct fixed *f = (struct fixed *)s;
	return f->snap ? f->snap->taken_at_ms : 0;
}

static void fixed_free(ui_source *s)
{
	struct fixed *f = (struct fixed *)s;
	if (f->snap)
		snapshot_unref(f->snap);
	free(f->lags);
	free(f);
}

static const struct ui_source_ops fixed_ops = {
	.wake_fd = fixed_wake_fd,
	.ack = fixed_ack,
	.latest = fixed_latest,
	.partition_lags = fixed_partition_lags,
	.refresh_now = fixed_refresh_now,
	.set_interval = fixed_set_interval,
	.set_paused = fixed_set_paused,
	.busy = fixed_busy,
	.refresh_started_ms = fixed_refresh_started_ms,
	.free = fixed_free,
};

ui_source *source_fixed_new(lt_snapshot *snap, const int64_t *lags, size_t n_lags)
{
	struct fixed *f = xcalloc(1, sizeof *f);
	f->base.ops = &fixed_ops;
	f->snap = snap ? snapshot_ref(snap) : NULL;
	if (n_lags) {
		f->lags = xmalloc(n_lags * sizeof *f->lags);
		memcpy(f->lags, lags, n_lags * sizeof *f->lags);
		f->n_lags = n_lags;
	}
	return &f->base;
}

void source_fixed_set(ui_source *s, lt_snapshot *snap)
{
	struct fixed *f = (struct fixed *)s;
	if (f->snap)
		snapshot_unref(f->snap);
	f->snap = snap ? snapshot_ref(snap) : NULL;
}
