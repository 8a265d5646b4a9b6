/* history.c — the model's memory: bounded, compact rings of past offsets.
 *
 * Size matters: the L benchmark has 320,000 partition rows and the whole process must stay under
 * 128 MB, so a sample is not a (time, committed, log end) triple of 24 bytes. Instead:
 *  - one shared ring of refresh times (a "tick" is one model_enrich call); every series stores
 *    its values in a ring of the same capacity indexed by tick, so no sample carries its time;
 *  - a committed series (group, topic, partition) stores only committed offsets; the log end at
 *    the same tick is read from the topic-partition's series, which every group shares;
 *  - values are int16 deltas from a per-series int64 base. A series whose values spread more
 *    than ~65,000 within its ring (a busy partition, a jump, offsets near INT64_MAX next to small
 *    ones) is rebased, and if that is not enough switches to int64 values ("wide") for the rest
 *    of its life (until forgotten);
 *  - names are interned: series hold 32-bit ids, found through open-addressing hash tables, so
 *    model_enrich costs O(partitions).
 * A refresh in which a series was not recorded leaves a gap in its ring (see ring_fill_gaps).
 * Not thread-safe: the caller serialises model_enrich and history_partition_lags.
 */
#include <limits.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "model/model_int.h"
#include "util/xalloc.h"

#define NO_ID     UINT32_MAX
#define TREND_MAX 32 /* == sizeof lt_group.trend / sizeof int64_t */

/* Narrow ring cells: int16 deltas from the series' base, and two reserved values. Most
 * partitions move by far less than 65,000 offsets over a ring (16 refreshes); the others go wide. */
typedef int16_t cell;
enum { N_GAP = INT16_MIN, N_NONE = INT16_MIN + 1, N_MIN = INT16_MIN + 2, N_MAX = INT16_MAX };
#define TICK_MASK 0x7fffffffu /* ticks are 31-bit, so a ring header packs the wide flag beside one */
#define W_GAP     INT64_MIN   /* wide gap; wide "no value" is LT_OFFSET_NONE */

struct vring {
	uint32_t base_lo, base_hi; /* narrow: int64 base of the deltas; wide: block index in h->wide */
	uint32_t last_tick : 31;   /* last tick recorded */
	uint32_t wide : 1;         /* values are int64, in h->wide */
};

struct cseries {
	struct vring r;
	uint32_t tp;    /* topic-partition series */
	uint32_t group; /* group id */
	/* The write time held for the committed offset's time lag (history_hold_written_at): in HELD_UNIT_MS
	 * from the history's epoch (4 bytes, not 8: every series pays them), the low bits of the committed offset
	 * it is for, and its kind (LT_TL_UNKNOWN: none held). */
	int32_t held;
	uint32_t held_c : 29;
	uint32_t held_kind : 3;
};

struct tpseries {
	struct vring r;
	uint32_t topic;
	int32_t partition;
	uint32_t moved_lo, moved_hi; /* when the log end last changed (ms); halves keep the struct 4-aligned */
};

struct hgroup {
	char *name;
	uint32_t last_tick;
	uint32_t first_cs; /* series of the group's first partition last refresh (a hint) */
	uint32_t n_trend, trend_head;
	int64_t trend[TREND_MAX];
};

struct htopic {
	char *name;
	uint32_t mark;
};

/* Open addressing, linear probing; a slot holds index + 1, 0 is empty. Load factor <= 0.7:
 * 4-byte slots keep even a sparse table at ~6 bytes per series. */
struct itable {
	uint32_t *slot;
	size_t mask;
};

struct lt_history {
	lt_model_params p;
	uint32_t C;  /* ring capacity: refresh times, log-end series, wide blocks */
	uint32_t Cc; /* committed series: window + 2 (<= C), see model_params_default */
	uint32_t tick;
	int64_t *tick_time;
	int64_t epoch; /* the first refresh's time: what held write times count from */
	bool has_epoch;

	struct hgroup *grp;
	size_t n_grp, cap_grp;
	struct itable grp_ix;

	struct htopic *top;
	size_t n_top, cap_top;
	struct itable top_ix;

	struct tpseries *tp;
	cell *tp_vals;
	size_t n_tp, cap_tp;
	struct itable tp_ix;

	struct cseries *cs;
	cell *cs_vals;
	size_t n_cs, cap_cs;
	struct itable cs_ix;

	int64_t *wide; /* blocks of C values */
	size_t n_wide, cap_wide;
	uint32_t *wide_free;
	size_t n_wide_free, cap_wide_free;
	size_t names_bytes;
	lt_record_ts *rts; /* the timestamps of records at committed offsets (record_ts.h) */
};

void model_params_default(lt_model_params *p)
{
	/* ring_capacity is 16, not 64: every slot costs 2 bytes per series (0.6 MB at 320,000
	 * partitions). 16 log-end points give time-lag interpolation 15 segments. A committed series
	 * keeps only window + 2 samples (12): what status and rates read, plus two refreshes of slack
	 * for gaps; the topic-partition's log-end series, shared by all groups, keeps ring_capacity. */
	p->allowed_lag = 0;
	p->time_lag_threshold_ms = 0; /* never: it was left unset, and callers' stack garbage set the flag */
	p->window = 10;
	p->ring_capacity = 16;
	p->forget_after = 30;
}

/* ---- hashing ---- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	x ^= x >> 33;
	return x;
}

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return mix64(h);
}

static uint64_t hash_pair(uint32_t a, uint32_t b)
{
	return mix64(((uint64_t)a << 32) | b);
}

static uint64_t grp_hash(const lt_history *h, uint32_t i)
{
	return hash_str(h->grp[i].name);
}

static uint64_t top_hash(const lt_history *h, uint32_t i)
{
	return hash_str(h->top[i].name);
}

static uint64_t tp_hash(const lt_history *h, uint32_t i)
{
	return hash_pair(h->tp[i].topic, (uint32_t)h->tp[i].partition);
}

static uint64_t cs_hash(const lt_history *h, uint32_t i)
{
	return hash_pair(h->cs[i].group, h->cs[i].tp);
}

static void itable_put(struct itable *t, uint64_t hash, uint32_t idx)
{
	size_t i = hash & t->mask;
	while (t->slot[i])
		i = (i + 1) & t->mask;
	t->slot[i] = idx + 1;
}

static void itable_rebuild(const lt_history *h, struct itable *t, size_t n,
			   uint64_t (*hash_of)(const lt_history *, uint32_t))
{
	size_t cap = 16;
	while (cap * 7 < (n + 1) * 10)
		cap <<= 1;
	free(t->slot);
	t->slot = xcalloc(cap, sizeof *t->slot);
	t->mask = cap - 1;
	for (size_t i = 0; i < n; i++)
		itable_put(t, hash_of(h, (uint32_t)i), (uint32_t)i);
}

/* Adds entry n (the newest) to t, growing t first when it would pass half full. */
static void itable_add(const lt_history *h, struct itable *t, size_t n,
		       uint64_t (*hash_of)(const lt_history *, uint32_t))
{
	if (!t->slot || (n + 1) * 10 > (t->mask + 1) * 7)
		itable_rebuild(h, t, n + 1, hash_of);
	else
		itable_put(t, hash_of(h, (uint32_t)n), (uint32_t)n);
}

/* Large arrays grow by a quarter (not double): at 320,000 series the slack of doubling is
 * megabytes. realloc of big blocks moves pages (mremap), so growing often is cheap. */
static size_t next_cap(size_t cap)
{
	if (cap < 64)
		return 64;
	return cap < 4096 ? cap + cap / 2 : cap + cap / 4;
}

/* ---- value rings ---- */

static int64_t ring_base(const struct vring *r)
{
	return (int64_t)(((uint64_t)r->base_hi << 32) | r->base_lo);
}

static void ring_set_base(struct vring *r, int64_t b)
{
	r->base_lo = (uint32_t)(uint64_t)b;
	r->base_hi = (uint32_t)((uint64_t)b >> 32);
}

static int64_t *wide_block(const lt_history *h, const struct vring *r)
{
	return &h->wide[(size_t)r->base_lo * h->C];
}

/* The value in slot: W_GAP (not recorded that tick), LT_OFFSET_NONE, or an offset >= 0. */
static int64_t ring_get(const lt_history *h, const struct vring *r, const cell *vals, uint32_t slot)
{
	if (r->wide)
		return wide_block(h, r)[slot];
	cell d = vals[slot];
	if (d == N_GAP)
		return W_GAP;
	if (d == N_NONE)
		return LT_OFFSET_NONE;
	return ring_base(r) + d; /* was stored as value - base, so it cannot overflow */
}

static void ring_init(struct vring *r, cell *vals, uint32_t cap, uint32_t tick)
{
	memset(r, 0, sizeof *r);
	r->last_tick = tick;
	for (uint32_t i = 0; i < cap; i++)
		vals[i] = N_GAP;
}

/* Ticks skipped since the last record become gaps, so a slot never shows a value of an older lap. */
static uint32_t tick_age(uint32_t now, uint32_t then)
{
	return (now - then) & TICK_MASK;
}

static void ring_fill_gaps(lt_history *h, struct vring *r, cell *vals, uint32_t cap, uint32_t tick)
{
	uint32_t age = tick_age(tick, r->last_tick);
	if (age <= 1)
		return;
	uint32_t n = age - 1 < cap ? age - 1 : cap;
	for (uint32_t k = 1; k <= n; k++) {
		uint32_t slot = ((r->last_tick + k) & TICK_MASK) % cap;
		if (r->wide)
			wide_block(h, r)[slot] = W_GAP;
		else
			vals[slot] = N_GAP;
	}
}

static uint32_t wide_alloc(lt_history *h)
{
	if (h->n_wide_free)
		return h->wide_free[--h->n_wide_free];
	if (h->n_wide == h->cap_wide) {
		h->cap_wide = h->cap_wide < 8 ? 8 : h->cap_wide + h->cap_wide / 2;
		h->wide = xrealloc(h->wide, h->cap_wide * h->C * sizeof *h->wide);
	}
	return (uint32_t)h->n_wide++;
}

static void wide_release(lt_history *h, struct vring *r)
{
	if (!r->wide)
		return;
	h->wide_free = xgrow(h->wide_free, &h->cap_wide_free, h->n_wide_free + 1, sizeof *h->wide_free);
	h->wide_free[h->n_wide_free++] = r->base_lo;
	r->wide = 0;
}

static bool delta_fits(int64_t v, int64_t base, cell *out)
{
	int64_t d;
	if (__builtin_sub_overflow(v, base, &d) || d < N_MIN || d > N_MAX)
		return false;
	*out = (cell)d;
	return true;
}

/* v does not fit the current base: re-centre the base on the values in the ring, or go wide. */
static void ring_rebase(lt_history *h, struct vring *r, cell *vals, uint32_t cap, uint32_t slot, int64_t v)
{
	int64_t lo = v, hi = v;
	for (uint32_t i = 0; i < cap; i++) {
		if (i == slot)
			continue;
		int64_t x = ring_get(h, r, vals, i);
		if (x < 0)
			continue;
		lo = x < lo ? x : lo;
		hi = x > hi ? x : hi;
	}
	/* hi - lo may not fit int64 arithmetic in general, but both are >= 0 here. */
	if ((uint64_t)(hi - lo) <= (uint64_t)((int64_t)N_MAX - N_MIN)) {
		int64_t nb = lo + (int64_t)(((uint64_t)(hi - lo)) / 2);
		cell d = 0;
		for (uint32_t i = 0; i < cap; i++) {
			if (i == slot)
				continue;
			int64_t x = ring_get(h, r, vals, i);
			if (x >= 0) {
				(void)delta_fits(x, nb, &d);
				vals[i] = d;
			}
		}
		ring_set_base(r, nb);
		(void)delta_fits(v, nb, &d);
		vals[slot] = d;
		return;
	}
	uint32_t b = wide_alloc(h);
	int64_t *w = &h->wide[(size_t)b * h->C];
	for (uint32_t i = 0; i < cap; i++)
		w[i] = i == slot ? v : ring_get(h, r, vals, i);
	r->wide = 1;
	r->base_lo = b;
	r->base_hi = 0;
	for (uint32_t i = 0; i < cap; i++)
		vals[i] = N_GAP; /* unused while wide; keeps the narrow cells defined */
}

static void ring_put(lt_history *h, struct vring *r, cell *vals, uint32_t cap, uint32_t tick, int64_t v)
{
	ring_fill_gaps(h, r, vals, cap, tick);
	r->last_tick = tick;
	uint32_t slot = tick % cap;
	if (v < 0)
		v = LT_OFFSET_NONE;
	if (r->wide) {
		wide_block(h, r)[slot] = v;
		return;
	}
	if (v == LT_OFFSET_NONE) {
		vals[slot] = N_NONE;
		return;
	}
	cell d;
	if (delta_fits(v, ring_base(r), &d))
		vals[slot] = d;
	else
		ring_rebase(h, r, vals, cap, slot, v);
}

/* Collects the recorded values of r (oldest first) that are still within the time ring at
 * h->tick; values < 0 are kept only when keep_none. slots (when not NULL) gets each value's tick's slot
 * in the time ring (tick % h->C). Called for every row of every refresh: the slots advance by one per
 * tick instead of a division each (a tick wraps to 0 after TICK_MASK, and so do both slots). */
static size_t ring_collect(const lt_history *h, const struct vring *r, const cell *vals, uint32_t cap, bool keep_none,
			   int64_t *t, int64_t *v, uint32_t *slots)
{
	uint32_t age = tick_age(h->tick, r->last_tick);
	size_t n = 0;
	if (age >= cap)
		return 0;
	uint32_t tk = (r->last_tick - (cap - age - 1)) & TICK_MASK; /* the oldest tick collected */
	uint32_t vs = tk % cap, ts = tk % h->C;
	for (uint32_t k = cap - age; k-- > 0;) {
		int64_t x = ring_get(h, r, vals, vs);
		if (x != W_GAP && (x >= 0 || keep_none)) {
			t[n] = h->tick_time[ts];
			v[n] = x;
			if (slots)
				slots[n] = ts;
			n++;
		}
		tk = (tk + 1) & TICK_MASK;
		if (tk == 0) {
			vs = ts = 0;
		} else {
			vs = vs + 1 == cap ? 0 : vs + 1;
			ts = ts + 1 == h->C ? 0 : ts + 1;
		}
	}
	return n;
}

/* ---- life cycle ---- */

lt_history *history_new(const lt_model_params *p)
{
	lt_history *h = xcalloc(1, sizeof *h);
	if (p)
		h->p = *p;
	else
		model_params_default(&h->p);
	if (h->p.window < 2)
		h->p.window = 2;
	if (h->p.window > LT_RING_MAX)
		h->p.window = LT_RING_MAX;
	if (h->p.ring_capacity < h->p.window)
		h->p.ring_capacity = h->p.window;
	if (h->p.ring_capacity > LT_RING_MAX)
		h->p.ring_capacity = LT_RING_MAX;
	if (h->p.forget_after < 1)
		h->p.forget_after = 1;
	if (h->p.allowed_lag < 0)
		h->p.allowed_lag = 0;
	h->C = (uint32_t)h->p.ring_capacity;
	h->Cc = h->p.window + 2 < h->C ? (uint32_t)h->p.window + 2 : h->C;
	h->tick_time = xcalloc(h->C, sizeof *h->tick_time);
	return h;
}

lt_record_ts *history_record_ts(lt_history *h)
{
	return h->rts;
}

void history_read_records(lt_history *h)
{
	if (!h->rts)
		h->rts = record_ts_new(LT_RECORD_TS_MAX);
}

void history_free(lt_history *h)
{
	if (!h)
		return;
	record_ts_free(h->rts);
	for (size_t i = 0; i < h->n_grp; i++)
		free(h->grp[i].name);
	for (size_t i = 0; i < h->n_top; i++)
		free(h->top[i].name);
	free(h->grp);
	free(h->top);
	free(h->tp);
	free(h->tp_vals);
	free(h->cs);
	free(h->cs_vals);
	free(h->grp_ix.slot);
	free(h->top_ix.slot);
	free(h->tp_ix.slot);
	free(h->cs_ix.slot);
	free(h->wide);
	free(h->wide_free);
	free(h->tick_time);
	free(h);
}

const lt_model_params *history_params(const lt_history *h)
{
	return &h->p;
}

void history_set_tick(lt_history *h, uint32_t tick)
{
	h->tick = tick & TICK_MASK;
}

void history_begin(lt_history *h, int64_t now_ms)
{
	h->tick = (h->tick + 1) & TICK_MASK;
	h->tick_time[h->tick % h->C] = now_ms;
	if (!h->has_epoch) {
		h->epoch = now_ms;
		h->has_epoch = true;
	}
}

/* ---- lookups ---- */

static uint32_t grp_find(const lt_history *h, const char *name, uint64_t hash)
{
	if (!h->grp_ix.slot)
		return NO_ID;
	for (size_t i = hash & h->grp_ix.mask; h->grp_ix.slot[i]; i = (i + 1) & h->grp_ix.mask) {
		uint32_t id = h->grp_ix.slot[i] - 1;
		if (strcmp(h->grp[id].name, name) == 0)
			return id;
	}
	return NO_ID;
}

static uint32_t top_find(const lt_history *h, const char *name, uint64_t hash)
{
	if (!h->top_ix.slot)
		return NO_ID;
	for (size_t i = hash & h->top_ix.mask; h->top_ix.slot[i]; i = (i + 1) & h->top_ix.mask) {
		uint32_t id = h->top_ix.slot[i] - 1;
		if (strcmp(h->top[id].name, name) == 0)
			return id;
	}
	return NO_ID;
}

static uint32_t tp_find(const lt_history *h, uint32_t topic, int32_t partition)
{
	if (!h->tp_ix.slot)
		return NO_ID;
	for (size_t i = hash_pair(topic, (uint32_t)partition) & h->tp_ix.mask; h->tp_ix.slot[i];
	     i = (i + 1) & h->tp_ix.mask) {
		uint32_t id = h->tp_ix.slot[i] - 1;
		if (h->tp[id].topic == topic && h->tp[id].partition == partition)
			return id;
	}
	return NO_ID;
}

static uint32_t cs_find(const lt_history *h, uint32_t group, uint32_t tp)
{
	if (!h->cs_ix.slot)
		return NO_ID;
	for (size_t i = hash_pair(group, tp) & h->cs_ix.mask; h->cs_ix.slot[i]; i = (i + 1) & h->cs_ix.mask) {
		uint32_t id = h->cs_ix.slot[i] - 1;
		if (h->cs[id].group == group && h->cs[id].tp == tp)
			return id;
	}
	return NO_ID;
}

uint32_t history_group_id(lt_history *h, const char *group)
{
	uint64_t hash = hash_str(group);
	uint32_t id = grp_find(h, group, hash);
	if (id == NO_ID) {
		if (h->n_grp == h->cap_grp) {
			h->cap_grp = next_cap(h->cap_grp);
			h->grp = xrealloc(h->grp, h->cap_grp * sizeof *h->grp);
		}
		id = (uint32_t)h->n_grp;
		memset(&h->grp[id], 0, sizeof h->grp[id]);
		h->grp[id].name = xstrdup(group);
		h->grp[id].first_cs = NO_ID;
		h->names_bytes += strlen(group) + 1;
		itable_add(h, &h->grp_ix, h->n_grp, grp_hash);
		h->n_grp++;
	}
	h->grp[id].last_tick = h->tick;
	return id;
}

uint32_t history_topic_id(lt_history *h, const char *topic)
{
	uint64_t hash = hash_str(topic);
	uint32_t id = top_find(h, topic, hash);
	if (id == NO_ID) {
		if (h->n_top == h->cap_top) {
			h->cap_top = next_cap(h->cap_top);
			h->top = xrealloc(h->top, h->cap_top * sizeof *h->top);
		}
		id = (uint32_t)h->n_top;
		h->top[id].name = xstrdup(topic);
		h->top[id].mark = 0;
		h->names_bytes += strlen(topic) + 1;
		itable_add(h, &h->top_ix, h->n_top, top_hash);
		h->n_top++;
	}
	return id;
}

uint32_t history_series(lt_history *h, uint32_t group, uint32_t topic, int32_t partition, uint32_t hint, bool create)
{
	/* Snapshots list a group's partitions in the same order every refresh, and a group's series
	 * were created in that order, so the caller's guess (previous series + 1) is usually right:
	 * checking it reads memory sequentially instead of probing two hash tables. */
	if (hint < h->n_cs) {
		const struct cseries *c = &h->cs[hint];
		if (c->group == group && h->tp[c->tp].topic == topic && h->tp[c->tp].partition == partition)
			return hint;
	}
	uint32_t tp = tp_find(h, topic, partition);
	if (tp == NO_ID) {
		if (!create)
			return NO_ID;
		if (h->n_tp == h->cap_tp) {
			h->cap_tp = next_cap(h->cap_tp);
			h->tp = xrealloc(h->tp, h->cap_tp * sizeof *h->tp);
			h->tp_vals = xrealloc(h->tp_vals, h->cap_tp * h->C * sizeof *h->tp_vals);
		}
		tp = (uint32_t)h->n_tp;
		ring_init(&h->tp[tp].r, &h->tp_vals[(size_t)tp * h->C], h->C, h->tick);
		h->tp[tp].topic = topic;
		h->tp[tp].partition = partition;
		h->tp[tp].moved_lo = 0;
		h->tp[tp].moved_hi = 0x80000000u; /* INT64_MIN: never seen moving */
		itable_add(h, &h->tp_ix, h->n_tp, tp_hash);
		h->n_tp++;
	}
	uint32_t id = cs_find(h, group, tp);
	if (id == NO_ID && create) {
		if (h->n_cs == h->cap_cs) {
			h->cap_cs = next_cap(h->cap_cs);
			h->cs = xrealloc(h->cs, h->cap_cs * sizeof *h->cs);
			h->cs_vals = xrealloc(h->cs_vals, h->cap_cs * h->Cc * sizeof *h->cs_vals);
		}
		id = (uint32_t)h->n_cs;
		ring_init(&h->cs[id].r, &h->cs_vals[(size_t)id * h->Cc], h->Cc, h->tick);
		h->cs[id].tp = tp;
		h->cs[id].group = group;
		h->cs[id].held = 0; /* nothing held yet (held_kind says so; all three set, as they share a word) */
		h->cs[id].held_c = 0;
		h->cs[id].held_kind = LT_TL_UNKNOWN;
		itable_add(h, &h->cs_ix, h->n_cs, cs_hash);
		h->n_cs++;
	}
	return id;
}

uint32_t history_group_hint(const lt_history *h, uint32_t group)
{
	return h->grp[group].first_cs;
}

void history_set_group_hint(lt_history *h, uint32_t group, uint32_t first_series)
{
	h->grp[group].first_cs = first_series;
}

void history_record(lt_history *h, uint32_t series, int64_t committed, int64_t log_end)
{
	struct cseries *c = &h->cs[series];
	ring_put(h, &c->r, &h->cs_vals[(size_t)series * h->Cc], h->Cc, h->tick, committed);
	/* The log end is shared by every group reading the partition: the first known value of a
	 * refresh wins (the collector reads it once per partition anyway). */
	struct tpseries *t = &h->tp[c->tp];
	cell *tv = &h->tp_vals[(size_t)c->tp * h->C];
	uint32_t slot = h->tick % h->C;
	if (t->r.last_tick == h->tick) {
		int64_t cur = ring_get(h, &t->r, tv, slot);
		if (cur != W_GAP && (cur >= 0 || log_end < 0))
			return;
	}
	/* Remember when the log end last moved: once the ring holds only one value, that time is
	 * all that says how old an unread message is (see timelag.c). */
	int64_t prev = ring_get(h, &t->r, tv, t->r.last_tick % h->C);
	if (log_end >= 0 && prev != log_end) {
		int64_t now = h->tick_time[h->tick % h->C];
		t->moved_lo = (uint32_t)(uint64_t)now;
		t->moved_hi = (uint32_t)((uint64_t)now >> 32);
	}
	ring_put(h, &t->r, tv, h->C, h->tick, log_end);
}

void history_window(const lt_history *h, uint32_t series, lt_window *w)
{
	w->n = w->ne = 0;
	w->moved_at = INT64_MIN;
	if (series == NO_ID || series >= h->n_cs)
		return;
	const struct cseries *c = &h->cs[series];
	const struct tpseries *t = &h->tp[c->tp];
	const cell *tv = &h->tp_vals[(size_t)c->tp * h->C];
	uint32_t slots[LT_RING_MAX];
	w->n = ring_collect(h, &c->r, &h->cs_vals[(size_t)series * h->Cc], h->Cc, true, w->t, w->c, slots);
	for (size_t i = 0; i < w->n; i++) {
		/* Recording c at a tick always records t at that tick; t's slot is older than the
		 * time ring only if c's is, so this reads the same refresh. */
		int64_t e = ring_get(h, &t->r, tv, slots[i]);
		w->e[i] = e == W_GAP ? LT_OFFSET_NONE : e;
	}
	w->ne = ring_collect(h, &t->r, tv, h->C, false, w->te, w->ev, NULL);
	w->moved_at = (int64_t)(((uint64_t)t->moved_hi << 32) | t->moved_lo);
}

/* Held write times are rounded down to HELD_UNIT_MS (a lag a few ms larger, never smaller): 8 ms in an
 * int32 reach 198 days either side of the epoch. */
#define HELD_UNIT_MS 8

static uint32_t held_offset_bits(int64_t committed)
{
	return (uint32_t)((uint64_t)committed & 0x1fffffffu);
}

double history_hold_written_at(lt_history *h, uint32_t series, int64_t committed, lt_timelag_kind kind,
			       double written_at)
{
	if (series == NO_ID || series >= h->n_cs)
		return written_at;
	struct cseries *c = &h->cs[series];
	double units = floor((written_at - (double)h->epoch) / HELD_UNIT_MS);
	if (kind == LT_TL_UNKNOWN || kind == LT_TL_CAUGHT_UP || !(units >= INT32_MIN && units <= INT32_MAX)) {
		c->held_kind = LT_TL_UNKNOWN;
		return written_at;
	}
	/* The low 29 bits tell a committed offset that stood still from one that moved: a move by a multiple of
	 * 2^29 offsets within one refresh is not a case a consumer makes. */
	bool same = c->held_kind != LT_TL_UNKNOWN && c->held_c == held_offset_bits(committed);
	if (!same || (c->held_kind == LT_TL_BOUND && units < c->held)) {
		c->held = (int32_t)units;
		c->held_c = held_offset_bits(committed);
		c->held_kind = kind;
	}
	return (double)h->epoch + (double)c->held * HELD_UNIT_MS;
}

void history_trend(lt_history *h, uint32_t group, bool push, int64_t total, lt_group *g)
{
	struct hgroup *hg = &h->grp[group];
	if (push) {
		if (hg->n_trend < TREND_MAX) {
			hg->trend[(hg->trend_head + hg->n_trend) % TREND_MAX] = total;
			hg->n_trend++;
		} else {
			hg->trend[hg->trend_head] = total;
			hg->trend_head = (hg->trend_head + 1) % TREND_MAX;
		}
	}
	g->n_trend = hg->n_trend;
	for (uint32_t i = 0; i < hg->n_trend; i++)
		g->trend[i] = hg->trend[(hg->trend_head + i) % TREND_MAX];
}

/* ---- forgetting ---- */

static bool too_old(const lt_history *h, uint32_t last_tick)
{
	return tick_age(h->tick, last_tick) > h->p.forget_after;
}

void history_end(lt_history *h)
{
	bool any = false;
	for (size_t i = 0; i < h->n_cs && !any; i++)
		any = too_old(h, h->cs[i].r.last_tick);
	for (size_t i = 0; i < h->n_tp && !any; i++)
		any = too_old(h, h->tp[i].r.last_tick);
	for (size_t i = 0; i < h->n_grp && !any; i++)
		any = too_old(h, h->grp[i].last_tick);
	if (!any)
		return;

	/* Compact every array in place and renumber the references; then rebuild the indexes.
	 * Only runs on refreshes where something is forgotten. */
	uint32_t *gmap = xmalloc((h->n_grp + 1) * sizeof *gmap);
	size_t j = 0;
	for (size_t i = 0; i < h->n_grp; i++) {
		if (too_old(h, h->grp[i].last_tick)) {
			h->names_bytes -= strlen(h->grp[i].name) + 1;
			free(h->grp[i].name);
			gmap[i] = NO_ID;
		} else {
			gmap[i] = (uint32_t)j;
			if (j != i)
				h->grp[j] = h->grp[i];
			j++;
		}
	}
	h->n_grp = j;

	uint32_t *tmap = xmalloc((h->n_tp + 1) * sizeof *tmap);
	j = 0;
	for (size_t i = 0; i < h->n_tp; i++) {
		if (too_old(h, h->tp[i].r.last_tick)) {
			wide_release(h, &h->tp[i].r);
			tmap[i] = NO_ID;
		} else {
			tmap[i] = (uint32_t)j;
			if (j != i) {
				h->tp[j] = h->tp[i];
				memcpy(&h->tp_vals[j * h->C], &h->tp_vals[i * h->C], h->C * sizeof *h->tp_vals);
			}
			j++;
		}
	}
	h->n_tp = j;

	j = 0;
	for (size_t i = 0; i < h->n_cs; i++) {
		struct cseries *c = &h->cs[i];
		if (too_old(h, c->r.last_tick) || gmap[c->group] == NO_ID || tmap[c->tp] == NO_ID) {
			wide_release(h, &c->r);
			continue;
		}
		c->group = gmap[c->group];
		c->tp = tmap[c->tp];
		if (j != i) {
			h->cs[j] = *c;
			memcpy(&h->cs_vals[j * h->Cc], &h->cs_vals[i * h->Cc], h->Cc * sizeof *h->cs_vals);
		}
		j++;
	}
	h->n_cs = j;

	for (size_t i = 0; i < h->n_top; i++)
		h->top[i].mark = 0;
	for (size_t i = 0; i < h->n_tp; i++)
		h->top[h->tp[i].topic].mark = 1;
	uint32_t *omap = xmalloc((h->n_top + 1) * sizeof *omap);
	j = 0;
	for (size_t i = 0; i < h->n_top; i++) {
		if (!h->top[i].mark) {
			h->names_bytes -= strlen(h->top[i].name) + 1;
			free(h->top[i].name);
			omap[i] = NO_ID;
		} else {
			omap[i] = (uint32_t)j;
			h->top[j++] = h->top[i];
		}
	}
	h->n_top = j;
	for (size_t i = 0; i < h->n_tp; i++)
		h->tp[i].topic = omap[h->tp[i].topic];

	itable_rebuild(h, &h->grp_ix, h->n_grp, grp_hash);
	itable_rebuild(h, &h->top_ix, h->n_top, top_hash);
	itable_rebuild(h, &h->tp_ix, h->n_tp, tp_hash);
	itable_rebuild(h, &h->cs_ix, h->n_cs, cs_hash);
	free(gmap);
	free(tmap);
	free(omap);
}

/* ---- queries ---- */

size_t history_partition_lags(const lt_history *h, const char *group, const char *topic, int32_t partition,
			      int64_t *out, size_t max)
{
	if (!h || !group || !topic || !out || max == 0)
		return 0;
	uint32_t g = grp_find(h, group, hash_str(group));
	uint32_t t = top_find(h, topic, hash_str(topic));
	if (g == NO_ID || t == NO_ID)
		return 0;
	uint32_t tp = tp_find(h, t, partition);
	if (tp == NO_ID)
		return 0;
	uint32_t id = cs_find(h, g, tp);
	if (id == NO_ID)
		return 0;
	lt_window *w = xmalloc(sizeof *w);
	history_window(h, id, w);
	size_t n = 0;
	for (size_t i = 0; i < w->n; i++) {
		bool has;
		int64_t lag;
		(void)lag_compute(LT_OFFSET_NONE, w->c[i], w->e[i], &has, &lag);
		if (has)
			w->c[n++] = lag; /* reuse c as the output buffer */
	}
	size_t first = n > max ? n - max : 0;
	for (size_t i = first; i < n; i++)
		out[i - first] = w->c[i];
	free(w);
	return n - first;
}

size_t history_committed_capacity(const lt_history *h)
{
	return h->Cc;
}

size_t history_wide_count(const lt_history *h)
{
	return h->n_wide - h->n_wide_free;
}

size_t history_series_count(const lt_history *h, size_t *n_log_end)
{
	if (n_log_end)
		*n_log_end = h->n_tp;
	return h->n_cs;
}

/* Capacity (an upper bound of what is resident); history_bytes_used counts only what is filled. */
size_t history_bytes(const lt_history *h)
{
	size_t b = sizeof *h + h->C * sizeof *h->tick_time;
	b += h->cap_grp * sizeof *h->grp + h->cap_top * sizeof *h->top + h->names_bytes;
	b += h->cap_tp * (sizeof *h->tp + h->C * sizeof *h->tp_vals);
	b += h->cap_cs * (sizeof *h->cs + h->Cc * sizeof *h->cs_vals);
	b += (h->grp_ix.mask + 1 + h->top_ix.mask + 1 + h->tp_ix.mask + 1 + h->cs_ix.mask + 1) * sizeof(uint32_t);
	b += h->cap_wide * h->C * sizeof *h->wide + h->cap_wide_free * sizeof *h->wide_free;
	return b;
}

size_t history_bytes_used(const lt_history *h)
{
	size_t b = sizeof *h + h->C * sizeof *h->tick_time;
	b += h->n_grp * sizeof *h->grp + h->n_top * sizeof *h->top + h->names_bytes;
	b += h->n_tp * (sizeof *h->tp + h->C * sizeof *h->tp_vals);
	b += h->n_cs * (sizeof *h->cs + h->Cc * sizeof *h->cs_vals);
	b += (h->grp_ix.mask + 1 + h->top_ix.mask + 1 + h->tp_ix.mask + 1 + h->cs_ix.mask + 1) * sizeof(uint32_t);
	b += (h->n_wide - h->n_wide_free) * h->C * sizeof *h->wide;
	return b;
}
