/* columns.c — the column table of the groups and partitions panes: one row per column (name, title,
 * width, help, sort key, formatter), and the accessors those rows point at. Sorting, the help screen,
 * the layout and config names all come from here; "How to add a column" is in doc/ARCHITECTURE.md. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "model/colkey.h"
#include "model/model.h"
#include "model/topic_view.h"

/* ---- helpers shared by the accessors ---- */

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

static void key_double(lt_sort_key *k, double v, bool known)
{
	k->v.d = v;
	k->known = known;
}

static void key_str(lt_sort_key *k, const char *s)
{
	k->v.s = s;
	k->known = s != NULL;
}

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

/* A time lag, "~" before it when it is an estimate (timelag.c): interpolated, extrapolated or a bound. */
static void put_time_lag(char *buf, size_t len, int64_t ms, bool known, bool estimated, bool exact)
{
	if (!known || !estimated || len < 2) {
		put_duration(buf, len, ms, known, exact);
		return;
	}
	buf[0] = '~';
	put_duration(buf + 1, len - 1, ms, known, exact);
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

/* Ages: a commit stamped a little ahead of our clock (broker skew) reads as "0s", not as nothing. */
static void put_age(char *buf, size_t len, int64_t ms, bool known, bool exact)
{
	put_duration(buf, len, ms < 0 ? 0 : ms, known, exact);
}

/* A partition's owner: "-" when nobody owns it, "?" when the owners cannot be read. */
static void put_owner(const lt_row *r, char *buf, size_t len, const char *field)
{
	if (!field && !group_members_known(r->group))
		snprintf(buf, len, "?");
	else
		put_str(buf, len, field);
}

/* ---- the accessors of each column, in table order: key_X (sort key) and fmt_X (text) ----
 * Group columns read r->group; partition columns are only given rows with r->part set for their
 * keys, but their formatters still check (the detail view and tests format what they like). */

/* groups pane */

static void key_group(const lt_row *r, lt_sort_key *k)
{
	key_str(k, r->group->group);
}

static void fmt_group(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->group->group);
}

static void key_state(const lt_row *r, lt_sort_key *k)
{
	key_str(k, group_state_name(r->group->state));
}

static void fmt_state(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, group_state_name(r->group->state));
}

static void key_type(const lt_row *r, lt_sort_key *k)
{
	key_str(k, group_type_name(r->group->type));
}

/* "-" when nothing said which (a group that does not exist, or an answer that could not be read) */
static void fmt_type(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, group_type_name(r->group->type));
}

static void key_members(const lt_row *r, lt_sort_key *k)
{
	key_int(k, (int64_t)r->group->n_members, group_members_known(r->group));
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

static void key_topics(const lt_row *r, lt_sort_key *k)
{
	key_int(k, (int64_t)r->group->n_topics, true);
}

static void fmt_topics(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, (int64_t)r->group->n_topics, true, exact);
}

static void key_partitions(const lt_row *r, lt_sort_key *k)
{
	key_int(k, (int64_t)r->group->n_partitions, true);
}

static void fmt_partitions(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, (int64_t)r->group->n_partitions, true, exact);
}

static void key_lag(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->group->total_lag, group_any_lag(r->group));
}

static void fmt_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->group->total_lag, group_any_lag(r->group), exact);
}

static void key_max_time_lag(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->group->max_time_lag_ms, r->group->has_max_time_lag);
}

static void fmt_max_time_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_time_lag(buf, len, r->group->max_time_lag_ms, r->group->has_max_time_lag,
		     group_max_time_lag_estimated(r->group), exact);
}

/* above the operator's time_lag_threshold */
static bool warn_max_time_lag(const lt_row *r)
{
	return !r->part && r->group->time_lag_high;
}

static void key_consume_rate(const lt_row *r, lt_sort_key *k)
{
	key_double(k, r->group->consume_rate, group_any_rates(r->group));
}

static void fmt_consume_rate(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_rate(buf, len, r->group->consume_rate, group_any_rates(r->group), exact);
}

/* Sorted by how much the total lag grew over the trend (growing first when descending). */
static void key_trend(const lt_row *r, lt_sort_key *k)
{
	const lt_group *g = r->group;
	bool known = g->n_trend >= 2;
	key_double(k, known ? (double)g->trend[g->n_trend - 1] - (double)g->trend[0] : 0, known);
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

static const int64_t *series_trend(const lt_row *r, size_t *n)
{
	*n = r->group->n_trend;
	return r->group->trend;
}

static void key_status(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->group->status, status_evaluated(r->group->status));
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

static void key_last_commit(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->group->last_commit_age_ms, r->group->has_last_commit);
}

static void fmt_last_commit(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_age(buf, len, r->group->last_commit_age_ms, r->group->has_last_commit, exact);
}

static void key_expires(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->group->expires_in_ms, r->group->has_expiry);
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

/* offsets about to expire (within expiry_warn) */
static bool warn_expires(const lt_row *r)
{
	return r->group->has_expiry && r->group->expiry_warn;
}

/* partitions pane */

static void key_topic(const lt_row *r, lt_sort_key *k)
{
	key_str(k, r->part->topic);
}

static void fmt_topic(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->part ? r->part->topic : NULL);
}

static void key_partition(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->partition, true);
}

static void fmt_partition(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	if (r->part)
		snprintf(buf, len, "%" PRId32, r->part->partition);
	else
		snprintf(buf, len, "-");
}

static void key_log_start(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->log_start, r->part->log_start >= 0);
}

static void fmt_log_start(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->part ? r->part->log_start : -1, r->part != NULL, exact);
}

static void key_committed(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->committed, r->part->committed >= 0);
}

static void fmt_committed(const lt_row *r, char *buf, size_t len, bool exact)
{
	if (r->part && (r->part->flags & LT_PF_EXPIRED) && r->part->committed < 0) {
		snprintf(buf, len, "expired"); /* not "-": the group had an offset, and the broker deleted it */
		return;
	}
	put_count(buf, len, r->part ? r->part->committed : -1, r->part != NULL, exact);
}

static void key_log_end(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->log_end, r->part->log_end >= 0);
}

static void fmt_log_end(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->part ? r->part->log_end : -1, r->part != NULL, exact);
}

static void key_p_lag(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->lag, r->part->has_lag);
}

static void fmt_p_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_count(buf, len, r->part ? r->part->lag : -1, r->part && r->part->has_lag, exact);
}

static void key_time_lag(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->time_lag_ms, r->part->has_time_lag);
}

static void fmt_time_lag(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_time_lag(buf, len, r->part ? r->part->time_lag_ms : -1, r->part && r->part->has_time_lag,
		     r->part && (r->part->flags & LT_PF_TIME_LAG_ESTIMATED), exact);
}

/* above the operator's time_lag_threshold */
static bool warn_time_lag(const lt_row *r)
{
	return r->part && (r->part->flags & LT_PF_TIME_LAG_HIGH);
}

static void key_rate(const lt_row *r, lt_sort_key *k)
{
	key_double(k, r->part->consume_rate, r->part->has_rates);
}

static void fmt_rate(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_rate(buf, len, r->part ? r->part->consume_rate : -1, r->part && r->part->has_rates, exact);
}

/* "never" (rates known, not catching up) sorts as the longest ETA. */
static void key_eta(const lt_row *r, lt_sort_key *k)
{
	const lt_partition *p = r->part;
	key_int(k, p->has_eta ? p->eta_ms : INT64_MAX, p->has_eta || p->has_rates);
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

static void key_p_status(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->status, status_evaluated(r->part->status));
}

static void fmt_p_status(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	put_str(buf, len, r->part ? status_name(r->part->status) : NULL);
}

static void key_client_id(const lt_row *r, lt_sort_key *k)
{
	const lt_member *m = row_member(r);
	key_str(k, m ? m->client_id : NULL);
}

static void fmt_client_id(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	const lt_member *m = row_member(r);
	put_owner(r, buf, len, m ? m->client_id : NULL);
}

static void key_host(const lt_row *r, lt_sort_key *k)
{
	const lt_member *m = row_member(r);
	key_str(k, m ? m->host : NULL);
}

static void fmt_host(const lt_row *r, char *buf, size_t len, bool exact)
{
	(void)exact;
	const lt_member *m = row_member(r);
	put_owner(r, buf, len, m ? m->host : NULL);
}

static void key_p_last_commit(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->last_commit_age_ms, r->part->has_last_commit);
}

static void fmt_p_last_commit(const lt_row *r, char *buf, size_t len, bool exact)
{
	put_age(buf, len, r->part ? r->part->last_commit_age_ms : 0, r->part && r->part->has_last_commit, exact);
}

static void key_commits_per_min(const lt_row *r, lt_sort_key *k)
{
	key_double(k, r->part->commits_per_min, r->part->has_last_commit);
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

static void key_unmoved(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->part->unmoved_ms, r->part->has_unmoved);
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

static void key_position(const lt_row *r, lt_sort_key *k)
{
	key_int(k, partition_position(r->group, r->part), r->part->has_position);
}

static void fmt_position(const lt_row *r, char *buf, size_t len, bool exact)
{
	const lt_partition *p = r->part;
	put_count(buf, len, p ? partition_position(r->group, p) : -1, p && p->has_position, exact);
}

static void key_uncommitted(const lt_row *r, lt_sort_key *k)
{
	int64_t unc = 0;
	bool known = partition_uncommitted(r->group, r->part, &unc);
	key_int(k, unc, known);
}

static void fmt_uncommitted(const lt_row *r, char *buf, size_t len, bool exact)
{
	const lt_partition *p = r->part;
	int64_t unc = 0;
	bool known = p && partition_uncommitted(r->group, p, &unc);
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
	put_time_lag(buf, len, r->topic ? r->topic->max_time_lag_ms : -1, r->topic && r->topic->has_max_time_lag,
		     r->topic && r->topic->max_time_lag_estimated, exact);
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

static void key_t_topic(const lt_row *r, lt_sort_key *k)
{
	key_str(k, r->topic->topic);
}

static void key_t_partitions(const lt_row *r, lt_sort_key *k)
{
	key_int(k, (int64_t)r->topic->n_partitions, true);
}

static void key_t_produce_rate(const lt_row *r, lt_sort_key *k)
{
	key_double(k, r->topic->produce_rate, r->topic->has_rates);
}

static void key_t_groups(const lt_row *r, lt_sort_key *k)
{
	key_int(k, (int64_t)r->topic->n_groups, true);
}

static void key_t_lag(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->topic->total_lag, r->topic->has_lag);
}

static void key_t_max_lag(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->topic->max_lag, r->topic->has_lag);
}

static void key_t_max_time_lag(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->topic->max_time_lag_ms, r->topic->has_max_time_lag);
}

/* above the operator's time_lag_threshold on some partition of the topic */
static bool warn_t_max_time_lag(const lt_row *r)
{
	return r->topic && r->topic->time_lag_high;
}

static void key_t_status(const lt_row *r, lt_sort_key *k)
{
	key_int(k, r->topic->status, status_evaluated(r->topic->status));
}

static void key_tg_group(const lt_row *r, lt_sort_key *k)
{
	key_str(k, r->group ? r->group->group : NULL);
}

static void key_tg_state(const lt_row *r, lt_sort_key *k)
{
	key_str(k, r->group ? group_state_name(r->group->state) : NULL);
}

static void key_tg_consume_rate(const lt_row *r, lt_sort_key *k)
{
	key_double(k, r->topic->consume_rate, r->topic->has_rates);
}

/* ---- the table ---- */

/* One row per column, indexed by lt_col_id; each row kind's columns together, in display order
 * (columns_for). Unset fields are 0: an integer sort key, no warning colour, no sparkline. */
/* One column, one block of rows, its fields in the same order in every block. */
/* clang-format off */
static const lt_column column_table[LT_COL__COUNT] = {
	/* groups pane */
	[LT_COL_GROUP] = { .id = LT_COL_GROUP, .kind = LT_ROWS_GROUPS, .name = "group", .title = "GROUP",
		.width = 32, .priority = 100,
		.help = "consumer group id",
		.key_kind = LT_KEY_STR, .key = key_group, .format = fmt_group },
	[LT_COL_STATE] = { .id = LT_COL_STATE, .kind = LT_ROWS_GROUPS, .name = "state", .title = "STATE",
		.width = 19, .priority = 85,
		.help = "group state (Stable, Empty, ...; a consumer-protocol group's as ListGroups reports it)",
		.key_kind = LT_KEY_STR, .key = key_state, .format = fmt_state },
	[LT_COL_TYPE] = { .id = LT_COL_TYPE, .kind = LT_ROWS_GROUPS, .name = "type", .title = "TYPE",
		.width = 8, .priority = 10,
		.help = "group protocol: classic, or consumer (KIP-848; told by ListGroups, and by the describe with librdkafka 2.10+)",
		.key_kind = LT_KEY_STR, .key = key_type, .format = fmt_type },
	[LT_COL_MEMBERS] = { .id = LT_COL_MEMBERS, .kind = LT_ROWS_GROUPS, .name = "members", .title = "MEMBERS",
		.width = 7, .priority = 75, .align_right = true, .default_desc = true, .exact_when_fits = true,
		.help = "number of members (consumers) in the group; ? when they cannot be read (KIP-848 group)",
		.key = key_members, .format = fmt_members },
	[LT_COL_TOPICS] = { .id = LT_COL_TOPICS, .kind = LT_ROWS_GROUPS, .name = "topics", .title = "TOPICS",
		.width = 6, .priority = 40, .align_right = true, .default_desc = true,
		.help = "number of topics the group has offsets or assignments for",
		.key = key_topics, .format = fmt_topics },
	[LT_COL_PARTITIONS] = { .id = LT_COL_PARTITIONS, .kind = LT_ROWS_GROUPS, .name = "partitions",
		.title = "PARTITIONS", .width = 10, .priority = 45, .align_right = true, .default_desc = true,
		.exact_when_fits = true,
		.help = "number of partitions the group has offsets or assignments for",
		.key = key_partitions, .format = fmt_partitions },
	[LT_COL_LAG] = { .id = LT_COL_LAG, .kind = LT_ROWS_GROUPS, .name = "lag", .title = "LAG",
		.width = 8, .priority = 100, .align_right = true, .default_desc = true, .exact_when_fits = true,
		.help = "total lag: messages between committed offsets and log ends",
		.key = key_lag, .format = fmt_lag },
	[LT_COL_MAX_TIME_LAG] = { .id = LT_COL_MAX_TIME_LAG, .kind = LT_ROWS_GROUPS, .name = "max-time-lag",
		.title = "MAX-TIME-LAG", .width = 12, .priority = 80, .align_right = true, .default_desc = true,
		.help = "largest time lag of the group's partitions (how old the oldest unread message is); ~: an estimate",
		.key = key_max_time_lag, .format = fmt_max_time_lag, .warn = warn_max_time_lag },
	[LT_COL_CONSUME_RATE] = { .id = LT_COL_CONSUME_RATE, .kind = LT_ROWS_GROUPS, .name = "consume-rate",
		.title = "CONSUME-RATE", .width = 12, .priority = 70, .align_right = true, .default_desc = true,
		.help = "messages committed per second over the status window",
		.key_kind = LT_KEY_DOUBLE, .key = key_consume_rate, .format = fmt_consume_rate },
	[LT_COL_TREND] = { .id = LT_COL_TREND, .kind = LT_ROWS_GROUPS, .name = "trend", .title = "TREND",
		.width = 8, .priority = 30, .default_desc = true,
		.help = "total lag over the last refreshes",
		.key_kind = LT_KEY_DOUBLE, .key = key_trend, .format = fmt_trend, .series = series_trend },
	[LT_COL_STATUS] = { .id = LT_COL_STATUS, .kind = LT_ROWS_GROUPS, .name = "status", .title = "STATUS",
		.width = 6, .priority = 90, .default_desc = true,
		.help = "group status: OK, WARN, or ERR when a partition is REWIND, STALL or STOP",
		.key = key_status, .format = fmt_status },
	[LT_COL_LAST_COMMIT] = { .id = LT_COL_LAST_COMMIT, .kind = LT_ROWS_GROUPS, .name = "last-commit",
		.title = "LAST-COMMIT", .width = 11, .priority = 25, .align_right = true,
		.help = "time since the group's newest commit (from __consumer_offsets)",
		.key = key_last_commit, .format = fmt_last_commit },
	[LT_COL_EXPIRES] = { .id = LT_COL_EXPIRES, .kind = LT_ROWS_GROUPS, .name = "expires", .title = "EXPIRES",
		.width = 8, .priority = 28, .align_right = true,
		.help = "time until the broker deletes the group's committed offsets (offsets.retention.minutes; Empty groups); expired: it did",
		.key = key_expires, .format = fmt_expires, .warn = warn_expires },

	/* partitions pane */
	[LT_COL_TOPIC] = { .id = LT_COL_TOPIC, .kind = LT_ROWS_PARTITIONS, .name = "topic", .title = "TOPIC",
		.width = 24, .priority = 100,
		.help = "topic name",
		.key_kind = LT_KEY_STR, .key = key_topic, .format = fmt_topic },
	[LT_COL_PARTITION] = { .id = LT_COL_PARTITION, .kind = LT_ROWS_PARTITIONS, .name = "partition",
		.title = "PARTITION", .width = 9, .priority = 100, .align_right = true,
		.help = "partition number",
		.key = key_partition, .format = fmt_partition },
	[LT_COL_LOG_START] = { .id = LT_COL_LOG_START, .kind = LT_ROWS_PARTITIONS, .name = "log-start",
		.title = "LOG-START", .width = 9, .priority = 30, .align_right = true, .exact_when_fits = true, .offset = true,
		.help = "first offset still in the log",
		.key = key_log_start, .format = fmt_log_start },
	[LT_COL_COMMITTED] = { .id = LT_COL_COMMITTED, .kind = LT_ROWS_PARTITIONS, .name = "committed",
		.title = "COMMITTED", .width = 9, .priority = 95, .align_right = true, .exact_when_fits = true, .offset = true,
		.help = "the group's committed offset (next message to read); expired: the broker deleted it (offsets.retention.minutes)",
		.key = key_committed, .format = fmt_committed },
	[LT_COL_LOG_END] = { .id = LT_COL_LOG_END, .kind = LT_ROWS_PARTITIONS, .name = "log-end", .title = "LOG-END",
		.width = 9, .priority = 95, .align_right = true, .exact_when_fits = true, .offset = true,
		.help = "offset the next produced message will get",
		.key = key_log_end, .format = fmt_log_end },
	[LT_COL_P_LAG] = { .id = LT_COL_P_LAG, .kind = LT_ROWS_PARTITIONS, .name = "lag", .title = "LAG",
		.width = 8, .priority = 100, .align_right = true, .default_desc = true, .exact_when_fits = true,
		.help = "log end minus committed offset",
		.key = key_p_lag, .format = fmt_p_lag },
	[LT_COL_TIME_LAG] = { .id = LT_COL_TIME_LAG, .kind = LT_ROWS_PARTITIONS, .name = "time-lag",
		.title = "TIME-LAG", .width = 8, .priority = 80, .align_right = true, .default_desc = true,
		.help = "age of the oldest unread message, interpolated from the log-end history; ~: an estimate",
		.key = key_time_lag, .format = fmt_time_lag, .warn = warn_time_lag },
	[LT_COL_RATE] = { .id = LT_COL_RATE, .kind = LT_ROWS_PARTITIONS, .name = "rate", .title = "RATE",
		.width = 8, .priority = 70, .align_right = true, .default_desc = true,
		.help = "messages committed per second over the status window",
		.key_kind = LT_KEY_DOUBLE, .key = key_rate, .format = fmt_rate },
	[LT_COL_ETA] = { .id = LT_COL_ETA, .kind = LT_ROWS_PARTITIONS, .name = "eta", .title = "ETA",
		.width = 8, .priority = 50, .align_right = true, .default_desc = true,
		.help = "time to catch up at the current rates; never when not catching up",
		.key = key_eta, .format = fmt_eta },
	[LT_COL_P_STATUS] = { .id = LT_COL_P_STATUS, .kind = LT_ROWS_PARTITIONS, .name = "status", .title = "STATUS",
		.width = 6, .priority = 90, .default_desc = true,
		.help = "partition status: OK, WARN, REWIND, STALL, STOP",
		.key = key_p_status, .format = fmt_p_status },
	[LT_COL_CLIENT_ID] = { .id = LT_COL_CLIENT_ID, .kind = LT_ROWS_PARTITIONS, .name = "client-id",
		.title = "CLIENT-ID", .width = 20, .priority = 40,
		.help = "client id of the member that owns the partition",
		.key_kind = LT_KEY_STR, .key = key_client_id, .format = fmt_client_id },
	[LT_COL_HOST] = { .id = LT_COL_HOST, .kind = LT_ROWS_PARTITIONS, .name = "host", .title = "HOST",
		.width = 16, .priority = 35,
		.help = "host of the member that owns the partition",
		.key_kind = LT_KEY_STR, .key = key_host, .format = fmt_host },
	[LT_COL_P_LAST_COMMIT] = { .id = LT_COL_P_LAST_COMMIT, .kind = LT_ROWS_PARTITIONS, .name = "last-commit",
		.title = "LAST-COMMIT", .width = 11, .priority = 25, .align_right = true,
		.help = "time since the last commit, even of the same offset (from __consumer_offsets)",
		.key = key_p_last_commit, .format = fmt_p_last_commit },
	[LT_COL_COMMITS_PER_MIN] = { .id = LT_COL_COMMITS_PER_MIN, .kind = LT_ROWS_PARTITIONS,
		.name = "commits-per-min", .title = "COMMITS/MIN", .width = 11, .priority = 20, .align_right = true,
		.default_desc = true,
		.help = "offset commits per minute over the last 5 minutes (from __consumer_offsets)",
		.key_kind = LT_KEY_DOUBLE, .key = key_commits_per_min, .format = fmt_commits_per_min },
	[LT_COL_UNMOVED] = { .id = LT_COL_UNMOVED, .kind = LT_ROWS_PARTITIONS, .name = "unmoved", .title = "UNMOVED",
		.width = 8, .priority = 15, .align_right = true, .default_desc = true,
		.help = "time since the committed offset last moved; = marks a consumer committing the same offset again and again",
		.key = key_unmoved, .format = fmt_unmoved },
	[LT_COL_POSITION] = { .id = LT_COL_POSITION, .kind = LT_ROWS_PARTITIONS, .name = "position",
		.title = "POSITION", .width = 9, .priority = 85, .align_right = true, .exact_when_fits = true,
		.offset = true,
		.help = "the consumer's own position (next offset it reads), from its metrics (position_sources); - when none reports",
		.key = key_position, .format = fmt_position },
	[LT_COL_UNCOMMITTED] = { .id = LT_COL_UNCOMMITTED, .kind = LT_ROWS_PARTITIONS, .name = "uncommitted",
		.title = "UNCOMMITTED", .width = 11, .priority = 10, .align_right = true, .default_desc = true,
		.exact_when_fits = true,
		.help = "position minus committed offset: read but not committed; ! when the consumer reads without committing",
		.key = key_uncommitted, .format = fmt_uncommitted },
	/* the topics pane (topic_view.h): only the partitions some group has offsets or assignments on */
	[LT_COL_T_TOPIC] = { .id = LT_COL_T_TOPIC, .kind = LT_ROWS_TOPICS, .name = "topic", .title = "TOPIC",
		.width = 24, .priority = 100,
		.help = "topic name",
		.key_kind = LT_KEY_STR, .key = key_t_topic, .format = fmt_t_topic },
	[LT_COL_T_PARTITIONS] = { .id = LT_COL_T_PARTITIONS, .kind = LT_ROWS_TOPICS, .name = "partitions",
		.title = "PARTITIONS", .width = 10, .priority = 45, .align_right = true, .default_desc = true,
		.exact_when_fits = true,
		.help = "partitions of the topic the groups have offsets or assignments on",
		.key = key_t_partitions, .format = fmt_t_partitions },
	[LT_COL_T_PRODUCE_RATE] = { .id = LT_COL_T_PRODUCE_RATE, .kind = LT_ROWS_TOPICS, .name = "produce-rate",
		.title = "PRODUCE-RATE", .width = 12, .priority = 70, .align_right = true, .default_desc = true,
		.help = "messages produced per second (log-end advance over the status window), each partition once",
		.key_kind = LT_KEY_DOUBLE, .key = key_t_produce_rate, .format = fmt_t_produce_rate },
	[LT_COL_T_GROUPS] = { .id = LT_COL_T_GROUPS, .kind = LT_ROWS_TOPICS, .name = "groups", .title = "GROUPS",
		.width = 6, .priority = 75, .align_right = true, .default_desc = true, .exact_when_fits = true,
		.help = "groups with offsets or assignments on the topic",
		.key = key_t_groups, .format = fmt_t_groups },
	[LT_COL_T_LAG] = { .id = LT_COL_T_LAG, .kind = LT_ROWS_TOPICS, .name = "lag", .title = "LAG",
		.width = 8, .priority = 100, .align_right = true, .default_desc = true, .exact_when_fits = true,
		.help = "total lag of every group on the topic",
		.key = key_t_lag, .format = fmt_t_lag },
	[LT_COL_T_MAX_LAG] = { .id = LT_COL_T_MAX_LAG, .kind = LT_ROWS_TOPICS, .name = "max-lag", .title = "MAX-LAG",
		.width = 8, .priority = 85, .align_right = true, .default_desc = true, .exact_when_fits = true,
		.help = "the largest lag one group has on the topic",
		.key = key_t_max_lag, .format = fmt_t_max_lag },
	[LT_COL_T_MAX_TIME_LAG] = { .id = LT_COL_T_MAX_TIME_LAG, .kind = LT_ROWS_TOPICS, .name = "max-time-lag",
		.title = "MAX-TIME-LAG", .width = 12, .priority = 80, .align_right = true, .default_desc = true,
		.help = "largest time lag of a partition of the topic, over every group; ~: an estimate",
		.key = key_t_max_time_lag, .format = fmt_t_max_time_lag, .warn = warn_t_max_time_lag },
	[LT_COL_T_STATUS] = { .id = LT_COL_T_STATUS, .kind = LT_ROWS_TOPICS, .name = "status", .title = "STATUS",
		.width = 6, .priority = 90, .default_desc = true,
		.help = "worst partition status on the topic, over every group (OK, WARN, REWIND, STALL, STOP)",
		.key = key_t_status, .format = fmt_t_status },

	/* a topic's groups pane: each group's share of the topic */
	[LT_COL_TG_GROUP] = { .id = LT_COL_TG_GROUP, .kind = LT_ROWS_TOPIC_GROUPS, .name = "group", .title = "GROUP",
		.width = 32, .priority = 100,
		.help = "consumer group id",
		.key_kind = LT_KEY_STR, .key = key_tg_group, .format = fmt_tg_group },
	[LT_COL_TG_STATE] = { .id = LT_COL_TG_STATE, .kind = LT_ROWS_TOPIC_GROUPS, .name = "state", .title = "STATE",
		.width = 19, .priority = 60,
		.help = "group state",
		.key_kind = LT_KEY_STR, .key = key_tg_state, .format = fmt_tg_state },
	[LT_COL_TG_PARTITIONS] = { .id = LT_COL_TG_PARTITIONS, .kind = LT_ROWS_TOPIC_GROUPS, .name = "partitions",
		.title = "PARTITIONS", .width = 10, .priority = 45, .align_right = true, .default_desc = true,
		.exact_when_fits = true,
		.help = "the group's partitions of the topic",
		.key = key_t_partitions, .format = fmt_t_partitions },
	[LT_COL_TG_LAG] = { .id = LT_COL_TG_LAG, .kind = LT_ROWS_TOPIC_GROUPS, .name = "lag", .title = "LAG",
		.width = 8, .priority = 100, .align_right = true, .default_desc = true, .exact_when_fits = true,
		.help = "the group's lag on the topic",
		.key = key_t_lag, .format = fmt_t_lag },
	[LT_COL_TG_MAX_TIME_LAG] = { .id = LT_COL_TG_MAX_TIME_LAG, .kind = LT_ROWS_TOPIC_GROUPS,
		.name = "max-time-lag", .title = "MAX-TIME-LAG", .width = 12, .priority = 80, .align_right = true,
		.default_desc = true,
		.help = "largest time lag of the group's partitions of the topic; ~: an estimate",
		.key = key_t_max_time_lag, .format = fmt_t_max_time_lag, .warn = warn_t_max_time_lag },
	[LT_COL_TG_CONSUME_RATE] = { .id = LT_COL_TG_CONSUME_RATE, .kind = LT_ROWS_TOPIC_GROUPS,
		.name = "consume-rate", .title = "CONSUME-RATE", .width = 12, .priority = 70, .align_right = true,
		.default_desc = true,
		.help = "messages the group committed per second on the topic",
		.key_kind = LT_KEY_DOUBLE, .key = key_tg_consume_rate, .format = fmt_tg_consume_rate },
	[LT_COL_TG_STATUS] = { .id = LT_COL_TG_STATUS, .kind = LT_ROWS_TOPIC_GROUPS, .name = "status", .title = "STATUS",
		.width = 6, .priority = 90, .default_desc = true,
		.help = "worst status of the group's partitions of the topic",
		.key = key_t_status, .format = fmt_t_status },
};
/* clang-format on */

/* ---- what every column shares: keys, comparison, lookup ---- */

void column_key(const lt_column *c, const lt_row *r, lt_sort_key *k)
{
	k->known = false;
	k->v.i = 0;
	bool topic_pane = c->kind == LT_ROWS_TOPICS || c->kind == LT_ROWS_TOPIC_GROUPS;
	if (!c->key || (topic_pane ? !r->topic : !r->group) || (c->kind == LT_ROWS_PARTITIONS && !r->part))
		return;
	c->key(r, k);
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

int column_compare(const lt_column *col, const lt_row *a, const lt_row *b)
{
	lt_sort_key ka, kb;
	column_key(col, a, &ka);
	column_key(col, b, &kb);
	int c = sort_key_compare(col->key_kind, &ka, &kb, false);
	return c ? c : row_tiebreak(a, b);
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

const lt_column *columns_for(lt_row_kind kind, size_t *n)
{
	size_t first = 0, end;
	while (first < LT_COL__COUNT && column_table[first].kind != kind)
		first++;
	for (end = first; end < LT_COL__COUNT && column_table[end].kind == kind; end++)
		;
	if (n)
		*n = end - first;
	return &column_table[first < LT_COL__COUNT ? first : 0];
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
	static const char *const blocks[] = { "\u2581", "\u2582", "\u2583", "\u2584",
					      "\u2585", "\u2586", "\u2587", "\u2588" };
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
		char one[2] = { ascii_levels[level], '\0' };
		const char *glyph = ascii ? one : blocks[level];
		size_t gl = strlen(glyph);
		if (used + gl + 1 > len)
			break;
		memcpy(buf + used, glyph, gl);
		used += gl;
		buf[used] = '\0';
	}
}
