/* api_create_topics.c — CreateTopics v0–v4. Any broker accepts it (the sim has no controller election);
 * replication factor is bounded by the broker count, partition count -1 means Kafka's default of 1. */
#include <stdio.h>
#include <stdlib.h>

#include "sim/api.h"

int sim_api_create_topics(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	int32_t ntopics = wire_array(rd, false, 14);
	size_t topics_at = rd->off;
	for (int32_t i = 0; i < ntopics && !rd->err; i++) {
		(void)wire_str(rd, false);
		wire_skip(rd, 4 + 2);
		int32_t na = wire_array(rd, false, 8);
		for (int32_t k = 0; k < na && !rd->err; k++) {
			(void)wire_i32(rd);
			int32_t nb = wire_array(rd, false, 4);
			wire_skip(rd, nb > 0 ? (size_t)nb * 4 : 0);
		}
		int32_t nc = wire_array(rd, false, 4);
		for (int32_t k = 0; k < nc && !rd->err; k++) {
			(void)wire_str(rd, false);
			(void)wire_str(rd, false);
		}
	}
	(void)wire_i32(rd); /* timeout_ms */
	bool validate_only = v >= 1 ? wire_bool(rd) : false;
	if (rd->err || ntopics < 0)
		return SIM_API_MALFORMED;

	if (v >= 2)
		wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_array(out, ntopics, false);
	rd->off = topics_at;
	for (int32_t i = 0; i < ntopics; i++) {
		struct wire_str name = wire_str(rd, false);
		int32_t nparts = wire_i32(rd);
		int16_t rf = wire_i16(rd);
		int32_t na = wire_array(rd, false, 8);
		for (int32_t k = 0; k < na; k++) {
			(void)wire_i32(rd);
			int32_t nb = wire_array(rd, false, 4);
			wire_skip(rd, nb > 0 ? (size_t)nb * 4 : 0);
		}
		int32_t nc = wire_array(rd, false, 4);
		for (int32_t k = 0; k < nc; k++) {
			(void)wire_str(rd, false);
			(void)wire_str(rd, false);
		}
		if (na > 0)
			nparts = na;
		if (nparts == -1)
			nparts = 1;
		char msg[200] = "";
		int16_t err = KERR_NONE;
		char *tname = wire_str_dup(name);
		if (!tname) {
			err = KERR_INVALID_TOPIC_EXCEPTION;
			snprintf(msg, sizeof(msg), "null topic name");
		} else if (na <= 0 && rf != -1 && (rf < 1 || rf > req->st->nnodes)) {
			err = KERR_INVALID_REPLICATION_FACTOR;
			snprintf(msg, sizeof(msg), "Replication factor: %d larger than available brokers: %d.", rf,
				 req->st->nnodes);
		} else if (validate_only) {
			if (sim_topic_find(req->st, tname, (size_t)name.len)) {
				err = KERR_TOPIC_ALREADY_EXISTS;
				snprintf(msg, sizeof(msg), "Topic '%s' already exists.", tname);
			} else if (nparts < 1) {
				err = KERR_INVALID_PARTITIONS;
				snprintf(msg, sizeof(msg), "Number of partitions must be larger than 0.");
			}
		} else {
			(void)sim_topic_create(req->st, tname, nparts, &err, msg, sizeof(msg));
		}
		free(tname);
		wire_put_strn(out, name.p, name.len, false);
		wire_put_i16(out, err);
		if (v >= 1)
			wire_put_str(out, err ? msg : NULL, false);
	}
	return SIM_API_OK;
}
