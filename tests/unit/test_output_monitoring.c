/* test_output_monitoring.c — the Prometheus rendering of a snapshot (unknowns left out, status
 * codes, labels, one series per partition however many groups read it), and doc/lagtop.1 documenting every
 * JSON key, table column, CSV column and Prometheus metric that src/cli/output*.c emit. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/options.h"
#include "cli/output.h"
#include "model/snapshot.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

/* Every field known and every optional key present: a member with an instance id, commit metadata, a stale
 * partition, commit-stream values, an expiry forecast, a time lag, rates and an ETA. */
static lt_snapshot *full(void)
{
	lt_snapshot *s = snapshot_new();
	s->cluster = strdup("prod \"eu\"\\1");
	s->seq = 10;
	s->status_window = 10;
	s->taken_at_ms = 1764547200123;
	s->duration_ms = 42;
	s->brokers_up = 2;
	s->brokers_total = 3;
	s->error = strdup("one broker down");
	s->commit_stream = LT_CSTREAM_LIVE;
	s->commit_stream_reason = strdup("partial");

	lt_group *g = snapshot_add_group(s, "pay\nments");
	g->state = LT_GROUP_STABLE;
	g->type = LT_GTYPE_CLASSIC;
	g->protocol_type = strdup("consumer");
	g->protocol = strdup("range");
	g->coordinator = 1;
	g->error = strdup("describe failed");
	g->stale_ms = 2000;
	lt_member *m = group_add_member(g, "m-1", "c-1", "/10.0.0.1");
	m->instance_id = strdup("i-1");
	member_add_assignment(m, "t", 0);
	for (int k = 0; k < 2; k++) {
		lt_partition *p = group_add_partition(g, "t", k);
		p->log_start = 0, p->committed = 100 + k, p->log_end = 150, p->has_lag = true, p->lag = 50 - k;
		p->has_time_lag = true, p->time_lag_ms = 1500;
		p->has_rates = true, p->consume_rate = 2.5, p->produce_rate = 1.0;
		p->has_eta = true, p->eta_ms = 20000;
		p->status = k == 0 ? LT_STATUS_WARN : LT_STATUS_PENDING;
		partition_ext_add(g, p)->commit_metadata = strdup("meta");
		p->flags = k == 1 ? LT_PF_STALE | LT_PF_UNASSIGNED : 0;
		partition_ext_add(g, p)->stale_ms = 2000;
		p->has_last_commit = true, p->last_commit_ms = 1764547100000, p->commits_per_min = 6;
		p->has_unmoved = true, p->unmoved_ms = 3000;
	}
	g->total_lag = 99, g->max_lag = 50, g->has_max_time_lag = true, g->max_time_lag_ms = 1500;
	g->consume_rate = 5, g->n_topics = 1, g->status = LT_STATUS_WARN, g->status_complete = false;
	g->has_last_commit = true, g->last_commit_ms = 1764547100000, g->commits_per_min = 12;
	g->has_expiry = true, g->expires_at_ms = 1765151900000, g->expires_in_ms = 1000, g->expiry_warn = true;

	/* a second group on the same partitions: the log offsets must still be one series each */
	lt_group *h = snapshot_add_group(s, "audit");
	h->state = LT_GROUP_EMPTY;
	lt_partition *p = group_add_partition(h, "t", 0);
	p->log_start = 0, p->log_end = 150, p->committed = 150, p->has_lag = true, p->lag = 0;
	p->status = LT_STATUS_OK;
	p = group_add_partition(h, "t", 1); /* no commit: no offset, no lag, no status */
	p->log_start = 0, p->log_end = 150;
	h->status = LT_STATUS_OK;
	h->status_complete = false;
	snapshot_finish(s);
	return s;
}

/* The man page's text between "\n.SS TITLE\n" and the next .SS or .SH (a new string). */
static char *man_section(const char *man, const char *title)
{
	char head[128];
	snprintf(head, sizeof head, "\n.SS %s\n", title);
	const char *a = strstr(man, head);
	if (!a)
		fail_msg("doc/lagtop.1 has no section \"%s\"", title);
	a += strlen(head);
	const char *ss = strstr(a, "\n.SS "), *sh = strstr(a, "\n.SH ");
	const char *b = ss && (!sh || ss < sh) ? ss : sh ? sh : a + strlen(a);
	char *out = strndup(a - 1, (size_t)(b - a) + 2);
	return out;
}

/* Whether the section names `word` at the start of a .I/.IR/.B/.BR line (how every field is listed). */
static bool names(const char *sec, const char *word)
{
	static const char *const macros[] = { ".I ", ".IR ", ".B ", ".BR " };
	char roff[256];
	size_t o = 0;
	for (const char *c = word; *c && o + 3 < sizeof roff; c++) { /* '-' is "\-" in roff */
		if (*c == '-')
			roff[o++] = '\\';
		roff[o++] = *c;
	}
	roff[o] = '\0';
	for (size_t m = 0; m < sizeof macros / sizeof macros[0]; m++) {
		char a[300];
		for (const char *end = "\n \t"; *end; end++) {
			snprintf(a, sizeof a, "\n%s%s%c", macros[m], roff, *end);
			if (strstr(sec, a))
				return true;
		}
	}
	return false;
}

/* The keys of every object in a JSON text (strings skipped). */
static size_t json_keys(const char *j, char keys[][64], size_t max)
{
	size_t n = 0;
	for (const char *c = j; *c; c++) {
		if (*c != '"')
			continue;
		const char *e = c + 1;
		while (*e && *e != '"')
			e += *e == '\\' ? 2 : 1;
		if (e[0] == '"' && e[1] == ':' && n < max) {
			snprintf(keys[n], 64, "%.*s", (int)(e - c - 1), c + 1);
			bool dup = false;
			for (size_t i = 0; i < n; i++)
				dup |= strcmp(keys[i], keys[n]) == 0;
			if (!dup)
				n++;
		}
		c = e;
	}
	return n;
}

static void man_page_documents_every_json_key(void **state)
{
	(void)state;
	char *man = test_source_file("doc/lagtop.1");
	char *sec = man_section(man, "JSON fields");
	lt_snapshot *s = full();
	char *j = test_render(TEST_JSON, s);
	char keys[128][64];
	size_t n = json_keys(j, keys, 128);
	assert_true(n >=
		    45); /* distinct keys of every level: top, commit_stream, group, member, assignment, partition */
	for (size_t i = 0; i < n; i++)
		if (!names(sec, keys[i]))
			fail_msg("doc/lagtop.1, JSON fields: the key \"%s\" that --once --format json writes is not "
				 "documented",
				 keys[i]);
	/* and the keys spelled in output.c's source, for a branch this snapshot does not reach */
	char *src = test_source_file("src/cli/output.c");
	size_t from_src = 0;
	for (const char *c = src; (c = strstr(c, "json_k")) != NULL; c++) {
		if (strncmp(c, "json_kv_", 8) != 0 && strncmp(c, "json_key(", 9) != 0)
			continue;
		const char *stop = strpbrk(c, ";{\n");
		const char *q = strchr(c, '"');
		if (!q || (stop && stop < q))
			continue; /* a definition or a key in a variable */
		const char *e = strchr(q + 1, '"');
		char key[64];
		snprintf(key, sizeof key, "%.*s", (int)(e - q - 1), q + 1);
		from_src++;
		if (!names(sec, key))
			fail_msg("doc/lagtop.1, JSON fields: the key \"%s\" in src/cli/output.c is not documented",
				 key);
	}
	assert_true(from_src >= 50);
	free(src);
	free(j);
	snapshot_unref(s);
	free(sec);
	free(man);
}

/* A key that output.c writes but the man page does not list is caught (the check can fail). */
static void the_json_check_catches_an_undocumented_key(void **state)
{
	(void)state;
	char *man = test_source_file("doc/lagtop.1");
	char *sec = man_section(man, "JSON fields");
	assert_true(names(sec, "status_window"));
	assert_true(names(sec, "complete"));
	assert_false(names(sec, "no_such_key"));
	assert_false(names(sec, "status_windo")); /* whole words only */
	free(sec);
	free(man);
}

static void man_page_documents_every_column_and_metric(void **state)
{
	(void)state;
	char *man = test_source_file("doc/lagtop.1");
	lt_snapshot *s = full();

	/* the table: every column title of the header line */
	char *sec = man_section(man, "Table columns");
	char *t = test_render(TEST_TABLE, s);
	size_t n_cols = 0;
	for (char *tok = strtok(strtok(t, "\n"), " "); tok; tok = strtok(NULL, " ")) {
		n_cols++;
		if (!names(sec, tok))
			fail_msg("doc/lagtop.1, Table columns: the column %s is not documented", tok);
	}
	assert_true(n_cols >= 12);
	free(t);
	free(sec);

	/* CSV: every column of the header */
	sec = man_section(man, "CSV columns");
	char *c = test_render(TEST_CSV, s);
	n_cols = 0;
	for (char *tok = strtok(strtok(c, "\n"), ","); tok; tok = strtok(NULL, ",")) {
		n_cols++;
		if (!names(sec, tok))
			fail_msg("doc/lagtop.1, CSV columns: the column %s is not documented", tok);
	}
	assert_int_equal(n_cols, 20);
	free(c);
	free(sec);

	/* Prometheus: every metric */
	sec = man_section(man, "Prometheus");
	char *p = test_render(TEST_PROMETHEUS, s);
	size_t n_metrics = 0;
	for (const char *l = p; (l = strstr(l, "# TYPE ")) != NULL; l++) {
		char name[128];
		assert_int_equal(sscanf(l, "# TYPE %127s gauge", name), 1);
		n_metrics++;
		if (!names(sec, name))
			fail_msg("doc/lagtop.1, Prometheus: the metric %s is not documented", name);
	}
	assert_int_equal(n_metrics, 25); /* this snapshot has a value for every metric */
	free(p);
	free(sec);
	snapshot_unref(s);
	free(man);
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *c = hay; (c = strstr(c, needle)) != NULL; c++)
		n++;
	return n;
}

static void prometheus_from_a_snapshot(void **state)
{
	(void)state;
	lt_snapshot *s = full();
	char *p = test_render(TEST_PROMETHEUS, s);
	const char *cl = "cluster_name=\"prod \\\"eu\\\"\\\\1\"";
	char want[512];
	/* the labels: escaped group (its newline in the terminal-safe form, \x0a) and cluster, the owner's on the
	 * partition it owns, empty on the other */
	snprintf(want, sizeof want,
		 "kafka_consumergroup_group_lag{%s,group=\"pay\\\\x0aments\",topic=\"t\",partition=\"0\","
		 "member_host=\"/10.0.0.1\",consumer_id=\"m-1\",client_id=\"c-1\"} 50\n",
		 cl);
	assert_non_null(strstr(p, want));
	snprintf(want, sizeof want,
		 "kafka_consumergroup_group_lag{%s,group=\"pay\\\\x0aments\",topic=\"t\",partition=\"1\","
		 "member_host=\"\",consumer_id=\"\",client_id=\"\"} 49\n",
		 cl);
	assert_non_null(strstr(p, want));
	/* seconds and Unix seconds, exactly */
	assert_non_null(
		strstr(p, "partition=\"0\",member_host=\"/10.0.0.1\",consumer_id=\"m-1\",client_id=\"c-1\"} 1.5\n"));
	snprintf(want, sizeof want,
		 "lagtop_consumergroup_offsets_expire_timestamp_seconds{%s,group=\"pay\\\\x0aments\"} "
		 "1765151900\n",
		 cl);
	assert_non_null(strstr(p, want));
	snprintf(want, sizeof want, "lagtop_refresh_timestamp_seconds{%s} 1764547200.123\n", cl);
	assert_non_null(strstr(p, want));
	/* status codes: group WARN = 2 (incomplete, a lower bound), partition 0 WARN = 2, partition 1 pending:
	 * absent; audit OK = 1 */
	snprintf(want, sizeof want, "lagtop_consumergroup_status{%s,group=\"pay\\\\x0aments\"} 2\n", cl);
	assert_non_null(strstr(p, want));
	snprintf(want, sizeof want, "lagtop_consumergroup_status{%s,group=\"audit\"} 1\n", cl);
	assert_non_null(strstr(p, want));
	assert_int_equal(count(p, "lagtop_consumergroup_partition_status{"), 2); /* pay/0 and audit/0 */
	assert_int_equal(count(p, "lagtop_consumergroup_status_complete{"), 2);
	snprintf(want, sizeof want, "lagtop_consumergroup_status_complete{%s,group=\"audit\"} 0\n", cl);
	assert_non_null(strstr(p, want));
	/* the audit group's partition without a commit: no offset, no lag, no status (never 0) */
	assert_null(strstr(p, "group=\"audit\",topic=\"t\",partition=\"1\""));
	/* log offsets: one series per partition though two groups read it */
	assert_int_equal(count(p, "kafka_partition_latest_offset{"), 2);
	assert_int_equal(count(p, "kafka_partition_earliest_offset{"), 2);
	/* the topic sum, the group sum and max */
	snprintf(want, sizeof want,
		 "kafka_consumergroup_group_topic_sum_lag{%s,group=\"pay\\\\x0aments\",topic=\"t\"} 99\n", cl);
	assert_non_null(strstr(p, want));
	snprintf(want, sizeof want, "kafka_consumergroup_group_sum_lag{%s,group=\"audit\"} 0\n", cl);
	assert_non_null(strstr(p, want));
	free(p);

	/* unknowns: no commit anywhere, one sample: no lag metrics at all, no status, members unreadable */
	lt_snapshot *u = snapshot_new();
	u->cluster = strdup("c");
	lt_group *g = snapshot_add_group(u, "g");
	g->state = LT_GROUP_STABLE;
	g->members_unreadable = true;
	lt_partition *pt = group_add_partition(g, "t", 0);
	pt->log_start = LT_OFFSET_NONE, pt->log_end = LT_OFFSET_NONE;
	snapshot_finish(u);
	p = test_render(TEST_PROMETHEUS, u);
	assert_null(strstr(p, "kafka_consumergroup"));
	assert_null(strstr(p, "kafka_partition_"));
	assert_null(strstr(p, "lagtop_consumergroup_status{"));
	assert_null(strstr(p, "lagtop_consumergroup_members{"));
	assert_non_null(
		strstr(p, "lagtop_consumergroup_state{cluster_name=\"c\",group=\"g\",state=\"Stable\",type=\"\"} 1\n"));
	assert_null(strstr(p, "NaN"));
	free(p);
	snapshot_unref(u);
	snapshot_unref(s);
}

static int parse(struct lt_options *o, char *err, size_t errlen, const char *a1, const char *a2, const char *a3,
		 const char *a4)
{
	char *argv[] = { (char *)"lagtop", (char *)a1, (char *)a2, (char *)a3, (char *)a4, NULL };
	int argc = 1;
	while (argc < 5 && argv[argc])
		argc++;
	err[0] = '\0';
	return options_parse(o, argc, argv, err, errlen);
}

static void monitoring_options(void **state)
{
	(void)state;
	struct lt_options o;
	char err[256];
	assert_int_equal(parse(&o, err, sizeof err, "--once", "--format", "prometheus", NULL), 0);
	assert_int_equal(o.format, LT_FORMAT_PROMETHEUS);
	assert_int_equal(o.fail_on, LT_FAIL_ON_NONE);
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof err, "--fail-on", "warn", "--once", NULL), 0);
	assert_int_equal(o.fail_on, LT_FAIL_ON_WARN);
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof err, "--once", "--fail-on", "err", NULL), 0);
	assert_int_equal(o.fail_on, LT_FAIL_ON_ERR);
	options_free(&o);
	/* bad input: one line naming what was wrong */
	assert_int_equal(parse(&o, err, sizeof err, "--once", "--fail-on", "WARN", NULL), -1);
	assert_string_equal(err, "--fail-on expects warn or err, got 'WARN'");
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof err, "--fail-on", "err", NULL, NULL), -1);
	assert_string_equal(err, "--fail-on goes with --once");
	options_free(&o);
	assert_int_equal(parse(&o, err, sizeof err, "--once", "--format", "openmetrics", NULL), -1);
	assert_string_equal(err, "--format expects table, json, csv or prometheus, got 'openmetrics'");
	options_free(&o);
	/* the rule --fail-on applies: a status not evaluated is never "at least" anything */
	assert_false(status_at_least(LT_STATUS_PENDING, LT_STATUS_OK));
	assert_false(status_at_least(LT_STATUS_UNKNOWN, LT_STATUS_OK));
	assert_true(status_at_least(LT_STATUS_WARN, LT_STATUS_WARN));
	assert_true(status_at_least(LT_STATUS_ERR, LT_STATUS_WARN));
	assert_false(status_at_least(LT_STATUS_WARN, LT_STATUS_ERR));
	assert_true(status_at_least(LT_STATUS_OK, LT_STATUS_OK));
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(monitoring_options),
	cmocka_unit_test(prometheus_from_a_snapshot),
	cmocka_unit_test(man_page_documents_every_json_key),
	cmocka_unit_test(the_json_check_catches_an_undocumented_key),
	cmocka_unit_test(man_page_documents_every_column_and_metric),
};

LT_TEST_MAIN(NULL, NULL)
