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

/* A source that records (source_record.c): every new snapshot taken from inner (owned) is appended to
 * w (borrowed). w NULL: inner itself. source_record_error: why the recording stopped, NULL while it
 * goes on (and for any other source). */
struct rec_writer;
ui_source *source_record_new(ui_source *inner, struct rec_writer *w);
const char *source_record_error(const ui_source *s);
bool source_record_active(const ui_source *s); /* s records (whether or not it stopped) */

/* A source over a recording (source_replay.c), showing record `start`; takes the reader over (also on
 * failure: NULL with err when that record does not read). */
struct rec_reader;
ui_source *source_replay_new(struct rec_reader *r, size_t start, char *err, size_t errlen);
bool source_is_replay(const ui_source *s);
struct source_replay_state {
	size_t index, count;             /* the record shown, of count */
	int64_t t_ms, first_ms, last_ms; /* its time, the recording's span */
	bool playing;
	int speed; /* play speed: 1 = the recorded pace */
};
void source_replay_state(const ui_source *s, struct source_replay_state *st);
/* Shows record i (clamped to the last); -1 with err when it does not read (the shown one stays). */
int source_replay_seek(ui_source *s, size_t i, char *err, size_t errlen);
size_t source_replay_find(const ui_source *s, int64_t t_ms); /* the last record at or before t */
void source_replay_play(ui_source *s, bool playing);
void source_replay_set_speed(ui_source *s, int speed);

static inline void source_free(ui_source *s)
{
	if (s)
		s->ops->free(s);
}

#endif
