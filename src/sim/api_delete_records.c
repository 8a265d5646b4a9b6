/* api_delete_records.c — DeleteRecords v0–v1: moves a partition's log start forward, as
 * kafka-delete-records and the admin client's deleteRecords do. Kafka's rules: only the partition's
 * leader answers; offset -1 means the high watermark; an offset above the high watermark (or below -1)
 * is OFFSET_OUT_OF_RANGE; one below the current log start changes nothing. The answer carries the log
 * start afterwards (the "low watermark"). */
#include "sim/api.h"

int sim_api_delete_records(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	size_t topics_at;
	int32_t ntopics = wire_skip_topic_partitions(rd, 6, 12, &topics_at); /* index, offset */
	(void)wire_i32(rd); /* timeout_ms: the sim has no replicas to wait for */
	if (rd->err || ntopics < 0)
		return SIM_API_MALFORMED;

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
			int64_t offset = wire_i64(rd);
			struct sim_partition *p =
				name.len >= 0 ? sim_partition_find(req->st, name.p, (size_t)name.len, index) : NULL;
			int16_t err = KERR_NONE;
			int64_t low = -1;
			if (!p) {
				err = KERR_UNKNOWN_TOPIC_OR_PARTITION;
			} else if (p->leader != req->node_id) {
				err = KERR_NOT_LEADER_OR_FOLLOWER;
			} else {
				if (offset == -1)
					offset = p->log_end;
				if (offset < 0 || offset > p->log_end)
					err = KERR_OFFSET_OUT_OF_RANGE;
				else if (offset > p->log_start)
					sim_partition_set_log_start(p, offset);
				low = err ? -1 : p->log_start;
			}
			wire_put_i32(out, index);
			wire_put_i64(out, low);
			wire_put_i16(out, err);
		}
	}
	return SIM_API_OK;
}
