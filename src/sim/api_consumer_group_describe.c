/* api_consumer_group_describe.c — ConsumerGroupDescribe v0–v1 (KIP-848; flexible in every version),
 * as Kafka 4.x's GroupMetadataManager.consumerGroupDescribe answers it.
 *
 * Per group: NOT_COORDINATOR off the coordinator; INVALID_GROUP_ID for an empty id; GROUP_ID_NOT_FOUND
 * with "Group G not found." for an unknown (or Dead) group and "Group G is not a consumer group." for a
 * classic one; otherwise state, group epoch, assignment epoch, the default server assignor ("uniform";
 * the sim's members never ask for another) and the members. A member's assignment names each topic by
 * id and name and drops topics the cluster no longer has, like Kafka resolving ids through its
 * metadata image; its target assignment is the same (synthetic members reconcile at once; the
 * Reconciling state is told by the epochs alone). v1 adds the member type, always 1 (consumer
 * protocol): the sim has no classic members inside consumer-protocol groups.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "util/xalloc.h"

#define SIM_CONSUMER_ASSIGNOR "uniform" /* group.consumer.assignors' first entry, Kafka's default */
#define MEMBER_TYPE_CONSUMER  1         /* the v1 MemberType of a KIP-848 member (0: classic, -1: unknown) */

struct assignment_out {
	const struct sim_state *st;
	struct wire_buf *out;
	int32_t n;
};

static void put_topic_partitions(const char *topic, size_t len, const int32_t *parts, int n, void *arg)
{
	struct assignment_out *a = arg;
	const struct sim_topic *t = sim_topic_find(a->st, topic, len);
	if (!t)
		return;
	wire_put_raw(a->out, t->id, sizeof(t->id));
	wire_put_strn(a->out, topic, (int32_t)len, true);
	wire_put_array(a->out, n, true);
	for (int i = 0; i < n; i++)
		wire_put_i32(a->out, parts[i]);
	wire_put_tags(a->out, true);
	a->n++;
}

/* An Assignment struct: its topic partitions, then its tags. */
static void put_assignment(const struct sim_state *st, struct wire_buf *out, const struct sim_member *m)
{
	struct assignment_out a = { st, out, 0 };
	size_t slot = wire_put_array_slot(out, true);
	(void)sim_consumer_assignment_each(m->assignment, m->assignment_len, put_topic_partitions, &a);
	wire_patch_array(out, slot, a.n, true);
	wire_put_tags(out, true);
}

static void put_member(struct sim_req *req, struct wire_buf *out, const struct sim_member *m)
{
	wire_put_str(out, m->member_id, true);
	wire_put_str(out, m->group_instance_id, true);
	wire_put_str(out, m->rack_id, true);
	wire_put_i32(out, m->member_epoch);
	wire_put_str(out, m->client_id, true);
	wire_put_str(out, m->client_host, true);
	wire_put_array(out, (int32_t)m->nsubscribed_topics, true);
	for (size_t i = 0; i < m->nsubscribed_topics; i++)
		wire_put_str(out, m->subscribed_topics[i], true);
	/* Kafka keeps "" for a member without a regex (ConsumerGroupMember's default), not null. */
	wire_put_str(out, m->subscribed_regex ? m->subscribed_regex : "", true);
	put_assignment(req->st, out, m); /* assignment */
	put_assignment(req->st, out, m); /* target assignment */
	if (req->api_version >= 1)
		wire_put_i8(out, MEMBER_TYPE_CONSUMER);
	wire_put_tags(out, true);
}

/* A group answered with an error only: every other field keeps its default. */
static void put_error(struct wire_buf *out, int16_t err, const char *msg, struct wire_str id)
{
	wire_put_i16(out, err);
	wire_put_str(out, msg, true);
	wire_put_strn(out, id.p, id.len, true);
	wire_put_str(out, "", true); /* group_state */
	wire_put_i32(out, 0);        /* group_epoch */
	wire_put_i32(out, 0);        /* assignment_epoch */
	wire_put_str(out, "", true); /* assignor_name */
	wire_put_array(out, 0, true);
	wire_put_i32(out, INT32_MIN); /* authorized_operations */
	wire_put_tags(out, true);
}

static void put_group(struct sim_req *req, struct wire_buf *out, struct wire_str id)
{
	int16_t err = id.len > 0 ? sim_req_check_coordinator(req, id.p, (size_t)id.len) : KERR_INVALID_GROUP_ID;
	if (err) {
		put_error(out, err, NULL, id);
		return;
	}
	const struct sim_group *g = sim_group_find(req->st, id.p, (size_t)id.len);
	if (!g || g->state == SIM_GROUP_DEAD || g->type != SIM_GROUP_CONSUMER) {
		char *msg = g && g->state != SIM_GROUP_DEAD
				    ? xasprintf("Group %.*s is not a consumer group.", id.len, id.p)
				    : xasprintf("Group %.*s not found.", id.len, id.p);
		put_error(out, KERR_GROUP_ID_NOT_FOUND, msg, id);
		free(msg);
		return;
	}
	wire_put_i16(out, KERR_NONE);
	wire_put_str(out, NULL, true); /* error_message */
	wire_put_strn(out, id.p, id.len, true);
	wire_put_str(out, sim_group_state_name(g->state), true);
	wire_put_i32(out, g->group_epoch);
	wire_put_i32(out, g->assignment_epoch);
	wire_put_str(out, SIM_CONSUMER_ASSIGNOR, true);
	wire_put_array(out, (int32_t)g->nmembers, true);
	for (size_t i = 0; i < g->nmembers; i++)
		put_member(req, out, g->members[i]);
	wire_put_i32(out, INT32_MIN); /* authorized_operations: not computed */
	wire_put_tags(out, true);
}

int sim_api_consumer_group_describe(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int32_t n = wire_array(rd, true, 1);
	size_t start = rd->off;
	for (int32_t i = 0; i < n; i++)
		if (wire_str(rd, true).len < 0)
			rd->err = true;
	(void)wire_bool(rd); /* include_authorized_operations */
	wire_tags_skip(rd, true);
	if (rd->err || n < 0)
		return SIM_API_MALFORMED;
	size_t end = rd->off;
	wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_array(out, n, true);
	rd->off = start;
	for (int32_t i = 0; i < n; i++)
		put_group(req, out, wire_str(rd, true));
	rd->off = end;
	wire_put_tags(out, true);
	return SIM_API_OK;
}
