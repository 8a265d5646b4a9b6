/* api_groups.c — the group admin APIs: ListGroups v0–v2, DescribeGroups v0–v4, DeleteGroups v0–v1.
 * Semantics copied from Kafka's group coordinator (see ../shared/PROTOCOL.md). */
#include <string.h>

#include "sim/api.h"
#include "sim/offsets_log.h"

int sim_api_list_groups(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	(void)rd; /* v0–v2 have an empty body */
	if (req->api_version >= 1)
		wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_i16(out, req->inject_err);
	size_t slot = wire_put_array_slot(out, false);
	int32_t n = 0;
	if (req->inject_err) { /* a failing coordinator lists nothing */
		wire_patch_array(out, slot, 0, false);
		return SIM_API_OK;
	}
	size_t it = 0;
	struct sim_group *g;
	while ((g = strmap_next(&req->st->groups, &it))) {
		if (g->state == SIM_GROUP_DEAD)
			continue;
		if (sim_coordinator_for(req->st, g->group_id, strlen(g->group_id)) != req->node_id)
			continue;
		wire_put_str(out, g->group_id, false);
		wire_put_str(out, g->protocol_type, false);
		n++;
	}
	wire_patch_array(out, slot, n, false);
	return SIM_API_OK;
}

static void put_group(struct sim_req *req, struct wire_buf *out, struct wire_str id)
{
	int16_t v = req->api_version;
	int16_t err = sim_req_check_coordinator(req, id.p, (size_t)id.len);
	const struct sim_group *g = err ? NULL : sim_group_find(req->st, id.p, (size_t)id.len);
	wire_put_i16(out, err);
	wire_put_strn(out, id.p, id.len, false);
	if (!g) {
		/* Unknown group: no error, state Dead, nothing else (Kafka's answer). */
		wire_put_str(out, err ? "" : "Dead", false);
		wire_put_str(out, "", false);
		wire_put_str(out, "", false);
		wire_put_array(out, 0, false);
		if (v >= 3)
			wire_put_i32(out, INT32_MIN);
		return;
	}
	/* Like Kafka, only a Stable group shows its protocol and members' metadata and assignments. */
	bool stable = g->state == SIM_GROUP_STABLE;
	wire_put_str(out, sim_group_state_name(g->state), false);
	wire_put_str(out, g->protocol_type, false);
	wire_put_str(out, stable ? g->protocol_name : "", false);
	wire_put_array(out, (int32_t)g->nmembers, false);
	for (size_t i = 0; i < g->nmembers; i++) {
		const struct sim_member *m = g->members[i];
		wire_put_str(out, m->member_id, false);
		if (v >= 4)
			wire_put_str(out, m->group_instance_id, false);
		wire_put_str(out, m->client_id, false);
		wire_put_str(out, m->client_host, false);
		const struct sim_protocol *p = stable ? sim_member_protocol(m, g->protocol_name) : NULL;
		wire_put_bytes(out, p ? p->metadata : (const void *)"", p ? p->metadata_len : 0, false);
		wire_put_bytes(out, m->assignment ? m->assignment : (const void *)"",
			       stable ? m->assignment_len : 0, false);
	}
	if (v >= 3)
		wire_put_i32(out, INT32_MIN); /* authorized_operations: not computed */
}

int sim_api_describe_groups(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int32_t n = wire_array(rd, false, 2);
	size_t start = rd->off;
	for (int32_t i = 0; i < n; i++)
		if (wire_str(rd, false).len < 0)
			rd->err = true;
	if (req->api_version >= 3)
		(void)wire_bool(rd); /* include_authorized_operations */
	if (rd->err || n < 0)
		return SIM_API_MALFORMED;
	if (req->api_version >= 1)
		wire_put_i32(out, 0);
	wire_put_array(out, n, false);
	rd->off = start;
	for (int32_t i = 0; i < n; i++)
		put_group(req, out, wire_str(rd, false));
	if (req->api_version >= 3)
		(void)wire_bool(rd);
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
