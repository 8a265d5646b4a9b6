/* control.c — see control.h. */
#include "sim/control.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/offsets_log.h"
#include "sim/server.h"
#include "util/xalloc.h"
#include "util/timeutil.h"

struct sim_partition *ctl_partition(struct sim_state *st, const char *topic, int partition, char *err, size_t errlen)
{
	struct sim_topic *t = sim_topic_find(st, topic, strlen(topic));
	if (!t) {
		snprintf(err, errlen, "unknown topic '%s'", topic);
		return NULL;
	}
	if (partition < 0 || partition >= t->npartitions) {
		snprintf(err, errlen, "topic '%s' has no partition %d", topic, partition);
		return NULL;
	}
	return &t->parts[partition];
}

struct sim_member *ctl_add_member(struct sim_state *st, const char *group, const struct sim_member_spec *spec,
				  char *err, size_t errlen)
{
	if (!group || !*group) {
		snprintf(err, errlen, "empty group id");
		return NULL;
	}
	struct sim_group *g = sim_group_get_or_create(st, group);
	if (g->type == SIM_GROUP_CONSUMER) {
		snprintf(err, errlen, "group '%s' is a consumer-protocol group (sim_add_consumer_member adds to it)",
			 group);
		return NULL;
	}
	if (g->state == SIM_GROUP_DEAD) {
		snprintf(err, errlen, "group '%s' is Dead", group);
		return NULL;
	}
	if (strcmp(g->protocol_type, "") != 0 && strcmp(g->protocol_type, "consumer") != 0) {
		snprintf(err, errlen, "group '%s' has protocol type '%s', not consumer", group, g->protocol_type);
		return NULL;
	}
	char idbuf[160];
	const char *client_id = spec->client_id ? spec->client_id : "lagtop-sim-consumer";
	if (spec->member_id) {
		if (sim_group_find_member(g, spec->member_id, strlen(spec->member_id))) {
			snprintf(err, errlen, "group '%s' already has member '%s'", group, spec->member_id);
			return NULL;
		}
		snprintf(idbuf, sizeof(idbuf), "%s", spec->member_id);
	} else {
		/* as Kafka names them: a static member after its group.instance.id, a dynamic one after its client.id
		 */
		const char *id_prefix = spec->group_instance_id ? spec->group_instance_id : client_id;
		uint64_t a = sim_state_rand(st), b = sim_state_rand(st);
		snprintf(idbuf, sizeof(idbuf), "%.100s-%08" PRIx32 "-%04x-%04x-%04x-%012" PRIx64, id_prefix,
			 (uint32_t)a, (unsigned)(a >> 32) & 0xffff, 0x4000 | ((unsigned)(a >> 48) & 0x0fff),
			 0x8000 | ((unsigned)b & 0x3fff), (uint64_t)((b >> 16) & 0xffffffffffffULL));
	}
	struct sim_member *m = sim_member_new(idbuf, client_id, spec->client_host);
	m->synthetic = true;
	if (spec->group_instance_id)
		m->group_instance_id = xstrdup(spec->group_instance_id);

	/* Subscription: the given topics, or those of the assignment. */
	const char **topics = xcalloc((size_t)(spec->ntopics + spec->nassignment + 1), sizeof(*topics));
	int nt = 0;
	if (spec->topics) {
		for (int i = 0; i < spec->ntopics; i++)
			topics[nt++] = spec->topics[i];
	} else {
		for (int i = 0; i < spec->nassignment; i++) {
			bool dup = false;
			for (int k = 0; k < nt; k++)
				dup |= strcmp(topics[k], spec->assignment[i].topic) == 0;
			if (!dup)
				topics[nt++] = spec->assignment[i].topic;
		}
	}
	int32_t len;
	uint8_t *sub = sim_consumer_subscription_encode(topics, nt, &len);
	sim_member_add_protocol(m, "range", sub, len);
	free(sub);
	free(topics);
	struct sim_assignment *as = xcalloc((size_t)spec->nassignment + 1, sizeof(*as));
	for (int i = 0; i < spec->nassignment; i++) {
		as[i].topic = spec->assignment[i].topic;
		as[i].partitions = spec->assignment[i].partitions;
		as[i].npartitions = spec->assignment[i].npartitions;
	}
	uint8_t *asg = sim_consumer_assignment_encode(as, spec->nassignment, &len);
	sim_member_set_assignment(m, asg, len);
	free(asg);
	free(as);

	sim_group_add_member(g, m);
	free(g->protocol_type);
	g->protocol_type = xstrdup("consumer");
	free(g->protocol_name);
	g->protocol_name = xstrdup("range");
	if (!g->leader_id)
		g->leader_id = xstrdup(m->member_id);
	enum sim_group_state old_state = g->state;
	int32_t old_generation = g->generation_id++;
	g->state = SIM_GROUP_STABLE;
	sim_offsets_log_group_change(st, g, old_state, old_generation, now_wall_ms());
	return m;
}

int ctl_remove_member(struct sim_state *st, const char *group, const char *member_id, char *err, size_t errlen)
{
	struct sim_group *g = sim_group_find(st, group, strlen(group));
	if (!g) {
		snprintf(err, errlen, "unknown group '%s'", group);
		return -1;
	}
	if (g->type == SIM_GROUP_CONSUMER)
		return ctl_consumer_remove_member(st, g, member_id, err, errlen);
	if (sim_group_remove_member(g, member_id) < 0) {
		snprintf(err, errlen, "group '%s' has no member '%s'", group, member_id);
		return -1;
	}
	if (g->leader_id && strcmp(g->leader_id, member_id) == 0) {
		free(g->leader_id);
		g->leader_id = g->nmembers ? xstrdup(g->members[0]->member_id) : NULL;
	}
	enum sim_group_state old_state = g->state;
	int32_t old_generation = g->generation_id++;
	if (g->nmembers == 0) {
		g->state = SIM_GROUP_EMPTY;
		free(g->protocol_name);
		g->protocol_name = xstrdup("");
	}
	sim_offsets_log_group_change(st, g, old_state, old_generation, now_wall_ms());
	return 0;
}

int ctl_set_group_state(struct sim_state *st, const char *group, enum sim_group_state s, char *err, size_t errlen)
{
	struct sim_group *g = sim_group_find(st, group, strlen(group));
	if (!g) {
		snprintf(err, errlen, "unknown group '%s'", group);
		return -1;
	}
	if (g->type == SIM_GROUP_CONSUMER)
		return ctl_consumer_set_state(st, g, s, err, errlen);
	if (!sim_group_state_valid(SIM_GROUP_CLASSIC, s)) {
		snprintf(
			err, errlen,
			"group '%s' is a classic group: its states are Empty, PreparingRebalance, CompletingRebalance, "
			"Stable, Dead (not %s)",
			group, sim_group_state_name(s));
		return -1;
	}
	if (s == SIM_GROUP_EMPTY || s == SIM_GROUP_DEAD) {
		/* Empty and Dead groups have no members, as in Kafka. */
		while (g->nmembers)
			(void)sim_group_remove_member(g, g->members[0]->member_id);
		free(g->leader_id);
		g->leader_id = NULL;
		free(g->protocol_name);
		g->protocol_name = xstrdup("");
	}
	enum sim_group_state old_state = g->state;
	int32_t old_generation = g->generation_id;
	if (s != g->state && (s == SIM_GROUP_STABLE || s == SIM_GROUP_COMPLETING_REBALANCE))
		g->generation_id++;
	g->state = s;
	sim_offsets_log_group_change(st, g, old_state, old_generation, now_wall_ms());
	return 0;
}

int ctl_commit(struct sim_state *st, const char *group, const char *topic, int partition, int64_t offset,
	       const char *metadata, int64_t now_ms, char *err, size_t errlen)
{
	if (!group || !*group) {
		snprintf(err, errlen, "empty group id");
		return -1;
	}
	if (!ctl_partition(st, topic, partition, err, errlen))
		return -1;
	struct sim_group *g = sim_group_get_or_create(st, group);
	sim_group_commit(g, topic, strlen(topic), partition, offset, -1, metadata ? metadata : "",
			 metadata ? strlen(metadata) : 0, now_ms);
	sim_offsets_log_commit(st, g, topic, strlen(topic), partition);
	return 0;
}
