/* source.h — where the dashboard gets its snapshots: a small vtable so the same UI runs on the
 * collector (live), on one fixed snapshot (tests, the offscreen draw benchmark) or anything else.
 *
 * Every operation is non-blocking: the UI thread calls them from its loop and must never wait on
 * the network.
 */
#ifndef LAGTOP_UI_SOURCE_H
#define LAGTOP_UI_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

struct lt_collector;

typedef struct ui_source ui_source;

struct ui_source_ops {
	int (*wake_fd)(ui_source *s);         /* readable when latest() has news; -1: never */
	void (*ack)(ui_source *s);            /* drain the wake fd */
	lt_snapshot *(*latest)(ui_source *s); /* new reference, NULL before the first */
	size_t (*partition_lags)(ui_source *s, const char *group, const char *topic, int32_t partition, int64_t *out,
	                         size_t max);
	void (*refresh_now)(ui_source *s);
	void (*set_interval)(ui_source *s, int interval_ms);
	void (*set_paused)(ui_source *s, bool paused);
	bool (*busy)(ui_source *s);                  /* a refresh is in progress */
	int64_t (*refresh_started_ms)(ui_source *s); /* wall clock start of the current/last refresh, 0 unknown */
	void (*free)(ui_source *s);
};

struct ui_source {
	const struct ui_source_ops *ops;
};

/* A source that always returns the same snapshot (takes its own reference). partition_lags
 * answers from the optional history array (n values for every partition), which is copied. */
ui_source *source_fixed_new(lt_snapshot *snap, const int64_t *lags, size_t n_lags);
/* Replaces the fixed source's snapshot (tests: "the next refresh"). */
void source_fixed_set(ui_source *s, lt_snapshot *snap);

/* A source over a started collector. The collector is borrowed: the caller frees it after the
 * source. */
ui_source *source_collector_new(struct lt_collector *c);

static inline void source_free(ui_source *s)
{
	if (s)
		s->ops->free(s);
}

#endif
