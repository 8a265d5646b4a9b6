/* api_list_offsets.c — ListOffsets v1–v2: -2 → log start, -1 → high watermark, T ≥ 0 → the first offset
 * whose record timestamp is ≥ T (with that timestamp), or -1/-1 with no error when there is none — Kafka's
 * answer, which clients must not mistake for the log end. Only the partition's leader answers. */
#include "sim/api.h"

int sim_api_list_offsets(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	(void)wire_i32(rd); /* replica_id */
	if (v >= 2)
		(void)wire_i8(rd); /* isolation_level: no transactions, so both levels see the same log */
	size_t topics_at;
	int32_t ntopics = wire_skip_topic_partitions(rd, 6, 12, &topics_at); /* index, timestamp */
	if (rd->err || ntopics < 0)
		return SIM_API_MALFORMED;

	if (v >= 2)
		wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_array(out, ntopics, false);
	rd->off = topics_at;
	for (int32_t i = 0; i < ntopics; i++) {
		struct wire_str name = wire_str(rd, false);
		int32_t np = wire_array(rd, false, 12);
		wire_put_strn(out, name.p, name.len, false);
		wire_put_array(out, np, false);
		for (int32_t k = 0; k < np; k++) {
			int32_t index = wire_i32(rd);
			int64_t ts = wire_i64(rd);
			const struct sim_partition *p =
				name.len >= 0 ? sim_partition_find(req->st, name.p, (size_t)name.len, index) : NULL;
			int16_t err = KERR_NONE;
			int64_t rts = -1, off = -1;
			if (!p)
				err = KERR_UNKNOWN_TOPIC_OR_PARTITION;
			else if (p->leader != req->node_id)
				err = KERR_NOT_LEADER_OR_FOLLOWER;
			else if ((err = sim_req_list_offsets_fault(req, name.p, (size_t)name.len, index)) != KERR_NONE)
				;
			else if (ts == -1)
				off = p->log_end;
			else if (ts == -2)
				off = p->log_start;
			else
				off = sim_partition_offset_for_time(p, ts, &rts);
			wire_put_i32(out, index);
			wire_put_i16(out, err);
			wire_put_i64(out, rts);
			wire_put_i64(out, off);
		}
	}
	return SIM_API_OK;
}
