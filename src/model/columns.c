/* columns.c — the column tables of the groups and partitions panes: names, titles, widths,
 * sort keys and formatters. One table row per column; help text and config names come from here. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/colkey.h"
#include "model/topic_view.h"

/* ---- sort keys ---- */

static const lt_member *row_member(const lt_row *r)
{
	if (!r->part || r->part->member < 0 || (size_t)r->part->member >= r->group->n_members)
		return NULL;
	return &r->group->members[r->part->member];
}

/* Group aggregates have no has_* flags: known when some partition's value is. */
static bool group_any_lag(const lt_group *g)
{
	for (size_t i = 0; i < g->n_partitions; i++)
		if (g->partitions[i].has_lag)
			return true;
	return false;
}

static bool group_any_rates(const lt_group *g)
{
	for (size_t i = 0; i < g->n_partitions; i++)
		if (g->partitions[i].has_rates)
			return true;
	return false;
}

static void key_int(lt_sort_key *k, int64_t v, bool known)
{
	k->v.i = v;
	k->known = known;
}

static void key_str(lt_sort_key *k, const char *s)
{
	k->v.s = s;
	k->known = s != NULL;
}

lt_key_kind column_key_kind(lt_col_id id)
{
	switch (id) {
	case LT_COL_GROUP:
	case LT_COL_STATE:
	case LT_COL_TYPE:
	case LT_COL_TOPIC:
	case LT_COL_CLIENT_ID:
	case LT_COL_HOST:
	case LT_COL_T_TOPIC:
	case LT_COL_TG_GROUP:
	case LT_COL_TG_STATE: return LT_KEY_STR;
	case LT_COL_CONSUME_RATE:
	case LT_COL_TREND:
	case LT_COL_COMMITS_PER_MIN:
	case LT_COL_RATE:
	case LT_COL_T_PRODUCE_RATE:
	case LT_COL_TG_CONSUME_RATE: return LT_KEY_DOUBLE;
	default: return LT_KEY_INT;
	}
}

/* The topic panes' keys: a topic's (or a group's share of it) aggregates. */
static void topic_key(lt_col_id id, const lt_row *r, lt_sort_key *k)
{
	const lt_topic_stats *t = r->topic;
	switch (id) {
	case LT_COL_T_TOPIC: key_str(k, t->topic); break;
	case LT_COL_T_PARTITIONS:
	case LT_COL_TG_PARTITIONS: key_int(k, (int64_t)t->n_partitions, true); break;
	case LT_COL_T_PRODUCE_RATE:
		k->v.d = t->produce_rate;
		k->known = t->has_rates;
		break;
	case LT_COL_T_GROUPS: key_int(k, (int64_t)t->n_groups, true); break;
	case LT_COL_T_LAG:
	case LT_COL_TG_LAG: key_int(k, t->total_lag, t->has_lag); break;
	case LT_COL_T_MAX_LAG: key_int(k, t->max_lag, t->has_lag); break;
	case LT_COL_T_MAX_TIME_LAG:
	case LT_COL_TG_MAX_TIME_LAG: key_int(k, t->max_time_lag_ms, t->has_max_time_lag); break;
	case LT_COL_T_STATUS:
	case LT_COL_TG_STATUS: key_int(k, t->status, status_evaluated(t->status)); break;
	case LT_COL_TG_GROUP: key_str(k, r->group ? r->group->group : NULL); break;
	case LT_COL_TG_STATE: key_str(k, r->group ? group_state_name(r->group->state) : NULL); break;
	case LT_COL_TG_CONSUME_RATE:
		k->v.d = t->consume_rate;
		k->known = t->has_rates;
		break;
	default: break;
	}
}

void column_key(lt_col_id id, const lt_row *r, lt_sort_key *k)
{
	const lt_group *g = r->group;
	const lt_partition *p = r->part;
	const lt_member *m;
	k->known = false;
	k->v.i = 0;
	if (id >= LT_COL_T_TOPIC) {
		if (r->topic)
			topic_key(id, r, k);
		return;
	}
	if (!g || (id >= LT_COL_TOPIC && !p))
		return;
	switch (id) {
	case LT_COL_GROUP: key_str(k, g->group); break;
	case LT_COL_STATE: key_str(k, group_state_name(g->state)); break;
	case LT_COL_TYPE: key_str(k, group_type_name(g->type)); break;
	case LT_COL_MEMBERS: key_int(k, (int64_t)g->n_members, group_members_known(g)); break;
	case LT_COL_TOPICS: key_int(k, (int64_t)g->n_topics, true); break;
	case LT_COL_PARTITIONS: key_int(k, (int64_t)g->n_partitions, true); break;
	case LT_COL_LAG: key_int(k, g->total_lag, group_any_lag(g)); break;
	case LT_COL_MAX_TIME_LAG: key_int(k, g->max_time_lag_ms, g->has_max_time_lag); break;
	case LT_COL_CONSUME_RATE:
		k->v.d = g->consume_rate;
		k->known = group_any_rates(g);
		break;
	case LT_COL_TREND:
		/* Sorted by how much the total lag grew over the trend (growing first when descending). */
		k->known = g->n_trend >= 2;
		k->v.d = k->known ? (double)g->trend[g->n_trend - 1] - (double)g->trend[0] : 0;
		break;
	case LT_COL_STATUS: key_int(k, g->status, status_evaluated(g->status)); break;
	case LT_COL_LAST_COMMIT: key_int(k, g->last_commit_age_ms, g->has_last_commit); break;
	case LT_COL_EXPIRES: key_int(k, g->expires_in_ms, g->has_expiry); break;
	case LT_COL_TOPIC: key_str(k, p->topic); break;
	case LT_COL_PARTITION: key_int(k, p->partition, true); break;
	case LT_COL_LOG_START: key_int(k, p->log_start, p->log_start >= 0); break;
	case LT_COL_COMMITTED: key_int(k, p->committed, p->committed >= 0); break;
	case LT_COL_LOG_END: key_int(k, p->log_end, p->log_end >= 0); break;
	case LT_COL_P_LAG: key_int(k, p->lag, p->has_lag); break;
	case LT_COL_TIME_LAG: key_int(k, p->time_lag_ms, p->has_time_lag); break;
	case LT_COL_RATE:
		k->v.d = p->consume_rate;
		k->known = p->has_rates;
		break;
	case LT_COL_ETA:
		/* "never" (rates known, not catching up) sorts as the longest ETA. */
		key_int(k, p->has_eta ? p->eta_ms : INT64_MAX, p->has_eta || p->has_rates);
		break;
	case LT_COL_P_STATUS: key_int(k, p->status, status_evaluated(p->status)); break;
	case LT_COL_CLIENT_ID:
		m = row_member(r);
		key_str(k, m ? m->client_id : NULL);
		break;
	case LT_COL_HOST:
		m = row_member(r);
		key_str(k, m ? m->host : NULL);
		break;
	case LT_COL_P_LAST_COMMIT: key_int(k, p->last_commit_age_ms, p->has_last_commit); break;
	case LT_COL_COMMITS_PER_MIN:
		k->v.d = p->commits_per_min;
		k->known = p->has_last_commit;
		break;
	case LT_COL_UNMOVED: key_int(k, p->unmoved_ms, p->has_unmoved); break;
	case LT_COL_POSITION: key_int(k, p->position, p->has_position); break;
	case LT_COL_UNCOMMITTED: {
		int64_t unc = 0;
		bool known = partition_uncommitted(p, &unc);
		key_int(k, unc, known);
		break;
	}
	default: break;
	}
}

int sort_key_compare(lt_key_kind kind, const lt_sort_key *a, const lt_sort_key *b, bool descending)
{
	if (a->known != b->known)
		return a->known ? -1 : 1; /* unknown last, whatever the direction */
	if (!a->known)
		return 0;
	int c;
	switch (kind) {
	case LT_KEY_STR: c = strcmp(a->v.s, b->v.s); break;
	case LT_KEY_DOUBLE: c = (a->v.d > b->v.d) - (a->v.d < b->v.d); break;
	default: c = (a->v.i > b->v.i) - (a->v.i < b->v.i); break;
	}
	return descending ? -c : c;
}

int row_tiebreak(const lt_row *a, const lt_row *b)
{
	if (a->topic && b->topic && a->topic != b->topic) { /* topic rows, and one topic's group rows */
		int c = strcmp(a->topic->topic, b->topic->topic);
		if (c)
			return c;
	}
	if (!a->group || !b->group)
		return (a->group != NULL) - (b->group != NULL);
	if (a->group != b->group) {
		int c = strcmp(a->group->group, b->group->group);
		if (c)
			return c;
	}
	if (a->part == b->part)
		return 0;
	if (!a->part || !b->part)
		return a->part ? 1 : -1; /* a group row before its partitions */
	if (a->part->topic != b->part->topic) {
		int c = strcmp(a->part->topic, b->part->topic);
		if (c)
			return c;
	}
	return (a->part->partition > b->part->partition) - (a->part->partition < b->part->partition);
}

static int compare_by(lt_col_id id, const lt_row *a, const lt_row *b)
{
	lt_sort_key ka, kb;
	column_key(id, a, &ka);
	column_key(id, b, &kb);
	int c = sort_key_compare(column_key_kind(id), &ka, &kb, false);
	return c ? c : row_tiebreak(a, b);
}

#define COMPARATOR(fn, id)                                                                                             \
	static int fn(const lt_row *a, const lt_row *b)                                                                \
	{                                                                                                              \
		return compare_by(id, a, b);                                                                           \
	}
COMPARATOR(cmp_group, LT_COL_GROUP)
COMPARATOR(cmp_state, LT_COL_STATE)
COMPARATOR(cmp_type, LT_COL_TYPE)
COMPARATOR(cmp_members, LT_COL_MEMBERS)
COMPARATOR(cmp_topics, LT_COL_TOPICS)
COMPARATOR(cmp_partitions, LT_COL_PARTITIONS)
COMPARATOR(cmp_lag, LT_COL_LAG)
COMPARATOR(cmp_max_time_lag, LT_COL_MAX_TIME_LAG)
COMPARATOR(cmp_consume_rate, LT_COL_CONSUME_RATE)
COMPARATOR(cmp_trend, LT_COL_TREND)
COMPARATOR(cmp_status, LT_COL_STATUS)
COMPARATOR(cmp_topic, LT_COL_TOPIC)
COMPARATOR(cmp_partition, LT_COL_PARTITION)
COMPARATOR(cmp_log_start, LT_COL_LOG_START)
COMPARATOR(cmp_committed, LT_COL_COMMITTED)
COMPARATOR(cmp_log_end, LT_COL_LOG_END)
COMPARATOR(cmp_p_lag, LT_COL_P_LAG)
COMPARATOR(cmp_time_lag, LT_COL_TIME_LAG)
COMPARATOR(cmp_rate, LT_COL_RATE)
COMPARATOR(cmp_eta, LT_COL_ETA)
COMPARATOR(cmp_p_status, LT_COL_P_STATUS)
COMPARATOR(cmp_client_id, LT_COL_CLIENT_ID)
COMPARATOR(cmp_host, LT_COL_HOST)
COMPARATOR(cmp_last_commit, LT_COL_LAST_COMMIT)
COMPARATOR(cmp_expires, LT_COL_EXPIRES)
COMPARATOR(cmp_p_last_commit, LT_COL_P_LAST_COMMIT)
COMPARATOR(cmp_commits_per_min, LT_COL_COMMITS_PER_MIN)
COMPARATOR(cmp_unmoved, LT_COL_UNMOVED)
COMPARATOR(cmp_position, LT_COL_POSITION)
COMPARATOR(cmp_uncommitted, LT_COL_UNCOMMITTED)
COMPARATOR(cmp_t_topic, LT_COL_T_TOPIC)
COMPARATOR(cmp_t_partitions, LT_COL_T_PARTITIONS)
COMPARATOR(cmp_t_produce_rate, LT_COL_T_PRODUCE_RATE)
COMPARATOR(cmp_t_groups, LT_COL_T_GROUPS)
COMPARATOR(cmp_t_lag, LT_COL_T_LAG)
COMPARATOR(cmp_t_max_lag, LT_COL_T_MAX_LAG)
COMPARATOR(cmp_t_max_time_lag, LT_COL_T_MAX_TIME_LAG)
COMPARATOR(cmp_t_status, LT_COL_T_STATUS)
COMPARATOR(cmp_tg_group, LT_COL_TG_GROUP)
COMPARATOR(cmp_tg_state, LT_COL_TG_STATE)
COMPARATOR(cmp_tg_partitions, LT_COL_TG_PARTITIONS)
COMPARATOR(cmp_tg_lag, LT_COL_TG_LAG)
COMPARATOR(cmp_tg_max_time_lag, LT_COL_TG_MAX_TIME_LAG)
COMPARATOR(cmp_tg_consume_rate, LT_COL_TG_CONSUME_RATE)
COMPARATOR(cmp_tg_status, LT_COL_TG_STATUS)

/* ---- formatters ---- */

static void put_str(char *buf, size_t len, const char *s)
{
	snprintf(buf, len, "%s", s && *s ? s : "-");
}

static void put_count(char *buf, size_t len, int64_t v, bool known, bool exact)
{
	if (!known || v < 0)
		snprintf(buf, len, "-");
	else if (exact)
		snprintf(buf, len, "%" PRId64, v);
	else
		format_count(v, buf, len);
}

static void put_duration(char *buf, size_t len, int64_t ms, bool known, bool exact)
{
	if (!known)
		snprintf(buf, len, "-");
	else if (exact)
		format_duration_exact(ms, buf, len);
	else
		format_duration_ms(ms, buf, len);
}

static void put_rate(char *buf, size_t len, double r, bool known, bool exact)
{
	if (!known)
		snprintf(buf, len, "-");
	else if (exact)
		format_rate_exact(r, buf, len);
	else
		format_rate(r, buf, len);
}

static void fmt_group(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->group->group);
}

static void fmt_state(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, group_state_name(r->group->state));
}

/* "-" when nothing said which (a group that does not exist, or an answer that could not be read) */
static void fmt_type(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, group_type_name(r->group->type));
}

/* "?" where the members cannot be read (a consumer-protocol group through the classic API): 0 would say
 * "nobody", "-" would say "not applicable". */
static void fmt_members(const lt_row *r, char *buf, size_t len, bool exact)
{
	if (!group_members_known(r->group))
		snprintf(buf, len, "?");
	else
		put_count(buf, len, (int64_t)r->group->n_members, true, exact);
}

/* A partition's owner: "-" when nobody owns it, "?" when the owners cannot be read. */
static void put_owner(const lt_row *r, char *buf, size_t len, const char *field)
{
	if (!field && !group_members_known(r->group))
		snprintf(buf, len, "?");
	else
		put_str(buf, len, field);
}

static void fmt_topics(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, (int64_t)r->group->n_topics, true, exact);
}

static void fmt_partitions(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, (int64_t)r->group->n_partitions, true, exact);
}

static void fmt_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->group->total_lag, group_any_lag(r->group), exact);
}

static void fmt_max_time_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_duration(buf, len, r->group->max_time_lag_ms, r->group->has_max_time_lag, exact);
}

static void fmt_consume_rate(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_rate(buf, len, r->group->consume_rate, group_any_rates(r->group), exact);
}

static void fmt_trend(const lt_row *r, char *buf, size_t len, bool exact)
{
	const lt_group *g = r->group;
	if (g->n_trend == 0) {
		snprintf(buf, len, "-");
		return;
	}
	if (exact) {
		snprintf(buf, len, "%" PRId64 " -> %" PRId64, g->trend[0], g->trend[g->n_trend - 1]);
		return;
	}
	size_t w = 8;
	size_t first = g->n_trend > w ? g->n_trend - w : 0;
	format_sparkline(g->trend + first, g->n_trend - first, false, buf, len);
}

static void fmt_status(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	/* "!": some partition's consumer reads without committing (LT_PF_NOT_COMMITTING) */
	bool not_committing = false;
	for (size_t i = 0; i < r->group->n_partitions && !not_committing; i++)
		not_committing = r->group->partitions[i].flags & LT_PF_NOT_COMMITTING;
	snprintf(buf, len, "%s%s", status_name(r->group->status), not_committing ? "!" : "");
}

static void fmt_topic(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->part ? r->part->topic : NULL);
}

static void fmt_partition(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	if (r->part)
		snprintf(buf, len, "%" PRId32, r->part->partition);
	else
		snprintf(buf, len, "-");
}

static void fmt_position(const lt_row *r, char *buf, size_t len, bool exact)
{
	const lt_partition *p = r->part;
	put_count(buf, len, p ? p->position : -1, p && p->has_position, exact);
}

static void fmt_uncommitted(const lt_row *r, char *buf, size_t len, bool exact)
{
	const lt_partition *p = r->part;
	int64_t unc = 0;
	bool known = p && partition_uncommitted(p, &unc);
	if (!known) { /* a consumer that has never committed still reads: "!" alone says so */
		snprintf(buf, len, p && (p->flags & LT_PF_NOT_COMMITTING) ? "!" : "-");
		return;
	}
	char n[32];
	if (unc < 0) /* a commit ahead of the reported position: the report is older than the commit */
		snprintf(n, sizeof n, "%" PRId64, unc);
	else
		put_count(n, sizeof n, unc, true, exact);
	snprintf(buf, len, "%s%s", n, p->flags & LT_PF_NOT_COMMITTING ? "!" : "");
}

static void fmt_log_start(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->part ? r->part->log_start : -1, r->part != NULL, exact);
}

static void fmt_committed(const lt_row *r, char *buf, size_t len, bool exact)
{
	if (r->part && (r->part->flags & LT_PF_EXPIRED) && r->part->committed < 0) {
		snprintf(buf, len, "expired"); /* not "-": the group had an offset, and the broker deleted it */
		return;
	}
	put_count(buf, len, r->part ? r->part->committed : -1, r->part != NULL, exact);
}

static void fmt_log_end(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->part ? r->part->log_end : -1, r->part != NULL, exact);
}

static void fmt_p_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->part ? r->part->lag : -1, r->part && r->part->has_lag, exact);
}

static void fmt_time_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_duration(buf, len, r->part ? r->part->time_lag_ms : -1, r->part && r->part->has_time_lag, exact);
}

static void fmt_rate(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_rate(buf, len, r->part ? r->part->consume_rate : -1, r->part && r->part->has_rates, exact);
}

static void fmt_eta(const lt_row *r, char *buf, size_t len, bool exact)
{
	const lt_partition *p = r->part;
	if (p && p->has_eta)
		put_duration(buf, len, p->eta_ms, true, exact);
	else if (p && p->has_rates && p->has_lag)
		snprintf(buf, len, "never");
	else
		snprintf(buf, len, "-");
}

static void fmt_p_status(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->part ? status_name(r->part->status) : NULL);
}

static void fmt_client_id(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	const lt_member *m = row_member(r);
	put_owner(r, buf, len, m ? m->client_id : NULL);
}

static void fmt_host(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	const lt_member *m = row_member(r);
	put_owner(r, buf, len, m ? m->host : NULL);
}

/* Ages: a commit stamped a little ahead of our clock (broker skew) reads as "0s", not as nothing. */
static void put_age(char *buf, size_t len, int64_t ms, bool known, bool exact)
{
	put_duration(buf, len, ms < 0 ? 0 : ms, known, exact);
}

static void fmt_last_commit(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_age(buf, len, r->group->last_commit_age_ms, r->group->has_last_commit, exact);
}

static void fmt_expires(const lt_row *r, char *buf, size_t len, bool exact)
{
	const lt_group *g = r->group;
	if (g->n_expired > 0 && !g->has_expiry)
		snprintf(buf, len, "expired"); /* the broker deleted them: see the partitions */
	else if (g->has_expiry && g->expires_in_ms <= 0)
		snprintf(buf, len, "overdue");
	else
		put_duration(buf, len, g->expires_in_ms, g->has_expiry, exact);
}

static void fmt_p_last_commit(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_age(buf, len, r->part ? r->part->last_commit_age_ms : 0, r->part && r->part->has_last_commit, exact);
}

static void fmt_commits_per_min(const lt_row *r, char *buf, size_t len, bool exact)
{
	if (!r->part || !r->part->has_last_commit)
		snprintf(buf, len, "-");
	else if (exact)
		snprintf(buf, len, "%.2f", r->part->commits_per_min);
	else
		format_per_min(r->part->commits_per_min, buf, len);
}

static void fmt_unmoved(const lt_row *r, char *buf, size_t len, bool exact)
{
	const lt_partition *p = r->part;
	put_age(buf, len, p ? p->unmoved_ms : 0, p && p->has_unmoved, exact);
	/* alive but stuck: it keeps committing the same offset */
	if (p && p->has_unmoved && p->repeating) {
		size_t n = strlen(buf);
		if (n + 1 < len)
			snprintf(buf + n, len - n, "=");
	}
}

/* ---- the topic panes (r->topic: a topic, or one group's share of it) ---- */

static void fmt_t_topic(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->topic ? r->topic->topic : NULL);
}

static void fmt_t_partitions(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->topic ? (int64_t)r->topic->n_partitions : -1, r->topic != NULL, exact);
}

static void fmt_t_produce_rate(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_rate(buf, len, r->topic ? r->topic->produce_rate : -1, r->topic && r->topic->has_rates, exact);
}

static void fmt_t_groups(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->topic ? (int64_t)r->topic->n_groups : -1, r->topic != NULL, exact);
}

static void fmt_t_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->topic ? r->topic->total_lag : -1, r->topic && r->topic->has_lag, exact);
}

static void fmt_t_max_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->topic ? r->topic->max_lag : -1, r->topic && r->topic->has_lag, exact);
}

static void fmt_t_max_time_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_duration(buf, len, r->topic ? r->topic->max_time_lag_ms : -1, r->topic && r->topic->has_max_time_lag,
		     exact);
}

static void fmt_t_status(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->topic ? status_name(r->topic->status) : NULL);
}

static void fmt_tg_group(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->group ? r->group->group : NULL);
}

static void fmt_tg_state(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->group ? group_state_name(r->group->state) : NULL);
}

static void fmt_tg_consume_rate(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_rate(buf, len, r->topic ? r->topic->consume_rate : -1, r->topic && r->topic->has_rates, exact);
}

void format_per_min(double v, char *buf, size_t len)
{
	if (v < 0)
		snprintf(buf, len, "-");
	else if (v < 10 && v != (double)(int64_t)v)
		snprintf(buf, len, "%.1f", v);
	else
		format_count((int64_t)(v + 0.5), buf, len);
}

/* ---- the tables ---- */

/* Indexed by lt_col_id; the groups pane's columns come first, in display order. */
static const lt_column column_table[LT_COL__COUNT] = {
    {LT_COL_GROUP, LT_ROWS_GROUPS, "group", "GROUP", 32, 100, false, false, "consumer group id", cmp_group, fmt_group},
    {LT_COL_STATE, LT_ROWS_GROUPS, "state", "STATE", 19, 85, false, false,
     "group state (Stable, Empty, ...; a consumer-protocol group's as ListGroups reports it)", cmp_state, fmt_state},
    {LT_COL_TYPE, LT_ROWS_GROUPS, "type", "TYPE", 8, 10, false, false,
     "group protocol: classic, or consumer (KIP-848; told by ListGroups, and by the describe with librdkafka 2.10+)",
     cmp_type, fmt_type},
    {LT_COL_MEMBERS, LT_ROWS_GROUPS, "members", "MEMBERS", 7, 75, true, true,
     "number of members (consumers) in the group; ? when they cannot be read (KIP-848 group)", cmp_members, fmt_members},
    {LT_COL_TOPICS, LT_ROWS_GROUPS, "topics", "TOPICS", 6, 40, true, true,
     "number of topics the group has offsets or assignments for", cmp_topics, fmt_topics},
    {LT_COL_PARTITIONS, LT_ROWS_GROUPS, "partitions", "PARTITIONS", 10, 45, true, true,
     "number of partitions the group has offsets or assignments for", cmp_partitions, fmt_partitions},
    {LT_COL_LAG, LT_ROWS_GROUPS, "lag", "LAG", 8, 100, true, true,
     "total lag: messages between committed offsets and log ends", cmp_lag, fmt_lag},
    {LT_COL_MAX_TIME_LAG, LT_ROWS_GROUPS, "max-time-lag", "MAX-TIME-LAG", 12, 80, true, true,
     "largest time lag of the group's partitions (how old the oldest unread message is)", cmp_max_time_lag,
     fmt_max_time_lag},
    {LT_COL_CONSUME_RATE, LT_ROWS_GROUPS, "consume-rate", "CONSUME-RATE", 12, 70, true, true,
     "messages committed per second over the status window", cmp_consume_rate, fmt_consume_rate},
    {LT_COL_TREND, LT_ROWS_GROUPS, "trend", "TREND", 8, 30, false, true, "total lag over the last refreshes", cmp_trend,
     fmt_trend},
    {LT_COL_STATUS, LT_ROWS_GROUPS, "status", "STATUS", 6, 90, false, true,
     "group status: OK, WARN, or ERR when a partition is REWIND, STALL or STOP", cmp_status, fmt_status},
    {LT_COL_LAST_COMMIT, LT_ROWS_GROUPS, "last-commit", "LAST-COMMIT", 11, 25, true, false,
     "time since the group's newest commit (from __consumer_offsets)", cmp_last_commit, fmt_last_commit},
    {LT_COL_EXPIRES, LT_ROWS_GROUPS, "expires", "EXPIRES", 8, 28, true, false,
     "time until the broker deletes the group's committed offsets (offsets.retention.minutes; Empty groups); expired: it did",
     cmp_expires, fmt_expires},
    {LT_COL_TOPIC, LT_ROWS_PARTITIONS, "topic", "TOPIC", 24, 100, false, false, "topic name", cmp_topic, fmt_topic},
    {LT_COL_PARTITION, LT_ROWS_PARTITIONS, "partition", "PARTITION", 9, 100, true, false, "partition number",
     cmp_partition, fmt_partition},
    {LT_COL_LOG_START, LT_ROWS_PARTITIONS, "log-start", "LOG-START", 9, 30, true, false,
     "first offset still in the log", cmp_log_start, fmt_log_start},
    {LT_COL_COMMITTED, LT_ROWS_PARTITIONS, "committed", "COMMITTED", 9, 60, true, false,
     "the group's committed offset (next message to read); expired: the broker deleted it (offsets.retention.minutes)", cmp_committed, fmt_committed},
    {LT_COL_LOG_END, LT_ROWS_PARTITIONS, "log-end", "LOG-END", 9, 60, true, false,
     "offset the next produced message will get", cmp_log_end, fmt_log_end},
    {LT_COL_P_LAG, LT_ROWS_PARTITIONS, "lag", "LAG", 8, 100, true, true, "log end minus committed offset", cmp_p_lag,
     fmt_p_lag},
    {LT_COL_TIME_LAG, LT_ROWS_PARTITIONS, "time-lag", "TIME-LAG", 8, 80, true, true,
     "age of the oldest unread message, interpolated from the log-end history", cmp_time_lag, fmt_time_lag},
    {LT_COL_RATE, LT_ROWS_PARTITIONS, "rate", "RATE", 8, 70, true, true,
     "messages committed per second over the status window", cmp_rate, fmt_rate},
    {LT_COL_ETA, LT_ROWS_PARTITIONS, "eta", "ETA", 8, 50, true, true,
     "time to catch up at the current rates; never when not catching up", cmp_eta, fmt_eta},
    {LT_COL_P_STATUS, LT_ROWS_PARTITIONS, "status", "STATUS", 6, 90, false, true,
     "partition status: OK, WARN, REWIND, STALL, STOP", cmp_p_status, fmt_p_status},
    {LT_COL_CLIENT_ID, LT_ROWS_PARTITIONS, "client-id", "CLIENT-ID", 20, 40, false, false,
     "client id of the member that owns the partition", cmp_client_id, fmt_client_id},
    {LT_COL_HOST, LT_ROWS_PARTITIONS, "host", "HOST", 16, 35, false, false,
     "host of the member that owns the partition", cmp_host, fmt_host},
    {LT_COL_P_LAST_COMMIT, LT_ROWS_PARTITIONS, "last-commit", "LAST-COMMIT", 11, 25, true, false,
     "time since the last commit, even of the same offset (from __consumer_offsets)", cmp_p_last_commit,
     fmt_p_last_commit},
    {LT_COL_COMMITS_PER_MIN, LT_ROWS_PARTITIONS, "commits-per-min", "COMMITS/MIN", 11, 20, true, true,
     "offset commits per minute over the last 5 minutes (from __consumer_offsets)", cmp_commits_per_min,
     fmt_commits_per_min},
    {LT_COL_UNMOVED, LT_ROWS_PARTITIONS, "unmoved", "UNMOVED", 8, 15, true, true,
     "time since the committed offset last moved; = marks a consumer committing the same offset again and again",
     cmp_unmoved, fmt_unmoved},
    {LT_COL_POSITION, LT_ROWS_PARTITIONS, "position", "POSITION", 9, 12, true, false,
     "the consumer's own position (next offset it reads), from its metrics (position_sources); - when none reports",
     cmp_position, fmt_position},
    {LT_COL_UNCOMMITTED, LT_ROWS_PARTITIONS, "uncommitted", "UNCOMMITTED", 11, 10, true, true,
     "position minus committed offset: read but not committed; ! when the consumer reads without committing",
     cmp_uncommitted, fmt_uncommitted},
    /* the topics pane (topic_view.h): only the partitions some group has offsets or assignments on */
    {LT_COL_T_TOPIC, LT_ROWS_TOPICS, "topic", "TOPIC", 24, 100, false, false, "topic name", cmp_t_topic, fmt_t_topic},
    {LT_COL_T_PARTITIONS, LT_ROWS_TOPICS, "partitions", "PARTITIONS", 10, 45, true, true,
     "partitions of the topic the groups have offsets or assignments on", cmp_t_partitions, fmt_t_partitions},
    {LT_COL_T_PRODUCE_RATE, LT_ROWS_TOPICS, "produce-rate", "PRODUCE-RATE", 12, 70, true, true,
     "messages produced per second (log-end advance over the status window), each partition once",
     cmp_t_produce_rate, fmt_t_produce_rate},
    {LT_COL_T_GROUPS, LT_ROWS_TOPICS, "groups", "GROUPS", 6, 75, true, true,
     "groups with offsets or assignments on the topic", cmp_t_groups, fmt_t_groups},
    {LT_COL_T_LAG, LT_ROWS_TOPICS, "lag", "LAG", 8, 100, true, true, "total lag of every group on the topic",
     cmp_t_lag, fmt_t_lag},
    {LT_COL_T_MAX_LAG, LT_ROWS_TOPICS, "max-lag", "MAX-LAG", 8, 85, true, true,
     "the largest lag one group has on the topic", cmp_t_max_lag, fmt_t_max_lag},
    {LT_COL_T_MAX_TIME_LAG, LT_ROWS_TOPICS, "max-time-lag", "MAX-TIME-LAG", 12, 80, true, true,
     "largest time lag of a partition of the topic, over every group", cmp_t_max_time_lag, fmt_t_max_time_lag},
    {LT_COL_T_STATUS, LT_ROWS_TOPICS, "status", "STATUS", 6, 90, false, true,
     "worst partition status on the topic, over every group (OK, WARN, REWIND, STALL, STOP)", cmp_t_status,
     fmt_t_status},
    /* a topic's groups pane: each group's share of the topic */
    {LT_COL_TG_GROUP, LT_ROWS_TOPIC_GROUPS, "group", "GROUP", 32, 100, false, false, "consumer group id",
     cmp_tg_group, fmt_tg_group},
    {LT_COL_TG_STATE, LT_ROWS_TOPIC_GROUPS, "state", "STATE", 19, 60, false, false, "group state", cmp_tg_state,
     fmt_tg_state},
    {LT_COL_TG_PARTITIONS, LT_ROWS_TOPIC_GROUPS, "partitions", "PARTITIONS", 10, 45, true, true,
     "the group's partitions of the topic", cmp_tg_partitions, fmt_t_partitions},
    {LT_COL_TG_LAG, LT_ROWS_TOPIC_GROUPS, "lag", "LAG", 8, 100, true, true, "the group's lag on the topic",
     cmp_tg_lag, fmt_t_lag},
    {LT_COL_TG_MAX_TIME_LAG, LT_ROWS_TOPIC_GROUPS, "max-time-lag", "MAX-TIME-LAG", 12, 80, true, true,
     "largest time lag of the group's partitions of the topic", cmp_tg_max_time_lag, fmt_t_max_time_lag},
    {LT_COL_TG_CONSUME_RATE, LT_ROWS_TOPIC_GROUPS, "consume-rate", "CONSUME-RATE", 12, 70, true, true,
     "messages the group committed per second on the topic", cmp_tg_consume_rate, fmt_tg_consume_rate},
    {LT_COL_TG_STATUS, LT_ROWS_TOPIC_GROUPS, "status", "STATUS", 6, 90, false, true,
     "worst status of the group's partitions of the topic", cmp_tg_status, fmt_t_status},
};

const lt_column *columns_for(lt_row_kind kind, size_t *n)
{
	/* each kind's columns are one run of the table, in display order */
	static const lt_col_id first[] = {
	    [LT_ROWS_GROUPS] = LT_COL_GROUP,     [LT_ROWS_PARTITIONS] = LT_COL_TOPIC,
	    [LT_ROWS_TOPICS] = LT_COL_T_TOPIC,   [LT_ROWS_TOPIC_GROUPS] = LT_COL_TG_GROUP,
	    [LT_ROWS_TOPIC_GROUPS + 1] = LT_COL__COUNT,
	};
	if (n)
		*n = (size_t)(first[kind + 1] - first[kind]);
	return &column_table[first[kind]];
}

const lt_column *column_by_id(lt_col_id id)
{
	if ((unsigned)id >= LT_COL__COUNT)
		return NULL;
	return &column_table[id];
}

const lt_column *column_by_name(lt_row_kind kind, const char *name)
{
	size_t n;
	const lt_column *c = columns_for(kind, &n);
	if (!name)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (strcasecmp(c[i].name, name) == 0)
			return &c[i];
	return NULL;
}

/* ---- sparkline ---- */

void format_sparkline(const int64_t *v, size_t n, bool ascii, char *buf, size_t len)
{
	static const char *const blocks[] = {"\u2581", "\u2582", "\u2583", "\u2584",
	                                     "\u2585", "\u2586", "\u2587", "\u2588"};
	static const char ascii_levels[] = "_.-=+*#@";
	if (!buf || len == 0)
		return;
	buf[0] = '\0';
	if (n == 0) {
		snprintf(buf, len, "-");
		return;
	}
	int64_t lo = v[0], hi = v[0];
	for (size_t i = 1; i < n; i++) {
		lo = v[i] < lo ? v[i] : lo;
		hi = v[i] > hi ? v[i] : hi;
	}
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		int level = 0;
		if (hi > lo)
			level = (int)(((double)v[i] - (double)lo) / ((double)hi - (double)lo) * 7.0 + 0.5);
		char one[2] = {ascii_levels[level], '\0'};
		const char *glyph = ascii ? one : blocks[level];
		size_t gl = strlen(glyph);
		if (used + gl + 1 > len)
			break;
		memcpy(buf + used, glyph, gl);
		used += gl;
		buf[used] = '\0';
	}
}
