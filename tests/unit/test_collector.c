/* test_collector.c — the collector's lifecycle against librdkafka's mock cluster: handle creation
 * errors, a synchronous refresh, the background thread publishing and waking, and a clean join
 * while the brokers are down. (The mock has no ListGroups/DescribeGroups, so groups are covered by
 * the integration tests against lagtop-sim.) */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>

#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>

#include "kafka/collector.h"
#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

/* librdkafka 2.0.2 leaks one 176-byte allocation per handle when ListConsumerGroups meets a broker
 * without ListGroups (the mock's "required feature not supported" path). Not ours, and only against
 * the mock: suppress it for this test program alone. A librdkafka linked statically (the bundled one) has
 * no librdkafka.so to name: there the leak is the handle's op queue that a broker without
 * ConsumerGroupDescribe leaves referenced (src/util/xalloc.c says why), named by its constructor. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:librdkafka.so\nleak:rd_kafka_q_new0\n";
}

struct mock {
	rd_kafka_t *rk;
	rd_kafka_mock_cluster_t *mc;
	const char *bootstrap;
};

static int mock_setup(void **state)
{
	static struct mock m;
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rd_kafka_conf_set(conf, "log_level", "0", err, sizeof err);
	m.rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
	assert_non_null(m.rk);
	m.mc = rd_kafka_mock_cluster_new(m.rk, 3);
	assert_non_null(m.mc);
	m.bootstrap = rd_kafka_mock_cluster_bootstraps(m.mc);
	assert_int_equal(rd_kafka_mock_topic_create(m.mc, "t", 4, 1), 0);
	*state = &m;
	return 0;
}

static int mock_teardown(void **state)
{
	struct mock *m = *state;
	rd_kafka_mock_cluster_destroy(m->mc);
	rd_kafka_destroy(m->rk);
	return 0;
}

/* The connection the tests' collectors use (a view: nothing here is freed). */
static struct lt_connection conn;

static void conf_for(struct lt_collector_conf *c, const char *bootstrap)
{
	memset(c, 0, sizeof *c);
	conn = (struct lt_connection){ .name = (char *)"mock", .bootstrap = (char *)bootstrap };
	c->conn = &conn;
	c->interval_ms = 200;
	c->timeout_ms = 3000;
	model_params_default(&c->model);
}

/* A collector on the mock cluster with conf_for's settings and timeout_ms, or the test fails. */
static lt_collector *mock_collector(const struct mock *m, int timeout_ms)
{
	struct lt_collector_conf c;
	conf_for(&c, m->bootstrap);
	c.timeout_ms = timeout_ms;
	char err[512] = "";
	lt_collector *col = collector_new(&c, err, sizeof err);
	if (!col)
		fail_msg("collector_new: %s", err);
	return col;
}

static void bad_property_names_the_key(void **state)
{
	(void)state;
	struct lt_collector_conf c;
	char *k[] = { (char *)"socket.timeout.ms", (char *)"no.such.thing" }, *v[] = { (char *)"5000", (char *)"1" };
	conf_for(&c, "127.0.0.1:1");
	conn.n_props = 2, conn.prop_keys = k, conn.prop_values = v;
	char err[256] = "";
	assert_null(collector_new(&c, err, sizeof err));
	assert_non_null(strstr(err, "'no.such.thing'"));

	char *sk[] = { (char *)"ssl.key.password", (char *)"security.protocol" };
	char *sv[] = { (char *)"hunter2", (char *)"nonsense" };
	conn.prop_keys = sk, conn.prop_values = sv;
	assert_null(collector_new(&c, err, sizeof err));
	assert_non_null(strstr(err, "'security.protocol'"));
	assert_null(strstr(err, "hunter2"));
}

static void bad_regex_names_the_regex(void **state)
{
	(void)state;
	struct lt_collector_conf c;
	const char *re[] = { "ok.*", "(unclosed" };
	conf_for(&c, "127.0.0.1:1");
	c.n_group_regex = 2, c.group_regex = re;
	char err[256] = "";
	assert_null(collector_new(&c, err, sizeof err));
	assert_non_null(strstr(err, "'(unclosed'"));
}

static void unreachable_refresh_fails_with_one_line(void **state)
{
	(void)state;
	struct lt_collector_conf c;
	conf_for(&c, "127.0.0.1:1"); /* nothing listens on port 1 */
	c.timeout_ms = 1000;
	char err[512] = "";
	lt_collector *col = collector_new(&c, err, sizeof err);
	assert_non_null(col);
	lt_snapshot *s = (lt_snapshot *)1;
	assert_int_equal(collector_refresh_once(col, &s, err, sizeof err), -1);
	assert_null(s);
	assert_non_null(strstr(err, "cannot reach the cluster"));
	assert_null(strchr(err, '\n'));
	collector_free(col);
}

static void refresh_once_reads_brokers(void **state)
{
	struct mock *m = *state;
	char err[512] = "";
	lt_collector *col = mock_collector(m, 3000);
	lt_snapshot *s = NULL;
	assert_int_equal(collector_refresh_once(col, &s, err, sizeof err), 0);
	assert_non_null(s);
	assert_int_equal(s->brokers_up, 3);
	assert_int_equal(s->brokers_total, 3);
	assert_int_equal(s->seq, 1);
	assert_string_equal(s->cluster, "mock");
	assert_true(s->duration_ms >= 0);
	snapshot_unref(s);
	collector_free(col);
}

static void thread_publishes_and_wakes(void **state)
{
	struct mock *m = *state;
	char err[512] = "";
	lt_collector *col = mock_collector(m, 3000);
	assert_null(collector_latest(col));
	assert_false(test_fd_readable(collector_wake_fd(col), 0));
	assert_int_equal(collector_start(col, err, sizeof err), 0);

	assert_true(test_fd_readable(collector_wake_fd(col), 10000));
	collector_ack(col);
	lt_snapshot *a = collector_latest(col);
	assert_non_null(a);
	assert_int_equal(a->brokers_up, 3);

	/* next one after the interval, with a higher sequence number */
	assert_true(test_fd_readable(collector_wake_fd(col), 10000));
	collector_ack(col);
	lt_snapshot *b = collector_latest(col);
	assert_true(b->seq > a->seq);
	assert_true(collector_refresh_started_ms(col) > 0);

	/* paused: a refresh_now still runs one */
	collector_set_paused(col, true);
	collector_ack(col);
	collector_refresh_now(col);
	assert_true(test_fd_readable(collector_wake_fd(col), 10000));
	snapshot_unref(a);
	snapshot_unref(b);
	collector_free(col);
}

static void free_joins_while_brokers_are_down(void **state)
{
	struct mock *m = *state;
	char err[512] = "";
	lt_collector *col = mock_collector(m, 2000);
	assert_int_equal(collector_start(col, err, sizeof err), 0);
	assert_true(test_fd_readable(collector_wake_fd(col), 10000));
	collector_ack(col);

	for (int b = 1; b <= 3; b++)
		rd_kafka_mock_broker_set_down(m->mc, b);
	/* a refresh against the dead cluster is still published, with an error */
	assert_true(test_fd_readable(collector_wake_fd(col), 10000));
	collector_ack(col);
	lt_snapshot *s = collector_latest(col);
	assert_non_null(s);
	snapshot_unref(s);
	/* the thread may be in the middle of a refresh against dead brokers: the join still ends */
	collector_refresh_now(col);
	collector_free(col);
	for (int b = 1; b <= 3; b++)
		rd_kafka_mock_broker_set_up(m->mc, b);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(bad_property_names_the_key),
	cmocka_unit_test(bad_regex_names_the_regex),
	cmocka_unit_test(unreachable_refresh_fails_with_one_line),
	cmocka_unit_test(refresh_once_reads_brokers),
	cmocka_unit_test(thread_publishes_and_wakes),
	cmocka_unit_test(free_joins_while_brokers_are_down),
};

LT_TEST_MAIN(mock_setup, mock_teardown)
