/* hostile.h — the hostile cluster of the fault tests, built on a sim_cluster: group ids, client ids, hosts,
 * topics and commit metadata with escape sequences (OSC title, clear screen, OSC 8 link), C0/C1 controls,
 * a bidi override, invalid UTF-8, newlines and 10 KB lengths. Used by test_faults_hostile.c (--once) and
 * faults_fixture.c (the dashboard). Keep the names in step with check_hostile.py. */
#ifndef LAGTOP_TESTS_FAULTS_HOSTILE_H
#define LAGTOP_TESTS_FAULTS_HOSTILE_H

#include <stdio.h>
#include <string.h>

#include "sim/sim.h"

#define G_OSC  "evil\x1b]0;pwned\x07\x1b[2J"
#define G_UTF8 "bad\xff\xfe\xc3-utf8"
#define G_C1                                                                                                           \
	"c1\xc2\x9b"                                                                                                   \
	"31mred"
#define G_BIDI                                                                                                         \
	"bidi\xe2\x80\xae"                                                                                             \
	"cod.exe"
#define G_LINES "line1\nline2\tx\rcr,\"q\""
#define T_ESC   "t\x1b[1mopic"
#define C_ESC   "\x1b[31mclient"
#define H_OSC8  "/\x1b]8;;http://example.invalid\x07link"

static char hostile_big_group[10300], hostile_big_topic[10100], hostile_big_client[10300];

static int hostile_group(sim_cluster *sim, const char *group, const char *topic, const char *client, const char *host,
			 char *err, size_t errlen)
{
	static const int32_t p0[] = { 0 };
	struct sim_member_assignment a = { topic, p0, 1 };
	struct sim_member_spec m = { .client_id = client, .client_host = host, .assignment = &a, .nassignment = 1 };
	if (sim_add_member(sim, group, &m, NULL, 0, err, errlen) != 0)
		return -1;
	return sim_commit(sim, group, topic, 0, 5, "meta\x1b[0m", err, errlen);
}

/* Builds the hostile topics and groups (plus topic "plain"). */
static int hostile_build(sim_cluster *sim, char *err, size_t errlen)
{
	memset(hostile_big_group, 'G', sizeof(hostile_big_group) - 20);
	strcpy(hostile_big_group + sizeof(hostile_big_group) - 20, "\x1b[31mEND");
	memset(hostile_big_topic, 'T', sizeof(hostile_big_topic) - 1);
	memset(hostile_big_client, 'C', sizeof(hostile_big_client) - 20);
	strcpy(hostile_big_client + sizeof(hostile_big_client) - 20, "\x1b[31mEND");
	const char *topics[] = { "plain", T_ESC, hostile_big_topic };
	for (int i = 0; i < 3; i++) {
		int rc = i ? sim_create_topic_any_name(sim, topics[i], 1, err, errlen)
			   : sim_create_topic(sim, topics[i], 1, err, errlen);
		if (rc || sim_append(sim, topics[i], 0, 10, 1700000000000LL, 1000, err, errlen))
			return -1;
	}
	if (hostile_group(sim, G_OSC, T_ESC, C_ESC, H_OSC8, err, errlen) ||
	    hostile_group(sim, G_UTF8, "plain", "ok", NULL, err, errlen) ||
	    hostile_group(sim, G_C1, "plain", G_C1, NULL, err, errlen) ||
	    hostile_group(sim, G_BIDI, hostile_big_topic, G_BIDI, NULL, err, errlen) ||
	    hostile_group(sim, G_LINES, "plain", G_LINES, G_LINES, err, errlen) ||
	    hostile_group(sim, hostile_big_group, "plain", hostile_big_client, NULL, err, errlen))
		return -1;
	return 0;
}

#endif
