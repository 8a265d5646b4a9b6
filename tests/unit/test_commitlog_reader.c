/* test_commitlog_reader.c — the __consumer_offsets reader against librdkafka's mock cluster
 * (loopback, ephemeral ports): records produced to the topic in Kafka's format, at the partition
 * Kafka would use, reach the commit stream; unknown and malformed records are counted and skipped;
 * new commits are followed live; a denied topic leaves the reader in DENIED saying why; the user's own
 * prefetch settings win over the reader's.
 * The mock cluster has no DescribeConfigs, so the retention stays unknown and says so. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include "commitlog/record.h"
#include "commitlog/stream.h"
#include "kafka/commitreader.h"
#include "../lib/commitlog_fixtures.h"
#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define WAIT_MS 20000
#define T0      1700000000000LL

typedef struct {
	rd_kafka_t *prod; /* owns the mock cluster */
	rd_kafka_mock_cluster_t *mc;
	char bootstrap[256];
} mock;

static void mock_start(mock *m, bool with_topic)
{
	char errstr[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	assert_int_equal(rd_kafka_conf_set(conf, "test.mock.num.brokers", "1", errstr, sizeof errstr),
			 RD_KAFKA_CONF_OK);
	assert_int_equal(rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof errstr), RD_KAFKA_CONF_OK);
	m->prod = rd_kafka_new(RD_KAFKA_PRODUCER, conf, errstr, sizeof errstr);
	assert_non_null(m->prod);
	m->mc = rd_kafka_handle_mock_cluster(m->prod);
	assert_non_null(m->mc);
	snprintf(m->bootstrap, sizeof m->bootstrap, "%s", rd_kafka_mock_cluster_bootstraps(m->mc));
	if (with_topic)
		assert_int_equal(rd_kafka_mock_topic_create(m->mc, LT_OFFSETS_TOPIC, 50, 1), 0);
}

static void mock_stop(mock *m)
{
	rd_kafka_destroy(m->prod);
}

static void produce_raw(mock *m, int32_t partition, const void *k, size_t kl, const void *v, size_t vl)
{
	rd_kafka_resp_err_t e =
		rd_kafka_producev(m->prod, RD_KAFKA_V_TOPIC(LT_OFFSETS_TOPIC), RD_KAFKA_V_PARTITION(partition),
				  RD_KAFKA_V_KEY((void *)k, kl), RD_KAFKA_V_VALUE((void *)v, vl),
				  RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END);
	assert_int_equal(e, 0);
}

/* Encodes and produces r at the partition Kafka would choose for its group. */
static void produce(mock *m, const lt_commit_record *r)
{
	lt_bytes k = { 0 }, v = { 0 };
	int is_null;
	char err[256];
	assert_int_equal(commit_record_encode(r, &k, &v, &is_null, err, sizeof err), 0);
	produce_raw(m, commit_partition_for_group(r->group, 50), k.data, k.len, is_null ? NULL : v.data, v.len);
	bytes_free(&k);
	bytes_free(&v);
}

static void produce_commit(mock *m, const char *group, const char *topic, int32_t p, int64_t off, int64_t ts)
{
	struct fx_commit c;
	produce(m, fx_offset_commit(&c, group, topic, p, off, ts));
}

static void flush(mock *m)
{
	assert_int_equal(rd_kafka_flush(m->prod, 10000), 0);
}

static lt_commit_reader *reader_for(mock *m)
{
	char errstr[256], err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	assert_int_equal(rd_kafka_conf_set(conf, "bootstrap.servers", m->bootstrap, errstr, sizeof errstr),
			 RD_KAFKA_CONF_OK);
	assert_int_equal(rd_kafka_conf_set(conf, "log_level", "0", errstr, sizeof errstr), RD_KAFKA_CONF_OK);
	lt_commit_reader *r = commit_reader_start(conf, NULL, NULL, err, sizeof err);
	if (!r)
		fail_msg("commit_reader_start: %s", err);
	return r;
}

static bool wait_state(lt_commit_reader *r, lt_reader_state want, char *why, size_t len)
{
	for (int t = 0; t < WAIT_MS; t += 50) {
		if (commit_reader_state(r, why, len) == want)
			return true;
		test_sleep_ms(50);
	}
	return false;
}

static uint64_t offset_commits(lt_commit_reader *r)
{
	uint64_t n = commit_stream_counters(commit_reader_lock(r))->offset_commits;
	commit_reader_unlock(r);
	return n;
}

static void reads_history_then_follows(void **state)
{
	(void)state;
	mock m;
	mock_start(&m, true);

	/* history: g1 commits t/0 at 10, 20, 30 (one a second); "other" commits once */
	for (int i = 1; i <= 3; i++)
		produce_commit(&m, "g1", "t", 0, i * 10, T0 + i * 1000);
	produce_commit(&m, "other", "x", 5, 7, T0);
	/* the hand-built fixtures: a v0 commit of g1/t/3 and g1 going Empty */
	int32_t pg1 = commit_partition_for_group("g1", 50);
	produce_raw(&m, pg1, fx_offset_key_v0, FX_LEN(fx_offset_key_v0), fx_offset_value_v0,
		    FX_LEN(fx_offset_value_v0));
	produce_raw(&m, pg1, fx_group_key, FX_LEN(fx_group_key), fx_group_value_v3_empty,
		    FX_LEN(fx_group_value_v3_empty));
	/* a KIP-848 record, an unknown value version, a truncated value: counted, skipped */
	static const uint8_t k3[] = { 0x00, 0x03, 0x00, 0x02, 'g', '1' };
	static const uint8_t v5[] = { 0x00, 0x05, 0x00 }; /* a value version not handled */
	produce_raw(&m, pg1, k3, sizeof k3, v5, sizeof v5);
	produce_raw(&m, pg1, fx_offset_key_v1, FX_LEN(fx_offset_key_v1), v5, sizeof v5);
	produce_raw(&m, pg1, fx_offset_key_v1, FX_LEN(fx_offset_key_v1), fx_offset_value_v3, 9);
	/* "gone" committed and then had its offset deleted */
	produce_commit(&m, "gone", "t", 0, 1, T0);
	char gone[] = "gone", tt[] = "t";
	lt_commit_record del = { .type = LT_CR_OFFSET_DELETE, .key_version = 1, .group = gone, .topic = tt };
	produce(&m, &del);
	flush(&m);

	lt_commit_reader *r = reader_for(&m);
	char why[256];
	if (!wait_state(r, LT_READER_LIVE, why, sizeof why))
		fail_msg("reader not live: %s", why);

	const lt_commit_stream *s = commit_reader_lock(r);
	fx_expect_counters(commit_stream_counters(s), &(lt_commit_counters){ .records = 11,
									     .offset_commits = 6,
									     .offset_tombstones = 1,
									     .group_metadata = 1,
									     .group_tombstones = 0,
									     .unknown_key = 1,
									     .unknown_value = 1,
									     .malformed = 1 });
	lt_commit_stats st;
	assert_int_equal(commit_stream_stats(s, "g1", "t", 0, T0 + 3000, &st), 0);
	assert_int_equal(st.offset, 30);
	assert_int_equal(st.commits, 3);
	assert_int_equal(st.last_commit_ms, T0 + 3000);
	assert_true(st.commits_per_min > 2.99 && st.commits_per_min < 3.01); /* 3 within the first minute */
	assert_int_equal(commit_stream_stats(s, "g1", "t", 3, T0, &st), 0);
	assert_int_equal(st.offset, 100);
	assert_int_equal(st.last_commit_ms, FX_COMMIT_MS);
	assert_int_equal(commit_stream_stats(s, "other", "x", 5, T0, &st), 0);
	assert_int_equal(st.offset, 7);
	assert_int_equal(commit_stream_stats(s, "gone", "t", 0, T0, &st), -1);
	lt_commit_group_stats gs;
	assert_int_equal(commit_stream_group_stats(s, "g1", T0, &gs), 0);
	assert_true(gs.empty);
	assert_int_equal(gs.state_ms, FX_STATE_MS);
	assert_false(gs.has_expiry); /* retention unknown: the mock has no DescribeConfigs */
	commit_reader_unlock(r);

	/* live: a new commit shows up */
	produce_commit(&m, "g1", "t", 0, 40, T0 + 4000);
	flush(&m);
	for (int t = 0; t < WAIT_MS && offset_commits(r) < 7; t += 50)
		test_sleep_ms(50);
	s = commit_reader_lock(r);
	assert_int_equal(commit_stream_stats(s, "g1", "t", 0, T0 + 4000, &st), 0);
	assert_int_equal(st.offset, 40);
	assert_int_equal(st.commits, 4);
	commit_reader_unlock(r);

	char note[160];
	assert_int_equal(commit_reader_retention(r, note, sizeof note), -1);
	assert_true(note[0] != '\0');
	commit_reader_stop(r);
	mock_stop(&m);
}

static void survives_a_broker_restart(void **state)
{
	(void)state;
	mock m;
	mock_start(&m, true);
	produce_commit(&m, "g", "t", 0, 1, T0);
	flush(&m);
	lt_commit_reader *r = reader_for(&m);
	char why[256];
	if (!wait_state(r, LT_READER_LIVE, why, sizeof why))
		fail_msg("reader not live: %s", why);
	assert_int_equal(rd_kafka_mock_broker_set_down(m.mc, 1), 0);
	test_sleep_ms(1500);
	assert_int_equal(rd_kafka_mock_broker_set_up(m.mc, 1), 0);
	produce_commit(&m, "g", "t", 0, 2, T0 + 1000);
	flush(&m);
	for (int t = 0; t < WAIT_MS && offset_commits(r) < 2; t += 50)
		test_sleep_ms(50);
	const lt_commit_stream *s = commit_reader_lock(r);
	lt_commit_stats st;
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, T0 + 1000, &st), 0);
	assert_int_equal(st.offset, 2);
	assert_int_equal(st.commits, 2);
	commit_reader_unlock(r);
	assert_int_equal(commit_reader_state(r, why, sizeof why), LT_READER_LIVE);
	commit_reader_stop(r);
	mock_stop(&m);
}

static void denied_says_so(void **state)
{
	(void)state;
	mock m;
	mock_start(&m, true);
	rd_kafka_mock_topic_set_error(m.mc, LT_OFFSETS_TOPIC, RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED);
	lt_commit_reader *r = reader_for(&m);
	char why[256];
	if (!wait_state(r, LT_READER_DENIED, why, sizeof why))
		fail_msg("reader not denied: %s", why);
	assert_non_null(strstr(why, "not authorized to read __consumer_offsets"));
	assert_non_null(strstr(why, "polling only"));
	assert_string_equal(reader_state_name(LT_READER_DENIED), "denied");
	commit_reader_stop(r);
	mock_stop(&m);
}

static void denied_at_fetch_says_so(void **state)
{
	(void)state;
	mock m;
	mock_start(&m, true);
	/* the metadata shows the topic, but fetching it is refused */
	rd_kafka_resp_err_t errs[64];
	for (size_t i = 0; i < 64; i++)
		errs[i] = RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED;
	rd_kafka_mock_push_request_errors_array(m.mc, 1 /* Fetch */, 64, errs);
	lt_commit_reader *r = reader_for(&m);
	char why[256];
	if (!wait_state(r, LT_READER_DENIED, why, sizeof why))
		fail_msg("reader not denied: %s", why);
	assert_non_null(strstr(why, "not authorized to read __consumer_offsets"));
	commit_reader_stop(r);
	mock_stop(&m);
}

static void conf_value(rd_kafka_conf_t *conf, const char *key, const char *want)
{
	char v[64];
	size_t n = sizeof v;
	assert_int_equal(rd_kafka_conf_get(conf, key, v, &n), RD_KAFKA_CONF_OK);
	assert_string_equal(v, want);
}

/* The reader's settings: its prefetch limits are defaults that the user's own properties (-X, the
 * configuration, --command-config) override; what it relies on (read_committed, no auto commit) is set
 * whatever the user said; --once's reader waits 10 ms for an empty fetch. */
static void reader_conf_keeps_the_users_tuning(void **state)
{
	(void)state;
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	assert_int_equal(commit_reader_conf(conf, NULL, false, err, sizeof err), 0);
	conf_value(conf, "queued.max.messages.kbytes", "2048");
	conf_value(conf, "fetch.message.max.bytes", "524288");
	conf_value(conf, "isolation.level", "read_committed");
	conf_value(conf, "fetch.wait.max.ms", "500"); /* librdkafka's default: the dashboard's reader */
	rd_kafka_conf_destroy(conf);

	struct lt_connection cc = { 0 };
	const char *user[][2] = { { "queued.max.messages.kbytes", "8192" },
				  { "isolation.level", "read_uncommitted" },
				  { "enable.auto.commit", "true" } };
	conf = rd_kafka_conf_new();
	for (size_t i = 0; i < 3; i++) { /* as client_conf_build applies the connection's properties */
		connection_set(&cc, user[i][0], strlen(user[i][0]), user[i][1]);
		assert_int_equal(rd_kafka_conf_set(conf, user[i][0], user[i][1], err, sizeof err), RD_KAFKA_CONF_OK);
	}
	assert_int_equal(commit_reader_conf(conf, &cc, true, err, sizeof err), 0);
	conf_value(conf, "queued.max.messages.kbytes", "8192"); /* the user's */
	conf_value(conf, "fetch.message.max.bytes", "524288");  /* not set by the user: the reader's */
	conf_value(conf, "isolation.level", "read_committed");  /* what the reader relies on */
	conf_value(conf, "enable.auto.commit", "false");
	conf_value(conf, "fetch.wait.max.ms", "10"); /* --once */
	rd_kafka_conf_destroy(conf);
	connection_free(&cc);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(reads_history_then_follows),
	cmocka_unit_test(survives_a_broker_restart),
	cmocka_unit_test(denied_says_so),
	cmocka_unit_test(denied_at_fetch_says_so),
	cmocka_unit_test(reader_conf_keeps_the_users_tuning),
};

LT_TEST_MAIN(NULL, NULL)
