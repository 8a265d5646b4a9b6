/* status.c — partition status by Burrow's evaluation rules (doc/RESET-SEMANTICS.md, "Status").
 *
 * Burrow reads every commit from __consumer_offsets, with its timestamp; lagtop polls committed
 * offsets once per refresh. The rules are Burrow's, evaluated over the last `window` samples that
 * have both a committed offset and a log end, with these adaptations (each one says why):
 *  1. No committed offset (or no log end): UNKNOWN ("-"); nothing can be judged. This is the
 *     only use of LT_STATUS_UNKNOWN.
 *  2. Facts that need no window, so they are a verdict from the first sample on:
 *     a. committed offset below the log start (LT_PF_OUT_OF_RANGE): STOP. The messages between were
 *        deleted unread; a consumer that was still fetching there would have been moved by its
 *        auto.offset.reset and committed past the log start, so nobody is consuming this partition.
 *        Burrow never sees this case (it has no log start); it is its STOP/ERR territory, and a
 *        window would only delay the alarm (such a group used to read OK with --samples 9).
 *     b. current lag <= allowed lag: OK (Burrow's first check, on the current lag alone).
 *  3. Fewer than `window` samples (or a window under 2): PENDING ("-" in tables, null with
 *     "complete": false in JSON). Burrow still gives such a window a status and marks it incomplete
 *     (its "complete" below 1: "not full enough: OK"); lagtop says
 *     nothing rather than a verdict it has not evaluated.
 *  4. STOP: Burrow's "time since the last commit > the window's commit span". Polling cannot see
 *     commit times, so a "commit" is a sample where the committed offset moved; with first and
 *     last such moves F and L in the window, stopped = no move at all, or now - L > L - F.
 *     Idle fix (Burrow#38, #128): a partition whose log end has not moved over the window is
 *     idle, never STOP. And because polling cannot tell "still committing the same offset"
 *     (Burrow's STALL) from "no longer committing" (Burrow's STOP), the difference is taken from
 *     the group: STOP only when no member owns the partition (the consumer is gone); an owned
 *     partition that does not advance is STALL (rule 7).
 *     With the commit stream (__consumer_offsets read by src/commitlog) the commit times are known, and
 *     Burrow's rule applies as written: a commit of the same offset is still a commit. Stopped =
 *     the last commit is older than the window's span (first to last sample); then STOP whether
 *     or not a member owns the partition (idle fix kept), and a partition still committing
 *     without moving is STALL (alive but stuck).
 *  5. REWIND: the committed offset went down between two samples of the window.
 *  6. Some sample of the window had lag <= allowed lag: OK.
 *  7. STALL: every committed offset of the window is the same — except an idle partition that
 *     no member owns: nothing arrives and nobody is there to read it; that is leftover lag, not
 *     a failing consumer (the idle fix again), so it is OK (its lag still shows).
 *  8. WARN: the lag never decreased between two samples of the window.
 *  9. Otherwise OK.
 */
#include <stdint.h>

#include "model/model_int.h"

static bool log_end_idle(const int64_t *ev, size_t ne, size_t window)
{
	size_t first = ne > window ? ne - window : 0;
	if (ne - first < 2)
		return false;
	for (size_t i = first + 1; i < ne; i++)
		if (ev[i] != ev[first])
			return false;
	return true;
}

lt_status status_compute(const lt_window *w, size_t window, int64_t allowed_lag, int64_t now, bool owned, bool has_lag,
			 int64_t lag, bool *idle)
{
	return status_compute_commits(w, window, allowed_lag, now, owned, has_lag, lag, -1, false, idle);
}

/* The rule over the committed series (t, c, e: n samples) and the log-end series (ev: ne samples), as
 * arrays: status_compute_commits's window, or status_from_samples's samples without copying them into one. */
static lt_status status_rule(const int64_t *t, const int64_t *c, const int64_t *e, size_t n, const int64_t *ev,
			     size_t ne, size_t window, int64_t allowed_lag, int64_t now, bool owned, bool has_lag,
			     int64_t lag, int64_t last_commit_ms, bool out_of_range, bool *idle)
{
	*idle = log_end_idle(ev, ne, window);
	if (!has_lag)
		return LT_STATUS_UNKNOWN;
	if (out_of_range)
		return LT_STATUS_STOP; /* rule 2a */
	if (lag <= allowed_lag)
		return LT_STATUS_OK; /* rule 2b */

	/* The last `window` complete samples, oldest first (indexes into w). */
	size_t idx[LT_RING_MAX];
	size_t k = 0;
	for (size_t i = n; i-- > 0 && k < window;)
		if (c[i] >= 0 && e[i] >= 0)
			idx[k++] = i;
	if (k < window || window < 2)
		return LT_STATUS_PENDING; /* rule 3 */
	for (size_t a = 0, b = k - 1; a < b; a++, b--) {
		size_t x = idx[a];
		idx[a] = idx[b];
		idx[b] = x;
	}

	bool moved = false, rewound = false, some_ok = false, never_decreased = true;
	int64_t first_move = 0, last_move = 0, prev_lag = 0;
	for (size_t j = 0; j < k; j++) {
		const size_t i = idx[j];
		int64_t l = e[i] > c[i] ? e[i] - c[i] : 0;
		if (l <= allowed_lag)
			some_ok = true;
		if (j > 0) {
			const size_t pi = idx[j - 1];
			if (c[i] != c[pi]) {
				if (!moved)
					first_move = t[i];
				last_move = t[i];
				moved = true;
			}
			if (c[i] < c[pi])
				rewound = true;
			if (l < prev_lag)
				never_decreased = false;
		}
		prev_lag = l;
	}
	bool stopped = !moved || now - last_move > last_move - first_move;
	bool exact = last_commit_ms >= 0;
	if (exact) {
		int64_t span = t[idx[k - 1]] - t[idx[0]];
		stopped = now - last_commit_ms > span;
		if (stopped && !*idle)
			return LT_STATUS_STOP;
	}
	if (stopped && !*idle && !owned)
		return LT_STATUS_STOP;
	if (rewound)
		return LT_STATUS_REWIND;
	if (some_ok)
		return LT_STATUS_OK;
	if (!moved)
		return *idle && !owned && (!exact || stopped) ? LT_STATUS_OK : LT_STATUS_STALL;
	if (never_decreased)
		return LT_STATUS_WARN;
	return LT_STATUS_OK;
}

lt_status status_compute_commits(const lt_window *w, size_t window, int64_t allowed_lag, int64_t now, bool owned,
				 bool has_lag, int64_t lag, int64_t last_commit_ms, bool out_of_range, bool *idle)
{
	return status_rule(w->t, w->c, w->e, w->n, w->ev, w->ne, window, allowed_lag, now, owned, has_lag, lag,
			   last_commit_ms, out_of_range, idle);
}

lt_status status_from_samples(const int64_t *t, const int64_t *c, const int64_t *e, size_t n, size_t window,
			      int64_t allowed_lag, int64_t now, bool owned, bool has_lag, int64_t lag,
			      int64_t last_commit_ms, bool out_of_range, bool *idle)
{
	if (n > LT_RING_MAX) { /* the rule's index array holds a ring's worth: the newest ones */
		t += n - LT_RING_MAX, c += n - LT_RING_MAX, e += n - LT_RING_MAX;
		n = LT_RING_MAX;
	}
	return status_rule(t, c, e, n, e, n, window, allowed_lag, now, owned, has_lag, lag, last_commit_ms,
			   out_of_range, idle);
}

lt_not_committing not_committing_rule(int64_t window_ms, int64_t since_ms, bool commit_seen, int64_t pos_then,
				      int64_t pos_now, int64_t committed, int64_t now)
{
	if (window_ms <= 0)
		window_ms = LT_NOT_COMMITTING_DEFAULT_MS;
	if (pos_now < 0)
		return LT_NC_UNKNOWN; /* no position: nothing says what the consumer read */
	if (committed >= 0 && pos_now <= committed)
		return LT_NC_NO; /* nothing read past the commit */
	if (now - since_ms < window_ms || pos_then < 0)
		return commit_seen ? LT_NC_NO
				   : LT_NC_UNKNOWN;       /* a commit within the window, or not watched long enough */
	return pos_now > pos_then ? LT_NC_YES : LT_NC_NO; /* a position standing still is idle, not flagged */
}

lt_not_committing partition_not_committing(const lt_partition *p)
{
	if (p->flags & LT_PF_NOT_COMMITTING)
		return LT_NC_YES;
	return p->flags & LT_PF_COMMITTING_KNOWN ? LT_NC_NO : LT_NC_UNKNOWN;
}

lt_not_committing group_not_committing(const lt_group *g)
{
	/* the consumers lagtop can judge: a partition nobody reports a position for has no verdict of its own
	 * (null there), and does not turn the verdicts of the others into unknown */
	lt_not_committing v = LT_NC_UNKNOWN;
	for (size_t k = 0; k < g->n_partitions; k++) {
		lt_not_committing pv = partition_not_committing(&g->partitions[k]);
		if (pv == LT_NC_YES)
			return LT_NC_YES;
		if (pv == LT_NC_NO)
			v = LT_NC_NO;
	}
	return v;
}
