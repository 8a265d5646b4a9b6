/* command_config.c — kafka-consumer-groups' --command-config as librdkafka properties (command_config.h). */
#include "config.h"

#include "config/command_config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config/secrets.h"
#include "util/errbuf.h"
#include "util/file_trust.h"
#include "util/sanitize.h"
#include "util/xalloc.h"

#define MAX_FILE_BYTES (1u << 20)

enum how {
	COPY,       /* the same name and meaning in librdkafka */
	RENAME,     /* the same meaning under another name */
	JAAS,       /* sasl.jaas.config: PlainLoginModule / ScramLoginModule -> sasl.username, sasl.password */
	ENDPOINT,   /* ssl.endpoint.identification.algorithm: "https" or "" (none) */
	TRUSTSTORE, /* ssl.truststore.location, with ssl.truststore.type (PEM only) */
	KEYSTORE,   /* ssl.keystore.location, with ssl.keystore.type (PKCS12 or PEM) */
	WITH_STORE, /* read together with its store's location (type, passwords) */
	REFUSE,     /* no librdkafka equivalent: the advice says what to use */
};

static const struct mapping {
	const char *java;
	enum how how;
	const char *rd; /* RENAME: the librdkafka name; REFUSE: the advice */
} table[] = {
	{ "bootstrap.servers", COPY, NULL },
	{ "security.protocol", COPY, NULL },
	{ "client.id", COPY, NULL },
	{ "sasl.mechanism", RENAME, "sasl.mechanisms" },
	{ "sasl.jaas.config", JAAS, NULL },
	{ "sasl.kerberos.service.name", COPY, NULL },
	{ "ssl.endpoint.identification.algorithm", ENDPOINT, NULL },
	{ "ssl.truststore.location", TRUSTSTORE, NULL },
	{ "ssl.truststore.type", WITH_STORE, NULL },
	{ "ssl.truststore.password", WITH_STORE, NULL },
	{ "ssl.truststore.certificates", RENAME, "ssl.ca.pem" },
	{ "ssl.keystore.location", KEYSTORE, NULL },
	{ "ssl.keystore.type", WITH_STORE, NULL },
	{ "ssl.keystore.password", WITH_STORE, NULL },
	{ "ssl.key.password", COPY, NULL },
	{ "ssl.keystore.certificate.chain", RENAME, "ssl.certificate.pem" },
	{ "ssl.keystore.key", RENAME, "ssl.key.pem" },
	{ "request.timeout.ms", RENAME, "socket.timeout.ms" },
	{ "retry.backoff.ms", COPY, NULL },
	{ "reconnect.backoff.ms", COPY, NULL },
	{ "reconnect.backoff.max.ms", COPY, NULL },
	{ "connections.max.idle.ms", COPY, NULL },
	{ "metadata.max.age.ms", COPY, NULL },
	{ "socket.connection.setup.timeout.ms", COPY, NULL },
	{ "receive.buffer.bytes", RENAME, "socket.receive.buffer.bytes" },
	{ "send.buffer.bytes", RENAME, "socket.send.buffer.bytes" },
	{ "default.api.timeout.ms", REFUSE, "use lagtop's --timeout" },
	{ "ssl.protocol", REFUSE, "librdkafka negotiates the TLS version itself (-X ssl.* to restrict it)" },
	{ "ssl.enabled.protocols", REFUSE, "librdkafka negotiates the TLS version itself (-X ssl.* to restrict it)" },
	{ "ssl.cipher.suites", REFUSE, "give OpenSSL's cipher names with -X ssl.cipher.suites=..." },
};

static const struct mapping *find(const char *key)
{
	for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
		if (strcmp(table[i].java, key) == 0)
			return &table[i];
	return NULL;
}

static void put(struct rdprops *out, const char *key, const char *value)
{
	for (size_t i = 0; i < out->n; i++)
		if (strcmp(out->keys[i], key) == 0) {
			explicit_bzero(out->values[i], strlen(out->values[i]));
			free(out->values[i]);
			out->values[i] = xstrdup(value);
			return;
		}
	out->keys = xrealloc(out->keys, (out->n + 1) * sizeof *out->keys);
	out->values = xrealloc(out->values, (out->n + 1) * sizeof *out->values);
	out->keys[out->n] = xstrdup(key);
	out->values[out->n] = xstrdup(value);
	out->n++;
}

/* "KEY (line N): ..." — key printed terminal-safe (it comes from a file). */
static int fail(char *err, size_t errlen, const char *key, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
static int fail(char *err, size_t errlen, const char *key, int line, const char *fmt, ...)
{
	char *safe = sanitize_dup(key, true), msg[512];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	err_set(err, errlen, "%s (line %d): %s", safe, line, msg);
	free(safe);
	return -1;
}

static int map_jaas(const char *value, int line, struct rdprops *out, char *err, size_t errlen)
{
	struct jaas_entry e;
	char why[256];
	if (jaas_parse(value, &e, why, sizeof why) != 0) {
		jaas_free(&e);
		/* why starts with "sasl.jaas.config: " */
		return fail(err, errlen, "sasl.jaas.config", line, "%s", strchr(why, ':') ? strchr(why, ':') + 2 : why);
	}
	const char *mod = strrchr(e.module, '.') ? strrchr(e.module, '.') + 1 : e.module;
	int rc = 0;
	if (strcmp(mod, "PlainLoginModule") != 0 && strcmp(mod, "ScramLoginModule") != 0) {
		rc = fail(
			err, errlen, "sasl.jaas.config", line,
			"login module %s has no librdkafka equivalent (PlainLoginModule and ScramLoginModule do); for "
			"GSSAPI or OAUTHBEARER give librdkafka's sasl.kerberos.* or sasl.oauthbearer.* with -X",
			mod);
		goto out;
	}
	for (size_t i = 0; i < e.n; i++)
		if (strcmp(e.names[i], "username") != 0 && strcmp(e.names[i], "password") != 0) {
			rc = fail(err, errlen, "sasl.jaas.config", line,
				  "option '%s' has no librdkafka equivalent (username and password do)", e.names[i]);
			goto out;
		}
	if (!jaas_get(&e, "username") || !jaas_get(&e, "password")) {
		rc = fail(err, errlen, "sasl.jaas.config", line, "%s needs username=\"...\" and password=\"...\"", mod);
		goto out;
	}
	put(out, "sasl.username", jaas_get(&e, "username"));
	put(out, "sasl.password", jaas_get(&e, "password"));
out:
	jaas_free(&e);
	return rc;
}

static int line_of(const struct jprops *in, const char *key)
{
	for (size_t i = 0; i < in->n; i++)
		if (strcmp(in->keys[i], key) == 0)
			return in->lines[i];
	return 0;
}

static int map_truststore(const struct jprops *in, const char *loc, int line, struct rdprops *out, char *err,
			  size_t errlen)
{
	const char *type = jprops_get(in, "ssl.truststore.type");
	if (!type || strcasecmp(type, "PEM") != 0)
		return fail(err, errlen, "ssl.truststore.location", line,
			    "a %s truststore has no librdkafka equivalent; give the CA certificate as a PEM file: "
			    "ssl.truststore.type=PEM, or -X ssl.ca.location=FILE (keytool -exportcert -rfc writes it)",
			    type ? type : "JKS");
	if (jprops_get(in, "ssl.truststore.password"))
		return fail(err, errlen, "ssl.truststore.password", line_of(in, "ssl.truststore.password"),
			    "a PEM truststore has no password in librdkafka; remove it");
	put(out, "ssl.ca.location", loc);
	return 0;
}

static int map_keystore(const struct jprops *in, const char *loc, int line, struct rdprops *out, char *err,
			size_t errlen)
{
	const char *type = jprops_get(in, "ssl.keystore.type");
	const char *pass = jprops_get(in, "ssl.keystore.password");
	if (type && strcasecmp(type, "PKCS12") == 0) {
		put(out, "ssl.keystore.location", loc);
		if (pass)
			put(out, "ssl.keystore.password", pass);
		return 0;
	}
	if (type && strcasecmp(type, "PEM") == 0) {
		if (pass)
			return fail(err, errlen, "ssl.keystore.password", line_of(in, "ssl.keystore.password"),
				    "a PEM keystore's key is unlocked by ssl.key.password in librdkafka; use that");
		/* one PEM file with the certificate chain and the key: librdkafka reads each from it */
		put(out, "ssl.certificate.location", loc);
		put(out, "ssl.key.location", loc);
		return 0;
	}
	return fail(err, errlen, "ssl.keystore.location", line,
		    "a %s keystore has no librdkafka equivalent; convert it to PKCS12 (keytool -importkeystore "
		    "-deststoretype PKCS12) and set ssl.keystore.type=PKCS12, or give PEM files with -X "
		    "ssl.certificate.location and ssl.key.location",
		    type ? type : "JKS");
}

int command_config_map(const struct jprops *in, struct rdprops *out, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < in->n; i++) {
		const char *key = in->keys[i], *value = in->values[i];
		int line = in->lines[i];
		const struct mapping *m = find(key);
		int rc = 0;
		if (!m) {
			rc = fail(err, errlen, key, line,
				  "no librdkafka equivalent known to lagtop; remove it, or give the librdkafka "
				  "property with "
				  "-X (lagtop -X list shows them)");
		} else {
			switch (m->how) {
			case COPY: put(out, key, value); break;
			case RENAME: put(out, m->rd, value); break;
			case JAAS: rc = map_jaas(value, line, out, err, errlen); break;
			case ENDPOINT:
				if (strcasecmp(value, "https") == 0)
					put(out, "ssl.endpoint.identification.algorithm", "https");
				else if (*value == '\0')
					put(out, "ssl.endpoint.identification.algorithm", "none");
				else
					rc = fail(err, errlen, key, line, "expected https or nothing");
				break;
			case TRUSTSTORE: rc = map_truststore(in, value, line, out, err, errlen); break;
			case KEYSTORE: rc = map_keystore(in, value, line, out, err, errlen); break;
			case WITH_STORE: {
				/* a type or password without its store's location says nothing librdkafka can use */
				const char *loc = strncmp(key, "ssl.truststore.", 15) == 0 ? "ssl.truststore.location"
											   : "ssl.keystore.location";
				if (!jprops_get(in, loc) &&
				    !(strcmp(key, "ssl.truststore.type") == 0 &&
				      jprops_get(in, "ssl.truststore.certificates")) &&
				    !(strcmp(key, "ssl.keystore.type") == 0 && jprops_get(in, "ssl.keystore.key")))
					rc = fail(err, errlen, key, line, "given without %s", loc);
				break;
			}
			case REFUSE:
			default: rc = fail(err, errlen, key, line, "no librdkafka equivalent; %s", m->rd); break;
			}
		}
		if (rc) {
			rdprops_free(out);
			return -1;
		}
	}
	return 0;
}

/* The first secret property mapped (secrets.h), for the permission warning. */
static const char *first_secret(const struct rdprops *p)
{
	for (size_t i = 0; i < p->n; i++)
		if (config_is_secret_key(p->keys[i]))
			return p->keys[i];
	return NULL;
}

int command_config_load(const char *path, struct rdprops *out, FILE *warn, char *err, size_t errlen)
{
	memset(out, 0, sizeof *out);
	char *safe = sanitize_dup(path, true);
	struct stat st;
	char why[768];
	size_t len = 0;
	/* the user's own file, a regular one (a FIFO would block), as the configuration file */
	int fd = ft_open_read(path, FT_OWNED, "--command-config", &st, err, errlen);
	if (fd < 0) {
		free(safe);
		return -1;
	}
	char *text = NULL;
	if ((uint64_t)st.st_size > MAX_FILE_BYTES)
		snprintf(why, sizeof why, "%s: larger than 1 MiB: not a properties file", safe);
	else
		text = ft_read_all(fd, safe, MAX_FILE_BYTES, &len, why, sizeof why);
	close(fd);
	int rc = 0;
	if (!text) {
		rc = err_set(err, errlen, "--command-config %s", why);
	} else {
		struct jprops props;
		if (jprops_parse(text, len, &props, why, sizeof why) != 0 ||
		    command_config_map(&props, out, why, sizeof why) != 0)
			rc = err_set(err, errlen, "--command-config %s: %s", safe, why);
		jprops_free(&props);
		explicit_bzero(text, len);
		free(text);
	}
	if (rc == 0) {
		char *w = config_secret_warning(safe, first_secret(out), (unsigned)st.st_mode);
		if (w && warn)
			fprintf(warn, "lagtop: warning: %s\n", w);
		free(w);
	}
	free(safe);
	return rc;
}

void rdprops_free(struct rdprops *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->keys[i]);
		explicit_bzero(p->values[i], strlen(p->values[i]));
		free(p->values[i]);
	}
	free(p->keys);
	free(p->values);
	memset(p, 0, sizeof *p);
}
