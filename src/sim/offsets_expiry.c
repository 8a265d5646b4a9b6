/* offsets_expiry.c — Kafka's offset expiry in the simulated cluster (see offsets_expiry.h). */
#include "sim/offsets_expiry.h"

#include <stdlib.h>
#include <string.h>

#include "sim/offsets_log.h"
#include "util/xalloc.h"

int64_t sim_offsets_retention_ms(const struct sim_state *st)
{
	int64_t minutes =
		st->offsets_retention_minutes > 0 ? st->offsets_retention_minutes : SIM_OFFSETS_RETENTION_MINUTES;
	return minutes * 60000;
}

int64_t sim_offsets_retention_check_interval_ms(const struct sim_state *st)
{
	return st->offsets_retention_check_interval_ms > 0 ? st->offsets_retention_check_interval_ms
							   : SIM_OFFSETS_RETENTION_CHECK_INTERVAL_MS;
}

struct topic_match {
	const char *topic;
	bool found;
};

static void match_cb(const char *topic, size_t len, void *arg)
{
	struct topic_match *m = arg;
	if (strlen(m->topic) == len && memcmp(m->topic, topic, len) == 0)
		m->found = true;
}

/* A classic "consumer" group's subscribed topics (Kafka's ClassicGroup.computeSubscribedTopics): the chosen
 * protocol's ConsumerProtocolSubscription of every member — assignments do not count. Returns -1 when some
 * member's subscription cannot be read (Kafka then does not know the topics: nothing expires). */
static int classic_subscribes(const struct sim_group *g, const char *topic, bool *subscribed)
{
	struct topic_match m = { topic, false };
	for (size_t i = 0; i < g->nmembers; i++) {
		const struct sim_protocol *p = g->protocol_name && g->protocol_name[0]
						       ? sim_member_protocol(g->members[i], g->protocol_name)
						       : NULL;
		if (!p || sim_consumer_topics_each(p->metadata, p->metadata_len, false, match_cb, &m) < 0)
			return -1;
	}
	*subscribed = m.found;
	return 0;
}

static bool consumer_subscribes(const struct sim_group *g, const char *topic)
{
	for (size_t i = 0; i < g->nmembers; i++)
		for (size_t k = 0; k < g->members[i]->nsubscribed_topics; k++)
			if (strcmp(g->members[i]->subscribed_topics[k], topic) == 0)
				return true;
	return false;
}

bool sim_offset_expiry_at(const struct sim_group *g, const char *topic, int64_t commit_ms, int64_t retention_ms,
			  int64_t *at)
{
	int64_t base;
	if (g->state == SIM_GROUP_DEAD)
		return false;
	if (g->type == SIM_GROUP_CONSUMER) {
		if (consumer_subscribes(g, topic))
			return false;
		base = commit_ms;
	} else if (!g->protocol_type || !g->protocol_type[0]) {
		base = commit_ms; /* a simple group: Kafka's protocolType is None */
	} else if (g->state == SIM_GROUP_EMPTY) {
		base = g->state_ms >= 0 ? g->state_ms : commit_ms;
	} else if (g->state == SIM_GROUP_STABLE && strcmp(g->protocol_type, "consumer") == 0) {
		bool subscribed;
		if (classic_subscribes(g, topic, &subscribed) < 0 || subscribed)
			return false;
		base = commit_ms;
	} else {
		return false;
	}
	*at = base + retention_ms;
	return true;
}

/* Kafka's isEmpty for the group-deletion step: an Empty group (either type). */
static bool group_empty(const struct sim_group *g)
{
	return g->state == SIM_GROUP_EMPTY && g->nmembers == 0;
}

/* Expires g's due offsets; returns how many, and whether every offset the group had is gone. */
static size_t expire_group(struct sim_state *st, struct sim_group *g, int64_t now_ms, int64_t retention_ms,
			   bool *all_expired)
{
	size_t n = 0;
	*all_expired = true;
	for (size_t i = 0; i < g->noffsets; i++) {
		struct sim_group_topic *gt = &g->offsets[i];
		for (int32_t p = 0; p < gt->nparts; p++) {
			const struct sim_commit *c = &gt->parts[p];
			if (!c->set)
				continue;
			int64_t at;
			if (!sim_offset_expiry_at(g, gt->topic, c->commit_ts_ms, retention_ms, &at) || now_ms < at) {
				*all_expired = false;
				continue;
			}
			char *topic = xstrdup(gt->topic); /* the delete may free gt's storage */
			(void)sim_group_commit_delete(g, topic, strlen(topic), p);
			sim_offsets_log_commit_delete(st, g->group_id, topic, strlen(topic), p, now_ms);
			free(topic);
			n++;
		}
	}
	return n;
}

size_t sim_offsets_expire(struct sim_state *st, int64_t now_ms, size_t *groups_deleted)
{
	int64_t retention_ms = sim_offsets_retention_ms(st);
	size_t expired = 0, deleted = 0;
	/* Collect first: expiry writes to __consumer_offsets and deletes groups, which the iteration forbids. */
	size_t n = 0, cap = 0, it = 0;
	struct sim_group **gs = NULL, *g;
	while ((g = strmap_next(&st->groups, &it))) {
		gs = xgrow(gs, &cap, n + 1, sizeof *gs);
		gs[n++] = g;
	}
	for (size_t i = 0; i < n; i++) {
		g = gs[i];
		if (g->state == SIM_GROUP_DEAD)
			continue;
		bool all_expired;
		expired += expire_group(st, g, now_ms, retention_ms, &all_expired);
		if (!all_expired || !group_empty(g))
			continue;
		/* Kafka 3.9 writes no group tombstone for a group of generation 0 (only ever used to store
		 * offsets); 4.x writes one for every classic group it deletes. */
		if (g->type == SIM_GROUP_CONSUMER)
			sim_offsets_log_consumer_group_delete(st, g->group_id,
							      now_ms); /* ConsumerGroupMetadata's tombstone */
		else if (g->type == SIM_GROUP_CLASSIC && (st->kafka_major >= 4 || g->generation_id > 0)) {
			struct sim_offsets_record r;
			char err[160];
			if (sim_offsets_group_tombstone(g->group_id, &r, err, sizeof err) == 0)
				sim_offsets_journal_append(st, g->group_id, &r, now_ms);
			sim_offsets_record_free(&r);
		}
		sim_group_delete(st, g);
		deleted++;
	}
	free(gs);
	if (groups_deleted)
		*groups_deleted = deleted;
	return expired;
}
