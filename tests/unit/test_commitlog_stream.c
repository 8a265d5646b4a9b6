/* test_commitlog_stream.c — the commit-stream model: last commit, commits per minute, unmoved
 * (stuck) offsets, Kafka's offset-expiry rule and the warning horizon, tombstones, counters. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "commitlog/stream.h"
#include "../lib/commitlog_fixtures.h"
#include "../lib/cmocka_main.h"

#define SEC  1000LL
#define MIN  (60 * SEC)
#define HOUR (60 * MIN)
#define DAY  (24 * HOUR)
#define T0   1700000000000LL

static char err[256];

static void commit(lt_commit_stream *s, const char *g, const char *t, int32_t p, int64_t off, int64_t ts)
{
	struct fx_commit c;
	commit_stream_apply(s, fx_offset_commit(&c, g, t, p, off, ts));
}

static void group_meta(lt_commit_stream *s, const char *g, const char *ptype, size_t members, int64_t state_ms)
{
	lt_commit_member m[4];
	memset(m, 0, sizeof m);
	struct fx_group c;
	lt_commit_record *r = fx_group_metadata(&c, g, ptype, 3, state_ms, m, members);
	r->value_version = state_ms >= 0 ? 3 : 1;
	commit_stream_apply(s, r);
}

static void tombstone(lt_commit_stream *s, const char *g, const char *t, int32_t p)
{
	char gb[64], tb[64];
	snprintf(gb, sizeof gb, "%s", g);
	snprintf(tb, sizeof tb, "%s", t ? t : "");
	lt_commit_record r = {
		.type = t ? LT_CR_OFFSET_DELETE : LT_CR_GROUP_DELETE,
		.key_version = t ? 1 : 2,
		.value_version = -1,
		.group = gb,
		.topic = t ? tb : NULL,
		.partition = p,
	};
	commit_stream_apply(s, &r);
}

/* An offset tombstone as the reader hands it over: encoded key, null value, the record's timestamp. */
static void tombstone_at(lt_commit_stream *s, const char *g, const char *t, int32_t p, int64_t record_ms)
{
	char gb[64], tb[64];
	snprintf(gb, sizeof gb, "%s", g);
	snprintf(tb, sizeof tb, "%s", t);
	lt_commit_record r = {
		.type = LT_CR_OFFSET_DELETE,
		.key_version = 1,
		.value_version = -1,
		.group = gb,
		.topic = tb,
		.partition = p,
	};
	lt_bytes k = { 0 }, v = { 0 };
	int is_null = 0;
	assert_int_equal(commit_record_encode(&r, &k, &v, &is_null, err, sizeof err), 0);
	assert_true(is_null);
	assert_int_equal(commit_stream_feed_at(s, k.data, k.len, NULL, 0, record_ms, err, sizeof err), 0);
	bytes_free(&k);
	bytes_free(&v);
}

static lt_commit_stream *stream(int64_t retention_ms)
{
	lt_commit_stream_conf c = { .retention_ms = retention_ms };
	return commit_stream_new(&c);
}

static void last_commit_and_rate(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(0);
	/* every 10 s for 10 minutes, offsets moving */
	for (int i = 0; i <= 60; i++)
		commit(s, "g", "t", 0, 1000 + i * 10, T0 + i * 10 * SEC);
	lt_commit_stats st;
	int64_t now = T0 + 600 * SEC;
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, now, &st), 0);
	assert_int_equal(st.offset, 1600);
	assert_int_equal(st.last_commit_ms, now);
	assert_int_equal(st.last_commit_age_ms, 0);
	assert_int_equal(st.commits, 61);
	/* 6 per minute, exact to one 10 s bucket of the 5 min window */
	assert_true(st.commits_per_min >= 5.8 && st.commits_per_min <= 6.4);
	assert_false(st.repeating);
	assert_true(st.moved_exact);
	assert_int_equal(st.unmoved_ms, 0);

	/* ten minutes of silence: rate falls to zero, age grows */
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, now + 10 * MIN, &st), 0);
	assert_int_equal(st.last_commit_age_ms, 10 * MIN);
	assert_true(st.commits_per_min == 0.0);
	/* half a window later: about half the commits remain in it */
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, now + 150 * SEC, &st), 0);
	assert_true(st.commits_per_min >= 2.8 && st.commits_per_min <= 3.4);

	/* a partition first seen 20 s ago: its rate spans a minute, not the whole window */
	commit(s, "g", "t", 1, 1, now - 20 * SEC);
	commit(s, "g", "t", 1, 2, now - 10 * SEC);
	commit(s, "g", "t", 1, 3, now);
	assert_int_equal(commit_stream_stats(s, "g", "t", 1, now, &st), 0);
	assert_true(st.commits_per_min > 2.99 && st.commits_per_min < 3.01);

	/* a single commit (no bucket ring yet): one per minute while fresh, none once out of the window */
	commit(s, "single", "t", 0, 1, now);
	assert_int_equal(commit_stream_stats(s, "single", "t", 0, now, &st), 0);
	assert_true(st.commits_per_min > 0.99 && st.commits_per_min < 1.01);
	assert_int_equal(commit_stream_stats(s, "single", "t", 0, now + 10 * MIN, &st), 0);
	assert_true(st.commits_per_min == 0.0);

	lt_commit_group_stats gs;
	assert_int_equal(commit_stream_group_stats(s, "g", now, &gs), 0);
	assert_int_equal(gs.n_partitions, 2);
	assert_int_equal(gs.last_commit_ms, now);
	assert_true(gs.commits_per_min >= 8.8 && gs.commits_per_min <= 9.4);
	assert_false(gs.has_metadata);
	assert_int_equal(commit_stream_stats(s, "g", "t", 2, now, &st), -1);
	assert_int_equal(commit_stream_stats(s, "nope", "t", 0, now, &st), -1);
	assert_int_equal(commit_stream_group_stats(s, "nope", now, &gs), -1);
	commit_stream_free(s);
}

/* commit_stream_group_info: the group's own fields as commit_stream_group_stats gives them, without the
 * walk over its partitions (their sums left unknown); commit_stream_group and
 * commit_stream_group_part_stats: the same stats as commit_stream_stats, the group looked up once. */
static void group_info_and_lookup(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(7 * DAY);
	int64_t c = T0, now = T0 + 2 * DAY;
	commit(s, "empty", "t", 0, 10, c);
	commit(s, "empty", "t", 1, 20, c - HOUR);
	commit(s, "empty", "u", 0, 30, c - DAY);
	group_meta(s, "empty", "consumer", 0, c + HOUR);
	commit(s, "stable", "t", 0, 5, c);
	commit(s, "stable", "t", 1, 6, c);
	tombstone(s, "stable", "t", 1);
	group_meta(s, "stable", "consumer", 2, c);
	commit(s, "admin", "t", 0, 7, c);
	commit(s, "admin", "t", 0, 8, c + MIN);

	const char *groups[] = { "empty", "stable", "admin" };
	for (size_t i = 0; i < 3; i++) {
		lt_commit_group_stats full, info;
		assert_int_equal(commit_stream_group_stats(s, groups[i], now, &full), 0);
		assert_int_equal(commit_stream_group_info(s, groups[i], &info), 0);
		assert_int_equal(info.has_metadata, full.has_metadata);
		assert_int_equal(info.deleted, full.deleted);
		assert_int_equal(info.new_protocol, full.new_protocol);
		assert_int_equal(info.empty, full.empty);
		assert_int_equal(info.generation, full.generation);
		assert_int_equal(info.n_members, full.n_members);
		assert_int_equal(info.state_ms, full.state_ms);
		assert_string_equal(info.protocol_type, full.protocol_type);
		assert_int_equal(info.n_partitions, full.n_partitions);
		assert_true(full.last_commit_ms >= 0); /* the full stats have sums that info leaves unknown */
		assert_int_equal(info.last_commit_ms, -1);
		assert_int_equal(info.last_commit_age_ms, -1);
		assert_int_equal(info.expired_ms, -1);
		assert_int_equal(info.n_expired, 0);
		assert_true(info.commits_per_min == 0.0);
		assert_false(info.has_expiry);

		const lt_commit_group *g = commit_stream_group(s, groups[i]);
		assert_non_null(g);
		const char *topics[] = { "t", "u" };
		for (int t = 0; t < 2; t++)
			for (int32_t p = 0; p < 3; p++) {
				lt_commit_stats a, b;
				memset(&a, 0x5a, sizeof a);
				memset(&b, 0x5a, sizeof b);
				int ra = commit_stream_stats(s, groups[i], topics[t], p, now, &a);
				int rb = commit_stream_group_part_stats(s, g, topics[t], p, now, &b);
				assert_int_equal(ra, rb);
				if (ra == 0)
					assert_memory_equal(&a, &b, sizeof a);
			}
	}
	lt_commit_group_stats gs;
	lt_commit_stats st;
	assert_int_equal(commit_stream_group_info(s, "empty", &gs), 0);
	assert_int_equal(gs.n_partitions, 3);
	assert_true(gs.empty);
	assert_int_equal(gs.generation, 3);
	assert_int_equal(commit_stream_group_info(s, "stable", &gs), 0);
	assert_int_equal(gs.n_members, 2);
	assert_int_equal(gs.n_partitions, 1); /* t-1's offsets were deleted */
	assert_int_equal(commit_stream_group_part_stats(s, commit_stream_group(s, "stable"), "t", 1, now, &st), -1);
	assert_int_equal(commit_stream_group_part_stats(s, commit_stream_group(s, "admin"), "t", 0, now, &st), 0);
	assert_int_equal(st.offset, 8);
	assert_int_equal(commit_stream_group_info(s, "nope", &gs), -1);
	assert_null(commit_stream_group(s, "nope"));
	assert_int_equal(commit_stream_group_part_stats(s, NULL, "t", 0, now, &st), -1);
	commit_stream_free(s);
}

static void same_offset_committed_is_stuck(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(0);
	/* p0: moves to 50 at T0+10s, then commits 50 every 10 s for 10 minutes: alive but stuck */
	commit(s, "g", "t", 0, 40, T0);
	for (int i = 1; i <= 61; i++)
		commit(s, "g", "t", 0, 50, T0 + i * 10 * SEC);
	/* p1: the same offset, but the last commit was long ago: not alive */
	for (int i = 0; i < 5; i++)
		commit(s, "g", "t", 1, 7, T0 - 2 * HOUR + i * 10 * SEC);
	/* p2: never moved while observed: the age is only a lower bound */
	for (int i = 0; i <= 61; i++)
		commit(s, "g", "t", 2, 9, T0 + i * 10 * SEC);
	int64_t now = T0 + 620 * SEC;

	lt_commit_stats st;
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, now, &st), 0);
	assert_int_equal(st.offset, 50);
	assert_true(st.moved_exact);
	assert_int_equal(st.moved_ms, T0 + 10 * SEC);
	assert_int_equal(st.unmoved_ms, 610 * SEC);
	assert_int_equal(st.same_offset_commits, 60);
	assert_true(st.repeating);

	assert_int_equal(commit_stream_stats(s, "g", "t", 1, now, &st), 0);
	assert_false(st.repeating);
	assert_int_equal(st.same_offset_commits, 4);

	assert_int_equal(commit_stream_stats(s, "g", "t", 2, now, &st), 0);
	assert_false(st.moved_exact);
	assert_int_equal(st.unmoved_ms, 620 * SEC);
	assert_true(st.repeating);

	/* the offset moves again: no longer stuck */
	commit(s, "g", "t", 0, 51, now);
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, now, &st), 0);
	assert_int_equal(st.unmoved_ms, 0);
	assert_int_equal(st.same_offset_commits, 0);
	assert_false(st.repeating);
	/* moved only a little while ago: a couple of repeats are not stuck yet */
	commit(s, "g", "t", 0, 51, now + 10 * SEC);
	commit(s, "g", "t", 0, 51, now + 20 * SEC);
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, now + 20 * SEC, &st), 0);
	assert_int_equal(st.same_offset_commits, 2);
	assert_false(st.repeating);
	commit_stream_free(s);
}

static void expiry_follows_kafka(void **state)
{
	(void)state;
	const int64_t retention = 7 * DAY;
	lt_commit_stream *s = stream(retention);
	int64_t c = T0, became_empty = T0 + HOUR;

	/* Empty consumer group with v2+ metadata: retention runs from when it became Empty */
	commit(s, "empty", "t", 0, 10, c);
	commit(s, "empty", "t", 1, 10, c - DAY);
	group_meta(s, "empty", "consumer", 0, became_empty);
	/* Stable group: no forecast */
	commit(s, "stable", "t", 0, 10, c);
	group_meta(s, "stable", "consumer", 2, c);
	/* only admin commits, no metadata: retention runs from each commit */
	commit(s, "admin", "t", 0, 10, c);
	/* Empty group with old (v1) metadata, no state timestamp: from the commit */
	commit(s, "old", "t", 0, 10, c);
	group_meta(s, "old", "consumer", 0, -1);
	/* protocolType "" (simple consumer group): from the commit even with metadata */
	commit(s, "simple", "t", 0, 10, c);
	group_meta(s, "simple", "", 0, became_empty);

	lt_commit_stats st;
	int64_t now = became_empty + 5 * DAY;
	assert_int_equal(commit_stream_stats(s, "empty", "t", 0, now, &st), 0);
	assert_true(st.has_expiry);
	assert_int_equal(st.expires_at_ms, became_empty + retention);
	assert_int_equal(st.expires_in_ms, 2 * DAY);
	assert_true(st.expiry_warn); /* 2 days < 3 day horizon */
	assert_int_equal(commit_stream_stats(s, "empty", "t", 0, became_empty + DAY, &st), 0);
	assert_int_equal(st.expires_in_ms, 6 * DAY);
	assert_false(st.expiry_warn);

	assert_int_equal(commit_stream_stats(s, "stable", "t", 0, now, &st), 0);
	assert_false(st.has_expiry);
	assert_false(st.expiry_warn);

	assert_int_equal(commit_stream_stats(s, "admin", "t", 0, now, &st), 0);
	assert_true(st.has_expiry);
	assert_int_equal(st.expires_at_ms, c + retention);

	assert_int_equal(commit_stream_stats(s, "old", "t", 0, now, &st), 0);
	assert_int_equal(st.expires_at_ms, c + retention);
	assert_int_equal(commit_stream_stats(s, "simple", "t", 0, now, &st), 0);
	assert_int_equal(st.expires_at_ms, c + retention);

	/* overdue: negative, still warned */
	assert_int_equal(commit_stream_stats(s, "admin", "t", 0, c + 8 * DAY, &st), 0);
	assert_int_equal(st.expires_in_ms, -DAY);
	assert_true(st.expiry_warn);

	/* a shorter horizon silences the warning */
	commit_stream_set_horizon(s, DAY);
	assert_int_equal(commit_stream_stats(s, "empty", "t", 0, now, &st), 0);
	assert_false(st.expiry_warn);
	commit_stream_set_horizon(s, 0); /* back to the 3 day default */

	/* group view: the earliest partition forecast, group state from the metadata */
	lt_commit_group_stats gs;
	assert_int_equal(commit_stream_group_stats(s, "empty", now, &gs), 0);
	assert_true(gs.has_metadata);
	assert_true(gs.empty);
	assert_int_equal(gs.n_members, 0);
	assert_int_equal(gs.state_ms, became_empty);
	assert_string_equal(gs.protocol_type, "consumer");
	assert_true(gs.has_expiry && gs.expiry_warn);
	assert_int_equal(gs.expires_at_ms, became_empty + retention);
	assert_int_equal(gs.last_commit_ms, c);
	assert_int_equal(commit_stream_group_stats(s, "stable", now, &gs), 0);
	assert_false(gs.empty);
	assert_int_equal(gs.n_members, 2);
	assert_false(gs.has_expiry);

	/* members leave: the Stable group becomes Empty and gets a forecast */
	group_meta(s, "stable", "consumer", 0, now);
	assert_int_equal(commit_stream_stats(s, "stable", "t", 0, now, &st), 0);
	assert_int_equal(st.expires_at_ms, now + retention);
	assert_false(st.expiry_warn);

	/* retention unknown: no forecast */
	commit_stream_set_retention(s, 0);
	assert_int_equal(commit_stream_stats(s, "empty", "t", 0, now, &st), 0);
	assert_false(st.has_expiry);
	commit_stream_free(s);
}

static void explicit_expire_timestamp_wins(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(0); /* no retention known: only the explicit one */
	assert_int_equal(commit_stream_feed(s, fx_offset_key_v1, FX_LEN(fx_offset_key_v1), fx_offset_value_v1,
					    FX_LEN(fx_offset_value_v1), err, sizeof err),
			 0);
	lt_commit_stats st;
	assert_int_equal(commit_stream_stats(s, "g1", "t", 3, FX_COMMIT_MS + HOUR, &st), 0);
	assert_true(st.has_expiry);
	assert_int_equal(st.expires_at_ms, FX_EXPIRE_MS);
	assert_int_equal(st.expires_in_ms, DAY - HOUR);
	assert_true(st.expiry_warn);
	/* a later v3 commit carries none: with retention unknown, no forecast */
	assert_int_equal(commit_stream_feed(s, fx_offset_key_v1, FX_LEN(fx_offset_key_v1), fx_offset_value_v3,
					    FX_LEN(fx_offset_value_v3), err, sizeof err),
			 0);
	assert_int_equal(commit_stream_stats(s, "g1", "t", 3, FX_COMMIT_MS + HOUR, &st), 0);
	assert_false(st.has_expiry);
	commit_stream_free(s);
}

static void tombstones_remove(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(DAY);
	commit(s, "g", "t", 0, 1, T0);
	commit(s, "g", "t", 1, 1, T0);
	group_meta(s, "g", "consumer", 1, T0);
	assert_int_equal(commit_stream_n_groups(s), 1);
	lt_commit_stats st;
	lt_commit_group_stats gs;

	tombstone(s, "g", "t", 0); /* offset expired / deleted */
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, T0, &st), -1);
	assert_int_equal(commit_stream_stats(s, "g", "t", 1, T0, &st), 0);
	assert_false(st.has_expiry); /* one member: Stable */

	tombstone(s, "g", NULL, 0); /* group deleted, one offset left */
	assert_int_equal(commit_stream_group_stats(s, "g", T0, &gs), 0);
	assert_true(gs.deleted);
	assert_false(gs.has_metadata);
	assert_int_equal(gs.n_partitions, 1);
	assert_int_equal(commit_stream_stats(s, "g", "t", 1, T0, &st), 0);
	assert_true(st.has_expiry); /* a bare offset holder: from the commit */
	assert_int_equal(st.expires_at_ms, T0 + DAY);

	tombstone(s, "g", "t", 1);
	assert_int_equal(commit_stream_group_stats(s, "g", T0, &gs), -1);
	assert_int_equal(commit_stream_n_groups(s), 0);

	/* tombstones of things never seen change nothing */
	tombstone(s, "x", "t", 0);
	tombstone(s, "x", NULL, 0);
	assert_int_equal(commit_stream_n_groups(s), 0);

	/* a metadata-only group disappears with its tombstone */
	group_meta(s, "m", "consumer", 0, T0);
	assert_int_equal(commit_stream_n_groups(s), 1);
	tombstone(s, "m", NULL, 0);
	assert_int_equal(commit_stream_n_groups(s), 0);
	/* the same group coming back starts afresh */
	commit(s, "g", "t", 0, 5, T0 + HOUR);
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, T0 + HOUR, &st), 0);
	assert_int_equal(st.commits, 1);
	commit_stream_free(s);
}

/* A tombstone written at or after the forecast is Kafka's expiry: the partition is kept as
 * expired (no live commit), with the group even after its own tombstone; an earlier one is a delete. */
static void tombstone_at_forecast_is_expiry(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(MIN);
	lt_commit_stats st;
	lt_commit_group_stats gs;
	lt_commit_expired e;
	/* an Empty group: expires a minute after it became Empty (T0 + 10 s) */
	commit(s, "e", "t", 0, 7, T0);
	commit(s, "e", "t", 1, 8, T0);
	group_meta(s, "e", "consumer", 0, T0 + 10 * SEC);
	/* a simple group: from its commits */
	commit(s, "s", "t", 0, 3, T0 + 5 * SEC);
	commit(s, "s", "t", 1, 4, T0 + 5 * SEC);

	tombstone_at(s, "e", "t", 0, T0 + 10 * SEC + MIN + 2 * SEC); /* at the check after the forecast */
	assert_int_equal(commit_stream_stats(s, "e", "t", 0, T0 + 2 * MIN, &st), -1);
	assert_int_equal(commit_stream_expired(s, "e", "t", 0, &e), 0);
	assert_int_equal(e.offset, 7);
	assert_int_equal(e.expires_at_ms, T0 + 10 * SEC + MIN);
	assert_int_equal(e.expired_ms, T0 + 10 * SEC + MIN + 2 * SEC);
	assert_int_equal(e.last_commit_ms, T0);
	tombstone_at(s, "e", "t", 1, T0 + 10 * SEC + MIN); /* exactly at the forecast: Kafka's ">=" */
	tombstone(s, "e", NULL, 0);                        /* Kafka deletes the group left without offsets */
	assert_int_equal(commit_stream_group_stats(s, "e", T0 + 2 * MIN, &gs), 0);
	assert_int_equal(gs.n_partitions, 0);
	assert_int_equal(gs.n_expired, 2);
	assert_int_equal(gs.expired_ms, T0 + 10 * SEC + MIN + 2 * SEC);
	assert_false(gs.has_expiry);

	/* the simple group: one tombstone early (OffsetDelete), one after the forecast */
	tombstone_at(s, "s", "t", 0, T0 + 30 * SEC);
	tombstone_at(s, "s", "t", 1, T0 + 5 * SEC + MIN + 100);
	assert_int_equal(commit_stream_expired(s, "s", "t", 0, &e), -1);
	assert_int_equal(commit_stream_stats(s, "s", "t", 0, T0 + 2 * MIN, &st), -1);
	assert_int_equal(commit_stream_expired(s, "s", "t", 1, &e), 0);
	assert_int_equal(commit_stream_group_stats(s, "s", T0 + 2 * MIN, &gs), 0);
	assert_int_equal(gs.n_expired, 1);

	/* committed again: live again */
	commit(s, "e", "t", 0, 9, T0 + 3 * MIN);
	assert_int_equal(commit_stream_expired(s, "e", "t", 0, &e), -1);
	assert_int_equal(commit_stream_stats(s, "e", "t", 0, T0 + 3 * MIN, &st), 0);
	assert_int_equal(st.offset, 9);
	assert_int_equal(st.commits, 1);
	assert_int_equal(commit_stream_group_stats(s, "e", T0 + 3 * MIN, &gs), 0);
	assert_int_equal(gs.n_expired, 1);
	assert_int_equal(gs.n_partitions, 1);

	/* a tombstone without a record time is a delete; so is one of a Stable group's subscribed offsets */
	commit(s, "n", "t", 0, 1, T0);
	commit_stream_feed(s, NULL, 0, NULL, 0, err, sizeof err); /* malformed: counted, changes nothing */
	tombstone(s, "n", "t", 0);
	assert_int_equal(commit_stream_group_stats(s, "n", T0 + HOUR, &gs), -1);
	commit_stream_free(s);
}

/* Tombstones read before offsets.retention.minutes is known (DescribeConfigs answers late): kept until it
 * is, then each decided. */
static void tombstone_waits_for_the_retention(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(0);
	lt_commit_expired e;
	lt_commit_group_stats gs;
	commit(s, "g", "t", 0, 1, T0);
	commit(s, "g", "t", 1, 1, T0);
	commit(s, "h", "t", 0, 1, T0);
	tombstone_at(s, "g", "t", 0, T0 + 2 * MIN);                      /* after the 1-minute forecast: expired */
	tombstone_at(s, "g", "t", 1, T0 + 30 * SEC);                     /* before it: deleted */
	tombstone_at(s, "h", "t", 0, T0 + 30 * SEC);                     /* deleted, and the group with it */
	assert_int_equal(commit_stream_expired(s, "g", "t", 0, &e), -1); /* undecided: not shown yet */
	assert_int_equal(commit_stream_n_groups(s), 2);
	commit_stream_set_retention(s, MIN);
	assert_int_equal(commit_stream_expired(s, "g", "t", 0, &e), 0);
	assert_int_equal(commit_stream_expired(s, "g", "t", 1, &e), -1);
	assert_int_equal(commit_stream_group_stats(s, "g", T0 + 3 * MIN, &gs), 0);
	assert_int_equal(gs.n_expired, 1);
	assert_int_equal(commit_stream_group_stats(s, "h", T0 + 3 * MIN, &gs), -1);
	assert_int_equal(commit_stream_n_groups(s), 1);
	commit_stream_free(s);
}

static void feed_counts_everything(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(0);
	static const uint8_t k7[] = { 0x00, 0x07, 0x00, 0x02, 'g', '1' }; /* a KIP-848 target assignment key */
	static const uint8_t v5[] = { 0x00, 0x05, 0x00 };                 /* a value version not handled */
	struct {
		const uint8_t *k;
		size_t kl;
		const uint8_t *v;
		size_t vl;
		int rc;
	} in[] = {
		{ fx_offset_key_v0, FX_LEN(fx_offset_key_v0), fx_offset_value_v0, FX_LEN(fx_offset_value_v0), 0 },
		{ fx_offset_key_v1, FX_LEN(fx_offset_key_v1), fx_offset_value_v2, FX_LEN(fx_offset_value_v2), 0 },
		{ fx_group_key, FX_LEN(fx_group_key), fx_group_value_v2, FX_LEN(fx_group_value_v2), 0 },
		{ fx_group_key, FX_LEN(fx_group_key), fx_group_value_v3_empty, FX_LEN(fx_group_value_v3_empty), 0 },
		{ k7, sizeof k7, v5, sizeof v5, 0 },                                       /* unknown key */
		{ fx_offset_key_v1, FX_LEN(fx_offset_key_v1), v5, sizeof v5, 0 },          /* unknown value */
		{ fx_group_key, FX_LEN(fx_group_key), v5, sizeof v5, 0 },                  /* unknown value */
		{ fx_offset_key_v1, FX_LEN(fx_offset_key_v1), fx_offset_value_v3, 5, -1 }, /* truncated */
		{ fx_offset_key_v1, 3, NULL, 0, -1 },                                      /* truncated key */
		{ fx_offset_key_v0, FX_LEN(fx_offset_key_v0), NULL, 0, 0 },                /* offset tombstone */
		{ fx_group_key, FX_LEN(fx_group_key), NULL, 0, 0 },                        /* group tombstone */
	};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		if (i == 7) {
			/* before the malformed records: v2 commit of offset 2^40 is live */
			lt_commit_stats st;
			assert_int_equal(commit_stream_stats(s, "g1", "t", 3, FX_COMMIT_MS, &st), 0);
			assert_int_equal(st.offset, 1099511627776LL);
			assert_int_equal(st.commits, 2);
		}
		int rc = commit_stream_feed(s, in[i].k, in[i].kl, in[i].v, in[i].vl, err, sizeof err);
		if (rc != in[i].rc)
			fail_msg("record %zu: rc %d, want %d (%s)", i, rc, in[i].rc, err);
	}
	fx_expect_counters(commit_stream_counters(s), &(lt_commit_counters){ .records = 11,
									     .offset_commits = 2,
									     .offset_tombstones = 1,
									     .group_metadata = 2,
									     .group_tombstones = 1,
									     .unknown_key = 1,
									     .unknown_value = 2,
									     .malformed = 2 });
	assert_int_equal(commit_stream_n_groups(s), 0);
	commit_stream_free(s);
}

static void many_groups_and_partitions(void **state)
{
	(void)state;
	lt_commit_stream *s = stream(DAY);
	char g[32], t[32];
	for (int i = 0; i < 600; i++) {
		snprintf(g, sizeof g, "group-%d", i);
		for (int p = 0; p < 40; p++) {
			snprintf(t, sizeof t, "topic-%d", p % 4);
			commit(s, g, t, p, i * 1000 + p, T0 + i);
		}
	}
	assert_int_equal(commit_stream_n_groups(s), 600);
	lt_commit_stats st;
	for (int i = 0; i < 600; i += 7) {
		snprintf(g, sizeof g, "group-%d", i);
		for (int p = 0; p < 40; p += 3) {
			snprintf(t, sizeof t, "topic-%d", p % 4);
			assert_int_equal(commit_stream_stats(s, g, t, p, T0 + DAY, &st), 0);
			assert_int_equal(st.offset, i * 1000 + p);
			assert_int_equal(st.last_commit_ms, T0 + i);
		}
		snprintf(t, sizeof t, "topic-%d", 1);
		assert_int_equal(commit_stream_stats(s, g, t, 0, T0, &st), -1); /* partition 0 is topic-0's */
	}
	lt_commit_group_stats gs;
	assert_int_equal(commit_stream_group_stats(s, "group-599", T0, &gs), 0);
	assert_int_equal(gs.n_partitions, 40);
	commit_stream_free(s);
}

static void stable_group_loses_unsubscribed_topics(void **state)
{
	(void)state;
	const int64_t retention = 7 * DAY;
	lt_commit_stream *s = stream(retention);
	/* two members: one subscribes ["a"], the other ["a", "b"] (ConsumerProtocolSubscription v0) */
	uint8_t sub_a[] = { 0, 0, 0, 0, 0, 1, 0, 1, 'a', 0xff, 0xff, 0xff, 0xff };
	uint8_t sub_ab[] = { 0, 0, 0, 0, 0, 2, 0, 1, 'a', 0, 1, 'b', 0xff, 0xff, 0xff, 0xff };
	lt_commit_member m[2] = {
		{ .subscription = sub_a, .subscription_len = sizeof sub_a },
		{ .subscription = sub_ab, .subscription_len = sizeof sub_ab },
	};
	struct fx_group g;
	lt_commit_record *r = fx_group_metadata(&g, "g", "consumer", 1, T0, m, 2);
	commit(s, "g", "a", 0, 1, T0);
	commit(s, "g", "b", 0, 1, T0);
	commit(s, "g", "c", 0, 1, T0 - DAY); /* the group stopped reading c a while ago */
	commit_stream_apply(s, r);
	lt_commit_stats st;
	assert_int_equal(commit_stream_stats(s, "g", "a", 0, T0, &st), 0);
	assert_false(st.has_expiry);
	assert_int_equal(commit_stream_stats(s, "g", "b", 0, T0, &st), 0);
	assert_false(st.has_expiry);
	assert_int_equal(commit_stream_stats(s, "g", "c", 0, T0, &st), 0);
	assert_true(st.has_expiry);
	assert_int_equal(st.expires_at_ms, T0 - DAY + retention);
	assert_false(st.expiry_warn);
	assert_int_equal(commit_stream_stats(s, "g", "c", 0, T0 + 5 * DAY, &st), 0);
	assert_true(st.expiry_warn);

	/* one unreadable subscription: Kafka cannot tell what is subscribed, so nothing expires */
	sub_a[1] = 0xff;
	sub_a[0] = 0xff; /* version -1 */
	r->generation = 2;
	commit_stream_apply(s, r);
	assert_int_equal(commit_stream_stats(s, "g", "c", 0, T0, &st), 0);
	assert_false(st.has_expiry);
	commit_stream_free(s);
}

/* ConsumerGroupMemberMetadata of member "m1" of group "g" (key version 5; value v0, flexible), subscribing
 * to topic "t", or to a regex when regex is set; NULL value: the member left. */
static void np_member(lt_commit_stream *s, bool present, bool regex)
{
	static const uint8_t k5[] = { 0x00, 0x05, 0x00, 0x01, 'g', 0x00, 0x02, 'm', '1' };
	/* version, instanceId null, rackId null, clientId "c", clientHost "h", names ["t"], regex null or
	 * "x.*", rebalanceTimeoutMs, serverAssignor null, no tagged fields */
	static const uint8_t by_name[] = { 0, 0, 0, 0, 2, 'c', 2, 'h', 2, 2, 't', 0, 0, 0, 0x75, 0x30, 0, 0 };
	static const uint8_t by_regex[] = { 0, 0, 0, 0, 2, 'c', 2, 'h', 1, 4, 'x', '.', '*', 0, 0, 0x75, 0x30, 0, 0 };
	const uint8_t *v = regex ? by_regex : by_name;
	size_t vlen = regex ? sizeof by_regex : sizeof by_name;
	assert_int_equal(commit_stream_feed(s, k5, sizeof k5, present ? v : NULL, present ? vlen : 0, err, sizeof err),
			 0);
}

/* Kafka 4.x's ConsumerGroup.offsetExpirationCondition: each offset expires `retention` after its commit,
 * except those of the topics the group's members subscribe to (OffsetMetadataManager.cleanupExpiredOffsets). */
static void new_protocol_groups_follow_kafka(void **state)
{
	(void)state;
	const int64_t retention = 7 * DAY;
	lt_commit_stream *s = stream(retention);
	/* ConsumerGroupMetadataKey "g" (key version 3) with some value, then commits */
	static const uint8_t k3[] = { 0x00, 0x03, 0x00, 0x01, 'g' };
	static const uint8_t v3[] = { 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00 };
	assert_int_equal(commit_stream_feed(s, k3, sizeof k3, v3, sizeof v3, err, sizeof err), 0);
	np_member(s, true, false);
	commit(s, "g", "t", 0, 1, T0);
	commit(s, "g", "old", 0, 1, T0 - DAY);
	lt_commit_stats st;
	lt_commit_group_stats gs;
	assert_int_equal(commit_stream_group_stats(s, "g", T0, &gs), 0);
	assert_true(gs.new_protocol);
	assert_int_equal(commit_stream_counters(s)->unknown_key, 2);
	/* the member subscribes to t: kept; old: from its commit */
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, T0, &st), 0);
	assert_false(st.has_expiry);
	assert_int_equal(commit_stream_stats(s, "g", "old", 0, T0, &st), 0);
	assert_true(st.has_expiry);
	assert_int_equal(st.expires_at_ms, T0 - DAY + retention);
	/* a regex subscription: its topics are resolved by the coordinator, not told here: no forecast */
	np_member(s, true, true);
	assert_int_equal(commit_stream_stats(s, "g", "old", 0, T0, &st), 0);
	assert_false(st.has_expiry);
	/* the member left: every offset expires `retention` after its own commit (not after the leave) */
	np_member(s, false, false);
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, T0 + HOUR, &st), 0);
	assert_true(st.has_expiry);
	assert_int_equal(st.expires_at_ms, T0 + retention);
	assert_int_equal(commit_stream_group_stats(s, "g", T0, &gs), 0);
	assert_true(gs.has_expiry);
	assert_int_equal(gs.expires_at_ms, T0 - DAY + retention);
	/* the broker's tombstones at the forecast are the expiry, kept as expired; then the group's own */
	tombstone_at(s, "g", "old", 0, T0 - DAY + retention + 5 * SEC);
	tombstone_at(s, "g", "t", 0, T0 + retention + 5 * SEC);
	assert_int_equal(commit_stream_feed_at(s, k3, sizeof k3, NULL, 0, T0 + retention + 5 * SEC, err, sizeof err),
			 0);
	lt_commit_expired ex;
	assert_int_equal(commit_stream_expired(s, "g", "t", 0, &ex), 0);
	assert_int_equal(ex.expires_at_ms, T0 + retention);
	assert_int_equal(commit_stream_expired(s, "g", "old", 0, &ex), 0);
	assert_int_equal(commit_stream_stats(s, "g", "t", 0, T0 + retention, &st), -1);
	assert_int_equal(commit_stream_group_stats(s, "g", T0 + retention, &gs), 0);
	assert_int_equal(gs.n_expired, 2);
	assert_false(gs.new_protocol);
	/* a tombstone before the forecast is a delete (OffsetDelete), as for every group */
	assert_int_equal(commit_stream_feed(s, k3, sizeof k3, v3, sizeof v3, err, sizeof err), 0);
	commit(s, "g", "d", 0, 1, T0);
	tombstone_at(s, "g", "d", 0, T0 + HOUR);
	assert_int_equal(commit_stream_expired(s, "g", "d", 0, &ex), -1);
	assert_int_equal(commit_stream_stats(s, "g", "d", 0, T0 + HOUR, &st), -1);
	/* a key-3 tombstone removes a group that holds nothing else */
	assert_int_equal(commit_stream_feed(s, k3, sizeof k3, NULL, 0, err, sizeof err), 0);
	commit_stream_free(s);
	s = stream(retention);
	assert_int_equal(commit_stream_feed(s, k3, sizeof k3, v3, sizeof v3, err, sizeof err), 0);
	np_member(s, true, false);
	assert_int_equal(commit_stream_n_groups(s), 1);
	np_member(s, false, false);
	assert_int_equal(commit_stream_feed(s, k3, sizeof k3, NULL, 0, err, sizeof err), 0);
	assert_int_equal(commit_stream_n_groups(s), 0);
	commit_stream_free(s);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(last_commit_and_rate),
	cmocka_unit_test(group_info_and_lookup),
	cmocka_unit_test(same_offset_committed_is_stuck),
	cmocka_unit_test(expiry_follows_kafka),
	cmocka_unit_test(explicit_expire_timestamp_wins),
	cmocka_unit_test(tombstones_remove),
	cmocka_unit_test(tombstone_at_forecast_is_expiry),
	cmocka_unit_test(tombstone_waits_for_the_retention),
	cmocka_unit_test(feed_counts_everything),
	cmocka_unit_test(many_groups_and_partitions),
	cmocka_unit_test(stable_group_loses_unsubscribed_topics),
	cmocka_unit_test(new_protocol_groups_follow_kafka),
};

LT_TEST_MAIN(NULL, NULL)
