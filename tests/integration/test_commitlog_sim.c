/* test_commitlog_sim.c — the simulated cluster's DescribeConfigs through librdkafka 2.0.2's admin API,
 * and the __consumer_offsets reader against the sim: it learns offsets.retention.minutes, and says
 * plainly that the topic does not exist yet. */
#include <setjmp.h>
#include <stdarg.h>
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

#define WAIT_MS 15000

static sim_cluster *sim;
static rd_kafka_t *rk;
static rd_kafka_queue_t *q;

static int setup(void **state)
{
	(void)state;
	char err[256];
	struct sim_options o = { .brokers = 3, .port = 0, .scenario = "empty" };
	sim = sim_new(&o, err, sizeof err);
	if (!sim)
		fail_msg("sim_new: %s", err);
	if (sim_create_topic(sim, "t1", 2, err, sizeof err) < 0)
		fail_msg("create: %s", err);
	if (sim_start(sim) < 0)
		fail_msg("sim_start failed");
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	if (rd_kafka_conf_set(conf, "bootstrap.servers", sim_bootstrap(sim), err, sizeof err) != RD_KAFKA_CONF_OK)
		fail_msg("conf: %s", err);
	rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
	if (!rk)
		fail_msg("rd_kafka_new: %s", err);
	q = rd_kafka_queue_new(rk);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rd_kafka_queue_destroy(q);
	rd_kafka_destroy(rk);
	sim_free(sim);
	return 0;
}

/* Describes one resource; returns the result event (caller destroys) and its resource. */
static rd_kafka_event_t *describe(rd_kafka_ResourceType_t type, const char *name, const char *key,
				  const rd_kafka_ConfigResource_t **res)
{
	rd_kafka_ConfigResource_t *r = rd_kafka_ConfigResource_new(type, name);
	if (key)
		assert_int_equal(rd_kafka_ConfigResource_set_config(r, key, "x"), 0); /* names the key; the value is ignored */
	rd_kafka_DescribeConfigs(rk, &r, 1, NULL, q);
	rd_kafka_ConfigResource_destroy(r);
	rd_kafka_event_t *ev = rd_kafka_queue_poll(q, WAIT_MS);
	assert_non_null(ev);
	assert_int_equal(rd_kafka_event_type(ev), RD_KAFKA_EVENT_DESCRIBECONFIGS_RESULT);
	if (rd_kafka_event_error(ev))
		fail_msg("DescribeConfigs: %s", rd_kafka_event_error_string(ev));
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

static void sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static void reader_learns_retention(void **state)
{
	(void)state;
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	if (rd_kafka_conf_set(conf, "bootstrap.servers", sim_bootstrap(sim), err, sizeof err) != RD_KAFKA_CONF_OK)
		fail_msg("conf: %s", err);
	lt_commit_reader *r = commit_reader_start(conf, NULL, err, sizeof err);
	if (!r)
		fail_msg("commit_reader_start: %s", err);
	char why[256];
	for (int t = 0; t < WAIT_MS; t += 50) {
		if (commit_reader_state(r, why, sizeof why) == LT_READER_STARTING && strstr(why, "does not exist yet"))
			break;
		sleep_ms(50);
	}
	assert_int_equal(commit_reader_state(r, why, sizeof why), LT_READER_STARTING);
	assert_non_null(strstr(why, "__consumer_offsets does not exist yet"));
	commit_reader_stop(r);

	/* with the topic there, the reader asks the lowest broker id for the retention */
	if (sim_create_topic(sim, SIM_OFFSETS_TOPIC, SIM_OFFSETS_PARTITIONS, err, sizeof err) < 0)
		fail_msg("create: %s", err);
	conf = rd_kafka_conf_new();
	if (rd_kafka_conf_set(conf, "bootstrap.servers", sim_bootstrap(sim), err, sizeof err) != RD_KAFKA_CONF_OK)
		fail_msg("conf: %s", err);
	r = commit_reader_start(conf, NULL, err, sizeof err);
	if (!r)
		fail_msg("commit_reader_start: %s", err);
	char note[160];
	int64_t ret = -1;
	for (int t = 0; t < WAIT_MS && (ret = commit_reader_retention(r, note, sizeof note)) < 0; t += 50)
		sleep_ms(50);
	if (ret < 0)
		fail_msg("no retention: %s", note);
	assert_int_equal(ret, 10080LL * 60000);
	commit_reader_stop(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(broker_configs_serve_retention),
		cmocka_unit_test(topic_configs_and_errors),
		cmocka_unit_test(reader_learns_retention),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
