/* enrich.c — model_enrich: record one snapshot in the history and fill its derived fields.
 *
 * Group aggregates are sums and maxima over the partitions whose value is known (0 when none is;
 * lt_group has no has_* flag for them, so readers that must tell "unknown" from 0 look at the
 * partitions' has_lag / has_rates, as the LAG and CONSUME-RATE columns do).
 * Cost: O(partitions); no allocation per partition once the series exist.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model_int.h"
#include "util/xalloc.h"

/* The time lag from the record at the committed offset (record_ts.h), where one was read: now minus its
 * timestamp, exact. */
static bool record_time_lag(lt_record_ts *rts, lt_partition *p, int64_t now)
{
	int64_t ts;
	if (!rts || !record_ts_get(rts, p->topic, p->partition, p->committed, &ts) || ts < 0)
		return false;
	p->has_time_lag = true;
	p->time_lag_ms = now > ts ? now - ts : 0;
	p->flags &= ~(unsigned)LT_PF_TIME_LAG_ESTIMATED;
	return true;
}

/* Where the log-end history cannot bracket the committed offset: before it, the log end never moved over it,
 * or it has a single point. There the record's timestamp is read (record_ts.h), unless it is gone. */
static bool timelag_needs_record(lt_timelag_kind kind, const lt_partition *p)
{
	if (p->flags & LT_PF_OUT_OF_RANGE)
		return false; /* below the log start: retention deleted the record */
	return kind == LT_TL_EXTRAPOLATED || kind == LT_TL_BOUND ||
	       (kind == LT_TL_UNKNOWN && p->committed >= 0 && p->lag > 0);
}

/* The time lag, held by the history while the committed offset stands still (timelag.c): it then grows with
 * the clock, whatever the sliding log-end points say. Exact from the record where the history cannot bracket
 * the committed offset and the record was read; until then estimated, and the record wanted. */
static void derive_time_lag(lt_history *h, uint32_t series, lt_partition *p, const lt_window *w, int64_t now)
{
	p->has_time_lag = false;
	p->time_lag_ms = 0;
	if (!p->has_lag)
		return;
	double written_at = 0;
	lt_timelag_kind kind = timelag_written_at(w->te, w->ev, w->ne, p->committed, w->moved_at, &written_at);
	if (timelag_needs_record(kind, p)) {
		lt_record_ts *rts = history_record_ts(h);
		if (record_time_lag(rts, p, now))
			return;
		if (rts)
			record_ts_want(rts, p->topic, p->partition, p->committed);
	}
	written_at = history_hold_written_at(h, series, p->committed, kind, written_at);
	p->has_time_lag = kind != LT_TL_UNKNOWN;
	if (kind == LT_TL_UNKNOWN || kind == LT_TL_CAUGHT_UP)
		return;
	p->time_lag_ms = timelag_since(now, written_at);
	p->flags |= LT_PF_TIME_LAG_ESTIMATED;
}

static void derive_partition(lt_history *h, uint32_t series, lt_partition *p, const lt_window *w,
			     const lt_model_params *mp, int64_t now)
{
	double consume = 0, produce = 0;
	bool c_ok = rate_compute(w->t, w->c, w->n, mp->window, &consume);
	bool p_ok = rate_compute(w->te, w->ev, w->ne, mp->window, &produce);
	p->has_rates = c_ok && p_ok;
	p->consume_rate = p->has_rates ? consume : 0;
	p->produce_rate = p->has_rates ? produce : 0;
	p->has_eta = false;
	p->eta_ms = 0;
	if (p->has_rates && p->has_lag)
		p->has_eta = eta_compute(p->lag, consume, produce, &p->eta_ms);

	derive_time_lag(h, series, p, w, now);

	bool idle = false;
	p->status = status_compute_commits(w, mp->window, mp->allowed_lag, now, p->member >= 0, p->has_lag, p->lag,
					   p->has_last_commit ? p->last_commit_ms : -1,
					   (p->flags & LT_PF_OUT_OF_RANGE) != 0, &idle);
	if (idle)
		p->flags |= LT_PF_IDLE;
	/* A highlight, not a status: Burrow's rules stay as they are, the operator's threshold only marks
	 * the cell (the dashboard) and the flag (--once JSON). */
	if (mp->time_lag_threshold_ms > 0 && p->has_time_lag && p->time_lag_ms > mp->time_lag_threshold_ms)
		p->flags |= LT_PF_TIME_LAG_HIGH;
}

/* The group's largest time lag (the one rule of group_totals) and whether some partition is above the
 * threshold, from its partitions. */
static void group_time_lag(lt_group *g)
{
	lt_group_totals t = group_totals(g->partitions, g->n_partitions);
	bool high = false;
	for (size_t i = 0; i < g->n_partitions; i++)
		high |= (g->partitions[i].flags & LT_PF_TIME_LAG_HIGH) != 0;
	g->has_max_time_lag = t.any_time_lag;
	g->max_time_lag_ms = t.max_time_lag_ms;
	g->time_lag_high = high;
}

void model_apply_record_ts(lt_history *h, lt_snapshot *s)
{
	lt_record_ts *rts = h ? history_record_ts(h) : NULL;
	if (!rts || !s)
		return;
	const lt_model_params *mp = history_params(h);
	for (size_t gi = 0; gi < s->n_groups; gi++) {
		lt_group *g = &s->groups[gi];
		bool changed = false;
		for (size_t pi = 0; pi < g->n_partitions; pi++) {
			lt_partition *p = &g->partitions[pi];
			bool estimated = p->has_time_lag && (p->flags & LT_PF_TIME_LAG_ESTIMATED);
			bool unknown = !p->has_time_lag && p->has_lag && p->lag > 0 && p->committed >= 0;
			if (!(estimated || unknown) || !record_time_lag(rts, p, s->taken_at_ms))
				continue;
			p->flags &= ~(unsigned)LT_PF_TIME_LAG_HIGH;
			if (mp->time_lag_threshold_ms > 0 && p->time_lag_ms > mp->time_lag_threshold_ms)
				p->flags |= LT_PF_TIME_LAG_HIGH;
			changed = true;
		}
		if (changed)
			group_time_lag(g);
	}
}

bool group_max_time_lag_estimated(const lt_group *g)
{
	if (!g->has_max_time_lag)
		return false;
	for (size_t i = 0; i < g->n_partitions; i++) {
		const lt_partition *p = &g->partitions[i];
		if (p->has_time_lag && p->time_lag_ms == g->max_time_lag_ms && (p->flags & LT_PF_TIME_LAG_ESTIMATED))
			return true;
	}
	return false;
}

void model_enrich(lt_history *h, lt_snapshot *s)
{
	if (!h || !s)
		return;
	const lt_model_params *mp = history_params(h);
	const int64_t now = s->taken_at_ms;
	lt_window *w = xmalloc(sizeof *w);

	s->status_window = mp->window;
	history_begin(h, now);
	if (history_record_ts(h))
		record_ts_tick(history_record_ts(h));
	for (size_t gi = 0; gi < s->n_groups; gi++) {
		lt_group *g = &s->groups[gi];
		uint32_t gid = history_group_id(h, g->group);
		lt_group_totals totals = { 0 };
		bool any_recorded = false;
		lt_status worst = LT_STATUS_UNKNOWN;
		size_t n_topics = 0;
		const char *prev_topic = NULL;
		bool tl_high = false, any_pending = false, all_evaluated = g->n_partitions > 0;
		uint32_t tid = 0, hint = history_group_hint(h, gid);

		for (size_t pi = 0; pi < g->n_partitions; pi++) {
			lt_partition *p = &g->partitions[pi];
			if (!prev_topic || strcmp(prev_topic, p->topic) != 0) {
				tid = history_topic_id(h, p->topic);
				prev_topic = p->topic;
				n_topics++; /* partitions are sorted by topic (snapshot_finish) */
			}
			const bool stale = p->flags & LT_PF_STALE;
			/* observed; the rest is derived */
			p->flags &= LT_PF_STALE | LT_PF_NO_LEADER | LT_PF_LOG_UNKNOWN | LT_PF_EXPIRED;
			bool has_lag; /* a bit-field (snapshot.h): no pointer to it */
			p->flags |= lag_compute(p->log_start, p->committed, p->log_end, &has_lag, &p->lag);
			p->has_lag = has_lag;
			/* unassigned only if the owners are known: a consumer-protocol group's are not (group_view.h)
			 */
			if (p->committed >= 0 && p->member < 0 && group_members_known(g))
				p->flags |= LT_PF_UNASSIGNED;

			uint32_t sid = history_series(h, gid, tid, p->partition, hint, !stale);
			if (pi == 0)
				history_set_group_hint(h, gid, sid);
			hint = sid + 1; /* NO_ID + 1 == 0: a wrong guess is only checked, never trusted */
			if (!stale) {
				history_record(h, sid, p->committed, p->log_end);
				any_recorded = true;
			}
			history_window(h, sid, w);
			derive_partition(h, sid, p, w, mp, now);

			group_totals_add(&totals, p);
			if (p->flags & LT_PF_TIME_LAG_HIGH)
				tl_high = true;
			if (p->status > worst)
				worst = p->status;
			any_pending |= p->status == LT_STATUS_PENDING;
			all_evaluated &= status_evaluated(p->status);
		}
		g->total_lag = totals.total_lag;
		g->max_lag = totals.max_lag;
		g->has_max_time_lag = totals.any_time_lag;
		g->max_time_lag_ms = totals.max_time_lag_ms;
		g->time_lag_high = tl_high;
		g->consume_rate = totals.consume_rate;
		g->n_topics = n_topics;
		/* Burrow's group rule: any REWIND/STALL/STOP partition makes the group ERR. A verdict worse than OK
		 * stands while other partitions are pending (it can only get worse); OK needs them all. */
		g->status = worst >= LT_STATUS_REWIND ? LT_STATUS_ERR : worst;
		if (any_pending && g->status <= LT_STATUS_OK)
			g->status = LT_STATUS_PENDING;
		g->status_complete = all_evaluated;
		history_trend(h, gid, any_recorded && totals.any_lag, totals.total_lag, g);
	}
	history_end(h);
	free(w);
}
