/* demo.c — `lagtop --demo`: the simulated cluster (src/sim) in-process on ephemeral loopback ports
 * with the "demo" scenario, and the dashboard on it through the real client path (collector,
 * librdkafka, TCP). The cluster stops when the dashboard closes. */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/modes.h"
#include "config/config.h"
#include "kafka/collector.h"
#include "sim/sim.h"
#include "ui/source.h"
#include "ui/tui.h"

/* Resets work in the demo too: on the simulated cluster, with the default confirm threshold. */
struct demo_ctx {
	const char *bootstrap;
	int timeout_ms;
};

static int demo_reset_conf(void *ctx, struct tui_reset_conf *out)
{
	const struct demo_ctx *d = ctx;
	memset(out, 0, sizeof *out);
	out->conn.cluster_name = "demo";
	out->conn.bootstrap = d->bootstrap;
	out->conn.timeout_ms = d->timeout_ms;
	out->confirm_threshold = LT_DEFAULT_RESET_CONFIRM;
	return 0;
}

int mode_demo(const struct lt_options *o)
{
	char err[512];
	struct sim_options so;
	memset(&so, 0, sizeof so);
	so.brokers = 3;
	so.port = 0;
	so.scenario = "demo";
	so.metrics = true; /* its consumers publish their positions (issue 15) */
	if (tui_terminal_check(err, sizeof err) != 0) { /* before the simulated cluster starts */
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}

	sim_cluster *sim = sim_new(&so, err, sizeof err);
	if (!sim) {
		fprintf(stderr, "lagtop: cannot start the simulated cluster: %s\n", err);
		return LT_EXIT_CLUSTER;
	}
	if (sim_start(sim) != 0) {
		fprintf(stderr, "lagtop: cannot start the simulated cluster's thread\n");
		sim_free(sim);
		return LT_EXIT_CLUSTER;
	}

	struct lt_collector_conf conf;
	memset(&conf, 0, sizeof conf);
	conf.cluster_name = "demo (simulated)";
	conf.bootstrap = sim_bootstrap(sim);
	conf.n_group_regex = o->n_groups;
	conf.group_regex = o->groups;
	conf.interval_ms = tui_interval_ms(o);
	conf.timeout_ms = o->timeout_ms;
	conf.commit_stream = true;
	/* the simulated consumers' metrics endpoint, and a short not-committing window so that the demo's
	 * invoice-mailer (which reads but stopped committing) is flagged within the first minute */
	char metrics_url[64];
	snprintf(metrics_url, sizeof metrics_url, "http://127.0.0.1:%d/metrics", sim_metrics_port_of(sim));
	const char *const locations[] = { metrics_url };
	lt_pos_sources_conf positions = { .n = 1, .locations = locations, .not_committing_ms = 20000 };
	conf.positions = &positions;
	model_params_default(&conf.model);

	int rc;
	lt_collector *c = collector_new(&conf, err, sizeof err);
	if (!c) {
		fprintf(stderr, "lagtop: %s\n", err);
		rc = LT_EXIT_CLUSTER;
	} else if (collector_start(c, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		collector_free(c);
		rc = LT_EXIT_CLUSTER;
	} else {
		ui_source *src = source_collector_new(c);
		struct demo_ctx d = {conf.bootstrap, o->timeout_ms};
		struct tui_clusters cl = {.n = 0, .reset_conf = demo_reset_conf, .ctx = &d};
		rc = tui_run(o, src, conf.interval_ms, &cl);
		source_free(src);
		collector_free(c);
	}
	sim_stop(sim);
	sim_free(sim);
	return rc;
}
