/* source_collector.c — a ui_source over the background collector (src/kafka/collector.h). Every
 * call here only takes the collector's lock or writes its control fields: none waits on the network. */
#include "config.h"

#include "ui/source.h"

#include <stdlib.h>

#include "kafka/collector.h"
#include "util/xalloc.h"

struct coll {
	ui_source base;
	lt_collector *c;
};

#define C(s) (((struct coll *)(s))->c)

static int coll_wake_fd(ui_source *s)
{
	return collector_wake_fd(C(s));
}

static void coll_ack(ui_source *s)
{
	collector_ack(C(s));
}

static lt_snapshot *coll_latest(ui_source *s)
{
	return collector_latest(C(s));
}

static size_t coll_partition_lags(ui_source *s, const char *group, const char *topic, int32_t partition, int64_t *out,
				  size_t max)
{
	return collector_partition_lags(C(s), group, topic, partition, out, max);
}

static void coll_refresh_now(ui_source *s)
{
	collector_refresh_now(C(s));
}

static void coll_set_interval(ui_source *s, int interval_ms)
{
	collector_set_interval(C(s), interval_ms);
}

static void coll_set_paused(ui_source *s, bool paused)
{
	collector_set_paused(C(s), paused);
}

static bool coll_busy(ui_source *s)
{
	return collector_busy(C(s));
}

static int64_t coll_refresh_started_ms(ui_source *s)
{
	return collector_refresh_started_ms(C(s));
}

static void coll_free(ui_source *s)
{
	free(s);
}

static const struct ui_source_ops coll_ops = {
	.wake_fd = coll_wake_fd,
	.ack = coll_ack,
	.latest = coll_latest,
	.partition_lags = coll_partition_lags,
	.refresh_now = coll_refresh_now,
	.set_interval = coll_set_interval,
	.set_paused = coll_set_paused,
	.busy = coll_busy,
	.refresh_started_ms = coll_refresh_started_ms,
	.free = coll_free,
};

ui_source *source_collector_new(struct lt_collector *c)
{
	struct coll *s = xcalloc(1, sizeof *s);
	s->base.ops = &coll_ops;
	s->c = c;
	return &s->base;
}
