/* offsets_log.c — sim structures → __consumer_offsets records (see offsets_log.h). */
#include "sim/offsets_log.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sim/record_store.h"
#include "sim/records.h"
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

/* ---- the journal ---- */

void sim_offsets_journal_append(struct sim_state *st, const char *group_id, struct sim_offsets_record *r, int64_t ts)
{
	struct sim_topic *t = sim_topic_find(st, SIM_OFFSETS_TOPIC, strlen(SIM_OFFSETS_TOPIC));
	if (!t) {
		int16_t kerr;
		char err[160];
		t = sim_topic_create(st, SIM_OFFSETS_TOPIC, SIM_OFFSETS_PARTITIONS, &kerr, err, sizeof err);
		if (!t)
			return;
	}
	/* a test may have created the topic with another partition count: Kafka hashes over the real one */
	int32_t p = commit_partition_for_group(group_id, t->npartitions);
	struct rec_out ro = {
		.timestamp = ts,
		.key = r->key.data,
		.key_len = (int32_t)r->key.len,
		.value = r->value_null ? NULL : r->value.data,
		.value_len = r->value_null ? -1 : (int32_t)r->value.len,
	};
	struct rec_buf b = { 0 };
	records_batch_encode(&b, 0, &ro, 1);
	struct rec_batch batch;
	char err[160];
	if (records_batch_decode(b.data, b.len, &batch, err, sizeof err) == REC_ERR_NONE)
		sim_store_append_compacted(st, &t->parts[p], &batch,
					   st->offsets_segment_bytes > 0 ? st->offsets_segment_bytes
									 : SIM_OFFSETS_SEGMENT_BYTES);
	rec_buf_free(&b);
}

void sim_offsets_log_commit(struct sim_state *st, const struct sim_group *g, const char *topic, size_t topic_len,
			    int32_t partition)
{
	const struct sim_commit *c = sim_group_committed(g, topic, topic_len, partition);
	if (!c || !c->set)
		return;
	char *t = xstrndup(topic, topic_len);
	struct sim_offsets_record r;
	char err[160];
	if (sim_offsets_commit_record(g, t, partition, c, &r, err, sizeof err) == 0)
		sim_offsets_journal_append(st, g->group_id, &r, c->commit_ts_ms);
	sim_offsets_record_free(&r);
	free(t);
}

void sim_offsets_log_commit_delete(struct sim_state *st, const char *group_id, const char *topic, size_t topic_len,
				   int32_t partition, int64_t now_ms)
{
	char *t = xstrndup(topic, topic_len);
	struct sim_offsets_record r;
	char err[160];
	if (sim_offsets_commit_tombstone(group_id, t, partition, &r, err, sizeof err) == 0)
		sim_offsets_journal_append(st, group_id, &r, now_ms);
	sim_offsets_record_free(&r);
	free(t);
}

void sim_offsets_log_group_change(struct sim_state *st, struct sim_group *g, enum sim_group_state old_state,
				  int32_t old_generation, int64_t now_ms)
{
	if (g->state != old_state || g->generation_id != old_generation) /* Kafka passes through a rebalance */
		g->state_ms = now_ms;
	if (g->type != SIM_GROUP_CLASSIC)
		return; /* a consumer-protocol group's own records are not written (offsets_log.h) */
	if (g->state != SIM_GROUP_STABLE && g->state != SIM_GROUP_EMPTY)
		return;
	if (g->state == old_state && g->generation_id == old_generation)
		return;
	struct sim_offsets_record r;
	char err[160];
	if (sim_offsets_group_record(g, g->state_ms >= 0 ? g->state_ms : now_ms, &r, err, sizeof err) == 0)
		sim_offsets_journal_append(st, g->group_id, &r, now_ms);
	sim_offsets_record_free(&r);
}

void sim_offsets_log_group_delete(struct sim_state *st, const struct sim_group *g, int64_t now_ms)
{
	for (size_t i = 0; i < g->noffsets; i++) {
		const struct sim_group_topic *gt = &g->offsets[i];
		for (int32_t p = 0; p < gt->nparts; p++)
			if (gt->parts[p].set)
				sim_offsets_log_commit_delete(st, g->group_id, gt->topic, strlen(gt->topic), p, now_ms);
	}
	if (g->type == SIM_GROUP_CONSUMER) {
		for (size_t i = 0; i < g->nmembers; i++)
			sim_offsets_log_consumer_member_left(st, g, g->members[i]->member_id, now_ms);
		sim_offsets_log_consumer_group_delete(st, g->group_id, now_ms);
		return;
	}
	struct sim_offsets_record r;
	char err[160];
	if (sim_offsets_group_tombstone(g->group_id, &r, err, sizeof err) == 0)
		sim_offsets_journal_append(st, g->group_id, &r, now_ms);
	sim_offsets_record_free(&r);
}

/* ---- consumer-protocol groups' own records (keys 3 and 5), through the project's encoder */

/* Appends key and value (NULL: a tombstone) to group_id's __consumer_offsets partition; frees both. */
static void journal_raw(struct sim_state *st, const char *group_id, lt_bytes *key, lt_bytes *value, int64_t ts)
{
	struct sim_offsets_record r = { .partition = sim_offsets_partition(group_id), .key = *key };
	if (value)
		r.value = *value;
	else
		r.value_null = true;
	sim_offsets_journal_append(st, group_id, &r, ts);
	sim_offsets_record_free(&r);
}

/* A member record (m NULL: its tombstone, member_id names it). */
static void journal_member(struct sim_state *st, const struct sim_group *g, const struct sim_member *m,
			   const char *member_id, int64_t now_ms)
{
	lt_bytes k = { 0 }, v = { 0 };
	lt_consumer_member_value mv = { 0 };
	if (m) {
		mv = (lt_consumer_member_value){
			.instance_id = m->group_instance_id,
			.rack_id = m->rack_id,
			.client_id = m->client_id ? m->client_id : "",
			.client_host = m->client_host ? m->client_host : "",
			.topics = (const char *const *)m->subscribed_topics,
			.n_topics = m->nsubscribed_topics,
			.regex = m->subscribed_regex,
			.rebalance_timeout_ms = m->rebalance_timeout_ms > 0 ? m->rebalance_timeout_ms : 300000,
			.assignor = "uniform", /* the server assignor (doc/SIM-VS-KAFKA.md: always uniform) */
		};
	}
	char err[160];
	if (commit_consumer_member_encode(g->group_id, member_id, m ? &mv : NULL, &k, &v, err, sizeof err) == 0)
		journal_raw(st, g->group_id, &k, m ? &v : NULL, now_ms); /* takes k and v */
	else
		bytes_free(&k);
}

void sim_offsets_log_consumer_member(struct sim_state *st, const struct sim_group *g, const struct sim_member *m,
				     int64_t now_ms)
{
	journal_member(st, g, m, m->member_id, now_ms);
}

void sim_offsets_log_consumer_member_left(struct sim_state *st, const struct sim_group *g, const char *member_id,
					  int64_t now_ms)
{
	journal_member(st, g, NULL, member_id, now_ms);
}

/* The group record (epoch NULL: its tombstone). */
static void journal_group(struct sim_state *st, const char *group_id, const int32_t *epoch, int64_t now_ms)
{
	lt_bytes k = { 0 }, v = { 0 };
	char err[160];
	if (commit_consumer_group_encode(group_id, epoch, &k, &v, err, sizeof err) == 0)
		journal_raw(st, group_id, &k, epoch ? &v : NULL, now_ms); /* takes k and v */
	else
		bytes_free(&k);
}

void sim_offsets_log_consumer_group(struct sim_state *st, const struct sim_group *g, int64_t now_ms)
{
	journal_group(st, g->group_id, &g->group_epoch, now_ms);
}

void sim_offsets_log_consumer_group_delete(struct sim_state *st, const char *group_id, int64_t now_ms)
{
	journal_group(st, group_id, NULL, now_ms);
}
