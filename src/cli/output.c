/* output.c — table, JSON and CSV renderings of a snapshot (see output.h). */
#include "config.h"

#include "cli/output.h"

#include <langinfo.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/group_view.h"
#include "model/model.h"
#include "util/csv.h"
#include "util/json.h"
#include "util/sanitize.h"
#include "util/xalloc.h"

/* ------------------------------------------------------------------ text helpers */

static bool locale_is_utf8(void)
{
	const char *cs = nl_langinfo(CODESET);
	return cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
}

char *output_sanitize(const char *s)
{
	return sanitize_dup(s, locale_is_utf8());
}

void output_warn_unreadable(FILE *err, const lt_snapshot *s)
{
	char *unreadable = group_view_unreadable_line(s);
	if (!unreadable)
		return;
	char *e = output_sanitize(unreadable);
	fprintf(err, "lagtop: warning: %s\n", e);
	free(e);
	free(unreadable);
}

void output_duration(char *buf, size_t len, int64_t ms)
{
	if (ms < 0)
		ms = 0;
	int64_t s = ms / 1000;
	if (ms < 1000)
		snprintf(buf, len, "%dms", (int)ms);
	else if (s < 60)
		snprintf(buf, len, "%.1fs", (double)ms / 1000.0);
	else if (s < 3600)
		snprintf(buf, len, "%dm%02ds", (int)(s / 60), (int)(s % 60));
	else if (s < 86400)
		snprintf(buf, len, "%dh%02dm", (int)(s / 3600), (int)(s % 3600 / 60));
	else
		snprintf(buf, len, "%dd%02dh", (int)(s / 86400), (int)(s % 86400 / 3600));
}

static const lt_member *partition_member(const lt_group *g, const lt_partition *p)
{
	return p->member >= 0 && (size_t)p->member < g->n_members ? &g->members[p->member] : NULL;
}

static bool member_has_partitions(const lt_group *g, size_t m)
{
	for (size_t k = 0; k < g->n_partitions; k++)
		if (g->partitions[k].member == (int)m)
			return true;
	return false;
}

/* ------------------------------------------------------------------ table */

/* A fixed order that never moves with --samples: kafka-consumer-groups' --describe columns first, in its
 * order (so the tool's awk scripts read the same fields: $6 is LAG), then lagtop's own. */
enum {
	COL_GROUP,
	COL_TOPIC,
	COL_PARTITION,
	COL_CURRENT,
	COL_LOG_END,
	COL_LAG,
	COL_CONSUMER,
	COL_HOST,
	COL_CLIENT,
	COL_STATE,
	COL_TYPE,
	COL_LOG_START,
	COL_TIME_LAG,
	COL_STATUS,
	COL_POSITION, /* the consumer's own position, from its metrics: only with position sources */
	N_COLS
};

static const struct {
	const char *title;
	bool right; /* numbers are right-aligned */
} table_cols[N_COLS] = {
	[COL_GROUP] = { "GROUP", false },
	[COL_STATE] = { "STATE", false },
	[COL_TYPE] = { "TYPE", false },
	[COL_TOPIC] = { "TOPIC", false },
	[COL_PARTITION] = { "PARTITION", true },
	[COL_LOG_START] = { "LOG-START", true },
	[COL_CURRENT] = { "CURRENT-OFFSET", true },
	[COL_LOG_END] = { "LOG-END-OFFSET", true },
	[COL_LAG] = { "LAG", true },
	[COL_TIME_LAG] = { "TIME-LAG", true },
	[COL_STATUS] = { "STATUS", false },
	[COL_CONSUMER] = { "CONSUMER-ID", false },
	[COL_HOST] = { "HOST", false },
	[COL_CLIENT] = { "CLIENT-ID", false },
	[COL_POSITION] = { "POSITION", true },
};

struct table {
	char *(*cells)[N_COLS];
	size_t n, cap;
};

static char *num_or_dash(int64_t v)
{
	return v >= 0 ? xasprintf("%lld", (long long)v) : xstrdup("-");
}

static char *text_or_dash(const char *s)
{
	return s && *s ? output_sanitize(s) : xstrdup("-");
}

static char **table_row(struct table *t, const lt_group *g)
{
	t->cells = xgrow(t->cells, &t->cap, t->n + 1, sizeof *t->cells);
	char **row = t->cells[t->n++];
	for (int c = 0; c < N_COLS; c++)
		row[c] = NULL;
	row[COL_GROUP] = text_or_dash(g->group);
	row[COL_STATE] = xstrdup(group_state_name(g->state));
	row[COL_TYPE] = text_or_dash(group_type_name(g->type)); /* "-": nothing said which */
	return row;
}

/* A group whose members cannot be read: who owns a partition is unknown ("?"), not "nobody" ("-"). */
static void row_owner_unknown(char **row)
{
	row[COL_CONSUMER] = xstrdup("?");
	row[COL_HOST] = xstrdup("?");
	row[COL_CLIENT] = xstrdup("?");
}

static void row_fill_dashes(char **row)
{
	for (int c = 0; c < N_COLS; c++)
		if (!row[c])
			row[c] = xstrdup("-");
}

void output_table(FILE *out, const lt_snapshot *s)
{
	struct table t = { 0 };
	bool utf8 = locale_is_utf8();
	bool show[N_COLS];
	for (int c = 0; c < N_COLS; c++)
		show[c] = true;
	show[COL_POSITION] = s->n_pos_sources > 0;

	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		for (size_t k = 0; k < g->n_partitions; k++) {
			const lt_partition *p = &g->partitions[k];
			const lt_member *m = partition_member(g, p);
			char **row = table_row(&t, g);
			row[COL_TOPIC] = text_or_dash(p->topic);
			row[COL_PARTITION] = xasprintf("%d", (int)p->partition);
			row[COL_LOG_START] = num_or_dash(p->log_start);
			row[COL_CURRENT] = (p->flags & LT_PF_EXPIRED) && p->committed < 0 ? xstrdup("expired")
											  : num_or_dash(p->committed);
			row[COL_LOG_END] = num_or_dash(p->log_end);
			row[COL_LAG] = p->has_lag ? xasprintf("%lld", (long long)p->lag) : xstrdup("-");
			row[COL_POSITION] =
				p->has_position ? xasprintf("%lld", (long long)partition_position(g, p)) : xstrdup("-");
			if (p->has_time_lag) {
				char d[32];
				output_duration(d, sizeof d, p->time_lag_ms);
				row[COL_TIME_LAG] = xstrdup(d);
			}
			if (status_evaluated(p->status)) /* pending or unknown: "-", never OK */
				row[COL_STATUS] = xstrdup(status_name(p->status));
			if (m) {
				row[COL_CONSUMER] = text_or_dash(m->member_id);
				row[COL_HOST] = text_or_dash(m->host);
				row[COL_CLIENT] = text_or_dash(m->client_id);
			} else if (!group_members_known(g)) {
				row_owner_unknown(row);
			}
			row_fill_dashes(row);
		}
		/* Members without partitions, and groups with neither, still get a row (as Kafka's tool does). */
		for (size_t m = 0; m < g->n_members; m++) {
			if (member_has_partitions(g, m))
				continue;
			char **row = table_row(&t, g);
			row[COL_CONSUMER] = text_or_dash(g->members[m].member_id);
			row[COL_HOST] = text_or_dash(g->members[m].host);
			row[COL_CLIENT] = text_or_dash(g->members[m].client_id);
			row_fill_dashes(row);
		}
		if (g->n_partitions == 0 && g->n_members == 0) {
			char **row = table_row(&t, g);
			if (!group_members_known(g))
				row_owner_unknown(row);
			row_fill_dashes(row);
		}
	}

	size_t width[N_COLS];
	for (int c = 0; c < N_COLS; c++) {
		width[c] = strlen(table_cols[c].title);
		for (size_t r = 0; r < t.n; r++) {
			size_t w = (size_t)display_width(t.cells[r][c], utf8);
			if (w > width[c])
				width[c] = w;
		}
	}
	for (size_t r = 0; r <= t.n; r++) {
		bool first = true;
		int last = N_COLS - 1;
		while (last > 0 && !show[last])
			last--;
		for (int c = 0; c < N_COLS; c++) {
			if (!show[c])
				continue;
			const char *cell = r == 0 ? table_cols[c].title : t.cells[r - 1][c];
			size_t pad = width[c] - (size_t)display_width(cell, utf8);
			if (!first)
				fputc(' ', out);
			first = false;
			if (table_cols[c].right)
				fprintf(out, "%*s%s", (int)pad, "", cell);
			else if (c == last)
				fputs(cell, out); /* no trailing blanks */
			else
				fprintf(out, "%s%*s", cell, (int)pad, "");
		}
		fputc('\n', out);
	}
	for (size_t r = 0; r < t.n; r++)
		for (int c = 0; c < N_COLS; c++)
			free(t.cells[r][c]);
	free(t.cells);
}

/* ------------------------------------------------------------------ JSON */

static const struct {
	unsigned flag;
	const char *name;
} flag_names[] = {
	{ LT_PF_OUT_OF_RANGE, "out_of_range" },
	{ LT_PF_AHEAD_OF_END, "ahead_of_end" },
	{ LT_PF_STALE, "stale" },
	{ LT_PF_NO_LEADER, "no_leader" },
	{ LT_PF_UNASSIGNED, "unassigned" },
	{ LT_PF_IDLE, "idle" },
	{ LT_PF_TIME_LAG_HIGH, "time_lag_high" },
	{ LT_PF_LOG_UNKNOWN, "log_offsets_unknown" },
	{ LT_PF_NOT_COMMITTING, "not_committing" },
	{ LT_PF_EXPIRED, "expired" },
};

/* The location of the source a partition's position came from, NULL without one. */
static const char *position_source(const lt_snapshot *s, const lt_group *g, const lt_partition *p)
{
	int32_t src = partition_position_source(g, p);
	if (!s || !p->has_position || src < 0 || (size_t)src >= s->n_pos_sources)
		return NULL;
	return s->pos_sources[src].location;
}

/* "not_committing": true, false, or null when unknown (model.h's one rule) */
static void json_kv_not_committing(lt_json *j, lt_not_committing v)
{
	if (v == LT_NC_UNKNOWN)
		json_kv_null(j, "not_committing");
	else
		json_kv_bool(j, "not_committing", v == LT_NC_YES);
}

static void json_kv_rate(lt_json *j, const char *key, bool known, double v)
{
	if (known)
		json_kv_double(j, key, v);
	else
		json_kv_null(j, key);
}

static void json_kv_bool_or_null(lt_json *j, const char *key, bool v, bool known)
{
	if (known)
		json_kv_bool(j, key, v);
	else
		json_kv_null(j, key);
}

static void json_partition(lt_json *j, const lt_snapshot *s, const lt_group *g, const lt_partition *p)
{
	const lt_member *m = partition_member(g, p);
	json_object_begin(j);
	json_kv_string(j, "topic", p->topic);
	json_kv_int(j, "partition", p->partition);
	json_kv_int_or_null(j, "log_start", p->log_start, p->log_start >= 0);
	json_kv_int_or_null(j, "committed", p->committed, p->committed >= 0);
	json_kv_int_or_null(j, "log_end", p->log_end, p->log_end >= 0);
	json_kv_int_or_null(j, "lag", p->lag, p->has_lag);
	json_kv_string(j, "consumer_id", m ? m->member_id : NULL);
	json_kv_string(j, "client_id", m ? m->client_id : NULL);
	json_kv_string(j, "host", m ? m->host : NULL);
	json_kv_int_or_null(j, "time_lag_ms", p->time_lag_ms, p->has_time_lag);
	json_kv_bool_or_null(j, "time_lag_estimated", (p->flags & LT_PF_TIME_LAG_ESTIMATED) != 0, p->has_time_lag);
	json_kv_rate(j, "consume_rate", p->has_rates, p->consume_rate);
	json_kv_rate(j, "produce_rate", p->has_rates, p->produce_rate);
	json_kv_int_or_null(j, "eta_ms", p->eta_ms, p->has_eta);
	/* null until evaluated (UNKNOWN: nothing to judge; PENDING: the window is not full yet) */
	json_kv_string(j, "status", status_evaluated(p->status) ? status_name(p->status) : NULL);
	json_kv_bool(j, "complete", status_evaluated(p->status));
	json_kv_string(j, "metadata", partition_commit_metadata(g, p));
	/* the consumer's own position, from its metrics: null where no source reports it */
	int64_t uncommitted = 0;
	json_kv_int_or_null(j, "position", partition_position(g, p), p->has_position);
	json_kv_int_or_null(j, "uncommitted", uncommitted, partition_uncommitted(g, p, &uncommitted));
	json_kv_string(j, "position_source", position_source(s, g, p));
	json_kv_int_or_null(j, "position_age_ms", partition_position_age_ms(g, p), p->has_position);
	json_kv_not_committing(j, partition_not_committing(p));
	json_key(j, "flags");
	json_array_begin(j);
	for (size_t i = 0; i < sizeof flag_names / sizeof flag_names[0]; i++)
		if (p->flags & flag_names[i].flag)
			json_string(j, flag_names[i].name);
	json_array_end(j);
	if (p->flags & LT_PF_STALE)
		json_kv_int(j, "stale_ms", partition_stale_ms(g, p));
	/* the commit stream (null when it does not know the partition: see commit_stream at the top) */
	json_kv_int_or_null(j, "last_commit_ms", p->last_commit_ms, p->has_last_commit);
	json_kv_rate(j, "commits_per_min", p->has_last_commit, p->commits_per_min);
	json_kv_int_or_null(j, "unmoved_ms", p->unmoved_ms, p->has_unmoved);
	json_key(j, "repeating");
	if (p->has_last_commit)
		json_bool(j, p->repeating);
	else
		json_null(j);
	json_object_end(j);
}

static void json_member(lt_json *j, const lt_member *m)
{
	json_object_begin(j);
	json_kv_string(j, "consumer_id", m->member_id);
	json_kv_string(j, "client_id", m->client_id);
	json_kv_string(j, "host", m->host);
	json_kv_string(j, "instance_id", m->instance_id);
	json_key(j, "assignment");
	json_array_begin(j);
	for (size_t a = 0; a < m->n_assigned; a++) {
		json_object_begin(j);
		json_kv_string(j, "topic", m->assigned[a].topic);
		json_kv_int(j, "partition", m->assigned[a].partition);
		json_object_end(j);
	}
	json_array_end(j);
	json_object_end(j);
}

static void json_group(lt_json *j, const lt_snapshot *s, const lt_group *g)
{
	bool any_lag = false, any_rate = false;
	for (size_t k = 0; k < g->n_partitions; k++) {
		any_lag |= g->partitions[k].has_lag;
		any_rate |= g->partitions[k].has_rates;
	}
	json_object_begin(j);
	json_kv_string(j, "group", g->group);
	json_kv_string(j, "state", group_state_name(g->state));
	/* "type": ListGroups v5's GroupType (null when unknown); a consumer-protocol group described through
	 * the classic API has unreadable members: its count is null unless the state says Empty */
	json_kv_string(j, "type", group_type_name(g->type));
	json_key(j, "members_readable");
	json_bool(j, !g->members_unreadable);
	json_kv_int_or_null(j, "members", (int64_t)g->n_members, group_members_known(g));
	json_kv_int_or_null(j, "lag", g->total_lag, any_lag);
	json_kv_int_or_null(j, "max_lag", g->max_lag, any_lag);
	json_kv_int_or_null(j, "max_time_lag_ms", g->max_time_lag_ms, g->has_max_time_lag);
	json_kv_bool_or_null(j, "max_time_lag_estimated", group_max_time_lag_estimated(g), g->has_max_time_lag);
	json_kv_rate(j, "consume_rate", any_rate, g->consume_rate);
	json_kv_string(j, "status", status_evaluated(g->status) ? status_name(g->status) : NULL);
	json_kv_bool(j, "complete", g->status_complete);
	json_kv_string(j, "protocol_type", g->protocol_type);
	json_kv_string(j, "protocol", g->protocol);
	json_kv_int_or_null(j, "coordinator", g->coordinator, g->coordinator >= 0);
	json_kv_string(j, "error", g->error);
	/* "read": this refresh read the group; false: "read_error" says why, and its figures are the last
	 * refresh's (stale_ms) or none ("complete" above is about status windows, not this) */
	json_kv_bool(j, "read", !g->unread);
	json_kv_string(j, "read_error", g->unread ? (g->error ? g->error : "not read") : NULL);
	json_kv_int(j, "stale_ms", g->stale_ms);
	json_kv_int_or_null(j, "last_commit_ms", g->last_commit_ms, g->has_last_commit);
	json_kv_rate(j, "commits_per_min", g->has_last_commit, g->commits_per_min);
	json_kv_int_or_null(j, "expires_at_ms", g->expires_at_ms, g->has_expiry);
	json_key(j, "expiry_warning");
	json_bool(j, g->has_expiry && g->expiry_warn);
	json_kv_not_committing(j, group_not_committing(g));
	/* offsets the broker expired: where the group restarts is its consumers' auto.offset.reset */
	json_kv_int(j, "expired_partitions", (int64_t)g->n_expired);
	json_kv_int_or_null(j, "expired_at_ms", g->expired_ms, g->n_expired > 0);
	json_kv_string(j, "restart_from", g->n_expired > 0 ? "auto.offset.reset" : NULL);
	json_key(j, "member_list");
	json_array_begin(j);
	for (size_t m = 0; m < g->n_members; m++)
		json_member(j, &g->members[m]);
	json_array_end(j);
	json_key(j, "partitions");
	json_array_begin(j);
	for (size_t k = 0; k < g->n_partitions; k++)
		json_partition(j, s, g, &g->partitions[k]);
	json_array_end(j);
	json_object_end(j);
}

int output_json(FILE *out, const lt_snapshot *s)
{
	lt_json j;
	json_init_file(&j, out);
	json_object_begin(&j);
	json_kv_string(&j, "cluster", s->cluster);
	json_kv_int(&j, "seq", (int64_t)s->seq);
	json_kv_int(&j, "status_window", (int64_t)s->status_window);
	json_kv_int(&j, "taken_at_ms", s->taken_at_ms);
	json_kv_int(&j, "duration_ms", s->duration_ms);
	json_kv_int(&j, "brokers_up", s->brokers_up);
	json_kv_int(&j, "brokers_total", s->brokers_total);
	json_kv_string(&j, "error", s->error);
	/* whether this refresh read every group of every broker's list: "groups_unread" counts the groups it
	 * did not read, "unread" lists what has no group object (a -g group, a broker's group list) */
	json_kv_bool(&j, "read", snapshot_read_whole(s));
	json_kv_int(&j, "groups_unread", (int64_t)s->groups_unread);
	json_key(&j, "unread");
	json_array_begin(&j);
	for (size_t i = 0; i < s->n_unread; i++) {
		const lt_unread *u = &s->unread[i];
		json_object_begin(&j);
		json_kv_string(&j, "group", u->group);
		json_kv_int_or_null(&j, "broker", u->broker, u->group == NULL);
		json_kv_string(&j, "reason", u->reason);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "commit_stream");
	json_object_begin(&j);
	json_kv_string(&j, "state", cstream_state_name(s->commit_stream));
	json_kv_string(&j, "reason", s->commit_stream_reason);
	json_object_end(&j);
	json_key(&j, "position_sources");
	json_array_begin(&j);
	for (size_t i = 0; i < s->n_pos_sources; i++) {
		const lt_pos_source *src = &s->pos_sources[i];
		json_object_begin(&j);
		json_kv_string(&j, "location", src->location);
		json_kv_bool(&j, "ok", src->ok);
		json_kv_string(&j, "status", src->status);
		json_kv_int(&j, "reports", (int64_t)src->n_reports);
		json_kv_int(&j, "used", (int64_t)src->n_used);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_key(&j, "groups");
	json_array_begin(&j);
	for (size_t i = 0; i < s->n_groups; i++)
		json_group(&j, s, &s->groups[i]);
	json_array_end(&j);
	json_object_end(&j);
	return json_finish(&j);
}

/* ------------------------------------------------------------------ CSV */

/* The columns; `text` marks the ids and names from the cluster, written as text cells (util/csv.h: the
 * terminal-safe form, formula-guarded). The other columns are lagtop's own words and numbers, written as they
 * are: a number is never guarded, so -1 stays a number a spreadsheet can sum. */
static const struct csv_col {
	const char *name;
	bool text;
} csv_cols[] = {
	{ "group", true },
	{ "state", false },
	{ "topic", true },
	{ "partition", false },
	{ "log_start", false },
	{ "committed", false },
	{ "log_end", false },
	{ "lag", false },
	{ "time_lag_ms", false },
	{ "status", false },
	{ "consumer_id", true },
	{ "host", true },
	{ "client_id", true },
	{ "type", false },
	{ "members_readable", false },
	{ "position", false },
	{ "uncommitted", false },
	{ "position_source", false },
	{ "position_age_ms", false },
	{ "not_committing", false },
};
#define CSV_COLS (sizeof csv_cols / sizeof csv_cols[0])

/* One row: the text columns as text cells, the others as they are. */
static int csv_row(FILE *out, const char *const *f, bool header)
{
	for (size_t i = 0; i < CSV_COLS; i++) {
		if (i)
			putc(',', out);
		if (csv_cols[i].text && !header)
			csv_write_text_field(out, f[i]);
		else
			csv_write_field(out, f[i]);
	}
	putc('\n', out);
	return ferror(out) ? -1 : 0;
}

/* v in decimal into buf (at least 21 bytes), or NULL (an empty field) when unknown. By hand: printf's
 * machinery was a tenth of a `--once --format csv` on 32,000 rows. */
static const char *num_or_empty(char *buf, bool known, int64_t v)
{
	if (!known)
		return NULL;
	char tmp[24];
	size_t n = 0;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	char *d = buf;
	if (v < 0)
		*d++ = '-';
	while (n)
		*d++ = tmp[--n];
	*d = '\0';
	return buf;
}

int output_csv(FILE *out, const lt_snapshot *s)
{
	flockfile(out); /* one lock for the whole table instead of one per field */
	const char *header[CSV_COLS];
	for (size_t i = 0; i < CSV_COLS; i++)
		header[i] = csv_cols[i].name;
	int rc = csv_row(out, header, true);
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		for (size_t k = 0; k <= g->n_partitions; k++) {
			if (k == g->n_partitions && g->n_partitions > 0)
				break;
			/* A group without partitions still gets a row (group and state only). */
			const lt_partition *p = k < g->n_partitions ? &g->partitions[k] : NULL;
			const lt_member *m = p ? partition_member(g, p) : NULL;
			char num[9][24];
			const char *f[CSV_COLS] = { g->group, group_state_name(g->state) };
			f[13] = group_type_name(g->type);
			f[14] = g->members_unreadable ? "false" : "true";
			if (p) {
				f[2] = p->topic;
				f[3] = num_or_empty(num[0], true, p->partition);
				f[4] = num_or_empty(num[1], p->log_start >= 0, p->log_start);
				f[5] = num_or_empty(num[2], p->committed >= 0, p->committed);
				f[6] = num_or_empty(num[3], p->log_end >= 0, p->log_end);
				f[7] = num_or_empty(num[4], p->has_lag, p->lag);
				f[8] = num_or_empty(num[5], p->has_time_lag, p->time_lag_ms);
				f[9] = status_evaluated(p->status) ? status_name(p->status) : NULL;
				f[10] = m ? m->member_id : NULL;
				f[11] = m ? m->host : NULL;
				f[12] = m ? m->client_id : NULL;
				int64_t uncommitted = 0;
				bool has_unc = partition_uncommitted(g, p, &uncommitted);
				f[15] = num_or_empty(num[6], p->has_position, partition_position(g, p));
				f[16] = num_or_empty(num[7], has_unc, uncommitted);
				f[17] = position_source(s, g, p);
				f[18] = num_or_empty(num[8], p->has_position, partition_position_age_ms(g, p));
				lt_not_committing nc = partition_not_committing(p);
				f[19] = nc == LT_NC_UNKNOWN ? NULL : nc == LT_NC_YES ? "true" : "false";
			}
			rc |= csv_row(out, f, false);
		}
	}
	funlockfile(out);
	return rc ? -1 : 0;
}
