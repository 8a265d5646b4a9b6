/* demo.c — `lagtop --demo`: the simulated cluster (src/sim) in-process on ephemeral loopback ports
 * with the "demo" scenario, and the dashboard on it through the real client path (collector,
 * librdkafka, TCP). The cluster stops when the dashboard closes. Its settings come from the command line
 * by the same rules as a real cluster's (target_resolve), without the configuration file (of which it reads only the
 * panes' columns). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/modes.h"
#include "cli/target.h"
#include "kafka/collector.h"
#include "sim/sim.h"
#include "ui/source.h"
#include "ui/tui.h"
#include "util/xalloc.h"

/* Resets work in the demo too: on the simulated cluster, with the default confirm threshold. */
struct demo_ctx {
	const struct lt_target *t;
	int timeout_ms;
};

static int demo_reset_conf(void *ctx, struct tui_reset_conf *out)
{
	const struct demo_ctx *d = ctx;
	*out = (struct tui_reset_conf){ .conn = &d->t->conn,
					.timeout_ms = d->timeout_ms,
					.confirm_threshold = d->t->reset_confirm_threshold };
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
	so.metrics = true;                              /* its consumers publish their positions */
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

	/* the simulated cluster in place of the file's: no cluster, no file properties, no -X */
	struct lt_options eff = *o;
	eff.cluster = NULL;
	eff.bootstrap = sim_bootstrap(sim);
	eff.n_props = 0;
	eff.command_config = NULL;
	struct lt_config defaults;
	config_init_defaults(&defaults);
	struct lt_target t;
	int rc = target_resolve(&defaults, &eff, TARGET_CHOSEN, &t, err, sizeof err);
	config_free(&defaults);
	if (rc != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		sim_stop(sim);
		sim_free(sim);
		return LT_EXIT_USAGE;
	}
	t.conn.name = xstrdup("demo (simulated)");

	struct lt_collector_conf conf;
	target_collector_conf(&t, o->timeout_ms, &conf);
	/* the simulated consumers' metrics endpoint; not committing is judged with the one threshold every
	 * mode uses (not_committing_after's default), so the demo shows what a real cluster would */
	char metrics_url[64];
	snprintf(metrics_url, sizeof metrics_url, "http://127.0.0.1:%d/metrics", sim_metrics_port_of(sim));
	const char *const locations[] = { metrics_url };
	lt_pos_sources_conf positions = { .n = 1, .locations = locations };
	conf.positions = &positions;

	lt_collector *c = collector_new(&conf, err, sizeof err);
	if (!c) {
		fprintf(stderr, "lagtop: %s\n", err);
		rc = LT_EXIT_CLUSTER;
	} else if (collector_start(c, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		collector_free(c);
		rc = LT_EXIT_CLUSTER;
	} else {
		/* of the configuration file, the demo takes only the panes' columns (and F2 saves them there) */
		struct lt_config file;
		if (config_load(&file, o->config_path, 0, NULL, err, sizeof err) != 0) {
			fprintf(stderr, "lagtop: warning: %s (the demo shows the default columns)\n", err);
			config_init_defaults(&file);
		}
		ui_source *src = source_collector_new(c);
		struct demo_ctx d = { &t, o->timeout_ms };
		struct tui_clusters cl = { .n = 0, .reset_conf = demo_reset_conf, .ctx = &d };
		struct tui_settings ts = { .theme = o->theme,
					   .read_only = o->read_only,
					   .no_color = o->no_color,
					   .ascii = o->ascii,
					   .no_mouse = o->no_mouse,
					   .columns = file.columns,
					   .config_path = file.path };
		rc = tui_run(&ts, src, conf.interval_ms, &cl);
		config_free(&file);
		source_free(src);
		collector_free(c);
	}
	target_free(&t);
	sim_stop(sim);
	sim_free(sim);
	return rc;
}
