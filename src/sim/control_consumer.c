/* control_consumer.c — the control operations on consumer-protocol (KIP-848) groups (see control.h).
 *
 * Kafka's ConsumerGroup derives its state from epochs: Empty without members, Assigning while the group
 * epoch is ahead of the target assignment's epoch, Reconciling while some member's epoch is behind the
 * assignment epoch, Stable otherwise. The sim has no ConsumerGroupHeartbeat, so the control API picks
 * the state and these functions move the epochs to match it: what ConsumerGroupDescribe shows is then
 * a picture a real coordinator could have drawn.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/control.h"
#include "sim/offsets_log.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* A member id like a KIP-848 client's (Kafka's Uuid.toString(): 16 random bytes, URL-safe base64, no
 * padding), from the scenario's random generator so runs are repeatable. */
static void member_id_generate(struct sim_state *st, char out[23])
{
	static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
	uint8_t raw[18] = { 0 };
	uint64_t a = sim_state_rand(st), b = sim_state_rand(st);
	memcpy(raw, &a, 8);
	memcpy(raw + 8, &b, 8);
	for (int i = 0, o = 0; i < 18; i += 3) {
		uint32_t v = (uint32_t)raw[i] << 16 | (uint32_t)raw[i + 1] << 8 | raw[i + 2];
		for (int k = 0; k < 4 && o < 22; k++)
			out[o++] = b64[(v >> (18 - 6 * k)) & 63];
	}
	out[22] = '\0';
}

/* The subscription: the given topic names, or those of the assignment. */
static void member_subscribe(struct sim_member *m, const struct sim_member_spec *spec)
{
	size_t cap = (size_t)(spec->ntopics > 0 ? spec->ntopics : 0) + (size_t)spec->nassignment + 1;
	m->subscribed_topics = xcalloc(cap, sizeof(*m->subscribed_topics));
	for (int i = 0; spec->topics && i < spec->ntopics; i++)
		m->subscribed_topics[m->nsubscribed_topics++] = xstrdup(spec->topics[i]);
	for (int i = 0; !spec->topics && i < spec->nassignment; i++) {
		bool dup = false;
		for (size_t k = 0; k < m->nsubscribed_topics; k++)
			dup |= strcmp(m->subscribed_topics[k], spec->assignment[i].topic) == 0;
		if (!dup)
			m->subscribed_topics[m->nsubscribed_topics++] = xstrdup(spec->assignment[i].topic);
	}
	if (spec->topic_regex)
		m->subscribed_regex = xstrdup(spec->topic_regex);
}

static void member_assign(struct sim_member *m, const struct sim_member_spec *spec)
{
	struct sim_assignment *as = xcalloc((size_t)spec->nassignment + 1, sizeof(*as));
	for (int i = 0; i < spec->nassignment; i++)
		as[i] = (struct sim_assignment){ spec->assignment[i].topic, spec->assignment[i].partitions,
						 spec->assignment[i].npartitions };
	int32_t len;
	uint8_t *bytes = sim_consumer_assignment_encode(as, spec->nassignment, &len);
	sim_member_set_assignment(m, bytes, len);
	free(bytes);
	free(as);
}

/* Every member has reconciled the target assignment of the current group epoch. */
static void reconcile_all(struct sim_group *g)
{
	g->assignment_epoch = g->group_epoch;
	for (size_t i = 0; i < g->nmembers; i++)
		g->members[i]->member_epoch = g->group_epoch;
}

struct sim_member *ctl_add_consumer_member(struct sim_state *st, const char *group, const struct sim_member_spec *spec,
					   char *err, size_t errlen)
{
	if (!group || !*group) {
		snprintf(err, errlen, "empty group id");
		return NULL;
	}
	struct sim_group *g = sim_group_find(st, group, strlen(group));
	if (g && g->type != SIM_GROUP_CONSUMER) {
		snprintf(err, errlen, "group '%s' is a classic group, not a consumer-protocol one", group);
		return NULL;
	}
	if (g && g->state == SIM_GROUP_DEAD) {
		snprintf(err, errlen, "group '%s' is Dead", group);
		return NULL;
	}
	char idbuf[160];
	if (spec->member_id) {
		if (g && sim_group_find_member(g, spec->member_id, strlen(spec->member_id))) {
			snprintf(err, errlen, "group '%s' already has member '%s'", group, spec->member_id);
			return NULL;
		}
		snprintf(idbuf, sizeof(idbuf), "%s", spec->member_id);
	} else {
		member_id_generate(st, idbuf);
	}
	if (!g) {
		g = sim_group_get_or_create(st, group);
		g->type = SIM_GROUP_CONSUMER;
		free(g->protocol_type);
		g->protocol_type = xstrdup("consumer"); /* ConsumerGroup.protocolType(), as ListGroups shows it */
	}
	struct sim_member *m =
		sim_member_new(idbuf, spec->client_id ? spec->client_id : "lagtop-sim-consumer", spec->client_host);
	m->synthetic = true;
	if (spec->group_instance_id)
		m->group_instance_id = xstrdup(spec->group_instance_id);
	if (spec->rack_id)
		m->rack_id = xstrdup(spec->rack_id);
	member_subscribe(m, spec);
	member_assign(m, spec);
	sim_group_add_member(g, m);
	/* A new member changes the group: new group epoch, a target assignment at it, reconciled at once. */
	g->group_epoch++;
	reconcile_all(g);
	g->state = SIM_GROUP_STABLE;
	int64_t now = now_wall_ms();
	sim_offsets_log_consumer_member(st, g, m, now);
	sim_offsets_log_consumer_group(st, g, now);
	return m;
}

/* A member leaves: its records' tombstones and the group's new epoch, as Kafka's coordinator writes them. */
static int leave(struct sim_state *st, struct sim_group *g, const char *member_id, int64_t now_ms)
{
	char *id = xstrdup(member_id); /* the member (and its id) is freed by the removal */
	int rc = sim_group_remove_member(g, id);
	if (rc == 0)
		sim_offsets_log_consumer_member_left(st, g, id, now_ms);
	free(id);
	return rc;
}

int ctl_consumer_remove_member(struct sim_state *st, struct sim_group *g, const char *member_id, char *err,
			       size_t errlen)
{
	int64_t now = now_wall_ms();
	if (leave(st, g, member_id, now) < 0) {
		snprintf(err, errlen, "group '%s' has no member '%s'", g->group_id, member_id);
		return -1;
	}
	g->group_epoch++;
	reconcile_all(g);
	g->state = g->nmembers ? SIM_GROUP_STABLE : SIM_GROUP_EMPTY;
	sim_offsets_log_consumer_group(st, g, now);
	return 0;
}

int ctl_consumer_set_state(struct sim_state *st, struct sim_group *g, enum sim_group_state s, char *err, size_t errlen)
{
	if (!sim_group_state_valid(SIM_GROUP_CONSUMER, s)) {
		snprintf(err, errlen,
			 "group '%s' is a consumer-protocol group: its states are Empty, Assigning, Reconciling, "
			 "Stable, Dead (not %s)",
			 g->group_id, sim_group_state_name(s));
		return -1;
	}
	if (s == g->state)
		return 0;
	bool members_needed = s == SIM_GROUP_ASSIGNING || s == SIM_GROUP_RECONCILING || s == SIM_GROUP_STABLE;
	if (members_needed && g->nmembers == 0) {
		snprintf(err, errlen, "group '%s' has no members: a consumer-protocol group without members is Empty",
			 g->group_id);
		return -1;
	}
	switch (s) {
	case SIM_GROUP_ASSIGNING:
		/* A change the assignor has not caught up with yet. */
		g->group_epoch = (g->group_epoch > g->assignment_epoch ? g->group_epoch : g->assignment_epoch) + 1;
		break;
	case SIM_GROUP_RECONCILING:
		/* A new target assignment the members have not reached yet: their epochs stay behind. */
		g->group_epoch = (g->group_epoch > g->assignment_epoch ? g->group_epoch : g->assignment_epoch) + 1;
		g->assignment_epoch = g->group_epoch;
		break;
	case SIM_GROUP_STABLE: reconcile_all(g); break;
	case SIM_GROUP_EMPTY:
	case SIM_GROUP_DEAD:
		/* Empty and Dead groups have no members; the last one leaving bumps the epoch. */
		if (g->nmembers)
			g->group_epoch++;
		while (g->nmembers)
			(void)leave(st, g, g->members[0]->member_id, now_wall_ms());
		g->assignment_epoch = g->group_epoch;
		sim_offsets_log_consumer_group(st, g, now_wall_ms());
		break;
	case SIM_GROUP_PREPARING_REBALANCE:
	case SIM_GROUP_COMPLETING_REBALANCE: break; /* refused above */
	}
	g->state = s;
	return 0;
}
