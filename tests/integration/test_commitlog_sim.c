/* test_commitlog_sim.c — the simulated cluster's DescribeConfigs through librdkafka 2.0.2's admin API,
 * and the __consumer_offsets reader against the sim: it learns offsets.retention.minutes, and says
 * plainly that the topic does not exist yet. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>
#include <librdkafka/rdkafka.h>

#include "kafka/commitreader.h"
#include "sim/offsets_log.h"
#include "sim/sim.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define WAIT_MS 15000

static sim_cluster *sim;
static rd_kafka_t *rk;
static rd_kafka_queue_t *q;

static int setup(void **state)
{
	(void)state;
	sim = test_sim_with_topic(3, "t1", 2, 0, 0, 0);
	rdk_admin_open(sim_bootstrap(sim), NULL, &rk, &q);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rdk_admin_close(rk, q);
	sim_free(sim);
	return 0;
}

/* Describes one resource; returns the result event (caller destroys) and its resource. */
static rd_kafka_event_t *describe(rd_kafka_ResourceType_t type, const char *name, const char *key,
				  const rd_kafka_ConfigResource_t **res)
{
	rd_kafka_ConfigResource_t *r = rd_kafka_ConfigResource_new(type, name);
	if (key)
		assert_int_equal(rd_kafka_ConfigResource_set_config(r, key, "x"),
				 0); /* names the key; the value is ignored */
	rd_kafka_DescribeConfigs(rk, &r, 1, NULL, q);
	rd_kafka_ConfigResource_destroy(r);
	rd_kafka_event_t *ev = rdk_event_wait(q, RD_KAFKA_EVENT_DESCRIBECONFIGS_RESULT, WAIT_MS);
	size_t n;
	const rd_kafka_ConfigResource_t **rs =
		rd_kafka_DescribeConfigs_result_resources(rd_kafka_event_DescribeConfigs_result(ev), &n);
	assert_int_equal(n, 1);
	*res = rs[0];
	return ev;
}

static const char *entry(const rd_kafka_ConfigResource_t *r, const char *name, rd_kafka_ConfigSource_t *src)
{
	size_t n;
	const rd_kafka_ConfigEntry_t **e = rd_kafka_ConfigResource_configs(r, &n);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(rd_kafka_ConfigEntry_name(e[i]), name) == 0) {
			if (src)
				*src = rd_kafka_ConfigEntry_source(e[i]);
			return rd_kafka_ConfigEntry_value(e[i]);
		}
	}
	return NULL;
}

static void broker_configs_serve_retention(void **state)
{
	(void)state;
	for (int id = 1; id <= 3; id++) {
		char name[8];
		snprintf(name, sizeof name, "%d", id);
		const rd_kafka_ConfigResource_t *r;
		rd_kafka_event_t *ev = describe(RD_KAFKA_RESOURCE_BROKER, name, NULL, &r);
		assert_int_equal(rd_kafka_ConfigResource_error(r), 0);
		rd_kafka_ConfigSource_t src;
		assert_string_equal(entry(r, "offsets.retention.minutes", &src), "10080");
		assert_int_equal(src, RD_KAFKA_CONFIG_SOURCE_DEFAULT_CONFIG);
		assert_string_equal(entry(r, "offsets.topic.num.partitions", NULL), "50");
		assert_string_equal(entry(r, "broker.id", NULL), name);
		rd_kafka_event_destroy(ev);
	}
	/* asking for one key returns only that key */
	const rd_kafka_ConfigResource_t *r;
	rd_kafka_event_t *ev = describe(RD_KAFKA_RESOURCE_BROKER, "2", "offsets.retention.minutes", &r);
	size_t n;
	rd_kafka_ConfigResource_configs(r, &n);
	assert_int_equal(n, 1);
	assert_string_equal(entry(r, "offsets.retention.minutes", NULL), "10080");
	rd_kafka_event_destroy(ev);
}

static void topic_configs_and_errors(void **state)
{
	(void)state;
	const rd_kafka_ConfigResource_t *r;
	rd_kafka_event_t *ev = describe(RD_KAFKA_RESOURCE_TOPIC, "t1", NULL, &r);
	assert_int_equal(rd_kafka_ConfigResource_error(r), 0);
	assert_string_equal(entry(r, "cleanup.policy", NULL), "delete");
	rd_kafka_event_destroy(ev);

	ev = describe(RD_KAFKA_RESOURCE_TOPIC, "nope", NULL, &r);
	assert_int_equal(rd_kafka_ConfigResource_error(r), RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART);
	assert_non_null(strstr(rd_kafka_ConfigResource_error_string(r), "nope"));
	rd_kafka_event_destroy(ev);
}

static int64_t now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A commit reader on the sim, started, or the test fails. */
static lt_commit_reader *reader_new(void)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	if (rd_kafka_conf_set(conf, "bootstrap.servers", sim_bootstrap(sim), err, sizeof err) != RD_KAFKA_CONF_OK)
		fail_msg("conf: %s", err);
	lt_commit_reader *r = commit_reader_start(conf, NULL, NULL, err, sizeof err);
	if (!r)
		fail_msg("commit_reader_start: %s", err);
	return r;
}

static void reader_learns_retention(void **state)
{
	(void)state;
	char err[256];
	lt_commit_reader *r = reader_new();
	char why[256];
	for (int t = 0; t < WAIT_MS; t += 50) {
		if (commit_reader_state(r, why, sizeof why) == LT_READER_STARTING && strstr(why, "does not exist yet"))
			break;
		test_sleep_ms(50);
	}
	assert_int_equal(commit_reader_state(r, why, sizeof why), LT_READER_STARTING);
	assert_non_null(strstr(why, "__consumer_offsets does not exist yet"));
	commit_reader_stop(r);

	/* with the topic there, the reader asks the lowest broker id for the retention */
	if (sim_create_topic(sim, SIM_OFFSETS_TOPIC, SIM_OFFSETS_PARTITIONS, err, sizeof err) < 0)
		fail_msg("create: %s", err);
	r = reader_new();
	char note[160];
	int64_t ret = -1;
	for (int t = 0; t < WAIT_MS && (ret = commit_reader_retention(r, note, sizeof note)) < 0; t += 50)
		test_sleep_ms(50);
	if (ret < 0)
		fail_msg("no retention: %s", note);
	assert_int_equal(ret, 10080LL * 60000);
	commit_reader_stop(r);
}

/* Waits until the reader's stream satisfies cond (bounded). */
static bool wait_stream(lt_commit_reader *r, bool (*cond)(const lt_commit_stream *, void *), void *arg)
{
	for (int t = 0; t < WAIT_MS; t += 50) {
		bool ok = cond(commit_reader_lock(r), arg);
		commit_reader_unlock(r);
		if (ok)
			return true;
		test_sleep_ms(50);
	}
	return false;
}

static bool has_commits(const lt_commit_stream *s, void *arg)
{
	return commit_stream_counters(s)->offset_commits >= *(uint64_t *)arg;
}

static bool group_gone(const lt_commit_stream *s, void *arg)
{
	lt_commit_group_stats gs;
	return commit_stream_group_stats(s, arg, 0, &gs) < 0;
}

static bool group_empty(const lt_commit_stream *s, void *arg)
{
	lt_commit_group_stats gs;
	return commit_stream_group_stats(s, arg, 0, &gs) == 0 && gs.empty;
}

/* A real librdkafka consumer joins group, commits offsets 3 then 5 on t1/0 and leaves. */
static void consumer_commits(const char *group)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	const char *kv[][2] = {
		{ "bootstrap.servers", sim_bootstrap(sim) },
		{ "group.id", group },
		{ "enable.auto.commit", "false" },
		{ "auto.offset.reset", "earliest" },
	};
	for (size_t i = 0; i < sizeof kv / sizeof kv[0]; i++)
		if (rd_kafka_conf_set(conf, kv[i][0], kv[i][1], err, sizeof err) != RD_KAFKA_CONF_OK)
			fail_msg("conf: %s", err);
	rd_kafka_t *c = rdk_consumer_subscribed(conf, "t1");
	rd_kafka_topic_partition_list_t *asg = NULL;
	for (int t = 0; t < 2 * WAIT_MS; t += 100) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(c, 100);
		if (m)
			rd_kafka_message_destroy(m);
		if (asg)
			rd_kafka_topic_partition_list_destroy(asg);
		asg = NULL;
		if (rd_kafka_assignment(c, &asg) == 0 && asg->cnt > 0)
			break;
	}
	assert_non_null(asg);
	assert_true(asg->cnt > 0);
	rd_kafka_topic_partition_list_destroy(asg);
	for (int64_t off = 3; off <= 5; off += 2) {
		rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
		rd_kafka_topic_partition_list_add(l, "t1", 0)->offset = off;
		assert_int_equal(rd_kafka_commit(c, l, 0), 0);
		rd_kafka_topic_partition_list_destroy(l);
	}
	rd_kafka_consumer_close(c);
	rd_kafka_destroy(c);
}

static void stream_matches_what_clients_did(void **state)
{
	(void)state;
	char err[256];
	/* admin-style commits through the control API: t1/0 moves 10..50, t1/1 repeats 7 */
	for (int64_t off = 10; off <= 50; off += 10)
		if (sim_commit(sim, "g-admin", "t1", 0, off, NULL, err, sizeof err) < 0)
			fail_msg("commit: %s", err);
	for (int i = 0; i < 3; i++)
		if (sim_commit(sim, "g-admin", "t1", 1, 7, "same", err, sizeof err) < 0)
			fail_msg("commit: %s", err);
	int64_t before = now_ms();

	lt_commit_reader *r = reader_new();
	uint64_t want = 8;
	if (!wait_stream(r, has_commits, &want))
		fail_msg("the reader never saw the 8 control commits");

	/* a real consumer group, while the reader follows the topic */
	consumer_commits("g-live");
	want = 10;
	if (!wait_stream(r, has_commits, &want))
		fail_msg("the reader never saw the consumer's commits");
	if (!wait_stream(r, group_empty, (void *)"g-live"))
		fail_msg("g-live never became Empty in the stream");
	char note[160];
	for (int t = 0; t < WAIT_MS && commit_reader_retention(r, note, sizeof note) < 0; t += 50)
		test_sleep_ms(50);
	assert_int_equal(commit_reader_retention(r, note, sizeof note), 10080LL * 60000);
	int64_t after = now_ms();

	const lt_commit_stream *s = commit_reader_lock(r);
	lt_commit_stats st;
	assert_int_equal(commit_stream_stats(s, "g-admin", "t1", 0, after, &st), 0);
	assert_int_equal(st.offset, 50);
	assert_int_equal(st.commits, 5);
	assert_true(st.last_commit_ms >= before - 60000 && st.last_commit_ms <= after);
	assert_true(st.has_expiry); /* a simple group: retention from the commit */
	assert_int_equal(st.expires_at_ms, st.last_commit_ms + 10080LL * 60000);
	assert_false(st.expiry_warn);
	assert_int_equal(commit_stream_stats(s, "g-admin", "t1", 1, after, &st), 0);
	assert_int_equal(st.offset, 7);
	assert_int_equal(st.same_offset_commits, 2);
	assert_false(st.moved_exact);

	assert_int_equal(commit_stream_stats(s, "g-live", "t1", 0, after, &st), 0);
	assert_int_equal(st.offset, 5);
	assert_int_equal(st.commits, 2);
	assert_true(st.moved_exact);
	lt_commit_group_stats gs;
	assert_int_equal(commit_stream_group_stats(s, "g-live", after, &gs), 0);
	assert_true(gs.has_metadata && gs.empty);
	assert_string_equal(gs.protocol_type, "consumer");
	assert_true(gs.generation >= 2); /* joined, then emptied: a new generation each time */
	assert_true(gs.state_ms >= before - 60000 && gs.state_ms <= after);
	assert_true(gs.has_expiry);
	assert_int_equal(gs.expires_at_ms, gs.state_ms + 10080LL * 60000);
	const lt_commit_counters *c = commit_stream_counters(s);
	assert_true(c->group_metadata >= 2); /* Stable after the join, Empty after the leave */
	assert_int_equal(c->malformed, 0);
	assert_int_equal(c->unknown_key + c->unknown_value, 0);
	commit_reader_unlock(r);

	/* DeleteGroups: tombstones for the offsets and the group */
	rd_kafka_DeleteGroup_t *dg = rd_kafka_DeleteGroup_new("g-admin");
	rd_kafka_DeleteGroups(rk, &dg, 1, NULL, q);
	rd_kafka_DeleteGroup_destroy(dg);
	rd_kafka_event_t *ev = rd_kafka_queue_poll(q, WAIT_MS);
	assert_non_null(ev);
	size_t n;
	const rd_kafka_group_result_t **gr =
		rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev), &n);
	assert_int_equal(n, 1);
	assert_null(rd_kafka_group_result_error(gr[0]));
	rd_kafka_event_destroy(ev);
	if (!wait_stream(r, group_gone, (void *)"g-admin"))
		fail_msg("g-admin is still in the stream after DeleteGroups");
	s = commit_reader_lock(r);
	assert_true(commit_stream_counters(s)->offset_tombstones >= 2);
	assert_true(commit_stream_counters(s)->group_tombstones >= 1);
	commit_reader_unlock(r);
	commit_reader_stop(r);

	/* as in Kafka, a group's coordinator leads its __consumer_offsets partition */
	const char *groups[] = { "g-live", "g-admin", "my-group", "polygenelubricants" };
	for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
		assert_int_equal(sim_coordinator(sim, groups[i]),
				 sim_leader(sim, SIM_OFFSETS_TOPIC, sim_offsets_partition(groups[i])));
}

struct part_ref {
	const char *group, *topic;
	int partition;
	bool expiry; /* the condition: a forecast (or, for part_expired, an expiry) is there or not */
};

static bool part_forecast(const lt_commit_stream *s, void *arg)
{
	const struct part_ref *p = arg;
	lt_commit_stats st;
	lt_commit_group_stats gs;
	return commit_stream_group_stats(s, p->group, 0, &gs) == 0 && gs.new_protocol &&
	       commit_stream_stats(s, p->group, p->topic, p->partition, 0, &st) == 0 && st.has_expiry == p->expiry;
}

static bool part_expired(const lt_commit_stream *s, void *arg)
{
	const struct part_ref *p = arg;
	lt_commit_expired ex;
	return commit_stream_expired(s, p->group, p->topic, p->partition, &ex) == 0;
}

/* A consumer-protocol (KIP-848) group, as Kafka 4.x writes it to __consumer_offsets (the group and member
 * records beside the commits): while a member subscribes to t1 its offset does not expire; once the member
 * left, the offset expires `retention` after its commit (not after the leave), and the tombstone the
 * coordinator writes then is read as that expiry, not as a delete. */
static void kip848_offsets_expire_from_their_commit(void **state)
{
	(void)state;
	char err[256], id[64], note[160];
	const char *topics[] = { "t1" };
	struct sim_member_spec spec = { .client_id = "kip-client", .topics = topics, .ntopics = 1 };
	lt_commit_reader *r = reader_new();
	for (int t = 0; t < WAIT_MS && commit_reader_retention(r, note, sizeof note) < 0; t += 50)
		test_sleep_ms(50);
	const int64_t retention = commit_reader_retention(r, note, sizeof note);
	assert_int_equal(retention, 10080LL * 60000);
	if (sim_add_consumer_member(sim, "g-kip", &spec, id, sizeof id, err, sizeof err) < 0)
		fail_msg("add member: %s", err);
	if (sim_commit(sim, "g-kip", "t1", 0, 4, NULL, err, sizeof err) < 0)
		fail_msg("commit: %s", err);
	struct part_ref p = { "g-kip", "t1", 0, false };
	if (!wait_stream(r, part_forecast, &p))
		fail_msg("the stream never saw g-kip as a consumer-protocol group keeping its subscribed offset");

	if (sim_remove_member(sim, "g-kip", id, err, sizeof err) < 0)
		fail_msg("remove member: %s", err);
	p.expiry = true;
	if (!wait_stream(r, part_forecast, &p))
		fail_msg("no forecast for g-kip's offset after its member left");
	const lt_commit_stream *s = commit_reader_lock(r);
	lt_commit_stats st;
	assert_int_equal(commit_stream_stats(s, "g-kip", "t1", 0, 0, &st), 0);
	const int64_t commit_ms = st.last_commit_ms, at = st.expires_at_ms;
	assert_int_equal(at, commit_ms + retention);
	assert_int_equal(commit_stream_counters(s)->malformed, 0);
	commit_reader_unlock(r);

	/* the broker's check after the retention: the tombstone, then the group's own (deleted, Empty) */
	sim_housekeeping_run(sim, at + 1000);
	if (!wait_stream(r, part_expired, &p))
		fail_msg("the stream did not take g-kip's tombstone for an expiry");
	s = commit_reader_lock(r);
	lt_commit_expired ex;
	assert_int_equal(commit_stream_expired(s, "g-kip", "t1", 0, &ex), 0);
	assert_int_equal(ex.offset, 4);
	assert_int_equal(ex.expires_at_ms, at);
	commit_reader_unlock(r);
	commit_reader_stop(r);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(broker_configs_serve_retention),
	cmocka_unit_test(topic_configs_and_errors),
	cmocka_unit_test(reader_learns_retention),
	cmocka_unit_test(stream_matches_what_clients_did),
	cmocka_unit_test(kip848_offsets_expire_from_their_commit),
};

LT_TEST_MAIN(setup, teardown)
