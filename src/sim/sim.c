/* sim.c — the public, thread-safe face of the simulated cluster (see sim.h). */
#include "sim/sim.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sim/control.h"
#include "sim/metrics.h"
#include "sim/housekeeping.h"
#include "sim/scenario.h"
#include "sim/server.h"
#include "util/xalloc.h"
#include "util/timeutil.h"

struct sim_cluster {
	struct sim_state *st;
	struct sim_server *srv;
	struct sim_scenario *scn;
	struct sim_metrics *metrics; /* NULL without --metrics-port */
};

#define LOCK(sim)   pthread_mutex_lock(&(sim)->srv->lock)
#define UNLOCK(sim) pthread_mutex_unlock(&(sim)->srv->lock)

sim_cluster *sim_new(const struct sim_options *opt, char *err, size_t errlen)
{
	struct sim_options o = *opt;
	if (o.brokers == 0)
		o.brokers = 3;
	if (o.brokers < 1 || o.brokers > 64) {
		snprintf(err, errlen, "broker count %d out of range 1..64", o.brokers);
		return NULL;
	}
	if (o.port < 0 || o.port + o.brokers - 1 > 65535) {
		snprintf(err, errlen, "port %d out of range (0 for ephemeral ports)", o.port);
		return NULL;
	}
	if (o.kafka_major == 0)
		o.kafka_major = 4;
	if (o.kafka_major != 3 && o.kafka_major != 4) {
		snprintf(err, errlen, "Kafka major version %d not simulated (3 for 3.9, 4 for 4.x)", o.kafka_major);
		return NULL;
	}
	if (o.kafka_major == 3 && o.kafka_minor == 0)
		o.kafka_minor = 9;
	if (o.kafka_major == 3 && o.kafka_minor != 9 && o.kafka_minor != 6) {
		snprintf(err, errlen, "Kafka 3.%d not simulated (3.9 or 3.6)", o.kafka_minor);
		return NULL;
	}
	sim_cluster *sim = xcalloc(1, sizeof(*sim));
	sim->st = sim_state_new(o.brokers, o.seed);
	sim->st->kafka_major = o.kafka_major;
	sim->st->kafka_minor = o.kafka_major == 3 ? o.kafka_minor : 0;
	sim->st->no_auto_create_topics = o.auto_create_partitions < 0;
	sim->st->auto_create_partitions = o.auto_create_partitions > 0 ? o.auto_create_partitions : 0;
	sim->st->group_min_session_timeout_ms = o.group_min_session_timeout_ms;
	sim->st->group_initial_rebalance_delay_ms = o.group_initial_rebalance_delay_ms;
	sim->st->offsets_retention_minutes = o.offsets_retention_minutes;
	sim->st->deny_offsets_topic = o.deny_offsets_topic;
	sim->st->offsets_retention_check_interval_ms = o.offsets_retention_check_interval_ms;
	sim->st->log_retention_ms = o.log_retention_ms_set && o.log_retention_ms < 0 ? -1 : o.log_retention_ms;
	sim->st->log_retention_bytes = o.log_retention_bytes;
	sim->st->log_retention_check_interval_ms = o.log_retention_check_interval_ms;
	sim->st->offsets_segment_bytes = o.offsets_segment_bytes;
	sim->st->offsets_delete_retention_ms = o.offsets_delete_retention_ms;
	sim->srv = sim_server_new(sim->st, o.port, err, errlen);
	if (!sim->srv) {
		sim_state_free(sim->st);
		free(sim);
		return NULL;
	}
	sim->scn = sim_scenario_build(sim->srv, &o, err, errlen);
	if (!sim->scn) {
		sim_free(sim);
		return NULL;
	}
	if (o.metrics) {
		sim->metrics = sim_metrics_start(sim->srv, sim->scn, o.metrics_port, err, errlen);
		if (!sim->metrics) {
			sim_free(sim);
			return NULL;
		}
	}
	sim_housekeeping_start(sim->srv);
	return sim;
}

int sim_start(sim_cluster *sim)
{
	char err[200];
	if (sim_server_start(sim->srv, err, sizeof(err)) < 0) {
		fprintf(stderr, "lagtop-sim: %s\n", err);
		return -1;
	}
	return 0;
}

int sim_metrics_port_of(const sim_cluster *sim)
{
	return sim_metrics_port(sim->metrics);
}

const char *sim_bootstrap(const sim_cluster *sim)
{
	return sim->srv->bootstrap;
}

void sim_housekeeping_run(sim_cluster *sim, int64_t now_ms)
{
	LOCK(sim);
	sim_housekeeping_expire_offsets(sim->srv, now_ms);
	sim_housekeeping_logs(sim->srv, now_ms);
	UNLOCK(sim);
}

void sim_stop(sim_cluster *sim)
{
	sim_server_stop(sim->srv);
}

void sim_free(sim_cluster *sim)
{
	if (!sim)
		return;
	sim_metrics_stop(sim->metrics); /* it reads the scenario */
	sim_server_stop(sim->srv);      /* first: nothing runs scenario timers afterwards */
	sim_scenario_free(sim->scn);
	/* State before server: a group's coordinator answers its held requests and cancels its timers on
	 * the (still existing) server when it is freed. */
	sim_state_free(sim->st);
	sim_server_free(sim->srv);
	free(sim);
}

/* ---- topics and records ---- */

int sim_create_topic(sim_cluster *sim, const char *topic, int partitions, char *err, size_t errlen)
{
	LOCK(sim);
	struct sim_topic *t = sim_topic_create(sim->st, topic, partitions, NULL, err, errlen);
	UNLOCK(sim);
	return t ? 0 : -1;
}

int sim_create_topic_any_name(sim_cluster *sim, const char *topic, int partitions, char *err, size_t errlen)
{
	LOCK(sim);
	sim->st->any_topic_names = true;
	struct sim_topic *t = *topic ? sim_topic_create(sim->st, topic, partitions, NULL, err, errlen) : NULL;
	sim->st->any_topic_names = false;
	UNLOCK(sim);
	if (!*topic)
		snprintf(err, errlen, "empty topic name");
	return t ? 0 : -1;
}

int sim_append(sim_cluster *sim, const char *topic, int partition, int64_t count, int64_t first_ts_ms, int64_t step_ms,
	       char *err, size_t errlen)
{
	if (count < 0 || step_ms < 0) {
		snprintf(err, errlen, "append: negative count or step");
		return -1;
	}
	LOCK(sim);
	struct sim_partition *p = ctl_partition(sim->st, topic, partition, err, errlen);
	if (p) {
		sim_partition_append(p, count, first_ts_ms, step_ms);
		sim_fetch_wake(sim->srv); /* consumers waiting in Fetch get the new records now */
	}
	UNLOCK(sim);
	return p ? 0 : -1;
}

int sim_set_log_start(sim_cluster *sim, const char *topic, int partition, int64_t offset, char *err, size_t errlen)
{
	LOCK(sim);
	struct sim_partition *p = ctl_partition(sim->st, topic, partition, err, errlen);
	if (p)
		sim_partition_set_log_start(p, offset);
	UNLOCK(sim);
	return p ? 0 : -1;
}

int sim_get_offsets(sim_cluster *sim, const char *topic, int partition, int64_t *log_start, int64_t *log_end, char *err,
		    size_t errlen)
{
	LOCK(sim);
	struct sim_partition *p = ctl_partition(sim->st, topic, partition, err, errlen);
	if (p) {
		*log_start = p->log_start;
		*log_end = p->log_end;
	}
	UNLOCK(sim);
	return p ? 0 : -1;
}

int sim_leader(sim_cluster *sim, const char *topic, int partition)
{
	char err[200];
	LOCK(sim);
	struct sim_partition *p = ctl_partition(sim->st, topic, partition, err, sizeof(err));
	int leader = p ? p->leader : -1;
	UNLOCK(sim);
	return leader;
}

/* ---- groups ---- */

int sim_add_member(sim_cluster *sim, const char *group, const struct sim_member_spec *spec, char *id_out,
		   size_t id_outlen, char *err, size_t errlen)
{
	LOCK(sim);
	struct sim_member *m = ctl_add_member(sim->st, group, spec, err, errlen);
	if (m && id_out)
		snprintf(id_out, id_outlen, "%s", m->member_id);
	UNLOCK(sim);
	return m ? 0 : -1;
}

int sim_add_consumer_member(sim_cluster *sim, const char *group, const struct sim_member_spec *spec, char *id_out,
			    size_t id_outlen, char *err, size_t errlen)
{
	LOCK(sim);
	struct sim_member *m = ctl_add_consumer_member(sim->st, group, spec, err, errlen);
	if (m && id_out)
		snprintf(id_out, id_outlen, "%s", m->member_id);
	UNLOCK(sim);
	return m ? 0 : -1;
}

int sim_remove_member(sim_cluster *sim, const char *group, const char *member_id, char *err, size_t errlen)
{
	LOCK(sim);
	int rc = ctl_remove_member(sim->st, group, member_id, err, errlen);
	UNLOCK(sim);
	return rc;
}

int sim_commit(sim_cluster *sim, const char *group, const char *topic, int partition, int64_t offset,
	       const char *metadata, char *err, size_t errlen)
{
	LOCK(sim);
	int rc = ctl_commit(sim->st, group, topic, partition, offset, metadata, now_wall_ms(), err, errlen);
	UNLOCK(sim);
	return rc;
}

int64_t sim_committed(sim_cluster *sim, const char *group, const char *topic, int partition)
{
	LOCK(sim);
	const struct sim_group *g = sim_group_find(sim->st, group, strlen(group));
	const struct sim_commit *c = g ? sim_group_committed(g, topic, strlen(topic), partition) : NULL;
	int64_t off = c ? c->offset : -1;
	UNLOCK(sim);
	return off;
}

int sim_set_group_state(sim_cluster *sim, const char *group, const char *state, char *err, size_t errlen)
{
	enum sim_group_state s;
	if (sim_group_state_parse(state, &s) < 0) {
		snprintf(err, errlen,
			 "unknown group state '%s' (Empty, PreparingRebalance, CompletingRebalance, Stable, Dead; "
			 "Assigning, Reconciling for consumer-protocol groups)",
			 state);
		return -1;
	}
	LOCK(sim);
	int rc = ctl_set_group_state(sim->st, group, s, err, errlen);
	UNLOCK(sim);
	return rc;
}

int sim_group_info(sim_cluster *sim, const char *group, char *state, size_t statelen)
{
	LOCK(sim);
	const struct sim_group *g = sim_group_find(sim->st, group, strlen(group));
	snprintf(state, statelen, "%s", g ? sim_group_state_name(g->state) : "");
	int n = g ? (int)g->nmembers : -1;
	UNLOCK(sim);
	return n;
}

const char *sim_group_type(sim_cluster *sim, const char *group)
{
	LOCK(sim);
	const struct sim_group *g = sim_group_find(sim->st, group, strlen(group));
	const char *type = g ? sim_group_type_name(g->type) : NULL; /* static strings: safe after unlocking */
	UNLOCK(sim);
	return type;
}

int sim_coordinator(sim_cluster *sim, const char *group)
{
	return sim_coordinator_for(sim->st, group, strlen(group)); /* depends on immutable data only */
}

void sim_sizes(sim_cluster *sim, size_t *topics, size_t *partitions, size_t *groups, size_t *commits)
{
	LOCK(sim);
	size_t nt = 0, np = 0, ng = 0, nc = 0, it = 0;
	struct sim_topic *t;
	while ((t = strmap_next(&sim->st->topics, &it))) {
		nt++;
		np += (size_t)t->npartitions;
	}
	it = 0;
	struct sim_group *g;
	while ((g = strmap_next(&sim->st->groups, &it))) {
		ng++;
		nc += sim_group_commit_count(g);
	}
	UNLOCK(sim);
	if (topics)
		*topics = nt;
	if (partitions)
		*partitions = np;
	if (groups)
		*groups = ng;
	if (commits)
		*commits = nc;
}

/* ---- brokers ---- */

int sim_broker_count(const sim_cluster *sim)
{
	return sim->srv->nbrokers;
}

int sim_broker_port(const sim_cluster *sim, int node_id)
{
	return node_id >= 1 && node_id <= sim->srv->nbrokers ? sim->srv->brokers[node_id - 1].port : -1;
}

static int broker_set(sim_cluster *sim, int node_id, bool up, char *err, size_t errlen)
{
	if (node_id < 1 || node_id > sim->srv->nbrokers) {
		snprintf(err, errlen, "no broker %d (brokers are 1..%d)", node_id, sim->srv->nbrokers);
		return -1;
	}
	struct sim_server *srv = sim->srv;
	struct sim_broker *b = &srv->brokers[node_id - 1];
	LOCK(sim);
	b->want_up = up;
	if (!srv->running) {
		sim_server_apply_brokers(srv);
	} else {
		/* The loop owns the sockets: ask it, and wait until it has done it. */
		sim_server_wake(srv);
		while ((b->listen_fd >= 0) != up && b->want_up == up && srv->running)
			pthread_cond_wait(&srv->changed, &srv->lock);
	}
	bool ok = (b->listen_fd >= 0) == up;
	UNLOCK(sim);
	if (!ok)
		snprintf(err, errlen, "broker %d: could not %s (port %d)", node_id, up ? "restart" : "stop", b->port);
	return ok ? 0 : -1;
}

int sim_broker_stop(sim_cluster *sim, int node_id, char *err, size_t errlen)
{
	return broker_set(sim, node_id, false, err, errlen);
}

int sim_broker_start(sim_cluster *sim, int node_id, char *err, size_t errlen)
{
	return broker_set(sim, node_id, true, err, errlen);
}

int sim_broker_set_latency(sim_cluster *sim, int node_id, int latency_ms, char *err, size_t errlen)
{
	if (node_id < 1 || node_id > sim->srv->nbrokers || latency_ms < 0) {
		snprintf(err, errlen, "bad broker %d or latency %d", node_id, latency_ms);
		return -1;
	}
	LOCK(sim);
	sim->srv->brokers[node_id - 1].fault.latency_ms = latency_ms;
	UNLOCK(sim);
	return 0;
}

/* ---- fault injection (errors, latency, dropped connections; tests/faults) ---- */

/* The brokers a fault call applies to: node_id, or every broker for 0. */
static int fault_range(sim_cluster *sim, int node_id, int *lo, int *hi, char *err, size_t errlen)
{
	if (node_id < 0 || node_id > sim->srv->nbrokers) {
		snprintf(err, errlen, "no broker %d (brokers are 1..%d, 0 for all)", node_id, sim->srv->nbrokers);
		return -1;
	}
	*lo = node_id ? node_id : 1;
	*hi = node_id ? node_id : sim->srv->nbrokers;
	return 0;
}

static const struct {
	const char *name;
	int16_t code;
} fault_errors[] = {
	{ "COORDINATOR_NOT_AVAILABLE", KERR_COORDINATOR_NOT_AVAILABLE },
	{ "NOT_COORDINATOR", KERR_NOT_COORDINATOR },
	{ "COORDINATOR_LOAD_IN_PROGRESS", KERR_COORDINATOR_LOAD_IN_PROGRESS },
	{ "REQUEST_TIMED_OUT", KERR_REQUEST_TIMED_OUT },
	/* a principal without the ACL (the sim has no authorizer: this answers as one that denies) */
	{ "GROUP_AUTHORIZATION_FAILED", KERR_GROUP_AUTHORIZATION_FAILED },
	{ "TOPIC_AUTHORIZATION_FAILED", KERR_TOPIC_AUTHORIZATION_FAILED },
	{ "CLUSTER_AUTHORIZATION_FAILED", KERR_CLUSTER_AUTHORIZATION_FAILED },
};

int sim_error_code_parse(const char *name, int16_t *code)
{
	for (size_t i = 0; i < sizeof(fault_errors) / sizeof(fault_errors[0]); i++) {
		if (strcasecmp(name, fault_errors[i].name) == 0) {
			*code = fault_errors[i].code;
			return 0;
		}
	}
	return -1;
}

const char *sim_error_code_names(void)
{
	return "COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS, REQUEST_TIMED_OUT, "
	       "GROUP_AUTHORIZATION_FAILED, TOPIC_AUTHORIZATION_FAILED, CLUSTER_AUTHORIZATION_FAILED";
}

int sim_fault_latency(sim_cluster *sim, int node_id, int latency_ms, char *err, size_t errlen)
{
	int lo, hi;
	if (fault_range(sim, node_id, &lo, &hi, err, errlen) < 0)
		return -1;
	if (latency_ms < 0 || latency_ms > 3600000) {
		snprintf(err, errlen, "latency %d ms out of range 0..3600000", latency_ms);
		return -1;
	}
	LOCK(sim);
	for (int i = lo; i <= hi; i++)
		sim->srv->brokers[i - 1].fault.latency_ms = latency_ms;
	UNLOCK(sim);
	return 0;
}

int sim_fault_latency_api(sim_cluster *sim, int node_id, int api_key, char *err, size_t errlen)
{
	int lo, hi;
	if (fault_range(sim, node_id, &lo, &hi, err, errlen) < 0)
		return -1;
	if (api_key < -1 || api_key > INT16_MAX) {
		snprintf(err, errlen, "bad latency api key %d (-1 for every API)", api_key);
		return -1;
	}
	LOCK(sim);
	for (int i = lo; i <= hi; i++)
		sim->srv->brokers[i - 1].fault.latency_api = (int16_t)api_key;
	UNLOCK(sim);
	return 0;
}

int sim_fault_errors(sim_cluster *sim, int node_id, int16_t error_code, int api_key, double rate, int count, char *err,
		     size_t errlen)
{
	int lo, hi;
	if (fault_range(sim, node_id, &lo, &hi, err, errlen) < 0)
		return -1;
	if (!(rate >= 0 && rate <= 1) || count < 0 || api_key < -1 || api_key > INT16_MAX || error_code < 0) {
		snprintf(err, errlen, "bad error fault (rate %g must be 0..1, count %d >= 0, api key %d)", rate, count,
			 api_key);
		return -1;
	}
	LOCK(sim);
	for (int i = lo; i <= hi; i++) {
		struct sim_fault *f = &sim->srv->brokers[i - 1].fault;
		f->error_code = error_code;
		f->error_api = (int16_t)api_key;
		f->error_rate = rate;
		f->error_count = count;
	}
	UNLOCK(sim);
	return 0;
}

int sim_fault_drop_rate(sim_cluster *sim, int node_id, double rate, char *err, size_t errlen)
{
	int lo, hi;
	if (fault_range(sim, node_id, &lo, &hi, err, errlen) < 0)
		return -1;
	if (!(rate >= 0 && rate <= 1)) {
		snprintf(err, errlen, "drop rate %g out of range 0..1", rate);
		return -1;
	}
	LOCK(sim);
	for (int i = lo; i <= hi; i++)
		sim->srv->brokers[i - 1].fault.drop_rate = rate;
	UNLOCK(sim);
	return 0;
}

int sim_fault_commit_partition(sim_cluster *sim, const char *topic, int partition, int16_t error_code, char *err,
			       size_t errlen)
{
	if (topic && (partition < 0 || error_code <= 0)) {
		snprintf(err, errlen, "bad commit fault (partition %d, error %d)", partition, error_code);
		return -1;
	}
	LOCK(sim);
	free(sim->srv->commit_fail_topic);
	sim->srv->commit_fail_topic = topic ? xstrdup(topic) : NULL;
	sim->srv->commit_fail_partition = partition;
	sim->srv->commit_fail_code = error_code;
	UNLOCK(sim);
	return 0;
}

int sim_fault_list_offsets_partition(sim_cluster *sim, const char *topic, int partition, int16_t error_code, char *err,
				     size_t errlen)
{
	if (topic && (partition < 0 || error_code == 0)) {
		snprintf(err, errlen, "bad ListOffsets fault (partition %d, error %d)", partition, error_code);
		return -1;
	}
	LOCK(sim);
	free(sim->srv->list_offsets_fail_topic);
	sim->srv->list_offsets_fail_topic = topic ? xstrdup(topic) : NULL;
	sim->srv->list_offsets_fail_partition = partition;
	sim->srv->list_offsets_fail_code = error_code;
	UNLOCK(sim);
	return 0;
}

void sim_fault_clear(sim_cluster *sim)
{
	LOCK(sim);
	free(sim->srv->commit_fail_topic);
	sim->srv->commit_fail_topic = NULL;
	free(sim->srv->list_offsets_fail_topic);
	sim->srv->list_offsets_fail_topic = NULL;
	for (int i = 0; i < sim->srv->nbrokers; i++)
		sim->srv->brokers[i].fault = (struct sim_fault){ .error_api = -1, .latency_api = -1 };
	UNLOCK(sim);
}

void sim_fault_counts(sim_cluster *sim, uint64_t *errors, uint64_t *drops)
{
	LOCK(sim);
	*errors = sim->srv->injected_errors;
	*drops = sim->srv->injected_drops;
	UNLOCK(sim);
}

int sim_group_move_coordinator(sim_cluster *sim, const char *group, int node_id, char *err, size_t errlen)
{
	if (node_id < 0 || node_id > sim->srv->nbrokers) {
		snprintf(err, errlen, "no broker %d (brokers are 1..%d, 0 for the default)", node_id,
			 sim->srv->nbrokers);
		return -1;
	}
	LOCK(sim);
	struct sim_group *g = sim_group_find(sim->st, group, strlen(group));
	if (g)
		g->coordinator = node_id;
	UNLOCK(sim);
	if (!g) {
		snprintf(err, errlen, "unknown group '%s'", group);
		return -1;
	}
	return 0;
}

/* For fuzzing: request frames through the dispatch path, no socket (see sim_server_feed). */
int sim_feed(sim_cluster *sim, int node_id, const uint8_t *data, size_t len)
{
	LOCK(sim);
	int n = sim_server_feed(sim->srv, node_id, data, len);
	UNLOCK(sim);
	return n;
}

/* ---- counters ---- */

void sim_counts(sim_cluster *sim, uint64_t counts[SIM_COUNT_KEYS + 1], bool reset)
{
	LOCK(sim);
	for (int i = 0; i < SIM_COUNT_KEYS; i++)
		counts[i] = i < KAPI_KEY_MAX ? sim->srv->counts[i] : 0;
	counts[SIM_COUNT_KEYS] = sim->srv->count_unknown;
	if (reset) {
		memset(sim->srv->counts, 0, sizeof(sim->srv->counts));
		sim->srv->count_unknown = 0;
	}
	UNLOCK(sim);
}

char *sim_counts_json(sim_cluster *sim, bool reset)
{
	uint64_t c[SIM_COUNT_KEYS + 1];
	sim_counts(sim, c, reset);
	size_t cap = 64 + (SIM_COUNT_KEYS + 2) * 48, len = 0;
	char *s = xmalloc(cap);
	uint64_t total = 0;
	len += (size_t)snprintf(s + len, cap - len, "{");
	for (int k = 0; k <= SIM_COUNT_KEYS; k++) {
		if (!c[k])
			continue;
		total += c[k];
		const char *name = k < SIM_COUNT_KEYS ? sim_api_name((int16_t)k) : "Unknown";
		if (name)
			len += (size_t)snprintf(s + len, cap - len, "\"%s\":%" PRIu64 ",", name, c[k]);
		else
			len += (size_t)snprintf(s + len, cap - len, "\"ApiKey%d\":%" PRIu64 ",", k, c[k]);
	}
	snprintf(s + len, cap - len, "\"total\":%" PRIu64 "}", total);
	return s;
}
