/* refresh.c — one refresh from start to end (refresh.h): the metadata stage, then the groups stage
 * (refresh_groups.c), then what the groups stage left unbuilt (stale copies, unread and unauthorized
 * groups), then the log offsets (log_offsets.c). Holds nothing across refreshes itself: the context
 * (struct lt_refresh_ctx) does. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kafka/log_offsets.h"
#include "kafka/refresh.h"
#include "kafka/refresh_internal.h"
#include "util/errbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

static int metadata_stage(struct lt_refresh_ctx *rc, lt_snapshot *s, int64_t deadline,
			  const struct rd_kafka_metadata **mdp, char *err, size_t errlen)
{
	rd_kafka_t *rk = client_rk(rc->client);
	/* Several shorter attempts rather than one long one: librdkafka sends the request to one broker
	 * it believes usable, and if that broker has just died the request waits for the whole timeout
	 * while the others could answer. Each attempt picks a usable broker anew. */
	int slice = rc->timeout_ms / 4 > 500 ? rc->timeout_ms / 4 : 500;
	rd_kafka_resp_err_t e = RD_KAFKA_RESP_ERR__TIMED_OUT;
	while (deadline_remaining_ms(deadline) > 0) {
		int r = deadline_remaining_ms(deadline);
		e = rd_kafka_metadata(rk, 1, NULL, mdp, r < slice ? r : slice);
		client_poll(rc->client);
		if (e == RD_KAFKA_RESP_ERR_NO_ERROR)
			break;
		if (client_security_failed(rc->client))
			break; /* wrong credentials or certificates: waiting out the timeout will not change them */
	}
	if (e != RD_KAFKA_RESP_ERR_NO_ERROR) {
		char last[512];
		client_last_error(rc->client, last, sizeof last);
		if (client_security_failed(rc->client) && last[0]) {
			snprintf(err, errlen, "cannot connect to the cluster: %s", last);
		} else {
			snprintf(err, errlen, "cannot reach the cluster within %.1f s: %s%s%s", rc->timeout_ms / 1000.0,
				 rd_kafka_err2str(e), last[0] ? " (" : "", last[0] ? last : "");
			if (last[0])
				strncat(err, ")", errlen - strlen(err) - 1);
		}
		*mdp = NULL;
		return -1;
	}
	const struct rd_kafka_metadata *md = *mdp;
	for (int i = 0; i < md->broker_cnt; i++) {
		snapshot_add_broker(s, md->brokers[i].id, md->brokers[i].host, md->brokers[i].port);
		bool known = false;
		for (size_t k = 0; k < rc->n_known_brokers && !known; k++)
			known = rc->known_brokers[k] == md->brokers[i].id;
		if (!known) {
			rc->known_brokers =
				xrealloc(rc->known_brokers, (rc->n_known_brokers + 1) * sizeof *rc->known_brokers);
			rc->known_brokers[rc->n_known_brokers++] = md->brokers[i].id;
		}
	}
	s->brokers_up = md->broker_cnt;
	s->brokers_total = (int)rc->n_known_brokers;
	return 0;
}

/* ------------------------------------------------------------------ the refresh */

static bool asked_by_name(const struct lt_refresh_ctx *rc, const char *name)
{
	for (size_t i = 0; i < rc->n_extra; i++)
		if (strcmp(rc->extra[i], name) == 0)
			return true;
	return false;
}

static void carry_all_stale(struct lt_refresh_ctx *rc, lt_snapshot *s, int64_t now, const char *why)
{
	for (size_t i = 0; rc->prev && i < rc->prev->n_groups; i++)
		group_copy_stale(s, &rc->prev->groups[i], rc->prev->taken_at_ms, now, why);
}

int refresh_run(struct lt_refresh_ctx *rc, const bool *stop, lt_snapshot **out, char *err, size_t errlen)
{
	int64_t t0 = now_mono_ms();
	int64_t deadline = t0 + rc->timeout_ms;
	lt_snapshot *s = snapshot_new();
	s->seq = ++rc->seq;
	s->taken_at_ms = now_wall_ms();
	s->cluster = xstrdup(rc->cluster_name);
	*out = s;
	err[0] = '\0';

	const struct rd_kafka_metadata *md = NULL;
	if (metadata_stage(rc, s, deadline, &md, err, errlen) != 0) {
		s->error = xstrdup(err);
		s->brokers_total = (int)rc->n_known_brokers;
		carry_all_stale(rc, s, s->taken_at_ms, err);
		snapshot_finish(s);
		snapshot_count_unread(s);
		s->duration_ms = now_mono_ms() - t0;
		return LT_REFRESH_UNREACHABLE;
	}

	/* Describes and offsets stop early enough to leave a fifth of the timeout to the log offsets. */
	int64_t admin_deadline = deadline - rc->timeout_ms / 5;
	memset(&rc->stats, 0, sizeof rc->stats);
	bool steady = steady_sync(rc, admin_deadline, stop);
	rc->stats.steady = steady;
	struct work_set ws = { .commit_epochs = rc->commit_epochs,
			       .verify = steady ? rc->reader : NULL,
			       .taken_at_ms = s->taken_at_ms,
			       .stats = &rc->stats,
			       .prev = rc->prev };
	struct event_keep keep = { 0 };
	groups_stage(rc, s, md, admin_deadline, stop, &ws, &keep, steady);
	if (steady && rc->stats.mismatches > 0) {
		rc->steady->poll_next = true;
		snprintf(rc->steady->poll_why, sizeof rc->steady->poll_why,
			 "the commit stream and OffsetFetch disagreed on %zu partition%s: committed offsets polled",
			 rc->stats.mismatches, rc->stats.mismatches == 1 ? "" : "s");
	}

	size_t n_unauth = 0;
	char unauth_names[200] = "";
	for (size_t i = 0; i < ws.n; i++) {
		struct group_work *gw = ws.w[i];
		if (gw->built)
			continue;
		if (gw->unauthorized && gw->error && (!gw->listed || asked_by_name(rc, gw->name))) {
			/* asked for by name (-g) and denied: said as such, never as "does not exist" */
			snapshot_add_unread(s, gw->name, -1, gw->error);
			continue;
		}
		if (gw->unauthorized) { /* neither a row with an error nor a stale copy: one count for all */
			size_t used = strlen(unauth_names);
			if (n_unauth < 3)
				snprintf(unauth_names + used, sizeof unauth_names - used, "%s%s", n_unauth ? ", " : "",
					 gw->name);
			n_unauth++;
			continue;
		}
		if (!gw->error && has_desc(gw) && (gw->off || gw->off_stream)) {
			group_build(s, &ws, rc->prev, gw);
			continue;
		}
		const lt_group *pg = snapshot_find_group(rc->prev, gw->name);
		if (pg) {
			group_copy_stale(s, pg, rc->prev->taken_at_ms, s->taken_at_ms, gw->error);
		} else if (gw->listed) {
			/* Never seen before and failed now: show it with its error, nothing else known. */
			lt_group *g = snapshot_add_group(s, gw->name);
			g->error = xstrdup(gw->error ? gw->error : "incomplete answer");
			g->unread = true;
			if (has_desc(gw)) {
				lt_group_view v = view_of_work(&ws, rc->prev, gw);
				g->state = v.state;
				g->type = v.type;
				g->members_unreadable = v.members_unreadable;
			}
		} else if (gw->error) {
			/* a -g group that could not be asked or answered: no row, but never "does not exist" */
			snapshot_add_unread(s, gw->name, -1, gw->error);
		}
	}
	if (n_unauth)
		err_append(&s->error, "%zu group%s not authorized (Describe on the group denied): %s%s", n_unauth,
			   n_unauth == 1 ? "" : "s", unauth_names, n_unauth > 3 ? ", ..." : "");
	keep_free(&keep);
	steady_remember(rc, &ws);
	group_batch_free(ws.batch);
	work_free(&ws);

	/* Sorts, and adds the assigned partitions that have no commit: they need log offsets too. */
	snapshot_finish(s);
	if (!stopping(stop))
		log_offsets_fill(client_rk(rc->client), s, md, deadline, rc->log_starts);
	rd_kafka_metadata_destroy(md);
	client_poll(rc->client);
	char last[512];
	if (client_last_error(rc->client, last, sizeof last))
		err_append(&s->error, "librdkafka: %s", last); /* fatal: the handle no longer works */

	snapshot_count_unread(s);
	s->duration_ms = now_mono_ms() - t0;
	bool partial = s->error != NULL || !snapshot_read_whole(s);
	for (size_t i = 0; i < s->n_groups && !partial; i++)
		partial = s->groups[i].error != NULL;
	return partial ? LT_REFRESH_PARTIAL : LT_REFRESH_OK;
}
