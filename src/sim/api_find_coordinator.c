/* api_find_coordinator.c — FindCoordinator v0–v2. A group's coordinator is fixed by hashing its id;
 * while that broker is stopped the answer is COORDINATOR_NOT_AVAILABLE, as during a real failover. */
#include "sim/api.h"

int sim_api_find_coordinator(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	struct wire_str key = wire_str(rd, false);
	int8_t key_type = v >= 1 ? wire_i8(rd) : 0;
	if (rd->err || key.len < 0)
		return SIM_API_MALFORMED;
	const struct sim_node *node = NULL;
	int16_t err = KERR_NONE;
	if (key_type != 0 && key_type != 1) {
		err = KERR_INVALID_REQUEST;
	} else if (req->inject_err) {
		err = req->inject_err;
	} else {
		node = sim_state_node(req->st, sim_coordinator_for(req->st, key.p, (size_t)key.len));
		if (!node || !node->up) {
			err = KERR_COORDINATOR_NOT_AVAILABLE;
			node = NULL;
		}
	}
	if (v >= 1)
		wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_i16(out, err);
	if (v >= 1)
		wire_put_str(out, err ? "The coordinator is not available." : NULL, false);
	wire_put_i32(out, node ? node->node_id : -1);
	wire_put_str(out, node ? node->host : "", false);
	wire_put_i32(out, node ? node->port : -1);
	return SIM_API_OK;
}
