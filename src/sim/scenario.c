/* scenario.c — see scenario.h.
 *
 * "demo" tells a small story a dashboard can show in a minute: healthy consumers keeping up, one lagging
 * further every second, one stalled with members, an Empty group falling behind, one cycling through
 * rebalances, an Empty group whose committed offset fell below the log start after retention, and a
 * healthy consumer-protocol (KIP-848) group, the kind Kafka 4.x clusters have beside classic ones, and one
 * that keeps processing but stopped committing after its first commit (its members' positions, on the
 * metrics endpoint, run ahead while its committed offsets stand still).
 * Traffic is driven by a one-second loop timer, with timestamps from the wall clock so time lag is real.
 *
 * "scale" builds G groups over T topics of P partitions with one timestamp run per partition, so even
 * 5,000 groups x 64 partitions are built in well under a second, and stay static (for benchmarks).
 */
#include "sim/scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/control.h"
#include "sim/strmap.h"
#include "util/xalloc.h"
#include "util/timeutil.h"

enum behaviour { B_HEALTHY, B_LAGGING, B_STALLED, B_EMPTY, B_REBALANCING, B_BELOW_START, B_NOT_COMMITTING };

struct demo_topic {
	const char *name;
	int partitions;
	int rate;        /* records per second per partition */
	int retention_s; /* 0: keep everything */
};

struct demo_group {
	const char *name;
	enum behaviour behaviour;
	const char *topics[2];
	int members;
	int start_lag_s; /* initial lag, in seconds of production */
	bool kip848;     /* a consumer-protocol group (its members are KIP-848 members) */
};

static const struct demo_topic demo_topics[] = {
	{ "orders", 12, 40, 0 },  { "payments", 6, 15, 0 }, { "clickstream", 24, 100, 1800 },
	{ "audit-log", 3, 5, 0 }, { "inventory", 6, 8, 0 },
};

static const struct demo_group demo_groups[] = {
	{ "orders-processor", B_HEALTHY, { "orders", NULL }, 3, 1 },
	{ "payments-ledger", B_HEALTHY, { "payments", NULL }, 2, 1 },
	{ "fraud-detector", B_HEALTHY, { "payments", "orders" }, 2, 3 },
	{ "clickstream-etl", B_LAGGING, { "clickstream", NULL }, 4, 120 },
	{ "audit-archiver", B_STALLED, { "audit-log", NULL }, 1, 300 },
	{ "inventory-sync", B_EMPTY, { "inventory", NULL }, 0, 1200 },
	{ "orders-analytics", B_REBALANCING, { "orders", NULL }, 2, 5 },
	{ "clickstream-replay", B_BELOW_START, { "clickstream", NULL }, 0, 3000 },
	{ "shipping-planner", B_HEALTHY, { "orders", NULL }, 2, 2, true },
	{ "invoice-mailer", B_NOT_COMMITTING, { "orders", NULL }, 2, 1 },
};

/* The demo topics' retention.ms, unless they name theirs: the Empty group inventory-sync (20 minutes behind,
 * falling a second behind every second) reaches the log start after 25 minutes. */
#define DEMO_RETENTION_MS (45 * 60 * 1000LL)
#define NDEMO_TOPICS      (sizeof(demo_topics) / sizeof(demo_topics[0]))
#define NDEMO_GROUPS      (sizeof(demo_groups) / sizeof(demo_groups[0]))
#define DEMO_HISTORY_S    3600
#define DEMO_TICK_MS      1000
#define REBALANCE_CYCLE_S 30

struct sim_scenario {
	struct sim_server *srv;
	uint64_t timer;
	int64_t ticks;
	struct strmap positions; /* "group\ntopic\npartition" -> struct position: what members have read */
};

/* A member's position (the next offset it reads) where the scenario sets one; elsewhere the metrics
 * endpoint takes the committed offset (sim_scenario_position). */
struct position {
	char *key;
	int64_t offset;
};

static void set_position(struct sim_scenario *scn, const char *group, const char *topic, int32_t p, int64_t off)
{
	char key[300];
	int n = snprintf(key, sizeof(key), "%s\n%s\n%d", group, topic, (int)p);
	if (n < 0 || (size_t)n >= sizeof(key))
		return;
	struct position *pos = strmap_get(&scn->positions, key, (size_t)n);
	if (!pos) {
		pos = xcalloc(1, sizeof(*pos));
		pos->key = xstrdup(key);
		strmap_put(&scn->positions, pos->key, pos);
	}
	pos->offset = off;
}

bool sim_scenario_position(const struct sim_scenario *scn, const char *group, const char *topic, int32_t p,
			   int64_t *offset)
{
	char key[300];
	int n = snprintf(key, sizeof(key), "%s\n%s\n%d", group, topic, (int)p);
	if (!scn || n < 0 || (size_t)n >= sizeof(key))
		return false;
	const struct position *pos = strmap_get(&scn->positions, key, (size_t)n);
	if (!pos)
		return false;
	*offset = pos->offset;
	return true;
}

static int64_t rnd(struct sim_state *st, int64_t n)
{
	return n > 0 ? (int64_t)(sim_state_rand(st) % (uint64_t)n) : 0;
}

/* Adds n members to group over its topics' partitions, round-robin (KIP-848 members when kip848). */
static int add_members(struct sim_state *st, const char *group, const char *const *topics, int ntopics, int n,
		       const char *client_prefix, bool kip848, char *err, size_t errlen)
{
	for (int m = 0; m < n; m++) {
		struct sim_member_assignment as[4];
		int32_t *parts[4] = { NULL };
		int nas = 0;
		for (int t = 0; t < ntopics && t < 4; t++) {
			struct sim_topic *tp = sim_topic_find(st, topics[t], strlen(topics[t]));
			if (!tp)
				continue;
			parts[nas] = xcalloc((size_t)tp->npartitions + 1, sizeof(int32_t));
			int np = 0;
			for (int32_t p = m; p < tp->npartitions; p += n)
				parts[nas][np++] = p;
			as[nas] = (struct sim_member_assignment){ topics[t], parts[nas], np };
			nas++;
		}
		char client[96], host[32];
		snprintf(client, sizeof(client), "%s-%d", client_prefix, m + 1);
		snprintf(host, sizeof(host), "/10.0.%d.%d", (int)(strlen(group) % 8), 10 + m);
		struct sim_member_spec spec = {
			.client_id = client,
			.client_host = host,
			.topics = topics,
			.ntopics = ntopics,
			.assignment = as,
			.nassignment = nas,
		};
		struct sim_member *mem = kip848 ? ctl_add_consumer_member(st, group, &spec, err, errlen)
						: ctl_add_member(st, group, &spec, err, errlen);
		for (int i = 0; i < nas; i++)
			free(parts[i]);
		if (!mem)
			return -1;
	}
	return 0;
}

static const struct demo_topic *demo_topic(const char *name)
{
	for (size_t i = 0; i < NDEMO_TOPICS; i++)
		if (strcmp(demo_topics[i].name, name) == 0)
			return &demo_topics[i];
	return NULL;
}

/* Commits, for every partition of the group's topics, the log end minus lag_s seconds of production (unless
 * commit is false); the members' positions run a little ahead of what they commit (read, not yet committed). */
static void commit_behind(struct sim_scenario *scn, const struct demo_group *dg, double lag_s, int64_t now, bool commit)
{
	struct sim_state *st = scn->srv->st;
	char err[160];
	for (int t = 0; t < 2 && dg->topics[t]; t++) {
		const struct demo_topic *dt = demo_topic(dg->topics[t]);
		struct sim_topic *tp = sim_topic_find(st, dt->name, strlen(dt->name));
		for (int32_t p = 0; p < tp->npartitions; p++) {
			int64_t off = tp->parts[p].log_end - (int64_t)(lag_s * dt->rate) - rnd(st, dt->rate / 4 + 1);
			if (off < 0)
				off = 0;
			if (commit)
				(void)ctl_commit(st, dg->name, dt->name, p, off, "", now, err, sizeof(err));
			int64_t pos = off + rnd(st, dt->rate / 2 + 1);
			set_position(scn, dg->name, dt->name, p,
				     pos < tp->parts[p].log_end ? pos : tp->parts[p].log_end);
		}
	}
}

static void demo_tick(struct sim_server *srv, void *arg)
{
	struct sim_scenario *scn = arg;
	struct sim_state *st = srv->st;
	int64_t now = now_wall_ms();
	char err[160];
	scn->ticks++;
	/* Production: rate ± 25% per partition, spread evenly over the last second. */
	for (size_t i = 0; i < NDEMO_TOPICS; i++) {
		const struct demo_topic *dt = &demo_topics[i];
		struct sim_topic *tp = sim_topic_find(st, dt->name, strlen(dt->name));
		if (!tp)
			continue;
		for (int32_t p = 0; p < tp->npartitions; p++) {
			struct sim_partition *part = &tp->parts[p];
			int64_t n = dt->rate * 3 / 4 + rnd(st, dt->rate / 2 + 1);
			int64_t step = n ? DEMO_TICK_MS / n : 0;
			sim_partition_append(part, n, now - DEMO_TICK_MS + step, step);
			if (dt->retention_s) {
				int64_t keep = (int64_t)dt->retention_s * dt->rate;
				if (part->log_end - part->log_start > keep)
					sim_partition_set_log_start(part, part->log_end - keep);
			}
		}
	}
	/* Consumption. */
	for (size_t i = 0; i < NDEMO_GROUPS; i++) {
		const struct demo_group *dg = &demo_groups[i];
		struct sim_group *g = sim_group_find(st, dg->name, strlen(dg->name));
		if (!g)
			continue; /* deleted by a user of the demo */
		switch (dg->behaviour) {
		case B_HEALTHY:
			if (g->state == SIM_GROUP_STABLE)
				commit_behind(scn, dg, dg->start_lag_s, now, true);
			break;
		case B_NOT_COMMITTING:
			/* Reads along like a healthy group; its commits stopped after the first. */
			if (g->state == SIM_GROUP_STABLE)
				commit_behind(scn, dg, dg->start_lag_s, now, false);
			break;
		case B_LAGGING:
			/* Falls behind by a further 30% of the production every second. */
			if (g->state == SIM_GROUP_STABLE)
				commit_behind(scn, dg, dg->start_lag_s + 0.3 * (double)scn->ticks, now, true);
			break;
		case B_REBALANCING: {
			int64_t phase = scn->ticks % REBALANCE_CYCLE_S;
			if (phase == REBALANCE_CYCLE_S - 8 && g->state == SIM_GROUP_STABLE)
				g->state = SIM_GROUP_PREPARING_REBALANCE;
			else if (phase == REBALANCE_CYCLE_S - 3 && g->state == SIM_GROUP_PREPARING_REBALANCE)
				(void)ctl_set_group_state(st, dg->name, SIM_GROUP_COMPLETING_REBALANCE, err,
							  sizeof(err));
			else if (phase == 0 && g->state == SIM_GROUP_COMPLETING_REBALANCE)
				(void)ctl_set_group_state(st, dg->name, SIM_GROUP_STABLE, err, sizeof(err));
			if (g->state == SIM_GROUP_STABLE)
				commit_behind(scn, dg, dg->start_lag_s, now, true);
			break;
		}
		case B_STALLED:
		case B_EMPTY:
		case B_BELOW_START: break; /* nobody commits: the lag grows with production */
		}
	}
	scn->timer = sim_timer_add(srv, now_mono_ms() + DEMO_TICK_MS, demo_tick, scn);
}

static int build_demo(struct sim_scenario *scn, char *err, size_t errlen)
{
	struct sim_state *st = scn->srv->st;
	int64_t now = now_wall_ms();
	for (size_t i = 0; i < NDEMO_TOPICS; i++) {
		const struct demo_topic *dt = &demo_topics[i];
		struct sim_topic *tp = sim_topic_create(st, dt->name, dt->partitions, NULL, err, errlen);
		if (!tp)
			return -1;
		/* Topic-level retention.ms keeps a demo left open for days at a fixed size (housekeeping.h):
		 * every tick appends one timestamp run per partition. A broker retention given on the command
		 * line (lagtop-sim --retention-ms) applies instead. */
		if (!st->log_retention_ms)
			tp->retention_ms = dt->retention_s ? (int64_t)dt->retention_s * 1000 : DEMO_RETENTION_MS;
		for (int32_t p = 0; p < tp->npartitions; p++) {
			int64_t n = (int64_t)DEMO_HISTORY_S * dt->rate;
			int64_t step = 1000 / dt->rate;
			sim_partition_append(&tp->parts[p], n, now - n * step, step);
			if (dt->retention_s)
				sim_partition_set_log_start(&tp->parts[p], n - (int64_t)dt->retention_s * dt->rate);
		}
	}
	for (size_t i = 0; i < NDEMO_GROUPS; i++) {
		const struct demo_group *dg = &demo_groups[i];
		int nt = dg->topics[1] ? 2 : 1;
		if (dg->members > 0) {
			if (add_members(st, dg->name, dg->topics, nt, dg->members, dg->name, dg->kip848, err, errlen) <
			    0)
				return -1;
		} else {
			(void)sim_group_get_or_create(st, dg->name);
		}
		commit_behind(scn, &dg[0], dg->start_lag_s, now, true);
	}
	scn->timer = sim_timer_add(scn->srv, now_mono_ms() + DEMO_TICK_MS, demo_tick, scn);
	return 0;
}

static int build_scale(struct sim_scenario *scn, const struct sim_options *o, char *err, size_t errlen)
{
	struct sim_state *st = scn->srv->st;
	int ngroups = o->groups > 0 ? o->groups : 100;
	int nparts = o->partitions > 0 ? o->partitions : 8;
	int ntopics = o->topics > 0 ? o->topics : 4;
	int64_t now = now_wall_ms();
	char name[64];
	for (int t = 0; t < ntopics; t++) {
		snprintf(name, sizeof(name), "scale-topic-%03d", t);
		struct sim_topic *tp = sim_topic_create(st, name, nparts, NULL, err, errlen);
		if (!tp)
			return -1;
		for (int32_t p = 0; p < nparts; p++) {
			int64_t n = 1000000 + rnd(st, 100000);
			sim_partition_append(&tp->parts[p], n, now - n * 10, 10); /* 100 records/s for ~3 hours */
			sim_partition_set_log_start(&tp->parts[p], n / 10);
		}
	}
	for (int g = 0; g < ngroups; g++) {
		char gname[64];
		snprintf(gname, sizeof(gname), "scale-group-%05d", g);
		snprintf(name, sizeof(name), "scale-topic-%03d", g % ntopics);
		const char *topics[1] = { name };
		int members = g % 5 == 0 ? 0 : 1 + g % 4;
		if (members) {
			if (add_members(st, gname, topics, 1, members, "scale-consumer", false, err, errlen) < 0)
				return -1;
		} else {
			(void)sim_group_get_or_create(st, gname);
		}
		struct sim_topic *tp = sim_topic_find(st, name, strlen(name));
		for (int32_t p = 0; p < tp->npartitions; p++) {
			int64_t off = tp->parts[p].log_end - rnd(st, 5000);
			if (ctl_commit(st, gname, name, p, off, "", now, err, errlen) < 0)
				return -1;
		}
	}
	return 0;
}

/* "fixture": small, static and exactly known, for tests with independent clients (see doc comment in sim.h). */
static int build_fixture(struct sim_scenario *scn, char *err, size_t errlen)
{
	struct sim_state *st = scn->srv->st;
	const int64_t base = SIM_FIXTURE_BASE_TS;
	struct sim_topic *orders = sim_topic_create(st, "fx-orders", 3, NULL, err, errlen);
	if (!orders || !sim_topic_create(st, "fx-audit", 1, NULL, err, errlen))
		return -1;
	for (int32_t p = 0; p < 3; p++)
		sim_partition_append(&orders->parts[p], 1000, base, 1000);
	sim_partition_set_log_start(&orders->parts[0], 100);

	static const int32_t p01[] = { 0, 1 }, p2[] = { 2 };
	static const char *const topics[] = { "fx-orders" };
	struct sim_member_assignment a1 = { "fx-orders", p01, 2 }, a2 = { "fx-orders", p2, 1 };
	struct sim_member_spec m1 = { .member_id = "fx-c1-member",
				      .client_id = "fx-c1",
				      .client_host = "/10.9.0.1",
				      .topics = topics,
				      .ntopics = 1,
				      .assignment = &a1,
				      .nassignment = 1 };
	struct sim_member_spec m2 = { .member_id = "fx-c2-member",
				      .client_id = "fx-c2",
				      .client_host = "/10.9.0.2",
				      .topics = topics,
				      .ntopics = 1,
				      .assignment = &a2,
				      .nassignment = 1 };
	if (!ctl_add_member(st, "fx-stable", &m1, err, errlen) || !ctl_add_member(st, "fx-stable", &m2, err, errlen))
		return -1;
	for (int p = 0; p < 3; p++)
		if (ctl_commit(st, "fx-stable", "fx-orders", p, 500 + 100 * p, "", base, err, errlen) < 0)
			return -1;
	if (ctl_commit(st, "fx-empty", "fx-orders", 0, 10, "m0", base, err, errlen) < 0 ||
	    ctl_commit(st, "fx-empty", "fx-orders", 2, 20, "", base, err, errlen) < 0)
		return -1;
	struct sim_member_spec m3 = { .member_id = "fx-c3-member",
				      .client_id = "fx-c3",
				      .topics = topics,
				      .ntopics = 1,
				      .assignment = &a1,
				      .nassignment = 1 };
	if (!ctl_add_member(st, "fx-rebalancing", &m3, err, errlen) ||
	    ctl_set_group_state(st, "fx-rebalancing", SIM_GROUP_PREPARING_REBALANCE, err, errlen) < 0)
		return -1;
	static const int32_t p1[] = { 1 };
	struct sim_member_assignment a4 = { "fx-orders", p1, 1 };
	struct sim_member_spec m4 = { .member_id = "fx-c4-member",
				      .client_id = "fx-c4",
				      .client_host = "/10.9.0.4",
				      .rack_id = "rack-a",
				      .topics = topics,
				      .ntopics = 1,
				      .assignment = &a4,
				      .nassignment = 1 };
	if (!ctl_add_consumer_member(st, "fx-kip848", &m4, err, errlen))
		return -1;
	return ctl_commit(st, "fx-kip848", "fx-orders", 1, 650, "", base, err, errlen);
}

struct sim_scenario *sim_scenario_build(struct sim_server *srv, const struct sim_options *opt, char *err, size_t errlen)
{
	struct sim_scenario *scn = xcalloc(1, sizeof(*scn));
	scn->srv = srv;
	strmap_init(&scn->positions);
	const char *name = opt->scenario ? opt->scenario : "empty";
	int rc = 0;
	if (strcmp(name, "demo") == 0) {
		rc = build_demo(scn, err, errlen);
	} else if (strcmp(name, "scale") == 0) {
		rc = build_scale(scn, opt, err, errlen);
	} else if (strcmp(name, "fixture") == 0) {
		rc = build_fixture(scn, err, errlen);
	} else if (strcmp(name, "empty") != 0) {
		snprintf(err, errlen, "unknown scenario '%s' (%s)", name, sim_scenario_names());
		rc = -1;
	}
	if (rc < 0) {
		sim_scenario_free(scn);
		return NULL;
	}
	return scn;
}

void sim_scenario_free(struct sim_scenario *scn)
{
	if (!scn)
		return;
	if (scn->timer)
		sim_timer_cancel(scn->srv, scn->timer);
	size_t it = 0;
	struct position *pos;
	while ((pos = strmap_next(&scn->positions, &it))) {
		free(pos->key);
		free(pos);
	}
	strmap_free(&scn->positions);
	free(scn);
}

const char *sim_scenario_names(void)
{
	return "empty, demo, scale, fixture";
}

bool sim_scenario_known(const char *name)
{
	return strcmp(name, "empty") == 0 || strcmp(name, "demo") == 0 || strcmp(name, "scale") == 0 ||
	       strcmp(name, "fixture") == 0;
}
