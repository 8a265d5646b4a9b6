/* test_sim_consumers.c — real librdkafka producers and consumer groups against the simulated cluster.
 *
 * One story, in steps that share the cluster: a producer writes records with known timestamps; two
 * consumers in one group split the partitions, consume and commit; one leaves and the other gets
 * everything; both leave and the group is Empty. At each step the admin API (DescribeConsumerGroups,
 * ListConsumerGroupOffsets) must show the state, members and offsets the clients produced. Then: an admin
 * commit while a real consumer is a member is refused and changes nothing; once it closed, the commit
 * succeeds and a new consumer resumes from it.
 *
 * Numbers (produce rate, rebalance time) are printed as TAP comments, never asserted.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <librdkafka/rdkafka.h>

#include "sim/sim.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define TOPIC   "orders"
#define NPART   4
#define T0      1700000000000LL /* timestamp of record i is T0 + i * 1000 */
#define WAIT_MS 15000

static sim_cluster *sim;
static const char *bootstrap;
static rd_kafka_t *admin;
static rd_kafka_queue_t *adminq;
static rd_kafka_t *c1, *c2;
static int produced; /* records written so far (record i went to partition i % NPART) */

static rd_kafka_conf_t *base_conf(const char *client_id)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rdk_conf_set(conf, "bootstrap.servers", bootstrap);
	rdk_conf_set(conf, "client.id", client_id);
	rdk_conf_set(conf, "log_level", "3");
	return conf;
}

/* Messages one consumer received, by partition. A partition's sequence restarts when it is (re)assigned:
 * after a rebalance a consumer resumes from the committed offset, which may repeat records. */
struct seen {
	int count;
	int64_t next[NPART];  /* next expected offset per partition (-1: none since the assignment) */
	int64_t first[NPART]; /* first offset received since the assignment */
};

#define MAXREC 1024
static bool got[NPART][MAXREC]; /* every record some consumer received, for distinct counts */

static int distinct_received(void)
{
	int n = 0;
	for (int p = 0; p < NPART; p++)
		for (int o = 0; o < MAXREC; o++)
			n += got[p][o];
	return n;
}

static void on_rebalance(rd_kafka_t *rk, rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t *parts, void *opaque)
{
	struct seen *s = opaque;
	if (err == RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS) {
		for (int i = 0; s && i < parts->cnt; i++)
			if (parts->elems[i].partition >= 0 && parts->elems[i].partition < NPART)
				s->next[parts->elems[i].partition] = s->first[parts->elems[i].partition] = -1;
		rd_kafka_assign(rk, parts);
	} else {
		rd_kafka_assign(rk, NULL);
	}
}

static rd_kafka_t *consumer_new(const char *client_id, const char *group, struct seen *s)
{
	rd_kafka_conf_t *conf = rdk_group_member_conf(bootstrap, group, client_id);
	rd_kafka_conf_set_rebalance_cb(conf, on_rebalance);
	rd_kafka_conf_set_opaque(conf, s);
	rdk_conf_set(conf, "heartbeat.interval.ms", "300");
	rdk_conf_set(conf, "enable.auto.commit", "false");
	rdk_conf_set(conf, "partition.assignment.strategy", "range");
	return rdk_consumer_subscribed(conf, TOPIC);
}

static void consumer_close(rd_kafka_t **rk)
{
	assert_int_equal(rd_kafka_consumer_close(*rk), RD_KAFKA_RESP_ERR_NO_ERROR);
	rd_kafka_destroy(*rk);
	*rk = NULL;
}

static void seen_init(struct seen *s)
{
	memset(s, 0, sizeof *s);
	for (int p = 0; p < NPART; p++)
		s->next[p] = s->first[p] = -1;
}

/* Polls once; checks every message against what was produced (value, CreateTime timestamp, order). */
static void poll_once(rd_kafka_t *rk, struct seen *s, int ms)
{
	rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, ms);
	if (!m)
		return;
	if (m->err) {
		if (m->err != RD_KAFKA_RESP_ERR__PARTITION_EOF)
			print_message("# consumer error: %s\n", rd_kafka_message_errstr(m));
		rd_kafka_message_destroy(m);
		return;
	}
	/* copy what is checked and release the message first: a failed assertion must not leave one
	 * outstanding, or closing the consumer would wait for it forever */
	int p = m->partition;
	int64_t offset = m->offset;
	char value[32] = "";
	if (m->len < sizeof value)
		memcpy(value, m->payload, m->len);
	rd_kafka_timestamp_type_t tstype;
	int64_t ts = rd_kafka_message_timestamp(m, &tstype);
	rd_kafka_message_destroy(m);

	assert_true(p >= 0 && p < NPART);
	int64_t i = offset * NPART + p;
	char want[32];
	snprintf(want, sizeof want, "msg-%" PRId64, i);
	assert_string_equal(value, want);
	assert_true(ts == T0 + i * 1000);
	assert_int_equal(tstype, RD_KAFKA_TIMESTAMP_CREATE_TIME);
	if (s->next[p] >= 0)
		assert_true(offset == s->next[p]); /* no gaps, no duplicates */
	else
		s->first[p] = offset;
	s->next[p] = offset + 1;
	s->count++;
	if (offset < MAXREC)
		got[p][offset] = true;
}

static int assigned(rd_kafka_t *rk, int32_t *parts)
{
	rd_kafka_topic_partition_list_t *l = NULL;
	assert_int_equal(rd_kafka_assignment(rk, &l), RD_KAFKA_RESP_ERR_NO_ERROR);
	int n = l->cnt;
	for (int i = 0; parts && i < n; i++)
		parts[i] = l->elems[i].partition;
	rd_kafka_topic_partition_list_destroy(l);
	return n;
}

/* ---- admin helpers ---- */
static rd_kafka_event_t *admin_wait(rd_kafka_event_type_t type)
{
	return rdk_event_wait(adminq, type, WAIT_MS);
}

struct member_view {
	char client_id[64], host[64], consumer_id[160];
	int nparts;
	int32_t parts[NPART];
};
struct group_view {
	char state[32];
	char assignor[32];
	int nmembers;
	struct member_view m[4];
};

static void describe(const char *group, struct group_view *gv)
{
	memset(gv, 0, sizeof *gv);
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(admin, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
	rd_kafka_DescribeConsumerGroups(admin, &group, 1, o, adminq);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_event_t *ev = admin_wait(RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT);
	size_t n;
	const rd_kafka_ConsumerGroupDescription_t **gs =
		rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev), &n);
	assert_int_equal(n, 1);
	assert_null(rd_kafka_ConsumerGroupDescription_error(gs[0]));
	snprintf(gv->state, sizeof gv->state, "%s",
		 rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(gs[0])));
	const char *a = rd_kafka_ConsumerGroupDescription_partition_assignor(gs[0]);
	snprintf(gv->assignor, sizeof gv->assignor, "%s", a ? a : "");
	gv->nmembers = (int)rd_kafka_ConsumerGroupDescription_member_count(gs[0]);
	assert_true(gv->nmembers <= 4);
	for (int i = 0; i < gv->nmembers; i++) {
		const rd_kafka_MemberDescription_t *m = rd_kafka_ConsumerGroupDescription_member(gs[0], (size_t)i);
		struct member_view *mv = &gv->m[i];
		snprintf(mv->client_id, sizeof mv->client_id, "%s", rd_kafka_MemberDescription_client_id(m));
		snprintf(mv->host, sizeof mv->host, "%s", rd_kafka_MemberDescription_host(m));
		snprintf(mv->consumer_id, sizeof mv->consumer_id, "%s", rd_kafka_MemberDescription_consumer_id(m));
		const rd_kafka_topic_partition_list_t *l =
			rd_kafka_MemberAssignment_partitions(rd_kafka_MemberDescription_assignment(m));
		for (int k = 0; l && k < l->cnt && mv->nparts < NPART; k++) {
			assert_string_equal(l->elems[k].topic, TOPIC);
			mv->parts[mv->nparts++] = l->elems[k].partition;
		}
	}
	rd_kafka_event_destroy(ev);
}

/* Committed offsets of group ("all partitions" request) into off[] (-1: none). Returns how many. */
static int committed(const char *group, int64_t off[NPART])
{
	for (int p = 0; p < NPART; p++)
		off[p] = -1;
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(admin, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
	rd_kafka_ListConsumerGroupOffsets_t *req = rd_kafka_ListConsumerGroupOffsets_new(group, NULL);
	rd_kafka_ListConsumerGroupOffsets(admin, &req, 1, o, adminq);
	rd_kafka_ListConsumerGroupOffsets_destroy(req);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_event_t *ev = admin_wait(RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT);
	const rd_kafka_topic_partition_list_t *l = rdk_listed_offsets(ev);
	int found = 0;
	for (int i = 0; l && i < l->cnt; i++) {
		assert_string_equal(l->elems[i].topic, TOPIC);
		assert_int_equal(l->elems[i].err, RD_KAFKA_RESP_ERR_NO_ERROR);
		if (l->elems[i].partition >= 0 && l->elems[i].partition < NPART && l->elems[i].offset >= 0) {
			off[l->elems[i].partition] = l->elems[i].offset;
			found++;
		}
	}
	rd_kafka_event_destroy(ev);
	return found;
}

/* AlterConsumerGroupOffsets (an admin commit, generation -1) of every partition to offset; returns the
 * first error (group-level or per partition). */
static rd_kafka_resp_err_t admin_commit(const char *group, int64_t offset)
{
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(NPART);
	for (int p = 0; p < NPART; p++)
		rd_kafka_topic_partition_list_add(l, TOPIC, p)->offset = offset;
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(admin, RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS);
	rd_kafka_AlterConsumerGroupOffsets_t *req = rd_kafka_AlterConsumerGroupOffsets_new(group, l);
	rd_kafka_AlterConsumerGroupOffsets(admin, &req, 1, o, adminq);
	rd_kafka_AlterConsumerGroupOffsets_destroy(req);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_topic_partition_list_destroy(l);
	rd_kafka_event_t *ev = rd_kafka_queue_poll(adminq, WAIT_MS);
	assert_non_null(ev);
	rd_kafka_resp_err_t err = rd_kafka_event_error(ev);
	if (!err) {
		size_t n;
		const rd_kafka_group_result_t **gr = rd_kafka_AlterConsumerGroupOffsets_result_groups(
			rd_kafka_event_AlterConsumerGroupOffsets_result(ev), &n);
		assert_int_equal(n, 1);
		const rd_kafka_error_t *ge = rd_kafka_group_result_error(gr[0]);
		if (ge)
			err = rd_kafka_error_code(ge);
		const rd_kafka_topic_partition_list_t *pl = rd_kafka_group_result_partitions(gr[0]);
		for (int i = 0; !err && pl && i < pl->cnt; i++)
			err = pl->elems[i].err;
	}
	rd_kafka_event_destroy(ev);
	return err;
}

/* First error of a group result (group level, then partitions). */
static rd_kafka_resp_err_t group_result_err(const rd_kafka_group_result_t *gr)
{
	const rd_kafka_error_t *ge = rd_kafka_group_result_error(gr);
	if (ge)
		return rd_kafka_error_code(ge);
	const rd_kafka_topic_partition_list_t *pl = rd_kafka_group_result_partitions(gr);
	for (int i = 0; pl && i < pl->cnt; i++)
		if (pl->elems[i].err)
			return pl->elems[i].err;
	return RD_KAFKA_RESP_ERR_NO_ERROR;
}

static rd_kafka_resp_err_t delete_group(const char *group)
{
	rd_kafka_DeleteGroup_t *d = rd_kafka_DeleteGroup_new(group);
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(admin, RD_KAFKA_ADMIN_OP_DELETEGROUPS);
	rd_kafka_DeleteGroups(admin, &d, 1, o, adminq);
	rd_kafka_DeleteGroup_destroy(d);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_event_t *ev = admin_wait(RD_KAFKA_EVENT_DELETEGROUPS_RESULT);
	size_t n;
	const rd_kafka_group_result_t **gr =
		rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev), &n);
	assert_int_equal(n, 1);
	rd_kafka_resp_err_t err = group_result_err(gr[0]);
	rd_kafka_event_destroy(ev);
	return err;
}

/* OffsetDelete of partition 0. */
static rd_kafka_resp_err_t delete_offset(const char *group)
{
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(l, TOPIC, 0);
	rd_kafka_DeleteConsumerGroupOffsets_t *d = rd_kafka_DeleteConsumerGroupOffsets_new(group, l);
	rd_kafka_topic_partition_list_destroy(l);
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(admin, RD_KAFKA_ADMIN_OP_DELETECONSUMERGROUPOFFSETS);
	rd_kafka_DeleteConsumerGroupOffsets(admin, &d, 1, o, adminq);
	rd_kafka_DeleteConsumerGroupOffsets_destroy(d);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_event_t *ev = rd_kafka_queue_poll(adminq, WAIT_MS);
	assert_non_null(ev);
	rd_kafka_resp_err_t err = rd_kafka_event_error(ev);
	if (!err) {
		size_t n;
		const rd_kafka_group_result_t **gr = rd_kafka_DeleteConsumerGroupOffsets_result_groups(
			rd_kafka_event_DeleteConsumerGroupOffsets_result(ev), &n);
		assert_int_equal(n, 1);
		err = group_result_err(gr[0]);
	}
	rd_kafka_event_destroy(ev);
	return err;
}

static void produce(int count)
{
	char err[256];
	rd_kafka_conf_t *conf = base_conf("producer");
	rdk_conf_set(conf, "acks", "all");
	rdk_conf_set(conf, "linger.ms", "5");
	rd_kafka_t *p = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
	assert_non_null(p);
	int64_t t = test_mono_ms();
	for (int k = 0; k < count; k++, produced++) {
		char v[32];
		int n = snprintf(v, sizeof v, "msg-%d", produced);
		assert_int_equal(rd_kafka_producev(p, RD_KAFKA_V_TOPIC(TOPIC), RD_KAFKA_V_PARTITION(produced % NPART),
						   RD_KAFKA_V_VALUE(v, (size_t)n),
						   RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
						   RD_KAFKA_V_TIMESTAMP(T0 + (int64_t)produced * 1000), RD_KAFKA_V_END),
				 RD_KAFKA_RESP_ERR_NO_ERROR);
	}
	assert_int_equal(rd_kafka_flush(p, WAIT_MS), RD_KAFKA_RESP_ERR_NO_ERROR);
	print_message("# produced %d records in %" PRId64 " ms\n", count, test_mono_ms() - t);
	rd_kafka_destroy(p);
}

/* ---- the story ---- */
static void producer_writes_with_timestamps(void **state)
{
	(void)state;
	char err[256];
	produce(200);
	for (int p = 0; p < NPART; p++) {
		int64_t ls, le;
		assert_int_equal(sim_get_offsets(sim, TOPIC, p, &ls, &le, err, sizeof err), 0);
		assert_int_equal(ls, 0);
		assert_int_equal(le, 50);
	}
	/* ListOffsets by timestamp sees the producer's CreateTime: record 100 (partition 0, offset 25) and
	 * 101..103 (offset 25 of partitions 1..3) are the first at or after T0+100 s. */
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(NPART);
	for (int p = 0; p < NPART; p++)
		rd_kafka_topic_partition_list_add(l, TOPIC, p)->offset = T0 + 100 * 1000;
	assert_int_equal(rd_kafka_offsets_for_times(admin, l, WAIT_MS), RD_KAFKA_RESP_ERR_NO_ERROR);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(l->elems[p].offset, 25);
	for (int p = 0; p < NPART; p++)
		l->elems[p].offset = T0 + 1000 * 1000; /* after every record */
	assert_int_equal(rd_kafka_offsets_for_times(admin, l, WAIT_MS), RD_KAFKA_RESP_ERR_NO_ERROR);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(l->elems[p].offset, -1);
	rd_kafka_topic_partition_list_destroy(l);
}

static struct seen s1, s2;

static void two_consumers_split_partitions(void **state)
{
	(void)state;
	struct group_view gv;
	int32_t p1[NPART], p2[NPART];
	int64_t t = test_mono_ms();

	seen_init(&s1);
	seen_init(&s2);
	c1 = consumer_new("c1", "g", &s1);
	c2 = consumer_new("c2", "g", &s2);
	int n1 = 0, n2 = 0;
	for (int64_t end = test_mono_ms() + WAIT_MS; test_mono_ms() < end;) {
		poll_once(c1, &s1, 50);
		poll_once(c2, &s2, 50);
		n1 = assigned(c1, p1);
		n2 = assigned(c2, p2);
		if (n1 == 2 && n2 == 2)
			break;
	}
	print_message("# two consumers assigned after %" PRId64 " ms\n", test_mono_ms() - t);
	assert_int_equal(n1, 2);
	assert_int_equal(n2, 2);

	describe("g", &gv);
	assert_string_equal(gv.state, "Stable");
	assert_string_equal(gv.assignor, "range");
	assert_int_equal(gv.nmembers, 2);
	int seen_parts = 0;
	for (int i = 0; i < 2; i++) {
		struct member_view *m = &gv.m[i];
		assert_string_equal(m->host, "/127.0.0.1");
		assert_true(!strncmp(m->consumer_id, m->client_id, strlen(m->client_id))); /* "<client id>-<uuid>" */
		rd_kafka_t *rk = !strcmp(m->client_id, "c1") ? c1 : !strcmp(m->client_id, "c2") ? c2 : NULL;
		assert_non_null(rk);
		int32_t mine[NPART];
		int n = assigned(rk, mine);
		assert_int_equal(m->nparts, n); /* the broker's view is the client's assignment */
		for (int k = 0; k < n; k++) {
			bool found = false;
			for (int j = 0; j < m->nparts; j++)
				found |= m->parts[j] == mine[k];
			assert_true(found);
			seen_parts |= 1 << mine[k];
		}
	}
	assert_int_equal(seen_parts, (1 << NPART) - 1); /* disjoint and complete */
	assert_string_not_equal(gv.m[0].client_id, gv.m[1].client_id);
}

static void consume_and_commit(void **state)
{
	(void)state;
	/* every record reaches someone, and each consumer reads its own partitions to the end (records a
	 * consumer read before the split may be read again by the new owner: no commit had been made) */
	int32_t p1[NPART], p2[NPART];
	int n1 = assigned(c1, p1), n2 = assigned(c2, p2);
	bool done = false;
	for (int64_t end = test_mono_ms() + WAIT_MS; test_mono_ms() < end && !done;) {
		poll_once(c1, &s1, 50);
		poll_once(c2, &s2, 50);
		done = distinct_received() == 200;
		for (int k = 0; k < n1; k++)
			done &= s1.next[p1[k]] == 50;
		for (int k = 0; k < n2; k++)
			done &= s2.next[p2[k]] == 50;
	}
	assert_int_equal(distinct_received(), 200);
	for (int k = 0; k < n1; k++)
		assert_int_equal(s1.next[p1[k]], 50);
	for (int k = 0; k < n2; k++)
		assert_int_equal(s2.next[p2[k]], 50);
	assert_int_equal(rd_kafka_commit(c1, NULL, 0), RD_KAFKA_RESP_ERR_NO_ERROR);
	assert_int_equal(rd_kafka_commit(c2, NULL, 0), RD_KAFKA_RESP_ERR_NO_ERROR);
	int64_t off[NPART];
	assert_int_equal(committed("g", off), NPART);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(off[p], 50);
}

static void one_leaves_other_gets_everything(void **state)
{
	(void)state;
	struct group_view gv;
	int64_t t = test_mono_ms();

	consumer_close(&c2);
	int n = 0;
	for (int64_t end = test_mono_ms() + WAIT_MS; test_mono_ms() < end && n != NPART;) {
		poll_once(c1, &s1, 50);
		n = assigned(c1, NULL);
	}
	print_message("# rebalance after a leave took %" PRId64 " ms\n", test_mono_ms() - t);
	assert_int_equal(n, NPART);
	describe("g", &gv);
	assert_string_equal(gv.state, "Stable");
	assert_int_equal(gv.nmembers, 1);
	assert_string_equal(gv.m[0].client_id, "c1");
	assert_int_equal(gv.m[0].nparts, NPART);

	/* new records: c1 reads all of them, resuming from the committed offsets of c2's partitions too */
	produce(40);
	bool done = false;
	for (int64_t end = test_mono_ms() + WAIT_MS; test_mono_ms() < end && !done;) {
		poll_once(c1, &s1, 50);
		done = true;
		for (int p = 0; p < NPART; p++)
			done &= s1.next[p] == 60;
	}
	for (int p = 0; p < NPART; p++) {
		assert_int_equal(s1.first[p], 50); /* c2's partitions too: from the committed offset */
		assert_int_equal(s1.next[p], 60);
	}
	assert_int_equal(rd_kafka_commit(c1, NULL, 0), RD_KAFKA_RESP_ERR_NO_ERROR);
	int64_t off[NPART];
	assert_int_equal(committed("g", off), NPART);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(off[p], 60);
}

static void both_left_group_empty(void **state)
{
	(void)state;
	struct group_view gv;
	consumer_close(&c1);
	describe("g", &gv);
	assert_string_equal(gv.state, "Empty");
	assert_int_equal(gv.nmembers, 0);
	int64_t off[NPART];
	assert_int_equal(committed("g", off), NPART);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(off[p], 60);
}

static void admin_commit_refused_while_member(void **state)
{
	(void)state;
	struct group_view gv;
	struct seen s;
	seen_init(&s);
	c1 = consumer_new("c3", "g-admin", &s);
	for (int64_t end = test_mono_ms() + WAIT_MS; test_mono_ms() < end && s.count < produced;)
		poll_once(c1, &s, 50);
	assert_int_equal(s.count, produced);
	assert_int_equal(rd_kafka_commit(c1, NULL, 0), RD_KAFKA_RESP_ERR_NO_ERROR);
	describe("g-admin", &gv);
	assert_string_equal(gv.state, "Stable");
	assert_int_equal(gv.nmembers, 1);

	assert_int_equal(admin_commit("g-admin", 10), RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID);
	int64_t off[NPART];
	assert_int_equal(committed("g-admin", off), NPART);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(off[p], 60); /* nothing changed */
	describe("g-admin", &gv);
	assert_string_equal(gv.state, "Stable"); /* and the member is still there */
	assert_int_equal(gv.nmembers, 1);
	/* a group with a real member is not deleted, nor are offsets of a topic it consumes */
	assert_int_equal(delete_group("g-admin"), RD_KAFKA_RESP_ERR_NON_EMPTY_GROUP);
	assert_int_equal(delete_offset("g-admin"), RD_KAFKA_RESP_ERR_GROUP_SUBSCRIBED_TO_TOPIC);
	assert_int_equal(committed("g-admin", off), NPART);
}

static void admin_commit_after_close_then_resume(void **state)
{
	(void)state;
	struct group_view gv;
	consumer_close(&c1);
	describe("g-admin", &gv);
	assert_string_equal(gv.state, "Empty");
	assert_int_equal(admin_commit("g-admin", 10), RD_KAFKA_RESP_ERR_NO_ERROR);
	int64_t off[NPART];
	assert_int_equal(committed("g-admin", off), NPART);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(off[p], 10);

	struct seen s;
	seen_init(&s);
	c1 = consumer_new("c4", "g-admin", &s);
	for (int64_t end = test_mono_ms() + WAIT_MS; test_mono_ms() < end && s.count < produced - 10 * NPART;)
		poll_once(c1, &s, 50);
	assert_int_equal(s.count, produced - 10 * NPART);
	for (int p = 0; p < NPART; p++)
		assert_int_equal(s.first[p], 10); /* resumed from the admin's offset */
	consumer_close(&c1);
	/* Empty again: now it can be deleted, with its offsets */
	assert_int_equal(delete_group("g-admin"), RD_KAFKA_RESP_ERR_NO_ERROR);
	describe("g-admin", &gv);
	assert_string_equal(gv.state, "Dead");
	assert_int_equal(committed("g-admin", off), 0);
}

static int setup(void **state)
{
	(void)state;
	char err[256];
	sim = test_sim_start(3, NULL);
	bootstrap = sim_bootstrap(sim);
	if (sim_create_topic(sim, TOPIC, NPART, err, sizeof err) < 0)
		return -1;
	admin = rd_kafka_new(RD_KAFKA_PRODUCER, base_conf("admin"), err, sizeof err);
	adminq = rd_kafka_queue_new(admin);
	return admin ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	if (c1)
		rd_kafka_destroy(c1);
	if (c2)
		rd_kafka_destroy(c2);
	rd_kafka_queue_destroy(adminq);
	rd_kafka_destroy(admin);
	sim_free(sim);
	return 0;
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(producer_writes_with_timestamps),
	cmocka_unit_test(two_consumers_split_partitions),
	cmocka_unit_test(consume_and_commit),
	cmocka_unit_test(one_leaves_other_gets_everything),
	cmocka_unit_test(both_left_group_empty),
	cmocka_unit_test(admin_commit_refused_while_member),
	cmocka_unit_test(admin_commit_after_close_then_resume),
};

LT_TEST_MAIN(setup, teardown)
