/* test_output.c — --once renderings of a hand-built snapshot: JSON shape and nulls, CSV, table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/output.h"
#include "model/snapshot.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

static lt_snapshot *sample(void)
{
	lt_snapshot *s = snapshot_new();
	s->cluster = strdup("test");
	s->brokers_up = s->brokers_total = 3;
	lt_group *g = snapshot_add_group(s, "orders");
	g->state = LT_GROUP_STABLE;
	g->type = LT_GTYPE_CLASSIC;
	lt_member *m = group_add_member(g, "m-1", "c1", "/127.0.0.1");
	member_add_assignment(m, "t", 0);
	member_add_assignment(m, "t", 1);
	lt_partition *p = group_add_partition(g, "t", 0);
	p->log_start = 0, p->committed = 100, p->log_end = 150, p->has_lag = true, p->lag = 50;
	p = group_add_partition(g, "t", 1); /* assigned, never committed */
	p->log_start = 5, p->log_end = 9;
	g->total_lag = 50;

	lt_group *e = snapshot_add_group(s, "evil\x1b[2J\"g,");
	e->state = LT_GROUP_EMPTY;
	p = group_add_partition(e, "t\n2", 3);
	p->committed = 7, p->log_end = LT_OFFSET_NONE, p->flags = LT_PF_NO_LEADER;
	p = group_add_partition(e, "u", 0); /* a leader, but its ListOffsets failed */
	p->committed = 8, p->log_end = LT_OFFSET_NONE, p->flags = LT_PF_LOG_UNKNOWN;
	snapshot_finish(s);
	return s;
}

static void json_shape_and_nulls(void **state)
{
	(void)state;
	lt_snapshot *s = sample();
	char *j = test_render(TEST_JSON, s);
	expect_all_in(j, (const char *const[]){
				 "\"group\":\"orders\",\"state\":\"Stable\",\"type\":\"classic\","
				 "\"members_readable\":true,\"members\":1,\"lag\":50",
				 /* a type nobody reported is null, not a guess */
				 "\"state\":\"Empty\",\"type\":null,\"members_readable\":true,\"members\":0",
				 "{\"topic\":\"t\",\"partition\":0,\"log_start\":0,\"committed\":100,"
				 "\"log_end\":150,\"lag\":50,\"consumer_id\":\"m-1\",\"client_id\":\"c1\","
				 "\"host\":\"/127.0.0.1\"",
				 /* unknown committed: null, and so is the lag — never 0 */
				 "\"partition\":1,\"log_start\":5,\"committed\":null,\"log_end\":9,\"lag\":null",
				 /* untrusted names escaped, not raw */
				 "\"group\":\"evil\\u001b[2J\\\"g,\"", "\"topic\":\"t\\u000a2\"", "\"log_end\":null",
				 "\"flags\":[\"no_leader\"]",
				 /* a failed ListOffsets is its own flag, not no_leader */
				 "\"topic\":\"u\",\"partition\":0,", "\"flags\":[\"log_offsets_unknown\"]", NULL });
	assert_null(strchr(j, '\x1b'));
	free(j);
	snapshot_unref(s);
}

/* The commit stream's fields: values when known, null when not, and the stream's state. */
static void json_commit_stream(void **state)
{
	(void)state;
	lt_snapshot *s = sample();
	char *j = test_render(TEST_JSON, s);
	/* nothing from the stream: every commit field null, state "off" */
	assert_non_null(strstr(j, "\"commit_stream\":{\"state\":\"off\",\"reason\":null}"));
	assert_non_null(strstr(j, "\"last_commit_ms\":null,\"commits_per_min\":null,\"unmoved_ms\":null,"
				  "\"repeating\":null}"));
	assert_non_null(strstr(j, "\"last_commit_ms\":null,\"commits_per_min\":null,\"expires_at_ms\":null,"
				  "\"expiry_warning\":false"));
	free(j);

	s->commit_stream = LT_CSTREAM_LIVE;
	lt_group *g = &s->groups[1]; /* "orders" (sorted after the escape-laden name) */
	assert_string_equal(g->group, "orders");
	g->has_last_commit = true, g->last_commit_ms = 1700000000123, g->commits_per_min = 2.5;
	lt_group *e = &s->groups[0];
	e->has_expiry = true, e->expires_at_ms = 1700000600000, e->expiry_warn = true;
	lt_partition *p = &g->partitions[0];
	p->has_last_commit = true, p->last_commit_ms = 1700000000123, p->commits_per_min = 2.5;
	p->has_unmoved = true, p->unmoved_ms = 42000, p->repeating = true;
	j = test_render(TEST_JSON, s);
	assert_non_null(strstr(j, "\"commit_stream\":{\"state\":\"live\",\"reason\":null}"));
	assert_non_null(strstr(j, "\"last_commit_ms\":1700000000123,\"commits_per_min\":2.5,\"unmoved_ms\":42000,"
				  "\"repeating\":true}"));
	assert_non_null(strstr(j, "\"last_commit_ms\":1700000000123,\"commits_per_min\":2.5,\"expires_at_ms\":null"));
	assert_non_null(strstr(j, "\"expires_at_ms\":1700000600000,\"expiry_warning\":true"));
	free(j);

	s->commit_stream = LT_CSTREAM_DENIED;
	s->commit_stream_reason = strdup("commit times unavailable: not authorized");
	j = test_render(TEST_JSON, s);
	assert_non_null(strstr(j, "\"commit_stream\":{\"state\":\"denied\",\"reason\":\"commit times unavailable: "
				  "not authorized\"}"));
	free(j);
	snapshot_unref(s);
}

static void csv_header_and_quoting(void **state)
{
	(void)state;
	lt_snapshot *s = sample();
	char *c = test_render(TEST_CSV, s);
	assert_memory_equal(c,
			    "group,state,topic,partition,log_start,committed,log_end,lag,time_lag_ms,status,"
			    "consumer_id,host,client_id,type,members_readable,position,uncommitted,position_source,"
			    "position_age_ms,not_committing\n",
			    196);
	assert_non_null(strstr(c, "\norders,Stable,t,0,0,100,150,50,,,m-1,/127.0.0.1,c1,classic,true,,,,,\n"));
	assert_non_null(strstr(c, "\norders,Stable,t,1,5,,9,,,,m-1,/127.0.0.1,c1,classic,true,,,,,\n"));
	/* names as text cells: controls escaped as on the dashboard, then RFC 4180 quoting */
	assert_non_null(strstr(c, "\"evil\\x1b[2J\"\"g,\",Empty,t\\x0a2,3,,7,,,,,,,,,true,,,,,\n"));
	free(c);
	snapshot_unref(s);
}

static void table_columns_and_sanitizing(void **state)
{
	(void)state;
	lt_snapshot *s = sample();
	char *t = test_render(TEST_TABLE, s);
	const char *nl = strchr(t, '\n');
	assert_non_null(nl);
	char *hdr = strndup(t, (size_t)(nl - t));
	/* kafka-consumer-groups' columns in its order, then lagtop's; the same columns whatever is known */
	const char *want[] = { "GROUP", "TOPIC",       "PARTITION", "CURRENT-OFFSET", "LOG-END-OFFSET",
			       "LAG",   "CONSUMER-ID", "HOST",      "CLIENT-ID",      "STATE",
			       "TYPE",  "LOG-START",   "TIME-LAG",  "STATUS" };
	char *words = strdup(hdr), *save = NULL;
	size_t n = 0;
	for (char *w = strtok_r(words, " ", &save); w; w = strtok_r(NULL, " ", &save), n++) {
		assert_true(n < sizeof want / sizeof want[0]);
		assert_string_equal(w, want[n]);
	}
	assert_int_equal(n, sizeof want / sizeof want[0]);
	free(words);
	assert_null(strchr(t, '\x1b'));
	assert_non_null(strstr(t, "evil\\x1b[2J\"g,"));
	/* missing values are '-' */
	assert_non_null(strstr(t, "orders"));
	char *row1 = strstr(t, "\norders");
	row1 = strstr(row1 + 1, "\norders"); /* second row: partition 1, no commit */
	assert_non_null(row1);
	assert_non_null(strstr(row1, " - "));
	free(hdr);
	free(t);

	s->groups[1].partitions[0].has_time_lag = true;
	s->groups[1].partitions[0].time_lag_ms = 4500;
	s->groups[1].partitions[0].status = LT_STATUS_STALL;
	char *before = test_render(TEST_TABLE, s);
	t = test_render(TEST_TABLE, s);
	assert_memory_equal(t, before, strcspn(before, "\n")); /* the header does not move */
	free(before);
	assert_non_null(strstr(t, "STALL"));
	assert_non_null(strstr(t, "4.5s"));
	free(t);
	snapshot_unref(s);
}

/* A consumer-protocol (KIP-848) group described through the classic API: its state is ListGroups', its
 * members cannot be read. Every format says so: JSON type/members_readable and a null count, CSV the same
 * columns, the table its state and "?" (unknown) instead of "-" (nobody) for the owners. */
static lt_snapshot *kip848_sample(lt_group_state st)
{
	lt_snapshot *s = snapshot_new();
	s->cluster = strdup("test");
	test_add_kip848_group(s, "kip", st)->protocol_type = strdup("consumer");
	lt_group *c = snapshot_add_group(s, "quiet");
	c->state = LT_GROUP_RECONCILING;
	c->type = LT_GTYPE_CONSUMER;
	c->members_unreadable = true;
	snapshot_finish(s);
	return s;
}

static void members_unreadable_outputs(void **state)
{
	(void)state;
	lt_snapshot *s = kip848_sample(LT_GROUP_STABLE);
	char *j = test_render(TEST_JSON, s);
	assert_non_null(strstr(j, "\"group\":\"kip\",\"state\":\"Stable\",\"type\":\"consumer\","
				  "\"members_readable\":false,\"members\":null,\"lag\":350"));
	assert_non_null(strstr(j, "\"group\":\"quiet\",\"state\":\"Reconciling\",\"type\":\"consumer\","
				  "\"members_readable\":false,\"members\":null"));
	assert_non_null(strstr(j, "\"committed\":650"));
	free(j);

	char *c = test_render(TEST_CSV, s);
	assert_non_null(strstr(c, "\nkip,Stable,fx-orders,1,0,650,1000,350,,,,,,consumer,false,,,,,\n"));
	assert_non_null(strstr(c, "\nquiet,Reconciling,,,,,,,,,,,,consumer,false,,,,,\n"));
	free(c);

	char *t = test_render(TEST_TABLE, s);
	/* GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID STATE TYPE LOG-START */
	char g[16], st[16], type[16], topic[16], part[8], ls[8], cur[8], le[8], lag[8], cons[8], host[8], client[8];
	const char *row = strstr(t, "\nkip ");
	assert_non_null(row);
	assert_int_equal(sscanf(row + 1, "%15s %15s %7s %7s %7s %7s %7s %7s %7s %15s %15s %7s", g, topic, part, cur, le,
				lag, cons, host, client, st, type, ls),
			 12);
	assert_string_equal(st, "Stable");
	assert_string_equal(type, "consumer");
	assert_string_equal(cur, "650");
	assert_string_equal(cons, "?");
	assert_string_equal(host, "?");
	assert_string_equal(client, "?");
	row = strstr(t, "\nquiet ");
	assert_non_null(row);
	assert_int_equal(sscanf(row + 1, "%15s %15s %7s %7s %7s %7s %7s %7s %7s %15s %15s %7s", g, topic, part, cur, le,
				lag, cons, host, client, st, type, ls),
			 12);
	assert_string_equal(st, "Reconciling");
	assert_string_equal(topic, "-");
	assert_string_equal(cons, "?");
	free(t);
	snapshot_unref(s);

	/* known Empty: no members whatever the protocol, so the count is 0 and nobody owns a partition */
	s = kip848_sample(LT_GROUP_EMPTY);
	j = test_render(TEST_JSON, s);
	assert_non_null(strstr(j, "\"state\":\"Empty\",\"type\":\"consumer\",\"members_readable\":false,"
				  "\"members\":0"));
	free(j);
	t = test_render(TEST_TABLE, s);
	row = strstr(t, "\nkip ");
	assert_non_null(row);
	assert_int_equal(sscanf(row + 1, "%15s %15s %7s %7s %7s %7s %7s %7s %7s %15s %15s %7s", g, topic, part, cur, le,
				lag, cons, host, client, st, type, ls),
			 12);
	assert_string_equal(st, "Empty");
	assert_string_equal(cons, "-");
	free(t);
	snapshot_unref(s);
}

/* A key is documented when the man page sets it in italics: ".I key" or ".IR key ,". */
static bool man_has_key(const char *man, const char *key)
{
	char a[128], b[128];
	snprintf(a, sizeof a, "\n.I %s\n", key);
	snprintf(b, sizeof b, "\n.IR %s ", key);
	return strstr(man, a) || strstr(man, b);
}

/* Every key of a group's JSON object, every group state and the CSV header are in doc/lagtop.1. */
static void man_page_documents_group_fields_and_states(void **state)
{
	(void)state;
	char *man = test_source_file("doc/lagtop.1");
	lt_snapshot *s = kip848_sample(LT_GROUP_STABLE);
	char *j = test_render(TEST_JSON, s);
	/* the first group's own keys: depth 1 inside {"group":...}, strings skipped */
	const char *at = strstr(j, "{\"group\":");
	assert_non_null(at);
	int depth = 0;
	size_t n_keys = 0;
	for (const char *c = at; *c; c++) {
		if (*c == '"') {
			const char *e = c + 1;
			while (*e && *e != '"')
				e += *e == '\\' ? 2 : 1;
			if (depth == 1 && e[1] == ':') {
				char key[64];
				snprintf(key, sizeof key, "%.*s", (int)(e - c - 1), c + 1);
				if (!man_has_key(man, key))
					fail_msg("doc/lagtop.1 does not document the JSON group key \"%s\"", key);
				n_keys++;
			}
			c = e;
		} else if (*c == '{' || *c == '[') {
			depth++;
		} else if (*c == '}' || *c == ']') {
			if (--depth == 0)
				break;
		}
	}
	assert_true(n_keys >= 20);
	free(j);
	snapshot_unref(s);
	for (int st = LT_GROUP_UNKNOWN; st <= LT_GROUP_RECONCILING; st++)
		if (!strstr(man, group_state_name((lt_group_state)st)))
			fail_msg("doc/lagtop.1 does not name the group state %s", group_state_name((lt_group_state)st));
	assert_non_null(strstr(man, "group,state,topic,partition,log_start,committed,log_end,lag,time_lag_ms,status,"
				    "consumer_id,host,client_id,type,members_readable"));
	free(man);
}

static void durations(void **state)
{
	(void)state;
	char b[32];
	output_duration(b, sizeof b, 850);
	assert_string_equal(b, "850ms");
	output_duration(b, sizeof b, 12300);
	assert_string_equal(b, "12.3s");
	output_duration(b, sizeof b, 245000);
	assert_string_equal(b, "4m05s");
	output_duration(b, sizeof b, 7380000);
	assert_string_equal(b, "2h03m");
}

static void position_fields(void **state)
{
	(void)state;
	lt_snapshot *s = sample();
	s->n_pos_sources = 1;
	s->pos_sources = calloc(1, sizeof *s->pos_sources);
	s->pos_sources[0].location = strdup("http://app:9404/metrics");
	s->pos_sources[0].status = strdup("ok: 1 position, 1 used");
	s->pos_sources[0].ok = true;
	s->pos_sources[0].n_reports = s->pos_sources[0].n_used = 1;
	lt_partition *p = &s->groups[1].partitions[0]; /* orders t-0: committed 100 */
	assert_string_equal(s->groups[1].group, "orders");
	p->has_position = true;
	lt_partition_ext *x = partition_ext_add(&s->groups[1], p);
	x->position = 120;
	x->position_source = 0;
	x->position_age_ms = 1500;
	p->flags |= LT_PF_NOT_COMMITTING | LT_PF_COMMITTING_KNOWN;
	char *j = test_render(TEST_JSON, s);
	assert_non_null(strstr(j, "\"position_sources\":[{\"location\":\"http://app:9404/metrics\",\"ok\":true,"
				  "\"status\":\"ok: 1 position, 1 used\",\"reports\":1,\"used\":1}]"));
	assert_non_null(strstr(j, "\"position\":120,\"uncommitted\":20,\"position_source\":\"http://app:9404/metrics\","
				  "\"position_age_ms\":1500,\"not_committing\":true,\"flags\":[\"not_committing\"]"));
	assert_non_null(strstr(j, "\"position\":null,\"uncommitted\":null,\"position_source\":null,"
				  "\"position_age_ms\":null,\"not_committing\":null"));
	assert_non_null(strstr(j, "\"expiry_warning\":false,\"not_committing\":true,"));
	char *c = test_render(TEST_CSV, s);
	assert_non_null(strstr(c, "\norders,Stable,t,0,0,100,150,50,,,m-1,/127.0.0.1,c1,classic,true,120,20,"
				  "http://app:9404/metrics,1500,true\n"));
	free(j);
	free(c);
	snapshot_unref(s);
}

/* Unknown is not false: without a verdict not_committing is null in JSON and empty in CSV, for the partition
 * and for a group none of whose partitions says true and some of which are unknown. */
static void not_committing_unknown_is_not_false(void **state)
{
	(void)state;
	lt_snapshot *s = sample();
	lt_group *g = &s->groups[1]; /* orders: t-0, t-1 */
	char *j = test_render(TEST_JSON, s);
	assert_null(strstr(j, "\"not_committing\":false"));
	assert_non_null(strstr(j, "\"not_committing\":null"));
	free(j);
	g->partitions[0].flags |= LT_PF_COMMITTING_KNOWN; /* t-0 watched a whole window: commits */
	j = test_render(TEST_JSON, s);
	assert_non_null(strstr(j, "\"position_age_ms\":null,\"not_committing\":false"));
	assert_non_null(strstr(j, "\"position_age_ms\":null,\"not_committing\":null")); /* t-1: no verdict */
	/* the group: what its judged partitions say (t-1 has no position to judge) */
	assert_non_null(strstr(j, "\"expiry_warning\":false,\"not_committing\":false,"));
	free(j);
	g->partitions[1].flags |= LT_PF_NOT_COMMITTING | LT_PF_COMMITTING_KNOWN;
	j = test_render(TEST_JSON, s);
	assert_non_null(strstr(j, "\"expiry_warning\":false,\"not_committing\":true,"));
	free(j);
	g->partitions[1].flags &= ~(unsigned)LT_PF_NOT_COMMITTING;
	char *c = test_render(TEST_CSV, s);
	assert_non_null(strstr(c, "\norders,Stable,t,0,0,100,150,50,,,m-1,/127.0.0.1,c1,classic,true,,,,,false\n"));
	assert_non_null(strstr(c, "\"evil\\x1b[2J\"\"g,\",Empty,t\\x0a2,3,,7,,,,,,,,,true,,,,,\n"));
	free(c);
	snapshot_unref(s);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(json_shape_and_nulls),
	cmocka_unit_test(position_fields),
	cmocka_unit_test(not_committing_unknown_is_not_false),
	cmocka_unit_test(json_commit_stream),
	cmocka_unit_test(csv_header_and_quoting),
	cmocka_unit_test(table_columns_and_sanitizing),
	cmocka_unit_test(members_unreadable_outputs),
	cmocka_unit_test(man_page_documents_group_fields_and_states),
	cmocka_unit_test(durations),
};

LT_TEST_MAIN(NULL, NULL)
