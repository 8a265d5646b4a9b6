/* test_sim_fetch.c — the data plane of the simulated cluster with librdkafka: synthetic records (control
 * API) served as valid batches, produced and synthetic records in one log, retention and
 * OFFSET_OUT_OF_RANGE, Fetch held for MaxWaitTime when there is nothing to return, and Produce errors
 * (compressed batches refused, acks=0 answered with silence).
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

#define TS0     1600000000000LL
#define WAIT_MS 10000

static sim_cluster *sim;
static const char *bootstrap;

/* A consumer without a group, reading one partition from offset. */
static rd_kafka_t *reader(const char *topic, int partition, int64_t offset, const char *reset, const char *wait_ms)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rdk_conf_set(conf, "bootstrap.servers", bootstrap);
	rdk_conf_set(conf, "group.id", "unused-no-subscribe");
	rdk_conf_set(conf, "enable.auto.commit", "false");
	rdk_conf_set(conf, "auto.offset.reset", reset);
	rdk_conf_set(conf, "fetch.wait.max.ms", wait_ms);
	rdk_conf_set(conf, "enable.partition.eof", "true");
	rdk_conf_set(conf, "check.crcs", "true"); /* librdkafka verifies our CRC-32C of every batch */
	rdk_conf_set(conf, "log_level", "3");
	rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, err, sizeof err);
	assert_non_null(rk);
	rd_kafka_poll_set_consumer(rk);
	rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new(1);
	rd_kafka_topic_partition_list_add(l, topic, partition)->offset = offset;
	assert_int_equal(rd_kafka_assign(rk, l), RD_KAFKA_RESP_ERR_NO_ERROR);
	rd_kafka_topic_partition_list_destroy(l);
	return rk;
}

/* What the checks look at, copied out of a message. */
struct msg {
	int64_t offset;
	int64_t ts;
	rd_kafka_timestamp_type_t ts_type;
	bool has_key;
	char value[64];
	size_t len;
};

struct got {
	int n;
	int64_t first, last;
	rd_kafka_resp_err_t err; /* first consumer error (not EOF) */
	bool eof;
};

/* Reads until `want` messages (want 0: until end of partition), an error, or the deadline; calls check on
 * each message. */
static void drain(rd_kafka_t *rk, int want, struct got *g, void (*check)(const struct msg *m))
{
	memset(g, 0, sizeof *g);
	g->first = g->last = -1;
	for (int64_t end = test_mono_ms() + WAIT_MS;
	     test_mono_ms() < end && !g->err && (want ? g->n < want : !g->eof);) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
		if (!m)
			continue;
		if (m->err == RD_KAFKA_RESP_ERR__PARTITION_EOF) {
			g->eof = true;
		} else if (m->err) {
			g->err = m->err;
		} else {
			/* checks run on a copy: a failed assertion must not leave a message outstanding (closing
			 * the consumer would wait for it) */
			rd_kafka_timestamp_type_t type;
			struct msg c = { m->offset, rd_kafka_message_timestamp(m, &type), type, m->key != NULL, "", 0 };
			c.len = m->len < sizeof c.value ? m->len : sizeof c.value - 1;
			memcpy(c.value, m->payload, c.len);
			rd_kafka_message_destroy(m);
			if (g->first < 0)
				g->first = c.offset;
			else
				assert_true(c.offset == g->last + 1);
			g->last = c.offset;
			g->n++;
			if (check)
				check(&c);
			continue;
		}
		rd_kafka_message_destroy(m);
	}
}

static void check_synthetic(const struct msg *m)
{
	char want[32];
	snprintf(want, sizeof want, "sim-%" PRId64, m->offset);
	assert_string_equal(m->value, want);
	assert_false(m->has_key);
	assert_true(m->ts == TS0 + m->offset * 10);
	assert_int_equal(m->ts_type, RD_KAFKA_TIMESTAMP_CREATE_TIME);
}

/* Reads want messages of partition 0 of topic from offset (with auto.offset.reset=reset) into g, each one
 * through check when there is one; the reader is gone when it returns. */
static void read_from(const char *topic, int64_t offset, const char *reset, int want, struct got *g,
		      void (*check)(const struct msg *m))
{
	rd_kafka_t *rk = reader(topic, 0, offset, reset, "100");
	drain(rk, want, g, check);
	rd_kafka_destroy(rk);
}

/* 1200 records appended through the control API come back as valid batches (more than one: a synthetic
 * batch holds at most 500), with their timestamps. */
static void synthetic_records_served(void **state)
{
	(void)state;
	char err[256];
	assert_int_equal(sim_create_topic(sim, "synth", 1, err, sizeof err), 0);
	assert_int_equal(sim_append(sim, "synth", 0, 1200, TS0, 10, err, sizeof err), 0);
	struct got g;
	read_from("synth", RD_KAFKA_OFFSET_BEGINNING, "earliest", 1200, &g, check_synthetic);
	assert_int_equal(g.err, 0);
	assert_int_equal(g.n, 1200);
	assert_int_equal(g.first, 0);
	assert_int_equal(g.last, 1199);

	/* from the middle of a synthetic range */
	read_from("synth", 777, "earliest", 10, &g, check_synthetic);
	assert_int_equal(g.first, 777);
}

static void check_mixed(const struct msg *m)
{
	if (m->offset < 100 || m->offset >= 110) {
		assert_true(m->ts == TS0 + m->offset * 1000);
	} else {
		char want[32];
		snprintf(want, sizeof want, "real-%" PRId64, m->offset);
		assert_string_equal(m->value, want);
		assert_true(m->ts == TS0 + 5000000 + m->offset);
	}
}

/* Synthetic, then produced, then synthetic again: one log, read straight through. */
static void produced_and_synthetic_in_one_log(void **state)
{
	(void)state;
	char err[256];
	assert_int_equal(sim_create_topic(sim, "mixed", 1, err, sizeof err), 0);
	assert_int_equal(sim_append(sim, "mixed", 0, 100, TS0, 1000, err, sizeof err), 0);

	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rdk_conf_set(conf, "bootstrap.servers", bootstrap);
	rdk_conf_set(conf, "linger.ms", "0");
	rd_kafka_t *p = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
	assert_non_null(p);
	for (int64_t off = 100; off < 110; off++) {
		char v[32];
		int n = snprintf(v, sizeof v, "real-%" PRId64, off);
		assert_int_equal(rd_kafka_producev(p, RD_KAFKA_V_TOPIC("mixed"), RD_KAFKA_V_PARTITION(0),
						   RD_KAFKA_V_VALUE(v, (size_t)n),
						   RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY),
						   RD_KAFKA_V_TIMESTAMP(TS0 + 5000000 + off), RD_KAFKA_V_END),
				 0);
	}
	assert_int_equal(rd_kafka_flush(p, WAIT_MS), 0);
	rd_kafka_destroy(p);
	assert_int_equal(sim_append(sim, "mixed", 0, 50, TS0 + 110 * 1000, 1000, err, sizeof err), 0);

	struct got g;
	read_from("mixed", RD_KAFKA_OFFSET_BEGINNING, "earliest", 160, &g, check_mixed);
	assert_int_equal(g.n, 160);
	assert_int_equal(g.last, 159);
	/* starting inside the produced batch: the whole batch comes, the client skips what it did not ask for */
	read_from("mixed", 105, "earliest", 20, &g, check_mixed);
	assert_int_equal(g.first, 105);
	assert_int_equal(g.n, 20);
}

/* Below the log start (retention) or past the log end: OFFSET_OUT_OF_RANGE, which the client resolves
 * with auto.offset.reset — or reports, when that is "error". */
static void offset_out_of_range(void **state)
{
	(void)state;
	char err[256];
	assert_int_equal(sim_set_log_start(sim, "synth", 0, 700, err, sizeof err), 0);
	struct got g;
	read_from("synth", 100, "earliest", 5, &g, check_synthetic);
	assert_int_equal(g.first, 700);

	read_from("synth", 100, "error", 1, &g, NULL);
	assert_int_equal(g.n, 0);
	assert_int_equal(g.err, RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET);

	read_from("synth", 5000, "error", 1, &g, NULL);
	assert_int_equal(g.n, 0);
	assert_int_equal(g.err, RD_KAFKA_RESP_ERR__AUTO_OFFSET_RESET);

	/* the log end itself is a valid position: nothing yet, no error */
	rd_kafka_t *rk = reader("synth", 0, 1200, "error", "100");
	for (int64_t end = test_mono_ms() + 1000; test_mono_ms() < end;) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
		if (m) {
			assert_int_equal(m->err, RD_KAFKA_RESP_ERR__PARTITION_EOF);
			rd_kafka_message_destroy(m);
		}
	}
	rd_kafka_destroy(rk);
}

/* A consumer at the log end: every Fetch is held for fetch.wait.max.ms instead of being answered empty at
 * once (which would make the client spin). An append answers the held Fetch with the new record. */
static void empty_fetch_is_held(void **state)
{
	(void)state;
	char err[256];
	uint64_t counts[SIM_COUNT_KEYS + 1];
	rd_kafka_t *rk = reader("synth", 0, RD_KAFKA_OFFSET_END, "latest", "400");
	struct got g;
	drain(rk, 0, &g, NULL);
	assert_true(g.eof);
	sim_counts(sim, counts, true);
	int64_t t = test_mono_ms();
	while (test_mono_ms() < t + 2000) {
		rd_kafka_message_t *m = rd_kafka_consumer_poll(rk, 100);
		if (m)
			rd_kafka_message_destroy(m);
	}
	sim_counts(sim, counts, false);
	print_message("# %" PRIu64 " Fetch requests in %" PRId64 " ms at the log end (wait 400 ms)\n", counts[1],
		      test_mono_ms() - t);
	assert_true(counts[1] >= 1);
	assert_true(counts[1] <= 12); /* about 2000/400 + a few; answering at once would be thousands */

	assert_int_equal(sim_append(sim, "synth", 0, 1, TS0 + 1200 * 10, 0, err, sizeof err), 0);
	drain(rk, 1, &g, check_synthetic);
	assert_int_equal(g.n, 1);
	assert_int_equal(g.first, 1200);
	rd_kafka_destroy(rk);
}

static rd_kafka_resp_err_t dr_err;
static int dr_count;

static void on_delivery(rd_kafka_t *rk, const rd_kafka_message_t *m, void *opaque)
{
	(void)rk;
	(void)opaque;
	dr_count++;
	if (m->err && !dr_err)
		dr_err = m->err;
}

static rd_kafka_t *producer(const char *acks, const char *codec)
{
	char err[256];
	rd_kafka_conf_t *conf = rd_kafka_conf_new();
	rdk_conf_set(conf, "bootstrap.servers", bootstrap);
	rdk_conf_set(conf, "acks", acks);
	rdk_conf_set(conf, "compression.codec", codec);
	rdk_conf_set(conf, "message.send.max.retries", "0");
	rdk_conf_set(conf, "log_level", "2");
	rd_kafka_conf_set_dr_msg_cb(conf, on_delivery);
	rd_kafka_t *p = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
	assert_non_null(p);
	return p;
}

static void produce_n(rd_kafka_t *p, const char *topic, int n)
{
	char value[1000]; /* compressible: librdkafka sends uncompressed what compression does not shrink */
	memset(value, 'v', sizeof value);
	for (int i = 0; i < n; i++)
		assert_int_equal(rd_kafka_producev(p, RD_KAFKA_V_TOPIC(topic), RD_KAFKA_V_PARTITION(0),
						   RD_KAFKA_V_VALUE(value, sizeof value),
						   RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_END),
				 0);
	rd_kafka_flush(p, WAIT_MS);
}

static void produce_errors(void **state)
{
	(void)state;
	char err[256];
	int64_t ls, le;
	assert_int_equal(sim_create_topic(sim, "prod", 1, err, sizeof err), 0);

	/* compressed batches are refused whole; nothing is appended */
	rd_kafka_t *p = producer("all", "gzip");
	dr_err = 0;
	dr_count = 0;
	produce_n(p, "prod", 5);
	assert_int_equal(dr_count, 5);
	assert_int_equal(dr_err, RD_KAFKA_RESP_ERR_UNSUPPORTED_COMPRESSION_TYPE);
	rd_kafka_destroy(p);
	assert_int_equal(sim_get_offsets(sim, "prod", 0, &ls, &le, err, sizeof err), 0);
	assert_int_equal(le, 0);

	/* acks=0: no answer is sent, the records are appended, and the connection keeps working */
	p = producer("0", "none");
	dr_err = 0;
	produce_n(p, "prod", 7);
	produce_n(p, "prod", 3);
	assert_int_equal(dr_err, 0);
	for (int64_t end = test_mono_ms() + WAIT_MS; test_mono_ms() < end && le < 10;)
		assert_int_equal(sim_get_offsets(sim, "prod", 0, &ls, &le, err, sizeof err), 0);
	assert_int_equal(le, 10);
	const struct rd_kafka_metadata *md;
	assert_int_equal(rd_kafka_metadata(p, 1, NULL, &md, WAIT_MS), 0);
	rd_kafka_metadata_destroy(md);
	rd_kafka_destroy(p);
}

static int setup(void **state)
{
	sim = test_sim_start(2, NULL);
	bootstrap = sim_bootstrap(sim);
	*state = sim;
	return 0;
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(synthetic_records_served), cmocka_unit_test(produced_and_synthetic_in_one_log),
	cmocka_unit_test(offset_out_of_range),      cmocka_unit_test(empty_fetch_is_held),
	cmocka_unit_test(produce_errors),
};

LT_TEST_MAIN(setup, test_sim_teardown)
