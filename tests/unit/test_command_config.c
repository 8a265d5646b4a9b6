/* test_command_config.c — Java properties (java.util.Properties.load's rules), JAAS entries, and the mapping
 * of kafka-consumer-groups' --command-config keys to librdkafka properties, including malformed input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/command_config.h"
#include "config/jprops.h"
#include "util/xalloc.h"
#include "../lib/lagtop_test.h"
#include "../lib/cmocka_main.h"

static void parse_ok(const char *text, struct jprops *p)
{
	char err[256] = "";
	if (jprops_parse(text, strlen(text), p, err, sizeof err) != 0)
		fail_msg("parse failed: %s", err);
}

struct key_value {
	const char *key, *value;
};

/* p holds each key of want (up to a NULL key) with its value. */
static void expect_values(const struct jprops *p, const struct key_value *want)
{
	for (; want->key; want++) {
		const char *got = jprops_get(p, want->key);
		if (!got || strcmp(got, want->value) != 0)
			fail_msg("'%s' is '%s', not '%s'", want->key, got ? got : "(none)", want->value);
	}
}

static void properties_format(void **state)
{
	(void)state;
	struct jprops p;
	/* comments (# and !, after blanks), blank lines, the three separators, blanks around them */
	parse_ok("# comment\n  ! another = x\n\n"
		 "a=1\n"
		 "b : 2\n"
		 "c 3\n"
		 "d\t=\t4 \n" /* trailing blank kept in the value */
		 "e\n"        /* a key with an empty value */
		 "f==5\n"     /* only the first '=' separates */
		 "g = x=y:z\n"
		 "  h=leading blanks of the line dropped\n",
		 &p);
	expect_values(&p, (const struct key_value[]){ { "a", "1" },
						      { "b", "2" },
						      { "c", "3" },
						      { "d", "4 " },
						      { "e", "" },
						      { "f", "=5" },
						      { "g", "x=y:z" },
						      { "h", "leading blanks of the line dropped" },
						      { NULL } });
	assert_null(jprops_get(&p, "another"));
	assert_null(jprops_get(&p, "#"));
	assert_int_equal(p.n, 8);
	assert_int_equal(p.lines[0], 4); /* "a" is on line 4 */
	jprops_free(&p);

	/* escapes in keys and values; continuations (odd backslashes) with the next line's blanks dropped;
	 * \r\n and \r line ends; an even number of backslashes is no continuation; a comment does not continue */
	parse_ok("key\\ with\\=odd\\:chars = v\\tt\\n\\u0041\\u00e9\\\\\r\n"
		 "long = one, \\\n      two, \\\r   three\n"
		 "even = ends\\\\\\\\\n"
		 "# comment \\\n"
		 "after = comment\n"
		 "latin = caf\xe9\n"
		 "last = no newline\\",
		 &p);
	expect_values(&p, (const struct key_value[]){ { "key with=odd:chars", "v\tt\nA\xc3\xa9\\" },
						      { "long", "one, two, three" },
						      { "even", "ends\\\\" },
						      { "after", "comment" },
						      { "latin", "caf\xc3\xa9" }, /* ISO-8859-1 in, UTF-8 out */
						      { "last", "no newline" },
						      { NULL } });
	assert_int_equal(p.lines[1], 2);
	assert_int_equal(p.lines[3], 7);
	jprops_free(&p);

	/* a later key replaces an earlier one */
	parse_ok("x=1\nx=2\n", &p);
	assert_int_equal(p.n, 1);
	assert_string_equal(jprops_get(&p, "x"), "2");
	jprops_free(&p);

	/* empty text, only comments */
	parse_ok("", &p);
	assert_int_equal(p.n, 0);
	jprops_free(&p);
	parse_ok("#x\n!y\n   \n", &p);
	assert_int_equal(p.n, 0);
	jprops_free(&p);
}

static void properties_malformed(void **state)
{
	(void)state;
	struct jprops p;
	char err[256];
	const char *bad[] = { "a=1\nb=\\u12\n", "a=\\uZZZZ\n", "\\u00=x\n", "a=\\u" };
	const char *where[] = { "line 2", "line 1", "line 1", "line 1" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		assert_int_equal(jprops_parse(bad[i], strlen(bad[i]), &p, err, sizeof err), -1);
		assert_non_null(strstr(err, where[i]));
		assert_non_null(strstr(err, "malformed \\uxxxx"));
		jprops_free(&p);
	}
	/* NUL bytes and binary garbage do not crash; they make keys no table knows */
	const char garbage[] = "\x01\x02=\x00\xff\n\xfe";
	assert_int_equal(jprops_parse(garbage, sizeof garbage - 1, &p, err, sizeof err), 0);
	jprops_free(&p);
}

static void jaas_entries(void **state)
{
	(void)state;
	struct jaas_entry e;
	char err[256];
	assert_int_equal(jaas_parse("org.apache.kafka.common.security.scram.ScramLoginModule required\n"
				    "  username=\"alice\" password=\"p\\\"w;d=\";",
				    &e, err, sizeof err),
			 0);
	assert_string_equal(e.module, "org.apache.kafka.common.security.scram.ScramLoginModule");
	assert_string_equal(e.flag, "required");
	assert_string_equal(jaas_get(&e, "username"), "alice");
	assert_string_equal(jaas_get(&e, "password"), "p\"w;d=");
	jaas_free(&e);
	assert_int_equal(jaas_parse("a.PlainLoginModule optional user_x=bare;", &e, err, sizeof err), 0);
	assert_string_equal(jaas_get(&e, "user_x"), "bare");
	jaas_free(&e);

	static const struct {
		const char *text, *needle;
	} bad[] = {
		{ "", "login module" },
		{ "a.B", "control flag" },
		{ "a.B mandatory;", "'mandatory'" },
		{ "a.B required username=\"x\"", "expected option=value or ';'" },
		{ "a.B required username;", "has no '=value'" },
		{ "a.B required username=\"unclosed;", "closed" },
		{ "a.B required username=;", "expected a value" },
		{ "a.B required; c.D required;", "only one" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		if (jaas_parse(bad[i].text, &e, err, sizeof err) != -1 || !strstr(err, bad[i].needle))
			fail_msg("'%s': err '%s' (wanted '%s')", bad[i].text, err, bad[i].needle);
		jaas_free(&e);
	}
	/* a secret is never quoted in an error */
	assert_int_equal(jaas_parse("a.B required password=\"hunter2\" x", &e, err, sizeof err), -1);
	assert_null(strstr(err, "hunter2"));
	jaas_free(&e);
}

static const char *rd_get(const struct rdprops *r, const char *k)
{
	for (size_t i = 0; i < r->n; i++)
		if (strcmp(r->keys[i], k) == 0)
			return r->values[i];
	return NULL;
}

/* r holds each key of kv (key, value, ..., NULL) with exactly its value. */
static void expect_mapped(const struct rdprops *r, const char *const *kv)
{
	for (size_t i = 0; kv[i]; i += 2) {
		const char *v = rd_get(r, kv[i]);
		if (!v || strcmp(v, kv[i + 1]) != 0)
			fail_msg("%s: \"%s\", want \"%s\"", kv[i], v ? v : "(none)", kv[i + 1]);
	}
}

static int map_text(const char *text, struct rdprops *out, char *err, size_t errlen)
{
	struct jprops p;
	if (jprops_parse(text, strlen(text), &p, err, errlen) != 0) {
		jprops_free(&p);
		memset(out, 0, sizeof *out);
		return -1;
	}
	int rc = command_config_map(&p, out, err, errlen);
	jprops_free(&p);
	return rc;
}

static void mapping_to_librdkafka(void **state)
{
	(void)state;
	struct rdprops r;
	char err[512];
	assert_int_equal(
		map_text("bootstrap.servers=h:9093\n"
			 "security.protocol=SASL_SSL\n"
			 "sasl.mechanism=SCRAM-SHA-512\n"
			 "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
			 "    username=\"lagtop\" password=\"s3cret\";\n"
			 "ssl.truststore.type=PEM\n"
			 "ssl.truststore.location=/etc/ca.pem\n"
			 "ssl.endpoint.identification.algorithm=\n"
			 "client.id=ops\n"
			 "request.timeout.ms=7000\n",
			 &r, err, sizeof err),
		0);
	expect_mapped(&r, (const char *const[]){ "bootstrap.servers", "h:9093", "security.protocol", "SASL_SSL",
						 "sasl.mechanisms", "SCRAM-SHA-512", "sasl.username", "lagtop",
						 "sasl.password", "s3cret", "ssl.ca.location", "/etc/ca.pem",
						 "ssl.endpoint.identification.algorithm", "none", "client.id", "ops",
						 "socket.timeout.ms", "7000", NULL });
	assert_null(rd_get(&r, "ssl.truststore.type"));
	rdprops_free(&r);

	/* mutual TLS: a PKCS12 keystore, or one PEM file with certificate and key */
	assert_int_equal(map_text("ssl.keystore.type=PKCS12\nssl.keystore.location=/k.p12\nssl.keystore.password=pw\n"
				  "ssl.key.password=kp\n",
				  &r, err, sizeof err),
			 0);
	expect_mapped(&r, (const char *const[]){ "ssl.keystore.location", "/k.p12", "ssl.keystore.password", "pw",
						 "ssl.key.password", "kp", NULL });
	rdprops_free(&r);
	assert_int_equal(map_text("ssl.keystore.type=PEM\nssl.keystore.location=/both.pem\n", &r, err, sizeof err), 0);
	expect_mapped(&r, (const char *const[]){ "ssl.certificate.location", "/both.pem", "ssl.key.location",
						 "/both.pem", NULL });
	rdprops_free(&r);
	assert_int_equal(map_text("sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required "
				  "username=u password=p;\n",
				  &r, err, sizeof err),
			 0);
	assert_string_equal(rd_get(&r, "sasl.username"), "u");
	rdprops_free(&r);

	static const struct {
		const char *text;
		const char *needle;
	} bad[] = {
		{ "client.id=1\nssl.truststore.location=/t.jks\n",
		  "ssl.truststore.location (line 2): a JKS truststore has no librdkafka equivalent; give the CA "
		  "certificate "
		  "as a PEM file" },
		{ "ssl.truststore.type=PKCS12\nssl.truststore.location=/t.p12\n", "a PKCS12 truststore" },
		{ "ssl.truststore.type=PEM\nssl.truststore.location=/ca\nssl.truststore.password=x\n",
		  "ssl.truststore.password (line 3): a PEM truststore has no password" },
		{ "ssl.keystore.location=/k.jks\nssl.keystore.password=x\n",
		  "ssl.keystore.location (line 1): a JKS keystore has no librdkafka equivalent; convert it to PKCS12" },
		{ "ssl.keystore.type=PEM\nssl.keystore.location=/k.pem\nssl.keystore.password=x\n",
		  "ssl.keystore.password (line 3)" },
		{ "ssl.truststore.type=PEM\n", "ssl.truststore.type (line 1): given without ssl.truststore.location" },
		{ "sasl.jaas.config=com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;\n",
		  "sasl.jaas.config (line 1): login module Krb5LoginModule has no librdkafka equivalent" },
		{ "sasl.jaas.config=x.ScramLoginModule required username=\"u\" password=\"hunter2\" tokenauth=true;\n",
		  "option 'tokenauth' has no librdkafka equivalent" },
		{ "sasl.jaas.config=x.ScramLoginModule required username=\"u\";\n", "needs username" },
		{ "sasl.jaas.config=x.ScramLoginModule required password=\"hunter2\n", "closed" },
		{ "ssl.endpoint.identification.algorithm=ldap\n", "expected https or nothing" },
		{ "default.api.timeout.ms=1\n",
		  "default.api.timeout.ms (line 1): no librdkafka equivalent; use lagtop's "
		  "--timeout" },
		{ "fetch.max.bytes=1\n", "fetch.max.bytes (line 1): no librdkafka equivalent known to lagtop" },
		{ "x\x1b[2J=1\n", "x\\x1b[2J (line 1)" }, /* a key from the file is shown terminal-safe */
		{ "a=\\u00zz\n", "line 1: malformed" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		err[0] = '\0';
		int rc = map_text(bad[i].text, &r, err, sizeof err);
		if (rc != -1 || !strstr(err, bad[i].needle))
			fail_msg("case %zu: rc=%d err='%s' (wanted '%s')", i, rc, err, bad[i].needle);
		assert_null(strstr(err, "hunter2"));
		assert_null(strchr(err, '\n'));
		assert_int_equal(r.n, 0);
		rdprops_free(&r);
	}
}

static void load_file(void **state)
{
	(void)state;
	struct rdprops r;
	char err[512], path[] = "/tmp/lagtop-cc-XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	const char *text = "security.protocol=SSL\r\nssl.truststore.type=PEM\r\nssl.truststore.location=/ca.pem\r\n";
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	assert_int_equal(command_config_load(path, &r, NULL, err, sizeof err), 0);
	assert_string_equal(rd_get(&r, "ssl.ca.location"), "/ca.pem");
	rdprops_free(&r);
	unlink(path);
	assert_int_equal(command_config_load(path, &r, NULL, err, sizeof err), -1);
	assert_non_null(strstr(err, "--command-config /tmp/lagtop-cc-"));
	assert_non_null(strstr(err, "No such file"));
	assert_int_equal(command_config_load("/", &r, NULL, err, sizeof err), -1);
	assert_non_null(strstr(err, "--command-config /:"));
}

/* The configuration file's rules: the user's own regular file, and the same warning for a readable secret. */
static void load_trusts_only_the_users_file(void **state)
{
	(void)state;
	struct rdprops r;
	char err[512], dir[] = "/tmp/lagtop-cc-XXXXXX";
	assert_non_null(mkdtemp(dir));
	char *fifo = xasprintf("%s/fifo", dir), *path = xasprintf("%s/admin.properties", dir);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	signal(SIGALRM, test_bail_out_blocked_on_fifo);
	alarm(5);
	assert_int_equal(command_config_load(fifo, &r, NULL, err, sizeof err), -1);
	alarm(0);
	char *want = xasprintf("--command-config %s: not a regular file", fifo);
	assert_string_equal(err, want);
	free(want);

	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs("security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config=org.apache.kafka.common.security."
	      "plain.PlainLoginModule required username=\"u\" password=\"hunter2\";\n",
	      f);
	fclose(f);
	chmod(path, 0646);
	assert_int_equal(command_config_load(path, &r, NULL, err, sizeof err), -1);
	want = xasprintf("refusing %s: writable by others (chmod go-w %s)", path, path);
	assert_string_equal(err, want);
	free(want);

	chmod(path, 0644);
	char *text = NULL;
	size_t len = 0;
	FILE *warn = open_memstream(&text, &len);
	assert_int_equal(command_config_load(path, &r, warn, err, sizeof err), 0);
	fclose(warn);
	want = xasprintf("lagtop: warning: %s holds secrets (sasl.password) but is readable by others (mode 0644); "
			 "run: chmod 600 %s\n",
			 path, path);
	assert_string_equal(text, want);
	free(want);
	free(text);
	rdprops_free(&r);

	chmod(path, 0600);
	text = NULL;
	warn = open_memstream(&text, &len);
	assert_int_equal(command_config_load(path, &r, warn, err, sizeof err), 0);
	fclose(warn);
	assert_int_equal(len, 0);
	free(text);
	rdprops_free(&r);

	if (geteuid() == 0) {
		assert_int_equal(chown(path, 65534, 65534), 0);
		assert_int_equal(command_config_load(path, &r, NULL, err, sizeof err), -1);
		assert_non_null(strstr(err, "owned by uid 65534, not by you"));
	} else if (getenv("CI") && strcmp(getenv("CI"), "true") == 0) {
		fail_msg("files owned by another user need root (CI=true)");
	} else {
		printf("# skip: files owned by another user need root\n");
	}
	unlink(path);
	unlink(fifo);
	rmdir(dir);
	free(path);
	free(fifo);
}

static const struct CMUnitTest tests[] = {
	cmocka_unit_test(properties_format), cmocka_unit_test(properties_malformed),
	cmocka_unit_test(jaas_entries),      cmocka_unit_test(mapping_to_librdkafka),
	cmocka_unit_test(load_file),         cmocka_unit_test(load_trusts_only_the_users_file),
};

LT_TEST_MAIN(NULL, NULL)
