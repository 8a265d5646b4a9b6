/* match.c — reports to partitions, and each source's status line (match.h). */
#include "position/match.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Every member's client id, sorted, to tell "in none of the groups read" from "does not own that partition". */
static const char **member_clients(const lt_snapshot *s, size_t *n_out)
{
	size_t n = 0;
	for (size_t g = 0; g < s->n_groups; g++)
		n += s->groups[g].n_members;
	const char **v = xcalloc(n ? n : 1, sizeof *v);
	n = 0;
	for (size_t g = 0; g < s->n_groups; g++)
		for (size_t m = 0; m < s->groups[g].n_members; m++)
			v[n++] = s->groups[g].members[m].client_id;
	qsort(v, n, sizeof *v, cmp_str);
	*n_out = n;
	return v;
}

/* The usable report of source `in` for (client, topic, partition), and its time; NULL if none. */
static const lt_pos_report *usable(const lt_pos_input *in, const char *client, const lt_partition *p, int64_t now_ms,
				   int64_t max_age_ms, int64_t *position, int64_t *ts, bool *stale)
{
	const lt_pos_report *r = pos_reports_find(in->reports, client, p->topic, p->partition);
	const lt_pos_report *end = in->reports->v + in->reports->n;
	for (; r && r < end && !strcmp(r->client_id, client) && !strcmp(r->topic, p->topic) &&
	       r->partition == p->partition;
	     r++) {
		int64_t t = r->ts_ms >= 0 ? r->ts_ms : in->taken_ms;
		if (max_age_ms > 0 && now_ms - t > max_age_ms) {
			*stale = true;
			continue;
		}
		if (pos_report_position(r, p->log_start, p->log_end, position)) {
			*ts = t;
			return r;
		}
	}
	return NULL;
}

struct tally {
	bool unreadable; /* some group's members cannot be read: a client id may be in one of those */
	size_t used, stale, not_owned, no_group, superseded;
	int64_t newest_ms;
	char no_group_ids[96];
};

static void note_client(struct tally *t, const char *id)
{
	size_t len = strlen(t->no_group_ids);
	if (len && !strcmp(t->no_group_ids + len - 3, "..."))
		return;
	/* room kept for ", ..." (and its NUL), so the list is cut whole, never mid-word */
	if (len + 2 + strlen(id) + sizeof ", ..." > sizeof t->no_group_ids) {
		snprintf(t->no_group_ids + len, sizeof t->no_group_ids - len, "%s", len ? ", ..." : "...");
		return;
	}
	snprintf(t->no_group_ids + len, sizeof t->no_group_ids - len, "%s%s", len ? ", " : "", id);
}

static char *status_line(const lt_pos_input *in, const struct tally *t, int64_t now_ms, int64_t max_age_ms, bool *ok)
{
	const lt_pos_reports *r = in->reports;
	*ok = false;
	if (!r)
		return xstrdup(in->failure ? in->failure : "failed");
	if (!r->n) {
		if (r->n_bad && !r->n_matched)
			return xasprintf("parse error: %s%s", r->first_error,
					 r->n_bad < r->n_units ? "" : " (nothing readable)");
		if (r->n_unlabelled)
			return xasprintf("wrong labels: %zu position samples without a usable '%s' label",
					 r->n_unlabelled, r->missing_label);
		if (r->n_no_value)
			return xasprintf("no position yet: %zu partitions report no value (NaN or -1001)",
					 r->n_no_value);
		return xstrdup("no position metrics found (check the metric names)");
	}
	if (!t->used) {
		if (t->stale && !t->not_owned && !t->no_group)
			return xasprintf("stale: newest report %lld s old (max %lld s)",
					 (long long)((now_ms - t->newest_ms) / 1000), (long long)(max_age_ms / 1000));
		if (t->no_group && !t->not_owned)
			return xasprintf("client id in none of the groups read: %s%s", t->no_group_ids,
					 t->unreadable ? " (or in a group whose members cannot be read)" : "");
		if (t->not_owned && !t->no_group && !t->stale && !t->superseded)
			return xasprintf("no report for a partition its client owns now (%zu for others)",
					 t->not_owned);
	}
	*ok = t->used > 0;
	char extra[256] = "";
	size_t len = 0;
#define ADD(...) (len += (size_t)snprintf(extra + len, len < sizeof extra ? sizeof extra - len : 0, __VA_ARGS__))
	if (t->stale)
		ADD("; %zu stale", t->stale);
	if (t->superseded)
		ADD("; %zu superseded by newer reports of another source", t->superseded);
	if (t->not_owned)
		ADD("; %zu for partitions their client does not own", t->not_owned);
	if (t->no_group)
		ADD("; client id in none of the groups read: %s%s", t->no_group_ids,
		    t->unreadable ? " (or in a group whose members cannot be read)" : "");
	if (r->n_bad)
		ADD("; %zu bad %s skipped", r->n_bad, r->n_bad == 1 ? "line" : "lines");
#undef ADD
	return xasprintf("%s: %zu position%s, %zu used%s", *ok ? "ok" : "unused", r->n, r->n == 1 ? "" : "s", t->used,
			 extra);
}

void pos_match(lt_snapshot *s, const lt_pos_input *in, size_t n, int64_t now_ms, int64_t max_age_ms)
{
	for (size_t g = 0; g < s->n_groups; g++)
		for (size_t i = 0; i < s->groups[g].n_partitions; i++) {
			lt_partition *p = &s->groups[g].partitions[i];
			p->has_position = false;
			p->flags &= ~(unsigned)(LT_PF_NOT_COMMITTING | LT_PF_COMMITTING_KNOWN);
		}
	for (size_t i = 0; i < s->n_pos_sources; i++) {
		free(s->pos_sources[i].location);
		free(s->pos_sources[i].status);
	}
	free(s->pos_sources);
	s->pos_sources = NULL;
	s->n_pos_sources = n;
	if (!n)
		return;
	s->pos_sources = xcalloc(n, sizeof *s->pos_sources);
	struct tally *t = xcalloc(n, sizeof *t);
	bool unreadable = false;
	for (size_t g = 0; g < s->n_groups; g++)
		unreadable |= !group_members_known(&s->groups[g]);
	for (size_t k = 0; k < n; k++) {
		t[k].newest_ms = INT64_MIN;
		t[k].unreadable = unreadable;
	}

	for (size_t g = 0; g < s->n_groups; g++) {
		lt_group *grp = &s->groups[g];
		for (size_t i = 0; i < grp->n_partitions; i++) {
			lt_partition *p = &grp->partitions[i];
			if (p->member < 0 || (size_t)p->member >= grp->n_members)
				continue;
			const char *client = grp->members[p->member].client_id;
			int64_t best_ts = INT64_MIN, best_pos = 0;
			int best = -1;
			for (size_t k = 0; k < n; k++) {
				if (!in[k].reports)
					continue;
				int64_t pos, ts;
				bool stale = false;
				if (!usable(&in[k], client, p, now_ms, max_age_ms, &pos, &ts, &stale))
					continue;
				if (best >= 0)
					t[ts > best_ts ? (size_t)best : k].superseded++;
				if (ts > best_ts) {
					best_ts = ts;
					best_pos = pos;
					best = (int)k;
				}
			}
			if (best < 0)
				continue;
			p->has_position = true;
			lt_partition_ext *x = partition_ext_add(grp, p);
			x->position = best_pos;
			x->position_source = best;
			x->position_age_ms = now_ms > best_ts ? now_ms - best_ts : 0;
			t[best].used++;
		}
	}

	/* Per source, what the reports not used were: stale, for a partition their client does not own, or
	 * from a client id no group has. */
	size_t n_clients;
	const char **clients = member_clients(s, &n_clients);
	for (size_t k = 0; k < n; k++) {
		const lt_pos_reports *r = in[k].reports;
		size_t keys = 0; /* first reports of a (client, topic, partition) whose client is a member */
		for (size_t i = 0; r && i < r->n; i++) {
			const lt_pos_report *rep = &r->v[i];
			int64_t ts = rep->ts_ms >= 0 ? rep->ts_ms : in[k].taken_ms;
			if (ts > t[k].newest_ms)
				t[k].newest_ms = ts;
			if (i && !strcmp(r->v[i - 1].client_id, rep->client_id) &&
			    !strcmp(r->v[i - 1].topic, rep->topic) && r->v[i - 1].partition == rep->partition)
				continue; /* counted with the first of its kinds */
			if (!bsearch(&rep->client_id, clients, n_clients, sizeof *clients, cmp_str)) {
				if (!i || strcmp(r->v[i - 1].client_id, rep->client_id)) {
					t[k].no_group++;
					note_client(&t[k], rep->client_id);
				}
			} else {
				keys++;
				if (max_age_ms > 0 && now_ms - ts > max_age_ms)
					t[k].stale++;
			}
		}
		/* owned-but-not-here is "used" or "stale"; reports of member clients that were neither were
		 * for partitions the client does not own now */
		if (r) {
			size_t accounted = t[k].used + t[k].stale + t[k].superseded;
			t[k].not_owned = keys > accounted ? keys - accounted : 0;
		}
		lt_pos_source *src = &s->pos_sources[k];
		src->location = xstrdup(in[k].location);
		src->n_reports = r ? r->n : 0;
		src->n_used = t[k].used;
		src->status = status_line(&in[k], &t[k], now_ms, max_age_ms, &src->ok);
	}
	free(clients);
	free(t);
}
