/* test_sim_admin.c — librdkafka 2.0.2's admin API (the client lagtop uses) against the in-process
 * simulated cluster: the picture it gets must be the sim's state, with Kafka's semantics. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>
#include <librdkafka/rdkafka.h>

#include "sim/sim.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define BASE_TS 1700000000000LL /* t1: offset k has timestamp BASE_TS + k*1000 */
#define WAIT_MS 15000

static sim_cluster *sim;
static rd_kafka_t *rk;
static rd_kafka_queue_t *q;
static char stable_m1[160];

static int setup(void **state)
{
	(void)state;
	char err[256];
	sim = test_sim_start(3, "empty");
	sim_must(sim_create_topic(sim, "t1", 4, err, sizeof(err)), "sim_create_topic", err);
	sim_must(sim_create_topic(sim, "t2", 2, err, sizeof(err)), "sim_create_topic", err);
	for (int p = 0; p < 4; p++)
		sim_must(sim_append(sim, "t1", p, 1000, BASE_TS, 1000, err, sizeof(err)), "sim_append", err);
	sim_must(sim_set_log_start(sim, "t1", 0, 100, err, sizeof(err)), "sim_set_log_start", err);

	static const int32_t p01[] = { 0, 1 }, p23[] = { 2, 3 };
	struct sim_member_assignment a1 = { "t1", p01, 2 }, a2 = { "t1", p23, 2 };
	struct sim_member_spec m1 = {
		.client_id = "c1", .client_host = "/10.1.1.1", .assignment = &a1, .nassignment = 1
	};
	struct sim_member_spec m2 = { .client_id = "c2", .assignment = &a2, .nassignment = 1 };
	sim_must(sim_add_member(sim, "g-stable", &m1, stable_m1, sizeof(stable_m1), err, sizeof(err)), "sim_add_member",
		 err);
	sim_must(sim_add_member(sim, "g-stable", &m2, NULL, 0, err, sizeof(err)), "sim_add_member", err);
	for (int p = 0; p < 4; p++)
		sim_must(sim_commit(sim, "g-stable", "t1", p, 500 + 100 * p, NULL, err, sizeof(err)), "sim_commit",
			 err);

	sim_must(sim_commit(sim, "g-empty", "t1", 0, 10, NULL, err, sizeof(err)), "sim_commit", err);
	sim_must(sim_commit(sim, "g-empty", "t2", 1, 5, "meta", err, sizeof(err)), "sim_commit", err);

	struct sim_member_spec m3 = { .client_id = "c3", .assignment = &a1, .nassignment = 1 };
	sim_must(sim_add_member(sim, "g-rebalance", &m3, NULL, 0, err, sizeof(err)), "sim_add_member", err);
	sim_must(sim_set_group_state(sim, "g-rebalance", "PreparingRebalance", err, sizeof(err)), "sim_set_group_state",
		 err);

	rdk_admin_open(sim_bootstrap(sim), "10000", &rk, &q);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rdk_admin_close(rk, q);
	sim_free(sim);
	return 0;
}

static rd_kafka_event_t *wait_event(rd_kafka_event_type_t type)
{
	for (int waited = 0; waited < WAIT_MS; waited += 100) {
		rd_kafka_event_t *ev = rd_kafka_queue_poll(q, 100);
		if (!ev)
			continue;
		if (rd_kafka_event_type(ev) == type) {
			if (rd_kafka_event_error(ev))
				fail_msg("admin call failed: %s", rd_kafka_event_error_string(ev));
			return ev;
		}
		rd_kafka_event_destroy(ev);
	}
	fail_msg("no result event of type %d within %d ms", (int)type, WAIT_MS);
	return NULL;
}

static rd_kafka_AdminOptions_t *opts(rd_kafka_admin_op_t op)
{
	char err[128];
	rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(rk, op);
	rd_kafka_AdminOptions_set_request_timeout(o, 10000, err, sizeof(err));
	return o;
}

static void test_list_groups(void **state)
{
	(void)state;
	rd_kafka_AdminOptions_t *o = opts(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPS);
	rd_kafka_ListConsumerGroups(rk, o, q);
	rd_kafka_event_t *ev = wait_event(RD_KAFKA_EVENT_LISTCONSUMERGROUPS_RESULT);
	const rd_kafka_ListConsumerGroups_result_t *res = rd_kafka_event_ListConsumerGroups_result(ev);
	size_t n, nerr;
	const rd_kafka_ConsumerGroupListing_t **v = rd_kafka_ListConsumerGroups_result_valid(res, &n);
	(void)rd_kafka_ListConsumerGroups_result_errors(res, &nerr);
	assert_int_equal(nerr, 0);
	int seen = 0;
	for (size_t i = 0; i < n; i++) {
		const char *id = rd_kafka_ConsumerGroupListing_group_id(v[i]);
		int simple = rd_kafka_ConsumerGroupListing_is_simple_consumer_group(v[i]);
		if (strcmp(id, "g-stable") == 0 && !simple)
			seen |= 1;
		if (strcmp(id, "g-empty") == 0 && simple) /* created by a commit: protocol type "" */
			seen |= 2;
		if (strcmp(id, "g-rebalance") == 0 && !simple)
			seen |= 4;
	}
	assert_int_equal(seen, 7);
	rd_kafka_event_destroy(ev);
	rd_kafka_AdminOptions_destroy(o);
}

static void test_describe_groups(void **state)
{
	(void)state;
	const char *groups[] = { "g-stable", "g-empty", "g-rebalance", "g-unknown" };
	rd_kafka_AdminOptions_t *o = opts(RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
	rd_kafka_DescribeConsumerGroups(rk, groups, 4, o, q);
	rd_kafka_event_t *ev = wait_event(RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT);
	size_t n;
	const rd_kafka_ConsumerGroupDescription_t **d =
		rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev), &n);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		const char *id = rd_kafka_ConsumerGroupDescription_group_id(d[i]);
		assert_null(rd_kafka_ConsumerGroupDescription_error(d[i]));
		rd_kafka_consumer_group_state_t st = rd_kafka_ConsumerGroupDescription_state(d[i]);
		const rd_kafka_Node_t *coord = rd_kafka_ConsumerGroupDescription_coordinator(d[i]);
		assert_non_null(coord);
		assert_int_equal(rd_kafka_Node_id(coord), sim_coordinator(sim, id));
		assert_int_equal(rd_kafka_Node_port(coord), sim_broker_port(sim, sim_coordinator(sim, id)));
		size_t nm = rd_kafka_ConsumerGroupDescription_member_count(d[i]);
		if (strcmp(id, "g-stable") == 0) {
			assert_int_equal(st, RD_KAFKA_CONSUMER_GROUP_STATE_STABLE);
			assert_string_equal(rd_kafka_ConsumerGroupDescription_partition_assignor(d[i]), "range");
			assert_int_equal(nm, 2);
			int found = 0;
			for (size_t k = 0; k < nm; k++) {
				const rd_kafka_MemberDescription_t *m =
					rd_kafka_ConsumerGroupDescription_member(d[i], k);
				if (strcmp(rd_kafka_MemberDescription_client_id(m), "c1") != 0)
					continue;
				found = 1;
				assert_string_equal(rd_kafka_MemberDescription_consumer_id(m), stable_m1);
				assert_string_equal(rd_kafka_MemberDescription_host(m), "/10.1.1.1");
				const rd_kafka_topic_partition_list_t *a =
					rd_kafka_MemberAssignment_partitions(rd_kafka_MemberDescription_assignment(m));
				assert_int_equal(a->cnt, 2);
				assert_string_equal(a->elems[0].topic, "t1");
				assert_int_equal(a->elems[0].partition, 0);
				assert_int_equal(a->elems[1].partition, 1);
			}
			assert_true(found);
		} else if (strcmp(id, "g-empty") == 0) {
			assert_int_equal(st, RD_KAFKA_CONSUMER_GROUP_STATE_EMPTY);
			assert_int_equal(nm, 0);
		} else if (strcmp(id, "g-rebalance") == 0) {
			assert_int_equal(st, RD_KAFKA_CONSUMER_GROUP_STATE_PREPARING_REBALANCE);
			assert_int_equal(nm, 1);
		} else {
			assert_string_equal(id, "g-unknown");
			assert_int_equal(st, RD_KAFKA_CONSUMER_GROUP_STATE_DEAD);
			assert_int_equal(nm, 0);
		}
	}
	rd_kafka_event_destroy(ev);
	rd_kafka_AdminOptions_destroy(o);
}

/* ListConsumerGroupOffsets for one group; returns the result's partitions (copied). */
static rd_kafka_topic_partition_list_t *list_offsets(const char *group, rd_kafka_topic_partition_list_t *parts)
{
	rd_kafka_ListConsumerGroupOffsets_t *req = rd_kafka_ListConsumerGroupOffsets_new(group, parts);
	rd_kafka_AdminOptions_t *o = opts(RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
	rd_kafka_ListConsumerGroupOffsets(rk, &req, 1, o, q);
	rd_kafka_event_t *ev = wait_event(RD_KAFKA_EVENT_LISTCONSUMERGROUPOFFSETS_RESULT);
	rd_kafka_topic_partition_list_t *out = rd_kafka_topic_partition_list_copy(rdk_listed_offsets(ev));
	rd_kafka_event_destroy(ev);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_ListConsumerGroupOffsets_destroy(req);
	rd_kafka_topic_partition_list_sort(out, NULL, NULL);
	return out;
}

static void test_committed_all(void **state)
{
	(void)state;
	rd_kafka_topic_partition_list_t *l = list_offsets("g-empty", NULL);
	assert_int_equal(l->cnt, 2);
	assert_string_equal(l->elems[0].topic, "t1");
	assert_int_equal(l->elems[0].partition, 0);
	assert_int_equal(l->elems[0].offset, 10);
	assert_string_equal(l->elems[1].topic, "t2");
	assert_int_equal(l->elems[1].partition, 1);
	assert_int_equal(l->elems[1].offset, 5);
	assert_int_equal(l->elems[1].metadata_size, 4);
	assert_memory_equal(l->elems[1].metadata, "meta", 4);
	rd_kafka_topic_partition_list_destroy(l);

	l = list_offsets("g-stable", NULL);
	assert_int_equal(l->cnt, 4);
	for (int p = 0; p < 4; p++)
		assert_int_equal(l->elems[p].offset, 500 + 100 * p);
	rd_kafka_topic_partition_list_destroy(l);

	l = list_offsets("g-never-seen", NULL);
	assert_int_equal(l->cnt, 0);
	rd_kafka_topic_partition_list_destroy(l);
}

static void test_committed_explicit(void **state)
{
	(void)state;
	rd_kafka_topic_partition_list_t *req = rd_kafka_topic_partition_list_new(3);
	rd_kafka_topic_partition_list_add(req, "t1", 0);
	rd_kafka_topic_partition_list_add(req, "t1", 3);
	rd_kafka_topic_partition_list_add(req, "t2", 0);
	rd_kafka_topic_partition_list_t *l = list_offsets("g-stable", req);
	assert_int_equal(l->cnt, 3);
	assert_int_equal(l->elems[0].offset, 500);
	assert_int_equal(l->elems[1].offset, 800);
	assert_true(l->elems[2].offset < 0); /* nothing committed */
	assert_int_equal(l->elems[2].err, RD_KAFKA_RESP_ERR_NO_ERROR);
	rd_kafka_topic_partition_list_destroy(l);
	rd_kafka_topic_partition_list_destroy(req);
}

static void test_offsets_for_times(void **state)
{
	(void)state;
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(5);
	rd_kafka_topic_partition_list_add(l, "t1", 0)->offset = -2;
	rd_kafka_topic_partition_list_add(l, "t1", 1)->offset = -1;
	rd_kafka_topic_partition_list_add(l, "t1", 2)->offset = BASE_TS + 500500;   /* between 500 and 501 */
	rd_kafka_topic_partition_list_add(l, "t1", 3)->offset = BASE_TS + 10000000; /* after the last record */
	rd_kafka_topic_partition_list_add(l, "t2", 0)->offset = -1;
	assert_int_equal(rd_kafka_offsets_for_times(rk, l, WAIT_MS), RD_KAFKA_RESP_ERR_NO_ERROR);
	rd_kafka_topic_partition_list_sort(l, NULL, NULL);
	for (int i = 0; i < l->cnt; i++)
		assert_int_equal(l->elems[i].err, RD_KAFKA_RESP_ERR_NO_ERROR);
	assert_int_equal(l->elems[0].offset, 100);  /* log start (retention moved it) */
	assert_int_equal(l->elems[1].offset, 1000); /* high watermark */
	assert_int_equal(l->elems[2].offset, 501);  /* first record with timestamp >= T */
	assert_int_equal(l->elems[3].offset, -1);   /* none: -1, not the log end */
	assert_int_equal(l->elems[4].offset, 0);    /* empty partition */
	rd_kafka_topic_partition_list_destroy(l);

	/* Exactly at a record's timestamp, and before the log start (→ the first record kept). */
	l = rd_kafka_topic_partition_list_new(2);
	rd_kafka_topic_partition_list_add(l, "t1", 1)->offset = BASE_TS + 42000;
	rd_kafka_topic_partition_list_add(l, "t1", 0)->offset = BASE_TS;
	assert_int_equal(rd_kafka_offsets_for_times(rk, l, WAIT_MS), RD_KAFKA_RESP_ERR_NO_ERROR);
	rd_kafka_topic_partition_list_sort(l, NULL, NULL);
	assert_int_equal(l->elems[0].offset, 100);
	assert_int_equal(l->elems[1].offset, 42);
	rd_kafka_topic_partition_list_destroy(l);
}

/* AlterConsumerGroupOffsets for one partition; returns the partition's error. */
static rd_kafka_resp_err_t alter(const char *group, const char *topic, int p, int64_t offset)
{
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(l, topic, p)->offset = offset;
	rd_kafka_AlterConsumerGroupOffsets_t *req = rd_kafka_AlterConsumerGroupOffsets_new(group, l);
	rd_kafka_AdminOptions_t *o = opts(RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS);
	rd_kafka_AlterConsumerGroupOffsets(rk, &req, 1, o, q);
	rd_kafka_event_t *ev = wait_event(RD_KAFKA_EVENT_ALTERCONSUMERGROUPOFFSETS_RESULT);
	size_t n;
	const rd_kafka_group_result_t **g = rd_kafka_AlterConsumerGroupOffsets_result_groups(
		rd_kafka_event_AlterConsumerGroupOffsets_result(ev), &n);
	assert_int_equal(n, 1);
	const rd_kafka_topic_partition_list_t *res = rd_kafka_group_result_partitions(g[0]);
	assert_non_null(res);
	assert_int_equal(res->cnt, 1);
	rd_kafka_resp_err_t err = res->elems[0].err;
	rd_kafka_event_destroy(ev);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_AlterConsumerGroupOffsets_destroy(req);
	rd_kafka_topic_partition_list_destroy(l);
	return err;
}

static void test_admin_commit(void **state)
{
	(void)state;
	char st[32];
	assert_int_equal(alter("g-empty", "t1", 0, 42), RD_KAFKA_RESP_ERR_NO_ERROR);
	assert_int_equal(sim_committed(sim, "g-empty", "t1", 0), 42);

	assert_int_equal(alter("g-stable", "t1", 0, 1), RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID);
	assert_int_equal(sim_committed(sim, "g-stable", "t1", 0), 500);
	assert_int_equal(alter("g-rebalance", "t1", 0, 1), RD_KAFKA_RESP_ERR_UNKNOWN_MEMBER_ID);
	assert_int_equal(sim_committed(sim, "g-rebalance", "t1", 0), -1);

	assert_int_equal(sim_group_info(sim, "g-new", st, sizeof(st)), -1);
	assert_int_equal(alter("g-new", "t1", 1, 7), RD_KAFKA_RESP_ERR_NO_ERROR);
	assert_int_equal(sim_group_info(sim, "g-new", st, sizeof(st)), 0);
	assert_string_equal(st, "Empty");
	assert_int_equal(sim_committed(sim, "g-new", "t1", 1), 7);

	assert_int_equal(alter("g-empty", "no-such-topic", 0, 1), RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART);
}

static rd_kafka_resp_err_t delete_group(const char *group)
{
	rd_kafka_DeleteGroup_t *dg = rd_kafka_DeleteGroup_new(group);
	rd_kafka_AdminOptions_t *o = opts(RD_KAFKA_ADMIN_OP_DELETEGROUPS);
	rd_kafka_DeleteGroups(rk, &dg, 1, o, q);
	rd_kafka_event_t *ev = wait_event(RD_KAFKA_EVENT_DELETEGROUPS_RESULT);
	size_t n;
	const rd_kafka_group_result_t **g =
		rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev), &n);
	assert_int_equal(n, 1);
	const rd_kafka_error_t *e = rd_kafka_group_result_error(g[0]);
	rd_kafka_resp_err_t err = e ? rd_kafka_error_code(e) : RD_KAFKA_RESP_ERR_NO_ERROR;
	rd_kafka_event_destroy(ev);
	rd_kafka_AdminOptions_destroy(o);
	rd_kafka_DeleteGroup_destroy(dg);
	return err;
}

static void test_delete_groups(void **state)
{
	(void)state;
	char err[200], st[32];
	sim_must(sim_commit(sim, "g-doomed", "t2", 0, 3, NULL, err, sizeof(err)), "sim_commit", err);
	assert_int_equal(delete_group("g-doomed"), RD_KAFKA_RESP_ERR_NO_ERROR);
	assert_int_equal(sim_group_info(sim, "g-doomed", st, sizeof(st)), -1);
	assert_int_equal(sim_committed(sim, "g-doomed", "t2", 0), -1);

	assert_int_equal(delete_group("g-stable"), RD_KAFKA_RESP_ERR_NON_EMPTY_GROUP);
	assert_int_equal(sim_group_info(sim, "g-stable", st, sizeof(st)), 2);
	assert_int_equal(delete_group("g-missing"), RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND);
}

static void test_delete_offsets(void **state)
{
	(void)state;
	char err[200];
	sim_must(sim_commit(sim, "g-offdel", "t2", 0, 9, NULL, err, sizeof(err)), "sim_commit", err);
	sim_must(sim_commit(sim, "g-offdel", "t2", 1, 9, NULL, err, sizeof(err)), "sim_commit", err);
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(l, "t2", 0);
	rd_kafka_DeleteConsumerGroupOffsets_t *req = rd_kafka_DeleteConsumerGroupOffsets_new("g-offdel", l);
	rd_kafka_AdminOptions_t *o = opts(RD_KAFKA_ADMIN_OP_DELETECONSUMERGROUPOFFSETS);
	rd_kafka_DeleteConsumerGroupOffsets(rk, &req, 1, o, q);
	rd_kafka_event_t *ev = wait_event(RD_KAFKA_EVENT_DELETECONSUMERGROUPOFFSETS_RESULT);
	size_t n;
	const rd_kafka_group_result_t **g = rd_kafka_DeleteConsumerGroupOffsets_result_groups(
		rd_kafka_event_DeleteConsumerGroupOffsets_result(ev), &n);
	assert_int_equal(n, 1);
	assert_null(rd_kafka_group_result_error(g[0]));
	rd_kafka_event_destroy(ev);
	assert_int_equal(sim_committed(sim, "g-offdel", "t2", 0), -1);
	assert_int_equal(sim_committed(sim, "g-offdel", "t2", 1), 9);
	rd_kafka_DeleteConsumerGroupOffsets_destroy(req);

	/* An active consumer group's subscribed topic is refused. */
	req = rd_kafka_DeleteConsumerGroupOffsets_new("g-stable", l);
	rd_kafka_topic_partition_list_destroy(l);
	l = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(l, "t1", 0);
	rd_kafka_DeleteConsumerGroupOffsets_destroy(req);
	req = rd_kafka_DeleteConsumerGroupOffsets_new("g-stable", l);
	rd_kafka_DeleteConsumerGroupOffsets(rk, &req, 1, o, q);
	ev = wait_event(RD_KAFKA_EVENT_DELETECONSUMERGROUPOFFSETS_RESULT);
	g = rd_kafka_DeleteConsumerGroupOffsets_result_groups(rd_kafka_event_DeleteConsumerGroupOffsets_result(ev), &n);
	assert_int_equal(n, 1);
	const rd_kafka_topic_partition_list_t *res = rd_kafka_group_result_partitions(g[0]);
	const rd_kafka_error_t *ge = rd_kafka_group_result_error(g[0]);
	rd_kafka_resp_err_t perr = res && res->cnt ? res->elems[0].err : RD_KAFKA_RESP_ERR_NO_ERROR;
	assert_true(perr == RD_KAFKA_RESP_ERR_GROUP_SUBSCRIBED_TO_TOPIC ||
		    (ge && rd_kafka_error_code(ge) == RD_KAFKA_RESP_ERR_GROUP_SUBSCRIBED_TO_TOPIC));
	assert_int_equal(sim_committed(sim, "g-stable", "t1", 0), 500);
	rd_kafka_event_destroy(ev);
	rd_kafka_DeleteConsumerGroupOffsets_destroy(req);
	rd_kafka_topic_partition_list_destroy(l);
	rd_kafka_AdminOptions_destroy(o);
}

static void test_request_counts(void **state)
{
	(void)state;
	uint64_t c[SIM_COUNT_KEYS + 1];
	sim_counts(sim, c, true);
	assert_true(c[18] >= 3); /* ApiVersions: at least one per broker connection */
	assert_true(c[15] >= 1); /* DescribeGroups */
	assert_int_equal(c[SIM_COUNT_KEYS], 0);
	sim_counts(sim, c, false);
	uint64_t total = 0;
	for (int i = 0; i <= SIM_COUNT_KEYS; i++)
		total += c[i];
	assert_true(total < 3); /* reset worked (a Metadata refresh may slip in) */
}

/* The "fixture" scenario seen through librdkafka: the same facts the kafka-python interop test checks, so
 * both clients are shown to get the same picture of the same cluster. */
static void test_fixture_same_picture(void **state)
{
	(void)state;
	char err[256];
	struct sim_options o = { .brokers = 3, .port = 0, .scenario = "fixture" };
	sim_cluster *fx = sim_new(&o, err, sizeof(err));
	if (!fx || sim_start(fx) < 0)
		fail_msg("fixture sim: %s", err);
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_conf_set(conf, "bootstrap.servers", sim_bootstrap(fx), err, sizeof(err));
	rd_kafka_t *saved_rk = rk;
	rd_kafka_queue_t *saved_q = q;
	rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof(err));
	assert_non_null(rk);
	q = rd_kafka_queue_new(rk);

	const char *groups[] = { "fx-stable" };
	rd_kafka_DescribeConsumerGroups(rk, groups, 1, NULL, q);
	rd_kafka_event_t *ev = wait_event(RD_KAFKA_EVENT_DESCRIBECONSUMERGROUPS_RESULT);
	size_t n;
	const rd_kafka_ConsumerGroupDescription_t **d =
		rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev), &n);
	assert_int_equal(n, 1);
	assert_int_equal(rd_kafka_ConsumerGroupDescription_state(d[0]), RD_KAFKA_CONSUMER_GROUP_STATE_STABLE);
	assert_int_equal(rd_kafka_ConsumerGroupDescription_member_count(d[0]), 2);
	const rd_kafka_MemberDescription_t *m = rd_kafka_ConsumerGroupDescription_member(d[0], 0);
	assert_string_equal(rd_kafka_MemberDescription_consumer_id(m), "fx-c1-member");
	assert_string_equal(rd_kafka_MemberDescription_client_id(m), "fx-c1");
	assert_string_equal(rd_kafka_MemberDescription_host(m), "/10.9.0.1");
	assert_int_equal(rd_kafka_MemberAssignment_partitions(rd_kafka_MemberDescription_assignment(m))->cnt, 2);
	rd_kafka_event_destroy(ev);

	rd_kafka_topic_partition_list_t *l = list_offsets("fx-empty", NULL);
	assert_int_equal(l->cnt, 2);
	assert_int_equal(l->elems[0].offset, 10);
	assert_memory_equal(l->elems[0].metadata, "m0", 2);
	assert_int_equal(l->elems[1].partition, 2);
	assert_int_equal(l->elems[1].offset, 20);
	rd_kafka_topic_partition_list_destroy(l);

	l = rd_kafka_topic_partition_list_new(4);
	rd_kafka_topic_partition_list_add(l, "fx-orders", 0)->offset = SIM_FIXTURE_BASE_TS;
	rd_kafka_topic_partition_list_add(l, "fx-orders", 1)->offset = SIM_FIXTURE_BASE_TS + 500500;
	rd_kafka_topic_partition_list_add(l, "fx-orders", 2)->offset = SIM_FIXTURE_BASE_TS + 10000000;
	rd_kafka_topic_partition_list_add(l, "fx-audit", 0)->offset = -1;
	assert_int_equal(rd_kafka_offsets_for_times(rk, l, WAIT_MS), RD_KAFKA_RESP_ERR_NO_ERROR);
	rd_kafka_topic_partition_list_sort(l, NULL, NULL);
	assert_string_equal(l->elems[0].topic, "fx-audit");
	assert_int_equal(l->elems[0].offset, 0);
	assert_int_equal(l->elems[1].offset, 100);
	assert_int_equal(l->elems[2].offset, 501);
	assert_int_equal(l->elems[3].offset, -1);
	rd_kafka_topic_partition_list_destroy(l);

	rd_kafka_queue_destroy(q);
	rd_kafka_destroy(rk);
	rk = saved_rk;
	q = saved_q;
	sim_free(fx);
}

static bool port_accepts(int port)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bool ok = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
	close(fd);
	return ok;
}

/* A stopped broker: its listener is gone; it comes back on the same port. */
static void test_broker_stop_start(void **state)
{
	(void)state;
	char err[200];
	int port = sim_broker_port(sim, 3);
	assert_int_equal(sim_broker_stop(sim, 3, err, sizeof(err)), 0);
	assert_false(port_accepts(port));
	assert_int_equal(sim_broker_start(sim, 3, err, sizeof(err)), 0);
	assert_true(port_accepts(port));
	assert_int_equal(sim_broker_port(sim, 3), port);
	/* Still fully usable afterwards. */
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(4);
	for (int p = 0; p < 4; p++)
		rd_kafka_topic_partition_list_add(l, "t1", p)->offset = -1;
	assert_int_equal(rd_kafka_offsets_for_times(rk, l, WAIT_MS), RD_KAFKA_RESP_ERR_NO_ERROR);
	for (int p = 0; p < 4; p++)
		assert_int_equal(l->elems[p].offset, 1000);
	rd_kafka_topic_partition_list_destroy(l);
	assert_int_equal(sim_broker_stop(sim, 9, err, sizeof(err)), -1);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_list_groups),       cmocka_unit_test(test_describe_groups),
	cmocka_unit_test(test_committed_all),     cmocka_unit_test(test_committed_explicit),
	cmocka_unit_test(test_offsets_for_times), cmocka_unit_test(test_admin_commit),
	cmocka_unit_test(test_delete_groups),     cmocka_unit_test(test_delete_offsets),
	cmocka_unit_test(test_request_counts),    cmocka_unit_test(test_fixture_same_picture),
	cmocka_unit_test(test_broker_stop_start),
};

LT_TEST_MAIN(setup, teardown)
