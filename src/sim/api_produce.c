/* api_produce.c — Produce v0–v7: record batches (magic v2, CRC-32C checked, uncompressed) appended to the
 * partition leader's log with their CreateTime timestamps. Versions 0–2 are advertised as Kafka 2.x/3.x
 * does (librdkafka only compresses when the broker lists Produce v0), but their old message formats
 * (magic 0/1) are refused with INVALID_RECORD, and compressed batches with UNSUPPORTED_COMPRESSION_TYPE.
 *
 * Like Kafka, every batch of a partition's record set is validated before any is appended, so a bad
 * batch appends nothing for that partition; other partitions of the request are independent.
 * acks=0 gets no answer at all (Kafka sends none; the client does not wait for one); if it failed, the
 * connection is closed, as Kafka does, since there is no other way to tell the client.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "sim/record_store.h"
#include "sim/records.h"

#define KERR_INVALID_REQUIRED_ACKS 21

/* Validates the record set, then appends it; fills *base with the first offset. */
static int16_t produce_partition(struct sim_req *req, struct sim_partition *p, struct wire_str recs, int64_t *base)
{
	char err[160];
	struct rec_batch b;
	size_t off = 0, len = recs.len > 0 ? (size_t)recs.len : 0;
	const uint8_t *data = (const uint8_t *)recs.p;

	if (!len)
		return KERR_CORRUPT_MESSAGE;
	while (off < len) {
		int rc = records_batch_decode(data + off, len - off, &b, err, sizeof err);
		if (rc != REC_ERR_NONE) {
			fprintf(stderr, "lagtop-sim: broker %d: Produce rejected: %s\n", req->node_id, err);
			return (int16_t)rc;
		}
		off += b.raw_len;
	}
	*base = -1;
	for (off = 0; off < len; off += b.raw_len) {
		records_batch_peek(data + off, len - off, &b);
		int64_t first = sim_store_append(req->st, p, &b);
		if (*base < 0)
			*base = first;
	}
	return KERR_NONE;
}

int sim_api_produce(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	bool flex = req->flex;
	bool appended = false, failed = false;

	if (v >= 3)
		(void)wire_str(rd, flex); /* transactional_id: transactions are not simulated */
	int16_t acks = wire_i16(rd);
	(void)wire_i32(rd); /* timeout_ms: appends are immediate */
	int32_t ntopics = wire_array(rd, flex, 2 + 4);
	wire_put_array(out, ntopics < 0 ? 0 : ntopics, flex);
	for (int32_t t = 0; t < ntopics && !rd->err; t++) {
		struct wire_str name = wire_str(rd, flex);
		int32_t nparts = wire_array(rd, flex, 4 + 4);
		wire_put_strn(out, name.p, name.len, flex);
		wire_put_array(out, nparts < 0 ? 0 : nparts, flex);
		for (int32_t i = 0; i < nparts && !rd->err; i++) {
			int32_t index = wire_i32(rd);
			struct wire_str recs = wire_bytes(rd, flex);
			wire_tags_skip(rd, flex);
			if (rd->err)
				break;
			int16_t err = KERR_NONE;
			int64_t base = -1;
			struct sim_partition *p =
				name.len > 0 ? sim_partition_find(req->st, name.p, (size_t)name.len, index) : NULL;
			if (acks != 0 && acks != 1 && acks != -1)
				err = KERR_INVALID_REQUIRED_ACKS;
			else if (!p)
				err = KERR_UNKNOWN_TOPIC_OR_PARTITION;
			else if (p->leader != req->node_id)
				err = KERR_NOT_LEADER_OR_FOLLOWER;
			else
				err = produce_partition(req, p, recs, &base);
			if (err == KERR_NONE)
				appended = true;
			else
				failed = true;
			wire_put_i32(out, index);
			wire_put_i16(out, err);
			wire_put_i64(out, base);
			if (v >= 2)
				wire_put_i64(out, -1); /* log_append_time_ms: CreateTime topics */
			if (v >= 5)
				wire_put_i64(out, p ? p->log_start : -1);
			wire_put_tags(out, flex);
		}
		wire_tags_skip(rd, flex);
		wire_put_tags(out, flex);
	}
	if (v >= 1)
		wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_tags(out, flex);
	if (rd->err)
		return SIM_API_MALFORMED;
	if (appended)
		sim_fetch_wake(req->srv);
	if (acks == 0) /* no answer; a failure closes the connection, as Kafka does, so the client notices */
		return failed ? SIM_API_CLOSE : SIM_API_NO_RESPONSE;
	return SIM_API_OK;
}

struct sim_topic *sim_topic_auto_create(struct sim_state *st, struct wire_str name)
{
	if (st->no_auto_create_topics || name.len <= 0)
		return NULL;
	char *n = wire_str_dup(name);
	int16_t kerr;
	char err[160];
	struct sim_topic *t = sim_topic_create(st, n, st->auto_create_partitions > 0 ? st->auto_create_partitions : 1,
					       &kerr, err, sizeof err);
	free(n);
	return t;
}
