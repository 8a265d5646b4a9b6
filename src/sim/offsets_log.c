/* offsets_log.c — sim structures → __consumer_offsets records (see offsets_log.h). */
#include "sim/offsets_log.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/xalloc.h"

void sim_offsets_record_free(struct sim_offsets_record *r)
{
	bytes_free(&r->key);
	bytes_free(&r->value);
	r->value_null = false;
}

int32_t sim_offsets_partition(const char *group_id)
{
	return commit_partition_for_group(group_id, SIM_OFFSETS_PARTITIONS);
}

static int encode(const lt_commit_record *r, struct sim_offsets_record *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	out->partition = sim_offsets_partition(r->group);
	int is_null = 0;
	if (commit_record_encode(r, &out->key, &out->value, &is_null, err, errlen) < 0)
		return -1;
	out->value_null = is_null != 0;
	return 0;
}

/* The record structs hold char * (the decoder owns its strings); the encoder only reads them. */
#define UNCONST(s) ((char *)(uintptr_t)(const void *)(s))

int sim_offsets_commit_record(const struct sim_group *g, const char *topic, int32_t partition,
                              const struct sim_commit *c, struct sim_offsets_record *out, char *err, size_t errlen)
{
	lt_commit_record r = {
	    .type = LT_CR_OFFSET_COMMIT,
	    .key_version = 1,
	    .value_version = 3,
	    .group = g->group_id,
	    .topic = UNCONST(topic),
	    .partition = partition,
	    .offset = c->offset,
	    .leader_epoch = c->leader_epoch,
	    .metadata = c->metadata ? c->metadata : UNCONST(""),
	    .commit_ms = c->commit_ts_ms,
	    .expire_ms = -1,
	};
	return encode(&r, out, err, errlen);
}

int sim_offsets_commit_tombstone(const char *group_id, const char *topic, int32_t partition,
                                 struct sim_offsets_record *out, char *err, size_t errlen)
{
	lt_commit_record r = {
	    .type = LT_CR_OFFSET_DELETE,
	    .key_version = 1,
	    .value_version = -1,
	    .group = UNCONST(group_id),
	    .topic = UNCONST(topic),
	    .partition = partition,
	};
	return encode(&r, out, err, errlen);
}

int sim_offsets_group_record(const struct sim_group *g, int64_t state_ms, struct sim_offsets_record *out, char *err,
                             size_t errlen)
{
	lt_commit_member *ms = xcalloc(g->nmembers ? g->nmembers : 1, sizeof *ms);
	for (size_t i = 0; i < g->nmembers; i++) {
		const struct sim_member *m = g->members[i];
		const struct sim_protocol *p =
		    g->protocol_name && g->protocol_name[0] ? sim_member_protocol(m, g->protocol_name) : NULL;
		ms[i] = (lt_commit_member){
		    .member_id = m->member_id,
		    .group_instance_id = m->group_instance_id,
		    .client_id = m->client_id,
		    .client_host = m->client_host,
		    .rebalance_timeout_ms = m->rebalance_timeout_ms,
		    .session_timeout_ms = m->session_timeout_ms,
		    .subscription = p ? p->metadata : NULL,
		    .subscription_len = p && p->metadata_len > 0 ? (size_t)p->metadata_len : 0,
		    .assignment = m->assignment,
		    .assignment_len = m->assignment_len > 0 ? (size_t)m->assignment_len : 0,
		};
	}
	/* Kafka writes null for "no protocol chosen" and "no leader" (an Empty group). */
	bool has_protocol = g->protocol_name && g->protocol_name[0];
	lt_commit_record r = {
	    .type = LT_CR_GROUP_METADATA,
	    .key_version = 2,
	    .value_version = 3,
	    .group = g->group_id,
	    .protocol_type = g->protocol_type ? g->protocol_type : UNCONST(""),
	    .generation = g->generation_id,
	    .protocol = has_protocol ? g->protocol_name : NULL,
	    .leader = g->leader_id && g->leader_id[0] ? g->leader_id : NULL,
	    .state_ms = state_ms,
	    .n_members = g->nmembers,
	    .members = ms,
	};
	int rc = encode(&r, out, err, errlen);
	free(ms);
	return rc;
}

int sim_offsets_group_tombstone(const char *group_id, struct sim_offsets_record *out, char *err, size_t errlen)
{
	lt_commit_record r = {
	    .type = LT_CR_GROUP_DELETE,
	    .key_version = 2,
	    .value_version = -1,
	    .group = UNCONST(group_id),
	};
	return encode(&r, out, err, errlen);
}
