/* topic_view.c — the topic view (see topic_view.h).
 *
 * One pass over every group's partitions (sorted by topic, partition) makes a (topic, group) entry
 * per run of one topic; the entries are sorted by topic name (stable: groups stay in id order) and
 * each topic's run of entries is summed into the topic's own entry. A topic's distinct partitions
 * are counted with a bitmap over its partition numbers, so each partition's produce rate is counted
 * once however many groups read it. */
#include "config.h"

#include "model/topic_view.h"

#include <stdlib.h>
#include <string.h>

#include "model/colkey.h"
#include "model/model_int.h"
#include "util/xalloc.h"

/* Worst status with the group rule for pending (snapshot.h), but partition names kept: a topic pane
 * says STALL, not ERR. */
static void status_add(lt_status *worst, bool *pending, lt_status st)
{
	if (st > *worst)
		*worst = st;
	*pending |= st == LT_STATUS_PENDING;
}

static lt_status status_end(lt_status worst, bool pending)
{
	return pending && worst <= LT_STATUS_OK ? LT_STATUS_PENDING : worst;
}

/* A group's entry for its partitions parts[0..n) (one topic). */
static void entry_fill(lt_topic_stats *e, const lt_group *g, const lt_partition *parts, size_t n)
{
	memset(e, 0, sizeof *e);
	e->topic = parts[0].topic;
	e->group = g;
	e->parts = parts;
	e->n_partitions = n;
	e->n_groups = 1;
	lt_status worst = LT_STATUS_UNKNOWN;
	bool pending = false;
	for (size_t i = 0; i < n; i++) {
		const lt_partition *p = &parts[i];
		if (p->has_lag) {
			e->total_lag = sat_add(e->total_lag, p->lag);
			if (!e->has_lag || p->lag > e->max_lag)
				e->max_lag = p->lag;
			e->has_lag = true;
		}
		if (p->has_time_lag && (!e->has_max_time_lag || p->time_lag_ms >= e->max_time_lag_ms)) {
			/* estimated when a partition with the largest time lag is (group_max_time_lag_estimated) */
			bool est = (p->flags & LT_PF_TIME_LAG_ESTIMATED) != 0;
			e->max_time_lag_estimated =
				est || (e->has_max_time_lag && p->time_lag_ms == e->max_time_lag_ms &&
					e->max_time_lag_estimated);
			e->max_time_lag_ms = p->time_lag_ms;
			e->has_max_time_lag = true;
		}
		if (p->has_rates) {
			e->produce_rate += p->produce_rate;
			e->consume_rate += p->consume_rate;
			e->has_rates = true;
		}
		e->time_lag_high |= (p->flags & LT_PF_TIME_LAG_HIGH) != 0;
		status_add(&worst, &pending, p->status);
	}
	e->status = status_end(worst, pending);
}

static int entry_by_topic(const void *pa, const void *pb)
{
	const lt_topic_stats *a = pa, *b = pb;
	int c = a->topic == b->topic ? 0 : strcmp(a->topic, b->topic);
	if (c)
		return c;
	/* groups in the snapshot's order (by id): its array is sorted, so address order is id order */
	return (a->group > b->group) - (a->group < b->group);
}

/* The whole topic from its groups' entries e[0..n). seen: scratch bitmap of at least max partition + 1
 * bits, all clear; left clear. */
static void topic_fill(lt_topic_stats *t, const lt_topic_stats *e, size_t n, unsigned char *seen)
{
	memset(t, 0, sizeof *t);
	t->topic = e[0].topic;
	t->entries = e;
	t->n_groups = n;
	lt_status worst = LT_STATUS_UNKNOWN;
	bool pending = false;
	for (size_t i = 0; i < n; i++) {
		if (e[i].has_lag) {
			t->total_lag = sat_add(t->total_lag, e[i].total_lag);
			if (!t->has_lag || e[i].total_lag > t->max_lag)
				t->max_lag = e[i].total_lag;
			t->has_lag = true;
		}
		if (e[i].has_max_time_lag && (!t->has_max_time_lag || e[i].max_time_lag_ms >= t->max_time_lag_ms)) {
			t->max_time_lag_estimated =
				e[i].max_time_lag_estimated ||
				(t->has_max_time_lag && e[i].max_time_lag_ms == t->max_time_lag_ms &&
				 t->max_time_lag_estimated);
			t->max_time_lag_ms = e[i].max_time_lag_ms;
			t->has_max_time_lag = true;
		}
		if (e[i].has_rates) {
			t->consume_rate += e[i].consume_rate;
			t->has_rates = true;
		}
		t->time_lag_high |= e[i].time_lag_high;
		status_add(&worst, &pending, e[i].status);
		/* each partition once: its produce rate is the topic's, whichever group saw it */
		for (size_t j = 0; j < e[i].n_partitions; j++) {
			const lt_partition *p = &e[i].parts[j];
			if (p->partition < 0)
				continue;
			size_t bit = (size_t)p->partition;
			if (seen[bit / 8] & (1u << (bit % 8)))
				continue;
			seen[bit / 8] |= (unsigned char)(1u << (bit % 8));
			t->n_partitions++;
			if (p->has_rates)
				t->produce_rate += p->produce_rate;
		}
	}
	t->status = status_end(worst, pending);
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < e[i].n_partitions; j++)
			if (e[i].parts[j].partition >= 0)
				seen[(size_t)e[i].parts[j].partition / 8] = 0;
}

lt_topic_view *topic_view_build(const lt_snapshot *s)
{
	lt_topic_view *v = xcalloc(1, sizeof *v);
	if (!s)
		return v;
	size_t cap = 0;
	int32_t max_part = 0;
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		for (size_t j = 0; j < g->n_partitions; j++) {
			if (j == 0 || g->partitions[j].topic != g->partitions[j - 1].topic)
				cap++;
			if (g->partitions[j].partition > max_part)
				max_part = g->partitions[j].partition;
		}
	}
	v->entries = xcalloc(cap ? cap : 1, sizeof *v->entries);
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		for (size_t j = 0; j < g->n_partitions;) {
			size_t k = j + 1;
			/* topics are interned: one pointer per name */
			while (k < g->n_partitions && g->partitions[k].topic == g->partitions[j].topic)
				k++;
			entry_fill(&v->entries[v->n_entries++], g, &g->partitions[j], k - j);
			j = k;
		}
	}
	qsort(v->entries, v->n_entries, sizeof *v->entries, entry_by_topic);

	v->topics = xcalloc(v->n_entries ? v->n_entries : 1, sizeof *v->topics);
	unsigned char *seen = xcalloc((size_t)max_part / 8 + 1, 1);
	for (size_t i = 0; i < v->n_entries;) {
		size_t k = i + 1;
		while (k < v->n_entries && v->entries[k].topic == v->entries[i].topic)
			k++;
		topic_fill(&v->topics[v->n_topics++], &v->entries[i], k - i, seen);
		i = k;
	}
	free(seen);
	return v;
}

void topic_view_free(lt_topic_view *v)
{
	if (!v)
		return;
	free(v->entries);
	free(v->topics);
	free(v);
}

const lt_topic_stats *topic_view_find(const lt_topic_view *v, const char *topic)
{
	if (!v || !topic)
		return NULL;
	size_t lo = 0, hi = v->n_topics;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(v->topics[mid].topic, topic);
		if (c == 0)
			return &v->topics[mid];
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

lt_row *topic_view_rows(const lt_topic_view *v, const lt_topic_stats *topic, const lt_filter *f, size_t *n)
{
	const lt_topic_stats *from = topic ? topic->entries : v->topics;
	size_t count = topic ? topic->n_groups : v->n_topics;
	lt_row *rows = xmalloc((count ? count : 1) * sizeof *rows);
	size_t k = 0;
	for (size_t i = 0; i < count; i++) {
		lt_row r = { from[i].group, NULL, &from[i] };
		if (!f || filter_match(f, &r))
			rows[k++] = r;
	}
	*n = k;
	return rows;
}
