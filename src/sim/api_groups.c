/* api_groups.c — the group admin APIs DescribeGroups v0–v6 and DeleteGroups v0–v1 (ListGroups has its
 * own file). Semantics copied from Kafka's group coordinator (see doc/PROTOCOL.md).
 *
 * DescribeGroups describes classic groups only. Kafka 4.x answers a consumer-protocol (KIP-848) group
 * the way it answers an unknown one: below v6 no error and state Dead, from v6 (KIP-1043)
 * GROUP_ID_NOT_FOUND with a message; v5 is the first flexible version.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "sim/offsets_log.h"
#include "util/xalloc.h"

/* A group DescribeGroups does not describe: unknown (Dead ones too: Kafka's coordinator forgets a Dead
 * group), consumer-protocol, or err from the coordinator checks. Kafka's answer: the id, state Dead (or ""
 * with a coordinator error), nothing else. */
static void put_undescribed(struct sim_req *req, struct wire_buf *out, struct wire_str id, int16_t err,
			    const struct sim_group *g)
{
	bool other_type = g && g->type != SIM_GROUP_CLASSIC && g->state != SIM_GROUP_DEAD;
	int16_t v = req->api_version;
	bool flex = req->flex;
	char *msg = NULL;
	if (!err && v >= 6) {
		err = KERR_GROUP_ID_NOT_FOUND;
		msg = other_type ? xasprintf("Group %.*s is not a classic group.", id.len, id.p)
				 : xasprintf("Group %.*s not found.", id.len, id.p);
	}
	wire_put_i16(out, err);
	if (v >= 6)
		wire_put_str(out, msg, flex);
	wire_put_strn(out, id.p, id.len, flex);
	wire_put_str(out, err && err != KERR_GROUP_ID_NOT_FOUND ? "" : "Dead", flex);
	wire_put_str(out, "", flex);
	wire_put_str(out, "", flex);
	wire_put_array(out, 0, flex);
	if (v >= 3)
		wire_put_i32(out, INT32_MIN);
	wire_put_tags(out, flex);
	free(msg);
}

static void put_member(struct sim_req *req, struct wire_buf *out, const struct sim_group *g, const struct sim_member *m,
		       bool stable)
{
	bool flex = req->flex;
	wire_put_str(out, m->member_id, flex);
	if (req->api_version >= 4)
		wire_put_str(out, m->group_instance_id, flex);
	wire_put_str(out, m->client_id, flex);
	wire_put_str(out, m->client_host, flex);
	const struct sim_protocol *p = stable ? sim_member_protocol(m, g->protocol_name) : NULL;
	wire_put_bytes(out, p ? p->metadata : (const void *)"", p ? p->metadata_len : 0, flex);
	wire_put_bytes(out, m->assignment ? m->assignment : (const void *)"", stable ? m->assignment_len : 0, flex);
	wire_put_tags(out, flex);
}

static void put_group(struct sim_req *req, struct wire_buf *out, struct wire_str id)
{
	bool flex = req->flex;
	int16_t err = sim_req_check_coordinator(req, id.p, (size_t)id.len);
	const struct sim_group *g = err ? NULL : sim_group_find(req->st, id.p, (size_t)id.len);
	if (!g || g->type != SIM_GROUP_CLASSIC || g->state == SIM_GROUP_DEAD) {
		put_undescribed(req, out, id, err, g);
		return;
	}
	/* Like Kafka, only a Stable group shows its protocol and members' metadata and assignments. */
	bool stable = g->state == SIM_GROUP_STABLE;
	wire_put_i16(out, KERR_NONE);
	if (req->api_version >= 6)
		wire_put_str(out, NULL, flex); /* error_message */
	wire_put_strn(out, id.p, id.len, flex);
	wire_put_str(out, sim_group_state_name(g->state), flex);
	wire_put_str(out, g->protocol_type, flex);
	wire_put_str(out, stable ? g->protocol_name : "", flex);
	wire_put_array(out, (int32_t)g->nmembers, flex);
	for (size_t i = 0; i < g->nmembers; i++)
		put_member(req, out, g, g->members[i], stable);
	if (req->api_version >= 3)
		wire_put_i32(out, INT32_MIN); /* authorized_operations: not computed */
	wire_put_tags(out, flex);
}

int sim_api_describe_groups(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	bool flex = req->flex;
	int32_t n = wire_array(rd, flex, flex ? 1 : 2);
	size_t start = rd->off;
	for (int32_t i = 0; i < n; i++)
		if (wire_str(rd, flex).len < 0)
			rd->err = true;
	if (req->api_version >= 3)
		(void)wire_bool(rd); /* include_authorized_operations */
	wire_tags_skip(rd, flex);
	if (rd->err || n < 0)
		return SIM_API_MALFORMED;
	if (req->api_version >= 1)
		wire_put_i32(out, 0);
	wire_put_array(out, n, flex);
	size_t end = rd->off;
	rd->off = start;
	for (int32_t i = 0; i < n; i++)
		put_group(req, out, wire_str(rd, flex));
	rd->off = end;
	wire_put_tags(out, flex);
	return SIM_API_OK;
}

int sim_api_delete_groups(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int32_t n = wire_array(rd, false, 2);
	size_t start = rd->off;
	for (int32_t i = 0; i < n; i++)
		if (wire_str(rd, false).len < 0)
			rd->err = true;
	if (rd->err || n < 0)
		return SIM_API_MALFORMED;
	wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_array(out, n, false);
	rd->off = start;
	for (int32_t i = 0; i < n; i++) {
		struct wire_str id = wire_str(rd, false);
		int16_t err = sim_req_check_coordinator(req, id.p, (size_t)id.len);
		struct sim_group *g = err ? NULL : sim_group_find(req->st, id.p, (size_t)id.len);
		if (!err) {
			if (!g || g->state == SIM_GROUP_DEAD)
				err = KERR_GROUP_ID_NOT_FOUND;
			else if (g->state != SIM_GROUP_EMPTY)
				err = KERR_NON_EMPTY_GROUP;
			else {
				sim_offsets_log_group_delete(req->st, g, req->now_ms);
				sim_group_delete(req->st, g);
			}
		}
		wire_put_strn(out, id.p, id.len, false);
		wire_put_i16(out, err);
	}
	return SIM_API_OK;
}
