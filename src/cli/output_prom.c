/* output_prom.c — `--once --format prometheus`: a snapshot as Prometheus gauges (util/prom.h writes them).
 *
 * kafka-lag-exporter's metric names, units and label sets where it has the metric (its Metrics.scala:
 * per partition cluster_name, group, topic, partition, member_host, consumer_id, client_id; per group
 * cluster_name, group; per group and topic cluster_name, group, topic; per log partition cluster_name,
 * topic, partition), so its dashboards and alerts work on lagtop's output; lagtop's own facts under
 * lagtop_. Seconds and Unix timestamps in seconds, as Prometheus wants; lags and offsets in messages.
 * A value lagtop does not know (no commit, a time lag not yet measurable, a status not evaluated yet) is
 * left out, never written as 0. doc/lagtop.1 ("Prometheus") lists every metric; the tests hold both to it.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "cli/output.h"
#include "util/prom.h"

/* The metrics, declared once so every name and help text is in one place. */
#define M_EARLIEST      "kafka_partition_earliest_offset"
#define M_LATEST        "kafka_partition_latest_offset"
#define M_OFFSET        "kafka_consumergroup_group_offset"
#define M_LAG           "kafka_consumergroup_group_lag"
#define M_LAG_S         "kafka_consumergroup_group_lag_seconds"
#define M_MAX_LAG       "kafka_consumergroup_group_max_lag"
#define M_MAX_LAG_S     "kafka_consumergroup_group_max_lag_seconds"
#define M_SUM_LAG       "kafka_consumergroup_group_sum_lag"
#define M_TOPIC_SUM_LAG "kafka_consumergroup_group_topic_sum_lag"
#define M_STATE         "lagtop_consumergroup_state"
#define M_MEMBERS       "lagtop_consumergroup_members"
#define M_STATUS        "lagtop_consumergroup_status"
#define M_COMPLETE      "lagtop_consumergroup_status_complete"
#define M_P_STATUS      "lagtop_consumergroup_partition_status"
#define M_LAST_COMMIT   "lagtop_consumergroup_last_commit_timestamp_seconds"
#define M_COMMITS       "lagtop_consumergroup_commits_per_minute"
#define M_EXPIRES       "lagtop_consumergroup_offsets_expire_timestamp_seconds"
#define M_STREAM        "lagtop_commit_stream_state"
#define M_BROKERS_UP    "lagtop_brokers_up"
#define M_BROKERS       "lagtop_brokers"
#define M_TAKEN         "lagtop_refresh_timestamp_seconds"
#define M_DURATION      "lagtop_refresh_duration_seconds"
#define M_READ          "lagtop_refresh_read"
#define M_UNREAD        "lagtop_refresh_groups_unread"
#define M_G_READ        "lagtop_consumergroup_read"

#define STATUS_CODES "1 OK, 2 WARN, 3 REWIND, 4 STALL, 5 STOP, 6 ERR"

static const struct {
	const char *name, *help;
} metrics[] = {
	{ M_EARLIEST, "Earliest offset of a partition (log start), messages" },
	{ M_LATEST, "Latest offset of a partition (log end), messages" },
	{ M_OFFSET, "Last group consumed offset of a partition (committed offset), messages" },
	{ M_LAG, "Group offset lag of a partition (log end minus committed offset, 0 when past the end), messages" },
	{ M_LAG_S, "Group time lag of a partition (age of the oldest unread message, interpolated), seconds" },
	{ M_MAX_LAG, "Max group offset lag over its partitions, messages" },
	{ M_MAX_LAG_S, "Max group time lag over its partitions, seconds" },
	{ M_SUM_LAG, "Sum of group offset lag over its partitions, messages" },
	{ M_TOPIC_SUM_LAG, "Sum of group offset lag across the partitions of a topic, messages" },
	{ M_STATE, "Group state and type as labels; always 1" },
	{ M_MEMBERS, "Members of the group (absent when they cannot be read)" },
	{ M_STATUS, "Group status by Burrow's rules: " STATUS_CODES "; absent until evaluated" },
	{ M_COMPLETE, "1 when every partition of the group has an evaluated status (Burrow's complete), else 0" },
	{ M_P_STATUS, "Partition status by Burrow's rules: " STATUS_CODES "; absent until evaluated" },
	{ M_LAST_COMMIT, "Time of the group's newest commit (commit stream), Unix seconds" },
	{ M_COMMITS, "Commits of the group per minute over the last 5 minutes (commit stream)" },
	{ M_EXPIRES, "When the broker deletes the committed offsets of the Empty group (forecast), Unix seconds" },
	{ M_STREAM, "State of the __consumer_offsets reader as a label; always 1" },
	{ M_BROKERS_UP, "Brokers that answered the refresh's metadata request" },
	{ M_BROKERS, "Brokers ever seen in the cluster's metadata" },
	{ M_TAKEN, "When the refresh started, Unix seconds" },
	{ M_DURATION, "How long the refresh took, seconds" },
	{ M_READ,
	  "1 when the refresh read every group of every broker's list, else 0 (the output is not the whole cluster)" },
	{ M_UNREAD, "Groups the refresh listed or was asked for and could not read" },
	{ M_G_READ, "1 when this refresh read the group, 0 when its figures are the last refresh's or none" },
};

/* The code lagtop_*_status carries: 1 OK .. 6 ERR (the order of lt_status from OK on). */
static int status_code(lt_status st)
{
	return (int)st - (int)LT_STATUS_OK + 1;
}

int output_prometheus(FILE *out, const lt_snapshot *s)
{
	lt_prom *p = prom_new();
	for (size_t i = 0; i < sizeof metrics / sizeof metrics[0]; i++)
		prom_gauge(p, metrics[i].name, metrics[i].help);
	const char *cluster = s->cluster ? s->cluster : "";

	const char *const c_names[] = { "cluster_name" };
	const char *const c_values[] = { cluster };
	prom_int(p, M_BROKERS_UP, c_names, c_values, 1, s->brokers_up);
	prom_int(p, M_BROKERS, c_names, c_values, 1, s->brokers_total);
	prom_ms_as_seconds(p, M_TAKEN, c_names, c_values, 1, s->taken_at_ms);
	prom_ms_as_seconds(p, M_DURATION, c_names, c_values, 1, s->duration_ms);
	prom_int(p, M_READ, c_names, c_values, 1, snapshot_read_whole(s) ? 1 : 0);
	prom_int(p, M_UNREAD, c_names, c_values, 1, (int64_t)s->groups_unread);
	const char *const cs_names[] = { "cluster_name", "state" };
	const char *const cs_values[] = { cluster, cstream_state_name(s->commit_stream) };
	prom_int(p, M_STREAM, cs_names, cs_values, 2, 1);

	const char *const g_names[] = { "cluster_name", "group" };
	const char *const st_names[] = { "cluster_name", "group", "state", "type" };
	const char *const gt_names[] = { "cluster_name", "group", "topic" };
	const char *const tp_names[] = { "cluster_name", "topic", "partition" };
	const char *const gp_names[] = { "cluster_name", "group",       "topic",    "partition",
					 "member_host",  "consumer_id", "client_id" };
	for (size_t gi = 0; gi < s->n_groups; gi++) {
		const lt_group *g = &s->groups[gi];
		const char *g_values[] = { cluster, g->group };
		const char *type = group_type_name(g->type);
		const char *st_values[] = { cluster, g->group, group_state_name(g->state), type ? type : "" };
		prom_int(p, M_STATE, st_names, st_values, 4, 1);
		if (group_members_known(g))
			prom_int(p, M_MEMBERS, g_names, g_values, 2, (int64_t)g->n_members);
		if (status_evaluated(g->status))
			prom_int(p, M_STATUS, g_names, g_values, 2, status_code(g->status));
		prom_int(p, M_COMPLETE, g_names, g_values, 2, g->status_complete ? 1 : 0);
		prom_int(p, M_G_READ, g_names, g_values, 2, g->unread ? 0 : 1);
		if (g->has_last_commit) {
			prom_ms_as_seconds(p, M_LAST_COMMIT, g_names, g_values, 2, g->last_commit_ms);
			prom_double(p, M_COMMITS, g_names, g_values, 2, g->commits_per_min);
		}
		if (g->has_expiry)
			prom_ms_as_seconds(p, M_EXPIRES, g_names, g_values, 2, g->expires_at_ms);

		bool any_lag = false, topic_lag_known = false;
		int64_t topic_lag = 0;
		for (size_t k = 0; k < g->n_partitions; k++) {
			const lt_partition *pt = &g->partitions[k];
			char part[16];
			snprintf(part, sizeof part, "%d", (int)pt->partition);
			const lt_member *m =
				pt->member >= 0 && (size_t)pt->member < g->n_members ? &g->members[pt->member] : NULL;
			const char *tp_values[] = { cluster, pt->topic, part };
			const char *gp_values[] = { cluster,
						    g->group,
						    pt->topic,
						    part,
						    m ? m->host : "",
						    m ? m->member_id : "",
						    m ? m->client_id : "" };
			if (pt->log_start >= 0)
				prom_int(p, M_EARLIEST, tp_names, tp_values, 3, pt->log_start);
			if (pt->log_end >= 0)
				prom_int(p, M_LATEST, tp_names, tp_values, 3, pt->log_end);
			if (pt->committed >= 0)
				prom_int(p, M_OFFSET, gp_names, gp_values, 7, pt->committed);
			if (pt->has_lag)
				prom_int(p, M_LAG, gp_names, gp_values, 7, pt->lag);
			if (pt->has_time_lag)
				prom_ms_as_seconds(p, M_LAG_S, gp_names, gp_values, 7, pt->time_lag_ms);
			if (status_evaluated(pt->status))
				prom_int(p, M_P_STATUS, gp_names, gp_values, 4, status_code(pt->status));

			/* the per-topic sum: partitions are sorted by topic (snapshot_finish) */
			if (pt->has_lag) {
				topic_lag = topic_lag > INT64_MAX - pt->lag ? INT64_MAX
									    : topic_lag + pt->lag; /* as total_lag */
				topic_lag_known = any_lag = true;
			}
			bool topic_ends =
				k + 1 == g->n_partitions || strcmp(g->partitions[k + 1].topic, pt->topic) != 0;
			if (topic_ends) {
				const char *gt_values[] = { cluster, g->group, pt->topic };
				if (topic_lag_known)
					prom_int(p, M_TOPIC_SUM_LAG, gt_names, gt_values, 3, topic_lag);
				topic_lag = 0;
				topic_lag_known = false;
			}
		}
		if (any_lag) {
			prom_int(p, M_SUM_LAG, g_names, g_values, 2, g->total_lag);
			prom_int(p, M_MAX_LAG, g_names, g_values, 2, g->max_lag);
		}
		if (g->has_max_time_lag)
			prom_ms_as_seconds(p, M_MAX_LAG_S, g_names, g_values, 2, g->max_time_lag_ms);
	}
	int rc = prom_write(p, out);
	prom_free(p);
	return rc;
}
