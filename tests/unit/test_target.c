/* test_target.c — the configuration file and the command line combined (src/cli/target.h): the cluster
 * chosen by -c or default_cluster, the precedence file < --command-config < -b < -X, what a cluster switch
 * (`c` in the dashboard) carries over, the -g/-G group rule; and the connection type itself
 * (src/config/connection.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/options.h"
#include "cli/target.h"
#include "config/config_file.h"
#include "config/connection.h"
#include "util/xalloc.h"

#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

/* Writes text to test_folder/name, mode 0600; returns the malloc'd path. */
static char *write_file(const char *name, const char *text)
{
	return test_write_file(test_folder, name, text, 0600);
}

/* The value of property key in c, NULL when c has none. */
static const char *prop(const struct lt_connection *c, const char *key)
{
	for (size_t i = 0; i < c->n_props; i++)
		if (strcmp(c->prop_keys[i], key) == 0)
			return c->prop_values[i];
	return NULL;
}

/* c's properties are exactly the key/value pairs of kv (NULL-terminated), in that order. */
static void expect_props(const struct lt_connection *c, const char *const *kv)
{
	size_t n = 0;
	for (; kv[2 * n]; n++) {
		assert_true(n < c->n_props);
		assert_string_equal(c->prop_keys[n], kv[2 * n]);
		assert_string_equal(c->prop_values[n], kv[2 * n + 1]);
	}
	assert_int_equal(c->n_props, n);
}

/* ------------------------------------------------------------------ selection */

static const char *two_clusters =
	"general = { default_cluster = \"dev\"; refresh_interval = 5; theme = \"light\"; };\n"
	"clusters = {\n"
	"  dev = { bootstrap_servers = \"dev:9092\"; properties = [ \"client.id=lagtop\" ]; };\n"
	"  prod = { bootstrap_servers = \"prod:9093\"; read_only = true;\n"
	"           properties = [ \"security.protocol=SASL_SSL\", \"sasl.password=s3cret\" ];\n"
	"           include_groups = [ \"^pay\" ]; };\n"
	"  nobs = { read_only = false; };\n"
	"};\n";

/* o against cfg for cluster which (or TARGET_CHOSEN) is refused, with an error holding needle (NULL: any). */
static void resolve_refused(const struct lt_config *cfg, const struct lt_options *o, size_t which, struct lt_target *t,
			    const char *needle)
{
	char err[512] = "";
	int rc = target_resolve(cfg, o, which, t, err, sizeof err);
	if (rc != -1 || (needle && !strstr(err, needle)))
		fail_msg("target_resolve: %d, '%s' (wanted -1 and '%s')", rc, err, needle ? needle : "");
}

/* two_clusters loaded into cfg, or the test fails with the loader's error. */
static void load_two_clusters(struct lt_config *cfg)
{
	char err[512];
	if (test_config_load_text(cfg, two_clusters, err, sizeof err, NULL) != 0)
		fail_msg("two_clusters: %s", err);
}

/* o resolved against cfg for cluster which (or TARGET_CHOSEN) into t, or the test fails with the error. */
static void resolve_ok(const struct lt_config *cfg, const struct lt_options *o, size_t which, struct lt_target *t)
{
	char err[512];
	if (target_resolve(cfg, o, which, t, err, sizeof err) != 0)
		fail_msg("target_resolve: %s", err);
}

static void select_default_and_named_cluster(void **state)
{
	(void)state;
	struct lt_config cfg;
	struct lt_options o;
	struct lt_target t;
	load_two_clusters(&cfg);

	test_options_ok(&o, NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.name, "dev");
	assert_string_equal(t.conn.bootstrap, "dev:9092");
	assert_int_equal(t.interval_ms, 5000);
	assert_string_equal(t.theme, "light");
	assert_false(t.read_only);
	target_free(&t);
	options_free(&o);

	test_options_ok(&o, "-c", "prod", "-i", "1", "--theme", "mono", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.name, "prod");
	assert_string_equal(t.conn.bootstrap, "prod:9093");
	assert_true(t.read_only);
	assert_true(t.cluster_read_only);
	assert_int_equal(t.conn.n_props, 2);
	assert_int_equal(t.n_include, 1);
	assert_string_equal(t.include[0], "^pay");
	assert_int_equal(t.interval_ms, 1000);
	assert_string_equal(t.theme, "mono");
	target_free(&t);
	options_free(&o);

	/* --read-only alone makes any cluster read-only */
	test_options_ok(&o, "--read-only", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_true(t.read_only);
	assert_false(t.cluster_read_only);
	target_free(&t);
	options_free(&o);
	config_free(&cfg);
}

/* The command line (after "lagtop", NULL-terminated) is parsed, and target_resolve refuses it with exactly
 * the error want, naming no cluster. */
static void expect_refused(const struct lt_config *cfg, const char *want, ...)
{
	char *argv[32];
	va_list ap;
	va_start(ap, want);
	int argc = test_argv(argv, ap);
	va_end(ap);
	struct lt_options o;
	struct lt_target t;
	char err[512];
	assert_int_equal(options_parse(&o, argc, argv, err, sizeof err), 0);
	assert_int_equal(target_resolve(cfg, &o, TARGET_CHOSEN, &t, err, sizeof err), -1);
	assert_string_equal(err, want);
	assert_null(t.conn.name);
	options_free(&o);
}

static void select_unknown_cluster_lists_known(void **state)
{
	(void)state;
	struct lt_config cfg;
	load_two_clusters(&cfg);
	expect_refused(&cfg, "unknown cluster 'staging' (known: dev, prod, nobs)", "-c", "staging", NULL);
	/* a hostile name is shown escaped */
	expect_refused(&cfg, "unknown cluster 'x\\x1b[2J' (known: dev, prod, nobs)", "-c", "x\x1b[2J", NULL);
	config_free(&cfg);

	/* without a file */
	config_init_defaults(&cfg);
	expect_refused(&cfg, "unknown cluster 'prod' (no configuration file was found)", "-c", "prod", NULL);
	config_free(&cfg);
}

static void select_needs_bootstrap(void **state)
{
	(void)state;
	struct lt_config cfg;
	struct lt_options o;
	struct lt_target t;
	char err[512];

	config_init_defaults(&cfg);
	expect_refused(&cfg, "no bootstrap servers: give -b HOST:PORT[,...] or -c CLUSTER with a configuration file",
		       NULL);

	/* -b alone, no file: works */
	test_options_ok(&o, "-b", "127.0.0.1:9092", "-X", "client.id=x", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_null(t.conn.name);
	assert_string_equal(t.conn.bootstrap, "127.0.0.1:9092");
	assert_int_equal(t.conn.n_props, 1);
	assert_int_equal(t.interval_ms, LT_DEFAULT_REFRESH_MS);
	assert_string_equal(t.theme, "default");
	target_free(&t);
	options_free(&o);
	config_free(&cfg);

	char *path;
	assert_int_equal(test_config_load_text(&cfg, two_clusters, err, sizeof err, &path), 0);
	char *want = xasprintf("cluster 'nobs' has no bootstrap_servers (%s:7); give -b HOST:PORT", path);
	expect_refused(&cfg, want, "-c", "nobs", NULL);
	free(want);
	test_options_ok(&o, "-c", "nobs", "-b", "h:1", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.bootstrap, "h:1");
	target_free(&t);
	options_free(&o);
	free(path);
	config_free(&cfg);
}

static void b_and_x_override_in_order(void **state)
{
	(void)state;
	struct lt_config cfg;
	struct lt_options o;
	struct lt_target t;
	load_two_clusters(&cfg);
	test_options_ok(&o, "-c", "prod", "-b", "other:1", "-X", "sasl.password=new", "-X", "client.id=me", "-X",
			"security.protocol=SSL", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.bootstrap, "other:1");
	/* replaced in place, keeping the file's order; new ones appended */
	expect_props(&t.conn, (const char *const[]){ "security.protocol", "SSL", "sasl.password", "new", "client.id",
						     "me", NULL });
	target_free(&t);
	options_free(&o);

	/* -X bootstrap.servers comes after -b */
	test_options_ok(&o, "-b", "first:1", "-X", "bootstrap.servers=second:2", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.name, "dev");
	assert_string_equal(t.conn.bootstrap, "second:2");
	assert_int_equal(t.conn.n_props, 1); /* not passed on as a property too */
	target_free(&t);
	options_free(&o);

	/* the file's cluster is not modified by a selection */
	assert_string_equal(config_find_cluster(&cfg, "prod")->conn.prop_values[1], "s3cret");
	config_free(&cfg);
}

/* A cluster chosen with `c` uses its own bootstrap servers. Before, a -X bootstrap.servers
 * from the command line was merged into every cluster switched to, so all of them connected to it. */
static void switch_uses_the_clusters_own_settings(void **state)
{
	(void)state;
	struct lt_config cfg;
	struct lt_options o;
	struct lt_target t;
	load_two_clusters(&cfg);
	test_options_ok(&o, "-c", "dev", "-b", "first:1", "-X", "bootstrap.servers=elsewhere:2", "-X", "client.id=me",
			"-X", "security.protocol=SSL", "-X", "sasl.password=typed", "-X", "debug=broker", "-g", "^x",
			"-i", "3", NULL);
	/* the first cluster: the command line wins, as documented */
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.bootstrap, "elsewhere:2");
	target_free(&t);

	/* switching to prod (index 1): its bootstrap servers, its own properties win, no carried secret */
	resolve_ok(&cfg, &o, 1, &t);
	assert_string_equal(t.conn.name, "prod");
	assert_string_equal(t.conn.bootstrap, "prod:9093");
	assert_int_equal(t.conn.n_props, 4);
	assert_string_equal(t.conn.prop_keys[0], "security.protocol");
	assert_string_equal(t.conn.prop_values[0], "SASL_SSL"); /* the file's, not -X SSL */
	assert_string_equal(t.conn.prop_keys[1], "sasl.password");
	assert_string_equal(t.conn.prop_values[1], "s3cret");  /* not the password typed for dev */
	assert_string_equal(t.conn.prop_keys[2], "client.id"); /* other -X carry over */
	assert_string_equal(t.conn.prop_values[2], "me");
	assert_string_equal(t.conn.prop_keys[3], "debug");
	assert_true(t.read_only);              /* prod's read_only */
	assert_int_equal(t.interval_ms, 3000); /* -i carries over */
	target_free(&t);

	/* back to dev: its own bootstrap too, its own client.id (the file's wins over a carried -X), and
	 * the secret typed on the command line is not carried to a cluster switched to */
	resolve_ok(&cfg, &o, 0, &t);
	assert_string_equal(t.conn.bootstrap, "dev:9092");
	for (size_t i = 0; i < t.conn.n_props; i++) {
		assert_string_not_equal(t.conn.prop_keys[i], "sasl.password");
		assert_string_not_equal(t.conn.prop_keys[i], "bootstrap.servers");
		if (strcmp(t.conn.prop_keys[i], "client.id") == 0)
			assert_string_equal(t.conn.prop_values[i], "lagtop");
	}
	target_free(&t);

	/* a cluster without bootstrap_servers cannot borrow the command line's */
	resolve_refused(&cfg, &o, 2, &t, "cluster 'nobs' has no bootstrap_servers");
	resolve_refused(&cfg, &o, 3, &t, NULL);
	options_free(&o);
	config_free(&cfg);
}

static void resolve_loads_and_selects(void **state)
{
	(void)state;
	char *path = write_file("r.conf", two_clusters);
	struct lt_options o;
	struct lt_config cfg;
	struct lt_target t;
	char err[512];
	test_options_ok(&o, "--config", path, "-c", "prod", NULL);
	assert_int_equal(target_from_options(&o, &t, NULL, &cfg, err, sizeof err), 0);
	assert_string_equal(cfg.path, path);
	assert_string_equal(t.conn.bootstrap, "prod:9093");
	target_free(&t);
	config_free(&cfg);
	options_free(&o);

	test_options_ok(&o, "--config", path, "-c", "zzz", NULL);
	assert_int_equal(target_from_options(&o, &t, NULL, &cfg, err, sizeof err), -1);
	assert_string_equal(err, "unknown cluster 'zzz' (known: dev, prod, nobs)");
	options_free(&o);
	free(path);
}

/* ------------------------------------------------------------------ --command-config and precedence */

/* The file's cluster < --command-config < -b < -X, each replacing a property of the same name in place. */
static void command_config_sits_between_the_file_and_b(void **state)
{
	(void)state;
	struct lt_config cfg;
	struct lt_options o;
	struct lt_target t;
	load_two_clusters(&cfg);
	char *cc = write_file("admin.properties", "bootstrap.servers=cc:1\n"
						  "security.protocol=SSL\n"
						  "client.id=from-command-config\n");

	/* --command-config over the file: its bootstrap, its security.protocol in the file's place */
	test_options_ok(&o, "-c", "prod", "--command-config", cc, NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.bootstrap, "cc:1");
	expect_props(&t.conn, (const char *const[]){ "security.protocol", "SSL", "sasl.password", "s3cret", "client.id",
						     "from-command-config", NULL });
	assert_null(prop(&t.conn, "bootstrap.servers")); /* the bootstrap, not a property as well */
	target_free(&t);
	options_free(&o);

	/* -b over --command-config, -X over both */
	test_options_ok(&o, "-c", "prod", "--command-config", cc, "-b", "b:2", "-X", "client.id=from-x", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.bootstrap, "b:2");
	assert_string_equal(prop(&t.conn, "client.id"), "from-x");
	assert_string_equal(prop(&t.conn, "security.protocol"), "SSL");
	target_free(&t);
	options_free(&o);

	/* -X bootstrap.servers over -b over --command-config */
	test_options_ok(&o, "--command-config", cc, "-b", "b:2", "-X", "bootstrap.servers=x:3", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.name, "dev");
	assert_string_equal(t.conn.bootstrap, "x:3");
	assert_null(prop(&t.conn, "bootstrap.servers"));
	target_free(&t);
	options_free(&o);

	/* a --command-config error names the file and stops the run */
	char *bad = write_file("bad.properties", "ssl.truststore.type=JKS\nssl.truststore.location=/x.jks\n");
	test_options_ok(&o, "-b", "h:1", "--command-config", bad, NULL);
	resolve_refused(&cfg, &o, TARGET_CHOSEN, &t, "bad.properties");
	assert_null(t.conn.bootstrap);
	options_free(&o);

	/* with no file at all, --command-config alone can name the cluster */
	config_free(&cfg);
	config_init_defaults(&cfg);
	test_options_ok(&o, "--command-config", cc, NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_null(t.conn.name);
	assert_string_equal(t.conn.bootstrap, "cc:1");
	assert_string_equal(connection_name(&t.conn), "cc:1");
	target_free(&t);
	options_free(&o);
	free(bad);
	free(cc);
	config_free(&cfg);
}

/* A cluster switched to takes from --command-config what it takes from -X: not its bootstrap.servers (it
 * named the first cluster; before, it pulled every cluster switched to back to the first one), not its
 * secrets, not a key the cluster sets itself; the rest, in order. */
static void switch_reapplies_command_config_like_x(void **state)
{
	(void)state;
	struct lt_config cfg;
	struct lt_options o;
	struct lt_target t;
	load_two_clusters(&cfg);
	char *cc = write_file("admin.properties",
			      "bootstrap.servers=first:1\n"
			      "client.id=from-command-config\n"
			      "sasl.mechanism=PLAIN\n"
			      "sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
			      "username=\"alice\" password=\"for-the-first\";\n"
			      "request.timeout.ms=7000\n");
	test_options_ok(&o, "-c", "dev", "--command-config", cc, "-X", "debug=broker", NULL);

	/* the first cluster: all of it */
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_string_equal(t.conn.bootstrap, "first:1");
	assert_string_equal(prop(&t.conn, "sasl.password"), "for-the-first");
	assert_string_equal(prop(&t.conn, "client.id"), "from-command-config");
	target_free(&t);

	/* prod: its own bootstrap and password; the command-config's other keys carry over */
	resolve_ok(&cfg, &o, 1, &t);
	assert_string_equal(t.conn.name, "prod");
	assert_string_equal(t.conn.bootstrap, "prod:9093");
	assert_string_equal(prop(&t.conn, "sasl.password"), "s3cret");
	assert_string_equal(prop(&t.conn, "security.protocol"), "SASL_SSL");
	assert_string_equal(prop(&t.conn, "client.id"), "from-command-config");
	assert_string_equal(prop(&t.conn, "sasl.mechanisms"), "PLAIN");
	assert_string_equal(prop(&t.conn, "sasl.username"), "alice");
	assert_string_equal(prop(&t.conn, "socket.timeout.ms"), "7000"); /* request.timeout.ms, mapped */
	assert_string_equal(prop(&t.conn, "debug"), "broker");
	assert_null(prop(&t.conn, "bootstrap.servers"));
	/* in order: the file's properties, then --command-config's, then -X's */
	assert_string_equal(t.conn.prop_keys[0], "security.protocol");
	assert_string_equal(t.conn.prop_keys[1], "sasl.password");
	assert_string_equal(t.conn.prop_keys[t.conn.n_props - 1], "debug");
	target_free(&t);

	/* back to dev: its own bootstrap, and its own client.id wins over the carried one */
	resolve_ok(&cfg, &o, 0, &t);
	assert_string_equal(t.conn.bootstrap, "dev:9092");
	assert_string_equal(prop(&t.conn, "client.id"), "lagtop");
	assert_null(prop(&t.conn, "sasl.password"));
	target_free(&t);
	options_free(&o);
	free(cc);
	config_free(&cfg);
}

/* ------------------------------------------------------------------ groups */

/* -g exact ids and -G regexes replace the cluster's include_groups; --all-groups is every group; --describe's
 * ids are not hidden by exclude_groups. The same rule for the cluster chosen and for one switched to. */
static void groups_replace_the_include_list(void **state)
{
	(void)state;
	struct lt_config cfg;
	struct lt_options o;
	struct lt_target t;
	char err[512];
	assert_int_equal(
		test_config_load_text(&cfg,
				      "clusters = { p = { bootstrap_servers = \"p:1\"; include_groups = [ \"^pay\" ];\n"
				      "                   exclude_groups = [ \"-test$\" ]; }; };\n",
				      err, sizeof err, NULL),
		0);
	test_options_ok(&o, "-c", "p", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_int_equal(t.n_include, 1);
	assert_string_equal(t.include[0], "^pay");
	assert_int_equal(t.n_exact, 0);
	assert_int_equal(t.n_exclude, 1);
	target_free(&t);
	options_free(&o);

	test_options_ok(&o, "-c", "p", "-g", "a.b", "-G", "^x", NULL);
	for (size_t which = TARGET_CHOSEN, round = 0; round < 2; round++, which = 0) {
		assert_int_equal(target_resolve(&cfg, &o, which, &t, err, sizeof err), 0);
		assert_int_equal(t.n_include, 2);
		assert_string_equal(t.include[0], "^a\\.b$");
		assert_string_equal(t.include[1], "^x");
		assert_int_equal(t.n_exact, 1);
		assert_string_equal(t.exact[0], "a.b");
		assert_int_equal(t.n_exclude, 1);
		target_free(&t);
	}
	options_free(&o);

	test_options_ok(&o, "-c", "p", "--describe", "-g", "a-test", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_int_equal(t.n_exclude, 0);
	target_free(&t);
	options_free(&o);

	test_options_ok(&o, "-c", "p", "--describe", "--all-groups", NULL);
	resolve_ok(&cfg, &o, TARGET_CHOSEN, &t);
	assert_int_equal(t.n_include, 0);
	assert_int_equal(t.n_exclude, 0);
	target_free(&t);
	options_free(&o);
	config_free(&cfg);
}

/* ------------------------------------------------------------------ the connection type */

static void connection_set_routes_bootstrap_and_keeps_order(void **state)
{
	(void)state;
	struct lt_connection c = { 0 };
	assert_string_equal(connection_name(&c), "-");
	connection_set(&c, "client.id=x", 9, "a");
	connection_set(&c, "debug", 5, "all");
	connection_set(&c, "bootstrap.servers", 17, "h:1");
	connection_set(&c, "client.id", 9, "b");
	assert_string_equal(c.bootstrap, "h:1");
	assert_string_equal(connection_name(&c), "h:1");
	assert_int_equal(c.n_props, 2);
	assert_string_equal(c.prop_keys[0], "client.id");
	assert_string_equal(c.prop_values[0], "b");
	assert_string_equal(c.prop_keys[1], "debug");
	assert_null(c.prop_keys[2]); /* NULL-terminated */
	assert_true(connection_has(&c, "debug=x", 5));
	assert_false(connection_has(&c, "debu", 4));
	assert_false(connection_has(&c, "bootstrap.servers", 17));

	struct lt_connection d;
	c.name = xstrdup("n");
	connection_copy(&d, &c);
	connection_free(&c);
	assert_null(c.prop_keys);
	assert_string_equal(connection_name(&d), "n");
	assert_string_equal(d.bootstrap, "h:1");
	assert_int_equal(d.n_props, 2);
	assert_string_equal(d.prop_values[1], "all");
	connection_free(&d);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(select_default_and_named_cluster),
	cmocka_unit_test(select_unknown_cluster_lists_known),
	cmocka_unit_test(select_needs_bootstrap),
	cmocka_unit_test(b_and_x_override_in_order),
	cmocka_unit_test(switch_uses_the_clusters_own_settings),
	cmocka_unit_test(resolve_loads_and_selects),
	cmocka_unit_test(command_config_sits_between_the_file_and_b),
	cmocka_unit_test(switch_reapplies_command_config_like_x),
	cmocka_unit_test(groups_replace_the_include_list),
	cmocka_unit_test(connection_set_routes_bootstrap_and_keeps_order),
};

LT_TEST_MAIN(test_home_setup, test_folder_teardown)
