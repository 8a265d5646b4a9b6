/* api_offsets.c — committed offsets: OffsetFetch v0–v7, OffsetCommit v0–v7, OffsetDelete v0 (Kafka 4.x
 * serves OffsetFetch from v1 and OffsetCommit from v2: api_table.c).
 *
 * OffsetFetch v6/v7 exist mostly for librdkafka 2.0.2's "all partitions" request, which only works
 * flexibly (its null compact array is followed by a few stray bytes): everything after the topics is read
 * leniently and trailing bytes are ignored.
 *
 * OffsetCommit follows Kafka's GroupCoordinator.handleCommitOffsets: an admin commit (generation < 0) is
 * accepted for an Empty or unknown group (an unknown one is created as an Empty simple group) and refused
 * with UNKNOWN_MEMBER_ID for an active one, of either type; a consumer's commit needs its member id and
 * generation. OffsetFetch has no member checks below v9, so it works the same for both group types.
 */
#include <stdlib.h>
#include <string.h>

#include "sim/api.h"
#include "sim/offsets_log.h"
#include "util/xalloc.h"

#define KERR_OFFSET_METADATA_TOO_LARGE 12
#define SIM_MAX_COMMIT_METADATA        4096

/* ---- OffsetFetch ---- */

static void put_fetch_partition(struct sim_req *req, struct wire_buf *out, int32_t index, const struct sim_commit *c,
				int16_t err)
{
	int16_t v = req->api_version;
	wire_put_i32(out, index);
	wire_put_i64(out, c ? c->offset : -1);
	if (v >= 5)
		wire_put_i32(out, c ? c->leader_epoch : -1);
	wire_put_str(out, c ? (c->metadata ? c->metadata : "") : "", req->flex);
	wire_put_i16(out, err);
	wire_put_tags(out, req->flex);
}

int sim_api_offset_fetch(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	bool flex = req->flex;
	int16_t v = req->api_version;
	struct wire_str gid = wire_str(rd, flex);
	int32_t ntopics = wire_array(rd, flex, 2);
	if (rd->err || gid.len < 0 || (ntopics < 0 && v < 2))
		return SIM_API_MALFORMED;
	size_t topics_at = rd->off;
	for (int32_t i = 0; i < ntopics; i++) {
		(void)wire_str(rd, flex);
		int32_t np = wire_array(rd, flex, 4);
		wire_skip(rd, np > 0 ? (size_t)np * 4 : 0);
		wire_tags_skip(rd, flex);
	}
	if (rd->err)
		return SIM_API_MALFORMED;
	/* require_stable (v7) and the request's tags: lenient, see the top of this file. */

	int16_t err = sim_req_check_coordinator(req, gid.p, (size_t)gid.len);
	const struct sim_group *g = err ? NULL : sim_group_find(req->st, gid.p, (size_t)gid.len);

	if (v >= 3)
		wire_put_i32(out, 0); /* throttle_time_ms */
	if (ntopics < 0) {
		/* All committed partitions. */
		size_t nt = 0;
		for (size_t i = 0; g && i < g->noffsets; i++) {
			for (int32_t p = 0; p < g->offsets[i].nparts; p++) {
				if (g->offsets[i].parts[p].set) {
					nt++;
					break;
				}
			}
		}
		wire_put_array(out, (int32_t)nt, flex);
		for (size_t i = 0; g && i < g->noffsets; i++) {
			const struct sim_group_topic *gt = &g->offsets[i];
			int32_t np = 0;
			for (int32_t p = 0; p < gt->nparts; p++)
				np += gt->parts[p].set;
			if (!np)
				continue;
			wire_put_str(out, gt->topic, flex);
			wire_put_array(out, np, flex);
			for (int32_t p = 0; p < gt->nparts; p++)
				if (gt->parts[p].set)
					put_fetch_partition(req, out, p, &gt->parts[p], KERR_NONE);
			wire_put_tags(out, flex);
		}
	} else {
		struct wire_rd t;
		wire_rd_init(&t, rd->p, rd->len);
		t.off = topics_at;
		wire_put_array(out, ntopics, flex);
		for (int32_t i = 0; i < ntopics; i++) {
			struct wire_str name = wire_str(&t, flex);
			int32_t np = wire_array(&t, flex, 4);
			wire_put_strn(out, name.p, name.len, flex);
			wire_put_array(out, np < 0 ? 0 : np, flex);
			for (int32_t k = 0; k < np; k++) {
				int32_t p = wire_i32(&t);
				const struct sim_commit *c =
					g && name.len >= 0 ? sim_group_committed(g, name.p, (size_t)name.len, p) : NULL;
				/* v0/v1 have no top-level error: the coordinator error goes on each partition. */
				put_fetch_partition(req, out, p, c, v < 2 ? err : KERR_NONE);
			}
			wire_tags_skip(&t, flex);
			wire_put_tags(out, flex);
		}
	}
	if (v >= 2)
		wire_put_i16(out, err);
	wire_put_tags(out, flex);
	rd->off = rd->len; /* trailing bytes tolerated */
	return SIM_API_OK;
}

/* ---- OffsetCommit ---- */

/* Kafka 4.x's ConsumerGroup.validateOffsetCommit for a consumer-protocol group: a commit without a member
 * epoch (an admin, or a consumer without group management) is accepted only while the group has no
 * members; otherwise the member must exist, and a KIP-848 member must commit with OffsetCommit v9+,
 * which the sim does not serve, so a member's own commit is UNSUPPORTED_VERSION. */
static int16_t consumer_group_commit_error(const struct sim_group *g, struct wire_str member_id, int32_t epoch)
{
	if (epoch < 0 && g->nmembers == 0)
		return KERR_NONE;
	if (member_id.len <= 0 || !sim_group_find_member(g, member_id.p, (size_t)member_id.len))
		return KERR_UNKNOWN_MEMBER_ID;
	return KERR_UNSUPPORTED_VERSION;
}

static int16_t commit_group_error(struct sim_req *req, struct sim_group **gp, struct wire_str gid, int32_t generation,
				  struct wire_str member_id)
{
	int16_t err = sim_req_check_coordinator(req, gid.p, (size_t)gid.len);
	if (err)
		return err;
	struct sim_group *g = sim_group_find(req->st, gid.p, (size_t)gid.len);
	if (!g) {
		if (generation >= 0)
			return KERR_ILLEGAL_GENERATION; /* Kafka: a commit from an older generation */
		char *id = wire_str_dup(gid);
		g = sim_group_get_or_create(req->st, id);
		free(id);
		*gp = g;
		return KERR_NONE;
	}
	*gp = g;
	if (sim_group_commit_check(req, g, member_id, generation, &err) == 0)
		return err;
	if (g->state == SIM_GROUP_DEAD)
		return KERR_COORDINATOR_NOT_AVAILABLE;
	if (g->type == SIM_GROUP_CONSUMER)
		return consumer_group_commit_error(g, member_id, generation);
	if (generation < 0 && g->state == SIM_GROUP_EMPTY)
		return KERR_NONE;
	if (g->state == SIM_GROUP_COMPLETING_REBALANCE)
		return KERR_REBALANCE_IN_PROGRESS;
	struct sim_member *m = member_id.len > 0 ? sim_group_find_member(g, member_id.p, (size_t)member_id.len) : NULL;
	if (!m)
		return KERR_UNKNOWN_MEMBER_ID;
	if (generation != g->generation_id)
		return KERR_ILLEGAL_GENERATION;
	m->last_seen_ms = req->mono_ms; /* a commit counts as a heartbeat, as in Kafka */
	return KERR_NONE;
}

int sim_api_offset_commit(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	int16_t v = req->api_version;
	struct wire_str gid = wire_str(rd, false);
	int32_t generation = -1;
	struct wire_str member = { .p = "", .len = 0 };
	if (v >= 1) {
		generation = wire_i32(rd);
		member = wire_str(rd, false);
	}
	if (v >= 7)
		(void)wire_str(rd, false); /* group_instance_id */
	if (v >= 2 && v <= 4)
		(void)wire_i64(rd); /* retention_time_ms */
	int32_t ntopics = wire_array(rd, false, 2);
	size_t topics_at = rd->off;
	for (int32_t i = 0; i < ntopics && !rd->err; i++) {
		(void)wire_str(rd, false);
		int32_t np = wire_array(rd, false, 14);
		for (int32_t k = 0; k < np && !rd->err; k++) {
			wire_skip(rd, 4 + 8 + (v == 1 ? 8 : 0) + (v >= 6 ? 4 : 0));
			(void)wire_str(rd, false);
		}
	}
	if (rd->err || gid.len < 0 || ntopics < 0)
		return SIM_API_MALFORMED;

	struct sim_group *g = NULL;
	int16_t gerr = commit_group_error(req, &g, gid, generation, member);

	if (v >= 3)
		wire_put_i32(out, 0); /* throttle_time_ms */
	wire_put_array(out, ntopics, false);
	rd->off = topics_at;
	for (int32_t i = 0; i < ntopics; i++) {
		struct wire_str name = wire_str(rd, false);
		int32_t np = wire_array(rd, false, 14);
		wire_put_strn(out, name.p, name.len, false);
		wire_put_array(out, np, false);
		for (int32_t k = 0; k < np; k++) {
			int32_t p = wire_i32(rd);
			int64_t offset = wire_i64(rd);
			if (v == 1)
				(void)wire_i64(rd); /* commit_timestamp */
			int32_t epoch = v >= 6 ? wire_i32(rd) : -1;
			struct wire_str md = wire_str(rd, false);
			int16_t err = gerr;
			if (!err && (name.len < 0 || !sim_partition_find(req->st, name.p, (size_t)name.len, p)))
				err = KERR_UNKNOWN_TOPIC_OR_PARTITION;
			if (!err && md.len > SIM_MAX_COMMIT_METADATA)
				err = KERR_OFFSET_METADATA_TOO_LARGE;
			if (!err)
				err = sim_req_commit_fault(req, name.p, (size_t)name.len, p);
			if (!err) {
				sim_group_commit(g, name.p, (size_t)name.len, p, offset, epoch,
						 md.len >= 0 ? md.p : NULL, md.len >= 0 ? (size_t)md.len : 0,
						 req->now_ms);
				sim_offsets_log_commit(req->st, g, name.p, (size_t)name.len, p);
			}
			wire_put_i32(out, p);
			wire_put_i16(out, err);
		}
	}
	return SIM_API_OK;
}

/* ---- OffsetDelete ---- */

int sim_api_offset_delete(struct sim_req *req, struct wire_rd *rd, struct wire_buf *out)
{
	struct wire_str gid = wire_str(rd, false);
	size_t topics_at;
	int32_t ntopics = wire_skip_topic_partitions(rd, 2, 4, &topics_at); /* partitions: index */
	if (rd->err || gid.len < 0 || ntopics < 0)
		return SIM_API_MALFORMED;

	int16_t err = sim_req_check_coordinator(req, gid.p, (size_t)gid.len);
	struct sim_group *g = err ? NULL : sim_group_find(req->st, gid.p, (size_t)gid.len);
	if (!err && (!g || g->state == SIM_GROUP_DEAD))
		err = KERR_GROUP_ID_NOT_FOUND;
	if (!err && g->state != SIM_GROUP_EMPTY && strcmp(g->protocol_type, "consumer") != 0)
		err = KERR_NON_EMPTY_GROUP;
	wire_put_i16(out, err);
	wire_put_i32(out, 0); /* throttle_time_ms */
	if (err) {
		wire_put_array(out, 0, false);
		return SIM_API_OK;
	}
	wire_put_array(out, ntopics, false);
	rd->off = topics_at;
	for (int32_t i = 0; i < ntopics; i++) {
		struct wire_str name = wire_str(rd, false);
		int32_t np = wire_array(rd, false, 4);
		bool known = name.len >= 0 && sim_topic_find(req->st, name.p, (size_t)name.len);
		bool subscribed = known && sim_group_subscribes(g, name.p, (size_t)name.len);
		wire_put_strn(out, name.p, name.len, false);
		wire_put_array(out, np, false);
		for (int32_t k = 0; k < np; k++) {
			int32_t p = wire_i32(rd);
			int16_t perr = KERR_NONE;
			if (!known || !sim_partition_find(req->st, name.p, (size_t)name.len, p))
				perr = KERR_UNKNOWN_TOPIC_OR_PARTITION;
			else if (subscribed)
				perr = KERR_GROUP_SUBSCRIBED_TO_TOPIC;
			else if (sim_group_commit_delete(g, name.p, (size_t)name.len, p) == 0)
				sim_offsets_log_commit_delete(req->st, g->group_id, name.p, (size_t)name.len, p,
							      req->now_ms);
			wire_put_i32(out, p);
			wire_put_i16(out, perr);
		}
	}
	return SIM_API_OK;
}
