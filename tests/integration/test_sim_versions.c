/* test_sim_versions.c — which API versions the simulated cluster serves, as Kafka 4.x (the default), as
 * Kafka 3.9 (--kafka-version 3.9) and as 3.6 (before KIP-848), byte by byte: the ApiVersions ranges (Produce listed
 * from v0 in 4.x, KAFKA-18659), the versions KIP-896 removed closing the connection like any unserved version,
 * DescribeGroups v0–v6 on a classic, a consumer-protocol and an unknown group, and ListGroups v0–v5
 * with the states and types filters over both group types. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

#define K_PRODUCE          0
#define K_FETCH            1
#define K_LIST_OFFSETS     2
#define K_OFFSET_COMMIT    8
#define K_OFFSET_FETCH     9
#define K_JOIN_GROUP       11
#define K_DESCRIBE_GROUPS  15
#define K_LIST_GROUPS      16
#define K_API_VERSIONS     18
#define K_CREATE_TOPICS    19
#define K_DESCRIBE_CONFIGS 32
#define K_CGD              69

static sim_cluster *sim;
static char err[256];

static sim_cluster *fixture_version(int kafka_major, int kafka_minor)
{
	struct sim_options o = {
		.brokers = 3, .port = 0, .scenario = "fixture", .kafka_major = kafka_major, .kafka_minor = kafka_minor
	};
	sim_cluster *c = sim_new(&o, err, sizeof err);
	if (!c || sim_start(c) < 0)
		fail_msg("sim: %s", err);
	return c;
}

static sim_cluster *fixture(int kafka_major)
{
	return fixture_version(kafka_major, 0);
}

static int setup(void **state)
{
	sim = fixture(0);
	/* Two more consumer-protocol groups, in the states only they have. */
	static const int32_t p0[] = { 0 };
	struct sim_member_assignment a = { "fx-orders", p0, 1 };
	struct sim_member_spec spec = { .member_id = "v-m", .client_id = "v-c", .assignment = &a, .nassignment = 1 };
	char id[64];
	if (sim_add_consumer_member(sim, "cg-assigning", &spec, id, sizeof id, err, sizeof err) < 0 ||
	    sim_add_consumer_member(sim, "cg-reconciling", &spec, id, sizeof id, err, sizeof err) < 0 ||
	    sim_set_group_state(sim, "cg-assigning", "Assigning", err, sizeof err) < 0 ||
	    sim_set_group_state(sim, "cg-reconciling", "Reconciling", err, sizeof err) < 0 ||
	    sim_add_member(sim, "cg-dead", &spec, id, sizeof id, err, sizeof err) < 0 ||
	    sim_set_group_state(sim, "cg-dead", "Dead", err, sizeof err) < 0)
		fail_msg("setup: %s", err);
	*state = sim;
	return 0;
}

/* ---- ApiVersions ---- */

struct range {
	int16_t min, max;
	bool listed;
};

/* ApiVersions v3 of cluster c: the listed range of every key below 100. */
static void api_versions(sim_cluster *c, struct range out[100])
{
	memset(out, 0, 100 * sizeof(*out));
	struct raw_conn r = raw_connect(c, 1);
	struct wire_buf b, body;
	struct wire_rd rd;
	wire_buf_init(&b);
	wire_put_str(&b, "test", true);
	wire_put_str(&b, "1", true);
	wire_put_tags(&b, true);
	raw_send(&r, K_API_VERSIONS, 3, true, &b);
	raw_recv(&r, false, &body, &rd); /* ApiVersions answers without header tags, even flexibly */
	wire_buf_free(&b);
	assert_int_equal(wire_i16(&rd), 0);
	int32_t n = wire_array(&rd, true, 6);
	for (int32_t i = 0; i < n; i++) {
		int16_t key = wire_i16(&rd), min = wire_i16(&rd), max = wire_i16(&rd);
		wire_tags_skip(&rd, true);
		assert_true(key >= 0 && key < 100);
		out[key] = (struct range){ min, max, true };
	}
	(void)wire_i32(&rd);
	wire_tags_skip(&rd, true);
	raw_end(&rd, &body);
	raw_close(&r);
}

static void expect_range(const struct range *r, int key, int min, int max)
{
	if (!r[key].listed || r[key].min != min || r[key].max != max)
		fail_msg("api key %d: listed %d, v%d-%d; want v%d-%d", key, r[key].listed, r[key].min, r[key].max, min,
			 max);
}

/* A well-formed request body of the old versions KIP-896 removed (and a few too-new ones), so that a
 * closed connection can only mean "version not served", never "malformed". */
static void old_body(int16_t key, int16_t ver, struct wire_buf *b)
{
	wire_buf_init(b);
	bool flex = (key == K_DESCRIBE_GROUPS && ver >= 5) || (key == K_LIST_GROUPS && ver >= 3) || key == K_CGD;
	switch (key) {
	case K_PRODUCE: /* (v3: transactional id), acks, timeout, no topics */
		if (ver >= 3)
			wire_put_str(b, NULL, false);
		wire_put_i16(b, 1);
		wire_put_i32(b, 1000);
		wire_put_array(b, 0, false);
		break;
	case K_FETCH: /* replica, max wait, min bytes, max bytes (v3), isolation (v4), no topics */
		wire_put_i32(b, -1);
		wire_put_i32(b, 0);
		wire_put_i32(b, 0);
		if (ver >= 3)
			wire_put_i32(b, 1 << 20);
		if (ver >= 4)
			wire_put_i8(b, 0);
		wire_put_array(b, 0, false);
		break;
	case K_LIST_OFFSETS: /* replica, no topics */
		wire_put_i32(b, -1);
		wire_put_array(b, 0, false);
		break;
	case K_OFFSET_FETCH: /* group, one partition */
		wire_put_str(b, "fx-empty", false);
		wire_put_array(b, 1, false);
		wire_put_str(b, "fx-orders", false);
		wire_put_array(b, 1, false);
		wire_put_i32(b, 0);
		break;
	case K_OFFSET_COMMIT: /* group, (v1+: generation, member), one partition (v1: its timestamp) as it is */
		wire_put_str(b, "fx-empty", false);
		if (ver >= 1) {
			wire_put_i32(b, -1);
			wire_put_str(b, "", false);
		}
		if (ver >= 2)
			wire_put_i64(b, -1); /* retention (v2–v4) */
		wire_put_array(b, 1, false);
		wire_put_str(b, "fx-orders", false);
		wire_put_array(b, 1, false);
		wire_put_i32(b, 0);
		wire_put_i64(b, 10);
		if (ver == 1)
			wire_put_i64(b, -1);
		wire_put_str(b, "m0", false);
		break;
	case K_CREATE_TOPICS: /* no topics, timeout, (v1) validate only */
		wire_put_array(b, 0, false);
		wire_put_i32(b, 1000);
		if (ver >= 1)
			wire_put_bool(b, true);
		break;
	case K_DESCRIBE_CONFIGS: /* no resources, (v1) include synonyms */
		wire_put_array(b, 0, false);
		if (ver >= 1)
			wire_put_bool(b, false);
		break;
	case K_DESCRIBE_GROUPS: /* no groups, include_authorized_operations */
	case K_CGD:
		wire_put_array(b, 0, flex);
		wire_put_bool(b, false);
		break;
	case K_LIST_GROUPS: /* empty filters: states (v4+), types (v5+) */
		if (ver >= 4)
			wire_put_array(b, 0, true);
		if (ver >= 5)
			wire_put_array(b, 0, true);
		break;
	}
	wire_put_tags(b, flex);
}

/* key/version with a well-formed body: answered (as by Kafka 3.9), or the connection closed unanswered
 * (Kafka's SocketServer refuses the header of an unserved version before reading the body). */
static void expect_answered(sim_cluster *c, int16_t key, int16_t ver, bool answered)
{
	bool flex = (key == K_DESCRIBE_GROUPS && ver >= 5) || (key == K_LIST_GROUPS && ver >= 3) || key == K_CGD;
	struct raw_conn r = raw_connect(c, sim_coordinator(c, "fx-empty"));
	struct wire_buf b, body;
	struct wire_rd rd;
	old_body(key, ver, &b);
	raw_send(&r, key, ver, flex, &b);
	wire_buf_free(&b);
	if (answered) {
		raw_recv(&r, flex, &body, &rd);
		wire_buf_free(&body);
	} else if (!raw_closed(&r)) {
		fail_msg("api key %d v%d was answered", key, ver);
	}
	raw_close(&r);
}

/* An api key and the versions ApiVersions must list for it. */
struct key_range {
	int16_t key, min, max;
};

static void expect_ranges(const struct range *r, const struct key_range *want, size_t n)
{
	for (size_t i = 0; i < n; i++)
		expect_range(r, want[i].key, want[i].min, want[i].max);
}

/* Each (api key, version) of kv is answered, or (answered false) closes the connection. */
static void expect_all_answered(sim_cluster *c, const int16_t kv[][2], size_t n, bool answered)
{
	for (size_t i = 0; i < n; i++)
		expect_answered(c, kv[i][0], kv[i][1], answered);
}

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

/* The versions Kafka 4.0 removed (KIP-896) among those the sim implements. */
static const int16_t removed[][2] = {
	{ K_PRODUCE, 0 },      { K_PRODUCE, 2 },       { K_OFFSET_COMMIT, 0 }, { K_OFFSET_COMMIT, 1 },
	{ K_OFFSET_FETCH, 0 }, { K_CREATE_TOPICS, 0 }, { K_CREATE_TOPICS, 1 }, { K_DESCRIBE_CONFIGS, 0 },
};

static void test_kafka4_ranges(void **state)
{
	(void)state;
	struct range r[100];
	api_versions(sim, r);
	static const struct key_range ranges[] = {
		{ K_PRODUCE, 0, 7 }, /* listed from v0, served from v3 */
		{ K_FETCH, 4, 11 },       { K_LIST_OFFSETS, 1, 2 },  { K_OFFSET_COMMIT, 2, 7 },
		{ K_OFFSET_FETCH, 1, 7 }, { K_JOIN_GROUP, 0, 5 },    { K_DESCRIBE_GROUPS, 0, 6 },
		{ K_LIST_GROUPS, 0, 5 },  { K_CREATE_TOPICS, 2, 4 }, { K_DESCRIBE_CONFIGS, 1, 2 },
		{ K_CGD, 0, 1 },
	};
	expect_ranges(r, ranges, N_OF(ranges));
	/* KIP-896's removals (Produce v0–2 although listed), versions the sim never served, and versions
	 * past the newest close the connection; the oldest served ones are answered. */
	expect_all_answered(sim, removed, N_OF(removed), false);
	static const int16_t refused[][2] = {
		{ K_FETCH, 3 },       { K_LIST_OFFSETS, 0 }, { K_DESCRIBE_GROUPS, 7 },
		{ K_LIST_GROUPS, 6 }, { K_CGD, 2 },          { 999, 0 },
	};
	expect_all_answered(sim, refused, N_OF(refused), false);
	static const int16_t oldest[][2] = {
		{ K_PRODUCE, 3 },      { K_FETCH, 4 },         { K_LIST_OFFSETS, 1 },     { K_OFFSET_COMMIT, 2 },
		{ K_OFFSET_FETCH, 1 }, { K_CREATE_TOPICS, 2 }, { K_DESCRIBE_CONFIGS, 1 }, { K_CGD, 0 },
	};
	expect_all_answered(sim, oldest, N_OF(oldest), true);
}

static void test_kafka39_ranges(void **state)
{
	(void)state;
	sim_cluster *old = fixture(3);
	struct range r[100];
	api_versions(old, r);
	static const struct key_range ranges[] = {
		{ K_PRODUCE, 0, 7 },          { K_OFFSET_COMMIT, 0, 7 },
		{ K_OFFSET_FETCH, 0, 7 },     { K_CREATE_TOPICS, 0, 4 },
		{ K_DESCRIBE_CONFIGS, 0, 2 }, { K_DESCRIBE_GROUPS, 0, 5 },
		{ K_LIST_GROUPS, 0, 5 },      { K_CGD, 0, 0 },
	};
	expect_ranges(r, ranges, N_OF(ranges));
	expect_all_answered(old, removed, N_OF(removed), true);
	expect_answered(old, K_DESCRIBE_GROUPS, 6, false);
	expect_answered(old, K_CGD, 1, false);
	/* OffsetFetch v0 (Kafka 3.9 still had it) is answered: no top-level error, the partition's instead. */
	struct raw_conn c = raw_connect(old, sim_coordinator(old, "fx-empty"));
	struct wire_buf b, body;
	struct wire_rd rd;
	wire_buf_init(&b);
	wire_put_str(&b, "fx-empty", false);
	wire_put_array(&b, 1, false);
	wire_put_str(&b, "fx-orders", false);
	wire_put_array(&b, 1, false);
	wire_put_i32(&b, 0);
	raw_call(&c, K_OFFSET_FETCH, 0, false, &b, &body, &rd);
	wire_buf_free(&b);
	assert_int_equal(wire_array(&rd, false, 1), 1);
	raw_expect_str(&rd, false, "fx-orders");
	assert_int_equal(wire_array(&rd, false, 1), 1);
	assert_int_equal(wire_i32(&rd), 0);
	assert_int_equal(wire_i64(&rd), 10);
	raw_expect_str(&rd, false, "m0");
	assert_int_equal(wire_i16(&rd), 0);
	raw_end(&rd, &body);
	raw_close(&c);
	sim_free(old);
}

/* Kafka 3.6, before KIP-848's admin APIs: 3.9's ranges, but no ConsumerGroupDescribe (not listed, and a
 * request for it closes the connection) and ListGroups up to v4. */
static void test_kafka36_ranges(void **state)
{
	(void)state;
	sim_cluster *old = fixture_version(3, 6);
	struct range r[100];
	api_versions(old, r);
	expect_range(r, K_OFFSET_COMMIT, 0, 7);
	expect_range(r, K_DESCRIBE_GROUPS, 0, 5);
	expect_range(r, K_LIST_GROUPS, 0, 4);
	if (r[K_CGD].listed)
		fail_msg("ConsumerGroupDescribe listed by a 3.6 broker");
	expect_answered(old, K_LIST_GROUPS, 4, true);
	expect_answered(old, K_LIST_GROUPS, 5, false);
	expect_answered(old, K_CGD, 0, false);
	expect_all_answered(old, removed, N_OF(removed), true);
	sim_free(old);
	/* and only 3.9 and 3.6 among the 3.x */
	struct sim_options o = { .brokers = 1, .scenario = "fixture", .kafka_major = 3, .kafka_minor = 7 };
	assert_null(sim_new(&o, err, sizeof err));
}

/* ---- DescribeGroups ---- */

struct described {
	int16_t error;
	char message[128];
	bool message_null;
	char state[32], protocol_type[32], protocol[32];
	int nmembers;
	char member[4][64];
};

static void describe(const char *group, int16_t v, struct described *d)
{
	bool flex = v >= 5;
	struct raw_conn c = raw_connect(sim, sim_coordinator(sim, group));
	struct wire_buf b, body;
	struct wire_rd rd;
	wire_buf_init(&b);
	wire_put_array(&b, 1, flex);
	wire_put_str(&b, group, flex);
	if (v >= 3)
		wire_put_bool(&b, false);
	wire_put_tags(&b, flex);
	raw_call(&c, K_DESCRIBE_GROUPS, v, flex, &b, &body, &rd);
	wire_buf_free(&b);
	if (v >= 1)
		assert_int_equal(wire_i32(&rd), 0);
	assert_int_equal(wire_array(&rd, flex, 1), 1);
	memset(d, 0, sizeof *d);
	d->error = wire_i16(&rd);
	d->message_null = true;
	if (v >= 6) {
		struct wire_str m = wire_str(&rd, flex);
		d->message_null = m.len < 0;
		snprintf(d->message, sizeof d->message, "%.*s", m.len < 0 ? 0 : (int)m.len, m.p ? m.p : "");
	}
	raw_expect_str(&rd, flex, group);
	raw_str(&rd, flex, d->state, sizeof d->state);
	raw_str(&rd, flex, d->protocol_type, sizeof d->protocol_type);
	raw_str(&rd, flex, d->protocol, sizeof d->protocol);
	d->nmembers = wire_array(&rd, flex, 1);
	assert_true(d->nmembers >= 0 && d->nmembers <= 4);
	for (int i = 0; i < d->nmembers; i++) {
		raw_str(&rd, flex, d->member[i], sizeof d->member[i]);
		if (v >= 4)
			(void)wire_str(&rd, flex); /* group_instance_id */
		(void)wire_str(&rd, flex);         /* client_id */
		(void)wire_str(&rd, flex);         /* client_host */
		(void)wire_bytes(&rd, flex);       /* metadata */
		(void)wire_bytes(&rd, flex);       /* assignment */
		wire_tags_skip(&rd, flex);
	}
	if (v >= 3)
		assert_int_equal(wire_i32(&rd), INT32_MIN);
	wire_tags_skip(&rd, flex);
	wire_tags_skip(&rd, flex);
	raw_end(&rd, &body);
	raw_close(&c);
}

static void test_describe_groups_every_version(void **state)
{
	(void)state;
	for (int16_t v = 0; v <= 6; v++) {
		struct described d;
		describe("fx-stable", v, &d);
		assert_int_equal(d.error, 0);
		assert_true(d.message_null);
		assert_string_equal(d.state, "Stable");
		assert_string_equal(d.protocol_type, "consumer");
		assert_string_equal(d.protocol, "range");
		assert_int_equal(d.nmembers, 2);
		assert_string_equal(d.member[0], "fx-c1-member");

		describe("fx-empty", v, &d);
		assert_int_equal(d.error, 0);
		assert_string_equal(d.state, "Empty");
		assert_int_equal(d.nmembers, 0);

		/* Kafka 4.x describes classic groups only: a consumer-protocol group looks unknown. */
		describe("fx-kip848", v, &d);
		assert_string_equal(d.state, "Dead");
		assert_string_equal(d.protocol_type, "");
		assert_string_equal(d.protocol, "");
		assert_int_equal(d.nmembers, 0);
		assert_int_equal(d.error, v >= 6 ? 69 : 0);
		assert_string_equal(d.message, v >= 6 ? "Group fx-kip848 is not a classic group." : "");

		describe("no-such-group", v, &d);
		assert_string_equal(d.state, "Dead");
		assert_int_equal(d.nmembers, 0);
		assert_int_equal(d.error, v >= 6 ? 69 : 0);
		assert_string_equal(d.message, v >= 6 ? "Group no-such-group not found." : "");

		/* A Dead classic group is gone for Kafka's coordinator: described as unknown. */
		describe("cg-dead", v, &d);
		assert_string_equal(d.state, "Dead");
		assert_string_equal(d.protocol_type, "");
		assert_int_equal(d.nmembers, 0);
		assert_int_equal(d.error, v >= 6 ? 69 : 0);
		assert_string_equal(d.message, v >= 6 ? "Group cg-dead not found." : "");
	}
}

/* ---- ListGroups ---- */

struct listed {
	char id[64], protocol_type[32], state[32], type[32];
};

/* ListGroups of every broker, sorted by group id; filters are comma-separated ("" for none). */
static int list_groups(int16_t v, const char *states, const char *types, struct listed *out, int max)
{
	bool flex = v >= 3;
	int n = 0;
	for (int node = 1; node <= sim_broker_count(sim); node++) {
		struct raw_conn c = raw_connect(sim, node);
		struct wire_buf b, body;
		struct wire_rd rd;
		wire_buf_init(&b);
		const char *filters[2] = { states, types };
		for (int f = 0; f < (v >= 5 ? 2 : v >= 4 ? 1 : 0); f++) {
			char copy[128];
			snprintf(copy, sizeof copy, "%s", filters[f]);
			int cnt = 0;
			char *names[8], *save = NULL;
			for (char *t = strtok_r(copy, ",", &save); t && cnt < 8; t = strtok_r(NULL, ",", &save))
				names[cnt++] = t;
			wire_put_array(&b, cnt, true);
			for (int i = 0; i < cnt; i++)
				wire_put_str(&b, names[i], true);
		}
		wire_put_tags(&b, flex);
		raw_call(&c, K_LIST_GROUPS, v, flex, &b, &body, &rd);
		wire_buf_free(&b);
		if (v >= 1)
			assert_int_equal(wire_i32(&rd), 0);
		assert_int_equal(wire_i16(&rd), 0);
		int32_t k = wire_array(&rd, flex, 1);
		for (int32_t i = 0; i < k; i++) {
			assert_true(n < max);
			struct listed *l = &out[n++];
			memset(l, 0, sizeof *l);
			raw_str(&rd, flex, l->id, sizeof l->id);
			raw_str(&rd, flex, l->protocol_type, sizeof l->protocol_type);
			if (v >= 4)
				raw_str(&rd, flex, l->state, sizeof l->state);
			if (v >= 5)
				raw_str(&rd, flex, l->type, sizeof l->type);
			wire_tags_skip(&rd, flex);
		}
		wire_tags_skip(&rd, flex);
		raw_end(&rd, &body);
		raw_close(&c);
	}
	for (int i = 1; i < n; i++) /* insertion sort: a handful of groups */
		for (int j = i; j > 0 && strcmp(out[j - 1].id, out[j].id) > 0; j--) {
			struct listed t = out[j];
			out[j] = out[j - 1];
			out[j - 1] = t;
		}
	return n;
}

/* The ids listed, as "a b c". */
static const char *ids(const struct listed *l, int n)
{
	static char buf[512];
	buf[0] = '\0';
	for (int i = 0; i < n; i++)
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", i ? " " : "", l[i].id);
	return buf;
}

static void test_list_groups_every_version(void **state)
{
	(void)state;
	struct listed l[16];
	for (int16_t v = 0; v <= 5; v++) {
		int n = list_groups(v, "", "", l, 16);
		assert_string_equal(ids(l, n),
				    "cg-assigning cg-reconciling fx-empty fx-kip848 fx-rebalancing fx-stable");
		assert_string_equal(l[0].protocol_type, "consumer");
		assert_string_equal(l[2].protocol_type, "");
		assert_string_equal(l[3].protocol_type, "consumer");
		assert_string_equal(l[0].state, v >= 4 ? "Assigning" : "");
		assert_string_equal(l[1].state, v >= 4 ? "Reconciling" : "");
		assert_string_equal(l[4].state, v >= 4 ? "PreparingRebalance" : "");
		assert_string_equal(l[3].type, v >= 5 ? "consumer" : "");
		assert_string_equal(l[5].type, v >= 5 ? "classic" : "");
	}
}

static void test_list_groups_filters(void **state)
{
	(void)state;
	struct listed l[16];
	/* a ListGroups request (version, states filter, types filter): how many groups, and which (NULL: any) */
	static const struct {
		int16_t v;
		const char *states, *types;
		int n;
		const char *ids;
	} cases[] = {
		/* States: case-insensitive, trimmed; the consumer-protocol states are states like the others. */
		{ 4, " ASSIGNING ,reconciling", "", 2, "cg-assigning cg-reconciling" },
		{ 4, "Stable", "", 2, "fx-kip848 fx-stable" },
		{ 4, "Nonsense", "", 0, "" },
		/* Types: case-insensitive; a type without groups, or an unknown one, lists nothing. */
		{ 5, "", "CONSUMER", 3, "cg-assigning cg-reconciling fx-kip848" },
		{ 5, "", "classic", 3, "fx-empty fx-rebalancing fx-stable" },
		{ 5, "", "share", 0, "" },
		{ 5, "", "bogus", 0, "" },
		{ 5, "", "classic,consumer", 6, NULL },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int got = list_groups(cases[i].v, cases[i].states, cases[i].types, l, 16);
		const char *listed = ids(l, got);
		if (got != cases[i].n || (cases[i].ids && strcmp(listed, cases[i].ids) != 0))
			fail_msg("ListGroups v%d states \"%s\" types \"%s\": %d groups (%s), want %d (%s)", cases[i].v,
				 cases[i].states, cases[i].types, got, listed, cases[i].n,
				 cases[i].ids ? cases[i].ids : "any");
	}
	/* Both: each must match. */
	int n = list_groups(5, "stable,empty", "consumer", l, 16);
	assert_string_equal(ids(l, n), "fx-kip848");
	assert_string_equal(l[0].state, "Stable");
	assert_string_equal(l[0].type, "consumer");
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(test_kafka4_ranges),
	cmocka_unit_test(test_kafka39_ranges),
	cmocka_unit_test(test_kafka36_ranges),
	cmocka_unit_test(test_describe_groups_every_version),
	cmocka_unit_test(test_list_groups_every_version),
	cmocka_unit_test(test_list_groups_filters),
};

LT_TEST_MAIN(setup, test_sim_teardown)
