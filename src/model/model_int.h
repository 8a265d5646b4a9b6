/* model_int.h — internals of the lag model shared by its source files (not a public contract).
 *
 * The pure rules (lag.c, rates.c, timelag.c, status.c) work on plain arrays of samples so they can
 * be unit-tested without a history; history.c stores the samples compactly; enrich.c wires the two.
 */
#ifndef LAGTOP_MODEL_MODEL_INT_H
#define LAGTOP_MODEL_MODEL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/record_ts.h"
#include "model/snapshot.h"

/* Upper bound of ring_capacity: windows are gathered into fixed arrays of this size (no VLAs). */
#define LT_RING_MAX 256

/* The samples of one partition, oldest first, as gathered from the history at one tick.
 * t/c/e: the group's committed series (e is the topic-partition's log end at the same refresh);
 * te/ev: the topic-partition's log-end series (every refresh any group saw it). Unknown offsets
 * are LT_OFFSET_NONE. */
typedef struct lt_window {
	size_t n;
	int64_t t[LT_RING_MAX];
	int64_t c[LT_RING_MAX];
	int64_t e[LT_RING_MAX];
	size_t ne;
	int64_t te[LT_RING_MAX];
	int64_t ev[LT_RING_MAX];
	int64_t moved_at; /* when the log end last changed; INT64_MIN if unknown */
} lt_window;

/* lag.c — lag and the offset flags of one partition from its observed offsets. Returns the
 * LT_PF_OUT_OF_RANGE / LT_PF_AHEAD_OF_END bits; sets *has_lag and *lag. */
unsigned lag_compute(int64_t log_start, int64_t committed, int64_t log_end, bool *has_lag, int64_t *lag);
int64_t sat_add(int64_t a, int64_t b); /* saturating at INT64_MAX / INT64_MIN */

/* rates.c — advance per second of a counter over the last `window` known samples (t[i], v[i]),
 * oldest first. Only the run after the counter last went backwards is used (topic recreation,
 * a rewind), so a rate is never negative. False when fewer than two usable samples or no time
 * passed. */
bool rate_compute(const int64_t *t, const int64_t *v, size_t n, size_t window, double *rate);
/* rates.c: eta_compute is in model.h (the recordings predict with it too). */

/* timelag.c: timelag_compute (model.h), and the same knowing when the log end last moved (INT64_MIN: unknown); see
 * timelag.c. */
bool timelag_compute_moved(const int64_t *t, const int64_t *e, size_t n, int64_t committed, int64_t now,
			   int64_t moved_at, int64_t *out_ms);
/* How timelag_written_at found when the message at the committed offset was written. */
typedef enum {
	LT_TL_UNKNOWN,      /* too few points, or no committed offset */
	LT_TL_CAUGHT_UP,    /* c at or past the newest log end: the time lag is 0, exactly */
	LT_TL_INTERPOLATED, /* between two points that bracket c */
	LT_TL_EXTRAPOLATED, /* c older than every point: along the oldest..newest slope */
	LT_TL_BOUND,        /* no later than this time (the log end did not move over the table) */
} lt_timelag_kind;
/* The time (ms, fractional) the message at committed was written, by the rules in timelag.c. */
lt_timelag_kind timelag_written_at(const int64_t *t, const int64_t *e, size_t n, int64_t committed, int64_t moved_at,
				   double *written_at);
/* now - written_at, clamped to [0, INT64_MAX/2]. */
int64_t timelag_since(int64_t now, double written_at);

/* status.c — Burrow's rules (with lagtop's adaptations, see status.c) over the last `window`
 * samples of w; LT_STATUS_PENDING until the window is full, except for the facts of rule 2. `owned`: a group member
 * owns the partition. *idle set when the log end has not moved over the window. */
lt_status status_compute(const lt_window *w, size_t window, int64_t allowed_lag, int64_t now, bool owned, bool has_lag,
			 int64_t lag, bool *idle);
/* The same, knowing the exact time of the partition's last commit from the commit stream
 * (last_commit_ms < 0: unknown, which is status_compute; see rule 4 in status.c) and whether the
 * committed offset is below the log start (rule 2a: STOP without waiting for the window). */
lt_status status_compute_commits(const lt_window *w, size_t window, int64_t allowed_lag, int64_t now, bool owned,
				 bool has_lag, int64_t lag, int64_t last_commit_ms, bool out_of_range, bool *idle);

/* history.c — the store. Ids are dense indexes, valid until history_end(). */
void history_begin(lt_history *h, int64_t now_ms);
/* Tests only: the tick counter (31 bits, wraps to 0) starts at tick instead of 0. */
void history_set_tick(lt_history *h, uint32_t tick);
uint32_t history_group_id(lt_history *h, const char *group);
uint32_t history_topic_id(lt_history *h, const char *topic);
/* Committed series of (group, topic, partition); created when `create`, else UINT32_MAX if absent.
 * hint: a guess of the id (checked first), UINT32_MAX for none. */
uint32_t history_series(lt_history *h, uint32_t group, uint32_t topic, int32_t partition, uint32_t hint, bool create);
uint32_t history_group_hint(const lt_history *h, uint32_t group);
void history_set_group_hint(lt_history *h, uint32_t group, uint32_t first_series);
void history_record(lt_history *h, uint32_t series, int64_t committed, int64_t log_end);
void history_window(const lt_history *h, uint32_t series, lt_window *w);
/* The write time of the message at `committed` to use for the series' time lag: while committed stands still,
 * the one held from an earlier refresh (kept as found; a lower bound replaced only by an earlier time), else
 * written_at, now held. kind LT_TL_UNKNOWN or LT_TL_CAUGHT_UP forgets what was held. See timelag.c. */
double history_hold_written_at(lt_history *h, uint32_t series, int64_t committed, lt_timelag_kind kind,
			       double written_at);
/* Appends total to the group's trend and copies the trend (oldest first) into g. */
void history_trend(lt_history *h, uint32_t group, bool push, int64_t total, lt_group *g);
const lt_model_params *history_params(const lt_history *h);
/* Forgets what was not seen for forget_after refreshes. */
void history_end(lt_history *h);
/* Bytes held by the history (for the memory budget test and the bench). */
size_t history_bytes(const lt_history *h);
size_t history_bytes_used(const lt_history *h);
size_t history_series_count(const lt_history *h, size_t *n_log_end);
size_t history_wide_count(const lt_history *h);         /* series stored as int64 */
size_t history_committed_capacity(const lt_history *h); /* samples kept per committed series */

#endif
