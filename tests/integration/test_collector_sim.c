/* test_collector_sim.c — the collector against the simulated cluster, in process: every observed number
 * equals the state set through the sim's control API; unknown commits stay unknown; filters and
 * explicit groups; the request budget per refresh on 200 groups; a broker going away and coming back. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kafka/collector.h"
#include "model/record_ts.h"
#include "sim/sim.h"
#include "util/xalloc.h"

#include "../lib/lagtop_test.h"

#define ERR_LEN 512

static const int32_t t_all[] = { 0, 1, 2, 3 };

/* Two topics, three groups: "shop" (Stable, 1 member owning t/0..3, t/2 never committed),
 * "batch" (Empty, commits on u), "ahead" (Empty, committed beyond the log end). */
static sim_cluster *small_cluster(void)
{
	char err[ERR_LEN];
	struct sim_options o = { .brokers = 3, .scenario = "empty" };
	sim_cluster *sim = sim_new(&o, err, sizeof err);
	assert_non_null(sim);
	assert_int_equal(sim_start(sim), 0);
	assert_int_equal(sim_create_topic(sim, "t", 4, err, sizeof err), 0);
	assert_int_equal(sim_create_topic(sim, "u", 2, err, sizeof err), 0);
	for (int p = 0; p < 4; p++)
		assert_int_equal(sim_append(sim, "t", p, 100 * (p + 1), 1700000000000, 10, err, sizeof err), 0);
	for (int p = 0; p < 2; p++)
		assert_int_equal(sim_append(sim, "u", p, 50 + p, 1700000000000, 10, err, sizeof err), 0);
	assert_int_equal(sim_set_log_start(sim, "t", 0, 10, err, sizeof err), 0);

	struct sim_member_assignment a = { .topic = "t", .partitions = t_all, .npartitions = 4 };
	struct sim_member_spec m = {
		.client_id = "shop-1", .client_host = "/10.1.2.3", .assignment = &a, .nassignment = 1
	};
	char id[256];
	assert_int_equal(sim_add_member(sim, "shop", &m, id, sizeof id, err, sizeof err), 0);
	assert_int_equal(sim_commit(sim, "shop", "t", 0, 50, "meta", err, sizeof err), 0);
	assert_int_equal(sim_commit(sim, "shop", "t", 1, 150, NULL, err, sizeof err), 0);
	assert_int_equal(sim_commit(sim, "shop", "t", 3, 400, NULL, err, sizeof err), 0);
	assert_int_equal(sim_commit(sim, "batch", "u", 0, 5, NULL, err, sizeof err), 0);
	assert_int_equal(sim_commit(sim, "batch", "u", 1, 51, NULL, err, sizeof err), 0);
	assert_int_equal(sim_commit(sim, "ahead", "u", 0, 70, NULL, err, sizeof err), 0);
	return sim;
}

static lt_collector *collector_for(sim_cluster *sim, struct lt_collector_conf *c)
{
	char err[ERR_LEN] = "";
	struct lt_connection conn = { .name = xstrdup("sim"), .bootstrap = xstrdup(sim_bootstrap(sim)) };
	if (!c->timeout_ms)
		c->timeout_ms = 5000;
	c->interval_ms = 200;
	if (getenv("LT_RDKAFKA_DEBUG"))
		connection_set(&conn, "debug", 5, getenv("LT_RDKAFKA_DEBUG"));
	c->conn = &conn;
	model_params_default(&c->model);
	lt_collector *col = collector_new(c, err, sizeof err);
	c->conn = NULL; /* needed only by collector_new */
	connection_free(&conn);
	if (!col)
		fail_msg("collector_new: %s", err);
	return col;
}

/* Every observed number of every group in s equals the sim's own state. */
static void check_against_sim(sim_cluster *sim, const lt_snapshot *s)
{
	char err[ERR_LEN];
	for (size_t i = 0; i < s->n_groups; i++) {
		const lt_group *g = &s->groups[i];
		char state[64];
		int members = sim_group_info(sim, g->group, state, sizeof state);
		assert_int_equal((int)g->n_members, members);
		assert_string_equal(group_state_name(g->state), state);
		assert_int_equal(g->coordinator, sim_coordinator(sim, g->group));
		for (size_t k = 0; k < g->n_partitions; k++) {
			const lt_partition *p = &g->partitions[k];
			int64_t ls, le;
			assert_int_equal(sim_get_offsets(sim, p->topic, p->partition, &ls, &le, err, sizeof err), 0);
			if (p->log_start != ls)
				printf("# %s %s/%d: log_start %lld want %lld, log_end %lld want %lld, flags %u, error "
				       "%s\n",
				       g->group, p->topic, (int)p->partition, (long long)p->log_start, (long long)ls,
				       (long long)p->log_end, (long long)le, p->flags, s->error ? s->error : "-");
			assert_int_equal(p->log_start, ls);
			assert_int_equal(p->log_end, le);
			assert_int_equal(p->committed, sim_committed(sim, g->group, p->topic, p->partition));
			assert_int_equal(p->flags & (LT_PF_STALE | LT_PF_NO_LEADER), 0);
		}
	}
}

static const lt_partition *find_part(const lt_group *g, const char *topic, int32_t partition)
{
	for (size_t k = 0; k < g->n_partitions; k++)
		if (g->partitions[k].partition == partition && strcmp(g->partitions[k].topic, topic) == 0)
			return &g->partitions[k];
	return NULL;
}

static void numbers_equal_the_sim(void **state)
{
	(void)state;
	sim_cluster *sim = small_cluster();
	struct lt_collector_conf c = { 0 };
	lt_collector *col = collector_for(sim, &c);
	lt_snapshot *s = collector_refresh_or_fail(col);

	assert_null(s->error);
	assert_int_equal(s->brokers_up, 3);
	assert_int_equal(s->brokers_total, 3);
	assert_int_equal(s->n_groups, 3);
	assert_string_equal(s->groups[0].group, "ahead");
	assert_string_equal(s->groups[1].group, "batch");
	assert_string_equal(s->groups[2].group, "shop");
	check_against_sim(sim, s);

	const lt_group *shop = snapshot_find_group(s, "shop");
	assert_int_equal(shop->state, LT_GROUP_STABLE);
	assert_string_equal(shop->protocol_type, "consumer");
	assert_int_equal(shop->n_members, 1);
	assert_string_equal(shop->members[0].client_id, "shop-1");
	assert_string_equal(shop->members[0].host, "/10.1.2.3");
	assert_int_equal(shop->n_partitions, 4);
	const lt_partition *p0 = find_part(shop, "t", 0);
	assert_int_equal(p0->log_start, 10);
	assert_int_equal(p0->committed, 50);
	assert_int_equal(p0->log_end, 100);
	assert_string_equal(partition_commit_metadata(shop, p0), "meta");
	assert_int_equal(p0->member, 0);
	assert_true(p0->has_lag);
	assert_int_equal(p0->lag, 50);
	/* assigned but never committed: unknown, and so is its lag (never 0) */
	const lt_partition *p2 = find_part(shop, "t", 2);
	assert_non_null(p2);
	assert_int_equal(p2->committed, LT_OFFSET_NONE);
	assert_int_equal(p2->log_end, 300);
	assert_false(p2->has_lag);
	assert_int_equal(find_part(shop, "t", 3)->lag, 0);
	assert_int_equal(shop->total_lag, 50 + 50 + 0);

	const lt_group *batch = snapshot_find_group(s, "batch");
	assert_int_equal(batch->state, LT_GROUP_EMPTY);
	assert_int_equal(batch->n_members, 0);
	assert_int_equal(batch->n_partitions, 2);
	assert_int_equal(find_part(batch, "u", 1)->log_end, 51);
	assert_int_equal(find_part(batch, "u", 1)->lag, 0);
	assert_int_equal(find_part(batch, "u", 0)->lag, 45);

	const lt_group *ahead = snapshot_find_group(s, "ahead");
	const lt_partition *a0 = find_part(ahead, "u", 0);
	assert_int_equal(a0->committed, 70);
	assert_true(a0->flags & LT_PF_AHEAD_OF_END);
	assert_int_equal(a0->lag, 0);

	/* the numbers move: the next refresh follows */
	char err[ERR_LEN];
	assert_int_equal(sim_append(sim, "t", 2, 7, 1700000100000, 10, err, sizeof err), 0);
	assert_int_equal(sim_commit(sim, "shop", "t", 2, 299, NULL, err, sizeof err), 0);
	assert_int_equal(sim_set_log_start(sim, "u", 0, 20, err, sizeof err), 0);
	lt_snapshot *s2 = collector_refresh_or_fail(col);
	assert_true(s2->seq > s->seq);
	check_against_sim(sim, s2);
	p2 = find_part(snapshot_find_group(s2, "shop"), "t", 2);
	assert_int_equal(p2->committed, 299);
	assert_int_equal(p2->log_end, 307);
	assert_int_equal(p2->lag, 8);
	assert_true(find_part(snapshot_find_group(s2, "batch"), "u", 0)->flags & LT_PF_OUT_OF_RANGE);

	snapshot_unref(s);
	snapshot_unref(s2);
	collector_free(col);
	sim_free(sim);
}

/* A dashboard's log starts (src/kafka/log_starts.h): read at the first refresh; carried while younger than their
 * max age, so a log start moved meanwhile is not seen yet and only the log ends are asked (half the
 * ListOffsets); asked again once older, and then the move shows (with its out-of-range commit). */
static void log_starts_carried_until_their_max_age(void **state)
{
	(void)state;
	const int max_age_ms = 5000;
	sim_cluster *sim = small_cluster();
	struct lt_collector_conf c = { .log_start_max_age_ms = max_age_ms };
	lt_collector *col = collector_for(sim, &c);
	uint64_t n[SIM_COUNT_KEYS + 1];
	sim_counts(sim, n, true);
	lt_snapshot *s1 = collector_refresh_or_fail(col);
	int64_t read_at = test_mono_ms();
	sim_counts(sim, n, true);
	const uint64_t asked_both = n[2]; /* ListOffsets */
	check_against_sim(sim, s1);
	assert_int_equal(find_part(snapshot_find_group(s1, "batch"), "u", 0)->log_start, 0);

	char err[ERR_LEN];
	assert_int_equal(sim_set_log_start(sim, "u", 0, 20, err, sizeof err), 0);
	lt_snapshot *s2 = collector_refresh_or_fail(col);
	sim_counts(sim, n, true);
	assert_true(test_mono_ms() - read_at < max_age_ms); /* the small cluster's refresh takes milliseconds */
	const lt_partition *carried = find_part(snapshot_find_group(s2, "batch"), "u", 0);
	assert_int_equal(carried->log_start, 0);
	assert_false(carried->flags & LT_PF_OUT_OF_RANGE);
	assert_int_equal(carried->log_end, 50);
	assert_true(asked_both > 0);
	assert_int_equal(n[2] * 2, asked_both);

	test_sleep_ms(max_age_ms - (test_mono_ms() - read_at) + 100);
	lt_snapshot *s3 = collector_refresh_or_fail(col);
	sim_counts(sim, n, true);
	check_against_sim(sim, s3);
	const lt_partition *asked = find_part(snapshot_find_group(s3, "batch"), "u", 0);
	assert_int_equal(asked->log_start, 20);
	assert_true(asked->flags & LT_PF_OUT_OF_RANGE);
	assert_int_equal(n[2], asked_both);

	snapshot_unref(s1);
	snapshot_unref(s2);
	snapshot_unref(s3);
	collector_free(col);
	sim_free(sim);
}

static void filters_and_explicit_groups(void **state)
{
	(void)state;
	sim_cluster *sim = small_cluster();
	const char *inc[] = { "^(shop|batch)$" }, *exc[] = { "^batch" }, *extra[] = { "no-such-group", "ahead" };
	struct lt_collector_conf c = {
		.n_group_regex = 1, .group_regex = inc, .n_group_exclude = 1, .group_exclude = exc
	};
	lt_collector *col = collector_for(sim, &c);
	lt_snapshot *s = collector_refresh_or_fail(col);
	assert_int_equal(s->n_groups, 1);
	assert_string_equal(s->groups[0].group, "shop");
	snapshot_unref(s);
	collector_free(col);

	/* explicit groups are described whatever the filters say; one that does not exist is dropped */
	c.n_extra_groups = 2, c.extra_groups = extra;
	col = collector_for(sim, &c);
	s = collector_refresh_or_fail(col);
	assert_int_equal(s->n_groups, 2);
	assert_string_equal(s->groups[0].group, "ahead");
	assert_string_equal(s->groups[1].group, "shop");
	assert_null(s->error);
	check_against_sim(sim, s);
	snapshot_unref(s);
	collector_free(col);
	sim_free(sim);
}

static const char *const api_names[] = {
	[0] = "Produce",
	[1] = "Fetch",
	[2] = "ListOffsets",
	[3] = "Metadata",
	[8] = "OffsetCommit",
	[9] = "OffsetFetch",
	[10] = "FindCoordinator",
	[15] = "DescribeGroups",
	[16] = "ListGroups",
	[18] = "ApiVersions",
	[69] = "ConsumerGroupDescribe",
};

/* last_fetch: the reads of records at committed offsets for the time lag (src/kafka/record_peek.h), at most
 * 32 records a refresh in a few Fetches, counted apart from the refresh's budget */
static uint64_t last_api_versions, last_find_coordinator, last_fetch;

static uint64_t counts_report(sim_cluster *sim, const char *what)
{
	uint64_t n[SIM_COUNT_KEYS + 1];
	sim_counts(sim, n, true);
	last_api_versions = n[18];
	last_find_coordinator = n[10];
	last_fetch = n[1];
	uint64_t total = 0;
	char line[512];
	size_t o = (size_t)snprintf(line, sizeof line, "# %s:", what);
	for (int k = 0; k <= SIM_COUNT_KEYS; k++) {
		total += n[k];
		if (n[k] && o < sizeof line)
			o += (size_t)snprintf(line + o, sizeof line - o, " %s=%" PRIu64,
					      k < (int)(sizeof api_names / sizeof api_names[0]) && api_names[k]
						      ? api_names[k]
						      : "other",
					      n[k]);
	}
	printf("%s total=%" PRIu64 "\n", line, total);
	return total;
}

static void request_budget(int groups, int partitions)
{
	char err[ERR_LEN];
	const int brokers = 3, topics = 4;
	struct sim_options o = {
		.brokers = brokers, .scenario = "scale", .groups = groups, .partitions = partitions, .topics = topics
	};
	sim_cluster *sim = sim_new(&o, err, sizeof err);
	assert_non_null(sim);
	assert_int_equal(sim_start(sim), 0);
	struct lt_collector_conf c = { .timeout_ms = 20000 };
	lt_collector *col = NULL;
	/* + brokers: the Metadata of the record reader (record_peek.h) */
	const uint64_t budget = (uint64_t)(brokers * 3 + groups * 3 + 10 + brokers);

	/* The first refresh of a fresh handle. Its connections' ApiVersions handshakes (one per broker, plus
	 * the consumer handle's group coordinator) are not refresh work. Every group is described at the
	 * broker whose ListGroups listed it, so no FindCoordinator is sent for a group (the handle looks up
	 * only its own group's coordinator): 1 Metadata + B ListGroups + G describes + G OffsetFetch + 2L
	 * ListOffsets with librdkafka 2.0.2; with 2.10 or later on Kafka 4.x a classic group's describe is
	 * two requests (ConsumerGroupDescribe, answered "not a consumer group", then DescribeGroups), which
	 * the G x 3 of the budget still covers. Up to three fresh handles are tried and the best counts
	 * (timing on a loaded machine used to add FindCoordinators); a design regression is over budget every
	 * time. */
	uint64_t best = UINT64_MAX;
	for (int attempt = 0; attempt < 3 && best > budget; attempt++) {
		if (col)
			collector_free(col);
		col = collector_for(sim, &c);
		sim_counts(sim, (uint64_t[SIM_COUNT_KEYS + 1]){ 0 }, true);
		lt_snapshot *s = collector_refresh_or_fail(col);
		char what[64];
		snprintf(what, sizeof what, "refresh 1 of %d groups (%" PRId64 " ms)", groups, s->duration_ms);
		uint64_t total = counts_report(sim, what) - last_api_versions - last_fetch;
		if (last_find_coordinator > (uint64_t)brokers)
			fail_msg("refresh 1 sent %" PRIu64 " FindCoordinator: a lookup per group",
				 last_find_coordinator);
		assert_null(s->error);
		assert_int_equal(s->n_groups, groups);
		check_against_sim(sim, s);
		snapshot_unref(s);
		if (total < best)
			best = total;
	}
	if (best > budget)
		fail_msg("the first refresh sent %" PRIu64 " requests (best of 3), budget %" PRIu64, best, budget);

	/* Later refreshes: everything counts. */
	for (int r = 2; r <= 3; r++) {
		lt_snapshot *s = collector_refresh_or_fail(col);
		char what[64];
		snprintf(what, sizeof what, "refresh %d of %d groups (%" PRId64 " ms)", r, groups, s->duration_ms);
		uint64_t total = counts_report(sim, what) - last_fetch;
		/* the time lag's records: a round reads one offset of each partition, and a refresh reads at
		 * most LT_RECORD_TS_PER_REFRESH, so groups sharing few partitions take several rounds */
		const uint64_t distinct = (uint64_t)topics * (uint64_t)partitions;
		const uint64_t rounds = (LT_RECORD_TS_PER_REFRESH + distinct - 1) / distinct;
		if (last_fetch > 4 * (uint64_t)brokers * rounds)
			fail_msg("refresh %d sent %" PRIu64 " Fetch requests for records in at most %" PRIu64 " rounds",
				 r, last_fetch, rounds);
		assert_null(s->error);
		assert_int_equal(s->n_groups, groups);
		check_against_sim(sim, s);
		if (total > budget)
			fail_msg("refresh %d sent %" PRIu64 " requests, budget %" PRIu64, r, total, budget);
		snapshot_unref(s);
	}
	collector_free(col);
	sim_free(sim);
}

/* Groups that appear between two refreshes, their names falling between the remembered ones: each
 * broker's ListGroups answer mixes both, and every group must come out exactly once, described once
 * (no lookup of a remembered group may be missed while new ones are being added: that made duplicates
 * whose copy was freed while a describe still pointed at it). */
static void new_groups_among_remembered_ones(void **state)
{
	(void)state;
	char err[ERR_LEN];
	struct sim_options o = { .brokers = 3, .scenario = "scale", .groups = 150, .partitions = 2, .topics = 3 };
	sim_cluster *sim = sim_new(&o, err, sizeof err);
	assert_non_null(sim);
	assert_int_equal(sim_start(sim), 0);
	struct lt_collector_conf c = { .timeout_ms = 10000 };
	lt_collector *col = collector_for(sim, &c);
	lt_snapshot *s = collector_refresh_or_fail(col);
	assert_int_equal(s->n_groups, 150);
	snapshot_unref(s);
	/* 150 new Empty groups, "scale-group-00000x" and so on: each sorts right after a remembered one */
	for (int g = 0; g < 150; g++) {
		char name[64];
		snprintf(name, sizeof name, "scale-group-%05dx", g);
		assert_int_equal(sim_commit(sim, name, "scale-topic-000", 0, 1, NULL, err, sizeof err), 0);
	}
	sim_counts(sim, (uint64_t[SIM_COUNT_KEYS + 1]){ 0 }, true);
	s = collector_refresh_or_fail(col);
	uint64_t n[SIM_COUNT_KEYS + 1];
	sim_counts(sim, n, true);
	assert_null(s->error);
	assert_int_equal(s->n_groups, 300);
	for (size_t i = 1; i < s->n_groups; i++)
		if (strcmp(s->groups[i - 1].group, s->groups[i].group) >= 0)
			fail_msg("groups out of order or twice: %s, %s", s->groups[i - 1].group, s->groups[i].group);
	for (size_t i = 0; i < s->n_groups; i++)
		if (s->groups[i].error)
			fail_msg("%s: %s", s->groups[i].group, s->groups[i].error);
	/* one DescribeGroups per broker for all its groups (the batch, group_batch.h), one offsets request per
	 * group, no ConsumerGroupDescribe (the groups are classic) and no coordinator lookup */
	assert_int_equal(n[15], 3);
	assert_int_equal(n[69], 0);
	assert_int_equal(n[9], 300);
	assert_int_equal(n[10], 0);
	snapshot_unref(s);
	collector_free(col);
	sim_free(sim);
}

static void request_budget_on_200_groups(void **state)
{
	(void)state;
	request_budget(200, 8);
}

/* More groups than refresh_send.c's window of warm calls in flight (WARM_WINDOW, 400 calls: a describe per
 * 32 groups and an offsets request per group): the window must send them all, each group complete. */
static void request_budget_on_600_groups(void **state)
{
	(void)state;
	request_budget(600, 2);
}

static int broker_leading(sim_cluster *sim, const char *topic, int npart, int not_this)
{
	for (int p = 0; p < npart; p++) {
		int l = sim_leader(sim, topic, p);
		if (l != not_this)
			return l;
	}
	return -1;
}

static void broker_goes_away_and_comes_back(void **state)
{
	(void)state;
	char err[ERR_LEN];
	sim_cluster *sim = small_cluster();
	struct lt_collector_conf c = { .timeout_ms = 3000 };
	lt_collector *col = collector_for(sim, &c);
	lt_snapshot *s0 = collector_refresh_or_fail(col);
	assert_null(s0->error);

	/* stop a broker that leads some of t's partitions but does not coordinate "shop" */
	int coord = sim_coordinator(sim, "shop");
	int victim = broker_leading(sim, "t", 4, coord);
	assert_true(victim > 0);
	assert_int_equal(sim_broker_stop(sim, victim, err, sizeof err), 0);

	lt_snapshot *s1 = collector_refresh_or_fail(col);
	printf("# with broker %d stopped: refresh took %lld ms; error: %s\n", victim, (long long)s1->duration_ms,
	       s1->error ? s1->error : "-");
	for (size_t i = 0; i < s1->n_groups; i++)
		printf("#   group %s (coordinator %d): %s\n", s1->groups[i].group,
		       sim_coordinator(sim, s1->groups[i].group), s1->groups[i].error ? s1->groups[i].error : "ok");
	assert_int_equal(s1->brokers_up, 2);
	assert_int_equal(s1->brokers_total, 3);
	const lt_group *shop = snapshot_find_group(s1, "shop");
	assert_non_null(shop);
	assert_null(shop->error);
	for (size_t k = 0; k < shop->n_partitions; k++) {
		const lt_partition *p = &shop->partitions[k];
		int64_t ls, le;
		assert_int_equal(sim_get_offsets(sim, p->topic, p->partition, &ls, &le, err, sizeof err), 0);
		if (sim_leader(sim, p->topic, p->partition) == victim) {
			/* only the dead leader's partitions lose their log offsets */
			assert_true(p->flags & LT_PF_NO_LEADER);
			assert_int_equal(p->log_end, LT_OFFSET_NONE);
			assert_false(p->has_lag);
		} else {
			assert_false(p->flags & LT_PF_NO_LEADER);
			assert_int_equal(p->log_end, le);
		}
		assert_int_equal(p->committed, sim_committed(sim, "shop", p->topic, p->partition));
	}
	/* groups the dead broker coordinates keep their last data, marked stale */
	for (size_t i = 0; i < s1->n_groups; i++) {
		const lt_group *g = &s1->groups[i];
		if (sim_coordinator(sim, g->group) != victim)
			continue;
		assert_non_null(g->error);
		assert_true(g->stale_ms > 0);
		const lt_group *old = snapshot_find_group(s0, g->group);
		assert_int_equal(g->n_partitions, old->n_partitions);
		for (size_t k = 0; k < g->n_partitions; k++) {
			assert_true(g->partitions[k].flags & LT_PF_STALE);
			assert_int_equal(g->partitions[k].committed, old->partitions[k].committed);
		}
	}

	assert_int_equal(sim_broker_start(sim, victim, err, sizeof err), 0);
	/* back to normal within a few refreshes (librdkafka reconnects with backoff) */
	lt_snapshot *s2 = NULL;
	for (int i = 0; i < 10; i++) {
		snapshot_unref(s2);
		s2 = collector_refresh_or_fail(col);
		bool clean = !s2->error && s2->brokers_up == 3;
		for (size_t g = 0; g < s2->n_groups; g++)
			clean = clean && !s2->groups[g].error;
		if (clean)
			break;
	}
	assert_null(s2->error);
	assert_int_equal(s2->n_groups, 3);
	check_against_sim(sim, s2);
	snapshot_unref(s0);
	snapshot_unref(s1);
	snapshot_unref(s2);
	collector_free(col);
	sim_free(sim);
}

/* The background thread against the sim: publishes and wakes; keeps publishing while a coordinator
 * is down (its groups stale, lookups in flight); collector_free joins while the broker is still down. */
static void thread_survives_a_dead_coordinator(void **state)
{
	(void)state;
	char err[ERR_LEN];
	sim_cluster *sim = small_cluster();
	struct lt_collector_conf c = { .timeout_ms = 1500 };
	lt_collector *col = collector_for(sim, &c);
	assert_int_equal(collector_start(col, err, sizeof err), 0);
	assert_true(test_fd_readable(collector_wake_fd(col), 10000));
	collector_ack(col);
	lt_snapshot *s = collector_latest(col);
	assert_int_equal(s->n_groups, 3);
	snapshot_unref(s);

	int victim = sim_coordinator(sim, "ahead");
	assert_int_equal(sim_broker_stop(sim, victim, err, sizeof err), 0);
	uint64_t seq = 0;
	for (int i = 0; i < 3; i++) {
		assert_true(test_fd_readable(collector_wake_fd(col), 10000));
		collector_ack(col);
		s = collector_latest(col);
		assert_true(s->seq > seq);
		seq = s->seq;
		snapshot_unref(s);
	}
	s = collector_latest(col);
	const lt_group *g = snapshot_find_group(s, "ahead");
	assert_non_null(g);
	assert_non_null(g->error);
	assert_true(g->stale_ms > 0);
	snapshot_unref(s);
	collector_free(col); /* while the broker is down and lookups are in flight */
	sim_free(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbers_equal_the_sim),
		cmocka_unit_test(log_starts_carried_until_their_max_age),
		cmocka_unit_test(filters_and_explicit_groups),
		cmocka_unit_test(new_groups_among_remembered_ones),
		cmocka_unit_test(request_budget_on_200_groups),
		cmocka_unit_test(request_budget_on_600_groups),
		cmocka_unit_test(broker_goes_away_and_comes_back),
		cmocka_unit_test(thread_survives_a_dead_coordinator),
	};
	if (getenv("LT_TEST_FILTER"))
		cmocka_set_test_filter(getenv("LT_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
