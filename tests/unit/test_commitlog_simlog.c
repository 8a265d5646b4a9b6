/* test_commitlog_simlog.c — the records the simulated cluster writes to __consumer_offsets
 * (src/sim/offsets_log.c), read back with the commitlog decoder (itself tested against hand-built
 * bytes): right partition, key and value versions Kafka writes, every field carried over. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "commitlog/record.h"
#include "sim/cluster.h"
#include "sim/offsets_log.h"
#include "util/xalloc.h"
#include "../lib/commitlog_fixtures.h"
#include "../lib/cmocka_main.h"

static char err[256];

static void decode(const struct sim_offsets_record *o, lt_commit_record *r)
{
	int rc = commit_record_decode(o->key.data, o->key.len, o->value_null ? NULL : o->value.data, o->value.len, r,
				      err, sizeof err);
	if (rc < 0)
		fail_msg("decode: %s", err);
}

static void set_str(char **dst, const char *s)
{
	free(*dst);
	*dst = s ? xstrdup(s) : NULL;
}

static void commit_record_as_kafka_writes_it(void **state)
{
	(void)state;
	struct sim_state *st = sim_state_new(3, 1);
	struct sim_group *g = sim_group_get_or_create(st, "my-group");
	sim_group_commit(g, "orders", 6, 4, 1234, 9, "m", 1, 1700000000123LL);
	struct sim_offsets_record o;
	assert_int_equal(
		sim_offsets_commit_record(g, "orders", 4, sim_group_committed(g, "orders", 6, 4), &o, err, sizeof err),
		0);
	assert_int_equal(o.partition, 12); /* Utils.abs("my-group".hashCode()) % 50 */
	assert_false(o.value_null);
	assert_int_equal(o.key.data[1], 1);   /* key version 1 */
	assert_int_equal(o.value.data[1], 3); /* value version 3 */
	lt_commit_record r;
	decode(&o, &r);
	fx_expect_offset_commit(&r, &(struct fx_offset_want){ .key_version = 1,
							      .value_version = 3,
							      .group = "my-group",
							      .topic = "orders",
							      .partition = 4,
							      .offset = 1234,
							      .leader_epoch = 9,
							      .metadata = "m",
							      .commit_ms = 1700000000123LL,
							      .expire_ms = -1 });
	commit_record_free(&r);
	sim_offsets_record_free(&o);

	/* no metadata: an empty string, as Kafka stores it */
	sim_group_commit(g, "orders", 6, 5, 1, -1, NULL, 0, 5);
	assert_int_equal(
		sim_offsets_commit_record(g, "orders", 5, sim_group_committed(g, "orders", 6, 5), &o, err, sizeof err),
		0);
	decode(&o, &r);
	assert_string_equal(r.metadata, "");
	assert_int_equal(r.leader_epoch, -1);
	commit_record_free(&r);
	sim_offsets_record_free(&o);

	assert_int_equal(sim_offsets_commit_tombstone("my-group", "orders", 4, &o, err, sizeof err), 0);
	assert_true(o.value_null);
	assert_int_equal(o.partition, 12);
	decode(&o, &r);
	assert_int_equal(r.type, LT_CR_OFFSET_DELETE);
	assert_string_equal(r.topic, "orders");
	commit_record_free(&r);
	sim_offsets_record_free(&o);
	sim_state_free(st);
}

static void group_records_carry_members(void **state)
{
	(void)state;
	struct sim_state *st = sim_state_new(1, 1);
	struct sim_group *g = sim_group_get_or_create(st, "g");
	set_str(&g->protocol_type, "consumer");
	set_str(&g->protocol_name, "range");
	g->generation_id = 4;
	g->state = SIM_GROUP_STABLE;
	struct sim_member *m = sim_member_new("c1-abc", "c1", "/10.0.0.1");
	m->session_timeout_ms = 45000;
	m->rebalance_timeout_ms = 300000;
	set_str(&m->group_instance_id, "i1");
	static const uint8_t rr[] = { 1, 2 }, range[] = { 3, 4, 5 }, asg[] = { 9 };
	sim_member_add_protocol(m, "roundrobin", rr, sizeof rr);
	sim_member_add_protocol(m, "range", range, sizeof range);
	sim_member_set_assignment(m, asg, sizeof asg);
	sim_group_add_member(g, m);
	set_str(&g->leader_id, "c1-abc");

	struct sim_offsets_record o;
	assert_int_equal(sim_offsets_group_record(g, 1700000000000LL, &o, err, sizeof err), 0);
	assert_int_equal(o.partition, commit_partition_for_group("g", 50));
	lt_commit_record r;
	decode(&o, &r);
	assert_int_equal(r.type, LT_CR_GROUP_METADATA);
	assert_int_equal(r.key_version, 2);
	assert_int_equal(r.value_version, 3);
	assert_string_equal(r.protocol_type, "consumer");
	assert_int_equal(r.generation, 4);
	assert_string_equal(r.protocol, "range");
	assert_string_equal(r.leader, "c1-abc");
	assert_int_equal(r.state_ms, 1700000000000LL);
	assert_int_equal(r.n_members, 1);
	/* the subscription of the chosen protocol, not the first offered */
	fx_expect_member(&r.members[0], &(struct fx_member_want){ .member_id = "c1-abc",
								  .group_instance_id = "i1",
								  .client_id = "c1",
								  .client_host = "/10.0.0.1",
								  .rebalance_timeout_ms = 300000,
								  .session_timeout_ms = 45000,
								  .subscription = range,
								  .subscription_len = sizeof range,
								  .assignment = asg,
								  .assignment_len = sizeof asg });
	commit_record_free(&r);
	sim_offsets_record_free(&o);

	/* the last member leaves: Empty, no protocol, no leader, no members */
	assert_int_equal(sim_group_remove_member(g, "c1-abc"), 0);
	set_str(&g->protocol_name, "");
	set_str(&g->leader_id, NULL);
	g->generation_id = 5;
	g->state = SIM_GROUP_EMPTY;
	assert_int_equal(sim_offsets_group_record(g, 1700000009000LL, &o, err, sizeof err), 0);
	decode(&o, &r);
	assert_string_equal(r.protocol_type, "consumer");
	assert_int_equal(r.generation, 5);
	assert_null(r.protocol);
	assert_null(r.leader);
	assert_int_equal(r.n_members, 0);
	assert_int_equal(r.state_ms, 1700000009000LL);
	commit_record_free(&r);
	sim_offsets_record_free(&o);

	assert_int_equal(sim_offsets_group_tombstone("g", &o, err, sizeof err), 0);
	assert_true(o.value_null);
	decode(&o, &r);
	assert_int_equal(r.type, LT_CR_GROUP_DELETE);
	assert_string_equal(r.group, "g");
	commit_record_free(&r);
	sim_offsets_record_free(&o);
	sim_state_free(st);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(commit_record_as_kafka_writes_it),
	cmocka_unit_test(group_records_carry_members),
};

LT_TEST_MAIN(NULL, NULL)
