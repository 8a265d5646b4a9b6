/* report.c — the list of position reports a parser fills (report.h). */
#include "position/report.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void pos_reports_init(lt_pos_reports *r)
{
	memset(r, 0, sizeof *r);
}

void pos_reports_free(lt_pos_reports *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].client_id);
		free(r->v[i].topic);
	}
	free(r->v);
	pos_reports_init(r);
}

void pos_reports_add(lt_pos_reports *r, const char *client_id, size_t client_len, const char *topic, size_t topic_len,
		     int32_t partition, lt_pos_kind kind, int64_t value, int64_t committed, int64_t ts_ms)
{
	r->v = xgrow(r->v, &r->cap, r->n + 1, sizeof *r->v);
	lt_pos_report *p = &r->v[r->n];
	p->client_id = xstrndup(client_id, client_len);
	p->topic = xstrndup(topic, topic_len);
	p->partition = partition;
	p->kind = kind;
	p->value = value;
	p->committed = committed;
	p->ts_ms = ts_ms;
	p->seq = r->n++;
}

static int cmp_key(const lt_pos_report *a, const char *client_id, const char *topic, int32_t partition)
{
	int c = strcmp(a->client_id, client_id);
	if (c)
		return c;
	c = strcmp(a->topic, topic);
	if (c)
		return c;
	return (a->partition > partition) - (a->partition < partition);
}

static int cmp_report(const void *pa, const void *pb)
{
	const lt_pos_report *a = pa, *b = pb;
	int c = cmp_key(a, b->client_id, b->topic, b->partition);
	if (c)
		return c;
	if (a->kind != b->kind)
		return a->kind < b->kind ? -1 : 1;
	/* the one to keep first: newest, then latest to appear */
	if (a->ts_ms != b->ts_ms)
		return a->ts_ms > b->ts_ms ? -1 : 1;
	return (a->seq < b->seq) - (a->seq > b->seq);
}

void pos_reports_finish(lt_pos_reports *r)
{
	if (r->n < 2)
		return;
	qsort(r->v, r->n, sizeof *r->v, cmp_report);
	size_t w = 1;
	for (size_t i = 1; i < r->n; i++) {
		lt_pos_report *k = &r->v[w - 1];
		if (r->v[i].kind == k->kind && cmp_key(k, r->v[i].client_id, r->v[i].topic, r->v[i].partition) == 0) {
			free(r->v[i].client_id);
			free(r->v[i].topic);
			continue;
		}
		r->v[w++] = r->v[i];
	}
	r->n = w;
}

const lt_pos_report *pos_reports_find(const lt_pos_reports *r, const char *client_id, const char *topic,
				      int32_t partition)
{
	size_t lo = 0, hi = r->n;
	while (lo < hi) { /* the first report not below the key: its best kind, as kinds sort in preference */
		size_t mid = lo + (hi - lo) / 2;
		if (cmp_key(&r->v[mid], client_id, topic, partition) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < r->n && cmp_key(&r->v[lo], client_id, topic, partition) == 0)
		return &r->v[lo];
	return NULL;
}

bool pos_value_to_offset(double v, int64_t *out)
{
	if (!isfinite(v))
		return false;
	double rounded = nearbyint(v);
	/* 2^63 is exactly representable; anything at or past it does not fit */
	if (rounded >= 9223372036854775808.0 || rounded < -9223372036854775808.0)
		return false;
	*out = (int64_t)rounded;
	return true;
}

bool pos_report_position(const lt_pos_report *rep, int64_t log_start, int64_t log_end, int64_t *position)
{
	switch (rep->kind) {
	case LT_POSK_POSITION:
		if (rep->value < 0)
			return false;
		*position = rep->value;
		return true;
	case LT_POSK_LEAD:
		if (log_start < 0 || rep->value < 0 || rep->value > INT64_MAX - log_start)
			return false;
		*position = log_start + rep->value;
		return true;
	case LT_POSK_LAG:
		if (log_end < 0 || rep->value < 0 || rep->value > log_end)
			return false;
		*position = log_end - rep->value;
		return true;
	}
	return false;
}

const char *pos_kind_name(lt_pos_kind k)
{
	switch (k) {
	case LT_POSK_POSITION: return "position";
	case LT_POSK_LEAD: return "lead";
	case LT_POSK_LAG: return "lag";
	}
	return "?";
}
