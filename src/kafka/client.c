/* client.c — the librdkafka handle: configuration, error and log callbacks, -X list / -X dump. */
#include "config.h"

#include "kafka/client.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config/secrets.h"
#include "kafka/explain.h"
#include "util/xalloc.h"

struct lt_client {
	rd_kafka_t *rk;
	pthread_mutex_t mu;   /* guards last_error/all_down/last_fatal: callbacks run on librdkafka threads */
	char last_error[512]; /* the newest error that names a cause (connection refused, resolve...) */
	char all_down[512];   /* the newest "N/N brokers are down", which names none */
	bool last_fatal;
	bool last_security; /* last_error is an authentication or TLS failure (explain.h) */
	bool debug;         /* LAGTOP_DEBUG set: librdkafka's log lines go to stderr (masked) */
	size_t n_secrets;   /* values to mask in every message */
	char **secrets;
	char *sasl_user, *sasl_mechanism; /* for "authentication failed for user X (MECH)" (explain.h) */
	char tls_cause[200];              /* the X.509 error of the last failed certificate verification (under mu) */
};

/* Set before the user's properties so that -X can override every one of them. */
static const struct {
	const char *key, *value;
} client_defaults[] = {
	{ "client.id", "lagtop" },
	/* Idle admin connections are closed by brokers; that is not worth a log line. */
	{ "log.connection.close", "false" },
	/* A monitoring tool must never create topics: a reset or offset lookup naming a deleted or
	 * misspelled topic must not create it on brokers that allow auto-creation. (librdkafka's default
	 * depends on the handle type — true for producers — so it is set explicitly.) */
	{ "allow.auto.create.topics", "false" },
	/* The log end is the high watermark, as kafka-consumer-groups reports it (its consumer reads
	 * uncommitted). librdkafka defaults to read_committed, which makes ListOffsets(-1) answer the last
	 * stable offset instead: LOG-END, LAG, --to-latest and clamping would all be off while a
	 * transaction is open. */
	{ "isolation.level", "read_uncommitted" },
};

bool client_prop_is_secret(const char *key)
{
	/* One rule for the whole program (password, secret, key, token, credential...). */
	return config_is_secret_key(key);
}

/* Replaces every occurrence of each secret value in buf (in place, truncating) with [hidden]. */
static void mask_secrets(char *buf, size_t len, char *const *secrets, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		size_t sl = strlen(secrets[i]);
		if (sl == 0)
			continue;
		char *hit;
		char *from = buf;
		while ((hit = strstr(from, secrets[i])) != NULL) {
			char *rest = xstrdup(hit + sl);
			snprintf(hit, len - (size_t)(hit - buf), "[hidden]%s", rest);
			free(rest);
			from = hit + strlen("[hidden]");
			if ((size_t)(from - buf) >= len - 1)
				break;
		}
	}
}

/* __ALL_BROKERS_DOWN is a summary, not a cause: librdkafka 2.0.2 raises it once after the connection
 * error that caused it, while later releases (2.15.1) raise it again on every reconnection attempt, so
 * as "the newest error" it would replace "Connection refused" with "1/1 brokers are down". It is kept
 * apart and reported only when no error named a cause. */
static void record_error(lt_client *cl, bool fatal, bool all_down, const char *msg)
{
	pthread_mutex_lock(&cl->mu);
	char *dst = all_down ? cl->all_down : cl->last_error;
	size_t len = all_down ? sizeof cl->all_down : sizeof cl->last_error;
	/* "%.*s" with the room left: the summary's buffer is smaller than an error line (and gcc's
	 * -Wformat-truncation says so for a plain "%s"); a longer summary is cut, never overrun. */
	snprintf(dst, len, "%.*s", (int)(len - 1), msg);
	mask_secrets(dst, len, cl->secrets, cl->n_secrets);
	/* A fatal error stays the one reported: later transient noise must not hide it. */
	if (!cl->last_fatal)
		cl->last_fatal = fatal;
	pthread_mutex_unlock(&cl->mu);
}

static void on_error(rd_kafka_t *rk, int err, const char *reason, void *opaque)
{
	lt_client *cl = opaque;
	char buf[512];
	bool fatal = false, security = false;

	if (err == RD_KAFKA_RESP_ERR__FATAL) {
		/* The handle is unusable from now on; the real cause is kept by librdkafka. */
		char why[400];
		rd_kafka_fatal_error(rk, why, sizeof why);
		snprintf(buf, sizeof buf, "fatal: %s", why);
		fatal = true;
	} else {
		/* Everything else (__TRANSPORT, __ALL_BROKERS_DOWN, __RESOLVE, auth retries...) is transient:
		 * librdkafka keeps reconnecting, and the collector keeps refreshing. */
		snprintf(buf, sizeof buf, "%s", reason ? reason : rd_kafka_err2str(err));
		/* SASL and TLS failures: one line naming the cause (the user, the X.509 error). */
		char cause[sizeof cl->tls_cause], why[512];
		pthread_mutex_lock(&cl->mu);
		snprintf(cause, sizeof cause, "%s", cl->tls_cause);
		pthread_mutex_unlock(&cl->mu);
		struct lt_explain_ctx ctx = { cl->sasl_user, cl->sasl_mechanism, cause, rd_kafka_version_str() };
		security = explain_connection_error(buf, &ctx, why, sizeof why);
		if (security)
			snprintf(buf, sizeof buf, "%s", why);
	}
	bool all_down = err == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN;
	record_error(cl, fatal, all_down, buf);
	if (!all_down) { /* the summary names no cause: it must not clear a security failure */
		pthread_mutex_lock(&cl->mu);
		cl->last_security = security;
		pthread_mutex_unlock(&cl->mu);
	}
	if (cl->debug) {
		pthread_mutex_lock(&cl->mu);
		fprintf(stderr, "lagtop: librdkafka %s: %s\n", fatal ? "fatal error" : "error",
			all_down ? cl->all_down : cl->last_error);
		pthread_mutex_unlock(&cl->mu);
	}
}

static void on_log(const rd_kafka_t *rk, int level, const char *fac, const char *msg)
{
	lt_client *cl = rd_kafka_opaque(rk);
	if (!cl || !cl->debug)
		return; /* quiet by default: the terminal belongs to the dashboard or to --once's output */
	char buf[1024];
	snprintf(buf, sizeof buf, "%s", msg);
	mask_secrets(buf, sizeof buf, cl->secrets, cl->n_secrets);
	fprintf(stderr, "lagtop: librdkafka log %d %s: %s\n", level, fac, buf);
}

/* Keeps OpenSSL's verdict (valid when it found no error) and records why a certificate failed, which
 * librdkafka's own message does not say (a wrong host and an unknown CA read the same there). */
static int on_cert_verify(rd_kafka_t *rk, const char *broker_name, int32_t broker_id, int *x509_error, int depth,
			  const char *buf, size_t size, char *errstr, size_t errstr_size, void *opaque)
{
	(void)rk, (void)broker_id, (void)depth, (void)buf, (void)size;
	lt_client *cl = opaque;
	if (*x509_error == 0)
		return 1;
	const char *cause = explain_x509_error(*x509_error);
	pthread_mutex_lock(&cl->mu);
	if (cause)
		snprintf(cl->tls_cause, sizeof cl->tls_cause, "%s", cause);
	else
		snprintf(cl->tls_cause, sizeof cl->tls_cause, "X.509 verification error %d", *x509_error);
	snprintf(errstr, errstr_size, "%s (%s)", cl->tls_cause, broker_name ? broker_name : "?");
	pthread_mutex_unlock(&cl->mu);
	return 0;
}

/* LAGTOP_RDKAFKA_REQUESTS=FILE, a measuring hook of `make bench` (doc/PERFORMANCE.md), off by default: every
 * request any handle built by client_conf_build writes to a broker (the refresh's, the commit stream
 * reader's, the record reader's) is counted by API key through librdkafka's on_request_sent interceptor,
 * and the process's counts go to FILE as one JSON line {"<api key>": n, ...} when it exits. librdkafka's
 * statistics (statistics.interval.ms) cannot count them: they leave out the bootstrap connections,
 * which 2.15.1 drops once it knows the brokers, with their ApiVersions, Metadata and FindCoordinator. */
#define REQ_API_KEYS 128
static atomic_ulong requests_sent[REQ_API_KEYS];
static pthread_once_t requests_once = PTHREAD_ONCE_INIT;

static const char *requests_file(void)
{
	const char *p = getenv("LAGTOP_RDKAFKA_REQUESTS");
	return p && *p ? p : NULL;
}

static void requests_write(void)
{
	const char *path = requests_file();
	FILE *f = path ? fopen(path, "w") : NULL;
	if (!f) {
		fprintf(stderr, "lagtop: LAGTOP_RDKAFKA_REQUESTS: cannot write %s\n", path ? path : "(unset)");
		return;
	}
	const char *sep = "";
	fputc('{', f);
	for (int k = 0; k < REQ_API_KEYS; k++) {
		unsigned long n = atomic_load(&requests_sent[k]);
		if (n) {
			fprintf(f, "%s\"%d\":%lu", sep, k, n);
			sep = ",";
		}
	}
	fputs("}\n", f);
	if (fclose(f) != 0)
		fprintf(stderr, "lagtop: LAGTOP_RDKAFKA_REQUESTS: cannot write %s\n", path);
}

static void requests_at_exit(void)
{
	atexit(requests_write);
}

static rd_kafka_resp_err_t on_request_sent(rd_kafka_t *rk, int sockfd, const char *brokername, int32_t brokerid,
					   int16_t api_key, int16_t api_version, int32_t corr_id, size_t size,
					   void *ic_opaque)
{
	(void)rk, (void)sockfd, (void)brokername, (void)brokerid, (void)api_version, (void)corr_id, (void)size;
	(void)ic_opaque;
	if (api_key >= 0 && api_key < REQ_API_KEYS)
		atomic_fetch_add(&requests_sent[api_key], 1);
	return RD_KAFKA_RESP_ERR_NO_ERROR;
}

static rd_kafka_resp_err_t on_new_count_requests(rd_kafka_t *rk, const rd_kafka_conf_t *conf, void *ic_opaque,
						 char *errstr, size_t errstr_size)
{
	(void)conf, (void)ic_opaque, (void)errstr, (void)errstr_size;
	pthread_once(&requests_once, requests_at_exit);
	return rd_kafka_interceptor_add_on_request_sent(rk, "lagtop-requests", on_request_sent, NULL);
}

static int conf_set(rd_kafka_conf_t *conf, const char *key, const char *value, char *err, size_t errlen)
{
	char why[512];
	if (rd_kafka_conf_set(conf, key, value, why, sizeof why) == RD_KAFKA_CONF_OK)
		return 0;
	if (client_prop_is_secret(key) && value) {
		char *const secrets[] = { (char *)value };
		mask_secrets(why, sizeof why, secrets, 1);
	}
	snprintf(err, errlen, "librdkafka property '%s': %s", key, why);
	return -1;
}

rd_kafka_conf_t *client_conf_build(const struct lt_connection *cc, char *err, size_t errlen)
{
	rd_kafka_conf_t *conf = rd_kafka_conf_new();

	for (size_t i = 0; i < sizeof client_defaults / sizeof client_defaults[0]; i++)
		if (conf_set(conf, client_defaults[i].key, client_defaults[i].value, err, errlen))
			goto fail;
	if (cc->bootstrap && conf_set(conf, LT_BOOTSTRAP_PROPERTY, cc->bootstrap, err, errlen))
		goto fail;
	for (size_t i = 0; i < cc->n_props; i++)
		if (conf_set(conf, cc->prop_keys[i], cc->prop_values[i], err, errlen))
			goto fail;
	if (requests_file())
		rd_kafka_conf_interceptor_add_on_new(conf, "lagtop-requests", on_new_count_requests, NULL);
	return conf;
fail:
	rd_kafka_conf_destroy(conf);
	return NULL;
}

lt_client *client_new(const struct lt_connection *cc, char *err, size_t errlen)
{
	rd_kafka_conf_t *conf = client_conf_build(cc, err, errlen);
	if (!conf)
		return NULL;

	lt_client *cl = xcalloc(1, sizeof *cl);
	pthread_mutex_init(&cl->mu, NULL);
	const char *dbg = getenv("LAGTOP_DEBUG");
	cl->debug = dbg && *dbg && strcmp(dbg, "0") != 0;
	for (size_t i = 0; i < cc->n_props; i++)
		if (client_prop_is_secret(cc->prop_keys[i]) && cc->prop_values[i][0]) {
			cl->secrets = xrealloc(cl->secrets, (cl->n_secrets + 1) * sizeof *cl->secrets);
			cl->secrets[cl->n_secrets++] = xstrdup(cc->prop_values[i]);
		}
	for (size_t i = 0; i < cc->n_props; i++) {
		char **dst = strcmp(cc->prop_keys[i], "sasl.username") == 0 ? &cl->sasl_user
			     : strcmp(cc->prop_keys[i], "sasl.mechanism") == 0 ||
					     strcmp(cc->prop_keys[i], "sasl.mechanisms") == 0
				     ? &cl->sasl_mechanism
				     : NULL;
		if (dst) {
			free(*dst);
			*dst = xstrdup(cc->prop_values[i]);
		}
	}
	rd_kafka_conf_set_ssl_cert_verify_cb(conf, on_cert_verify);

	rd_kafka_conf_set_opaque(conf, cl);
	rd_kafka_conf_set_error_cb(conf, on_error);
	rd_kafka_conf_set_log_cb(conf, on_log);

	/* librdkafka 2.0.2 (up to at least 2.4, librdkafka issue 5040) answers NOT_COORDINATOR or
	 * COORDINATOR_NOT_AVAILABLE to an OffsetFetch by poking the handle's consumer group, which a
	 * producer handle does not have: a NULL dereference, i.e. lagtop crashed whenever a group's
	 * coordinator moved or was loading. A consumer handle with a group id has one; it never subscribes,
	 * so it never joins (at most it asks for its own group's coordinator). */
	char why[512];
	char gid[256];
	size_t gidlen = sizeof gid;
	if (rd_kafka_conf_get(conf, "group.id", gid, &gidlen) != RD_KAFKA_CONF_OK || !gid[0])
		rd_kafka_conf_set(conf, "group.id", "lagtop-admin-never-joins", why, sizeof why);
	rd_kafka_conf_set(conf, "enable.auto.commit", "false", why, sizeof why);
	cl->rk = rd_kafka_new(RD_KAFKA_CONSUMER, conf, why, sizeof why);
	if (!cl->rk) {
		/* rd_kafka_new validates property combinations (e.g. SASL without a mechanism). */
		mask_secrets(why, sizeof why, cl->secrets, cl->n_secrets);
		snprintf(err, errlen, "cannot create the Kafka client: %s", why);
		rd_kafka_conf_destroy(conf);
		client_free(cl);
		return NULL;
	}
	return cl;
}

void client_free(lt_client *cl)
{
	if (!cl)
		return;
	if (cl->rk) /* no consumer close: the handle never joined, and closing must not wait for brokers */
		rd_kafka_destroy_flags(cl->rk, RD_KAFKA_DESTROY_F_NO_CONSUMER_CLOSE);
	for (size_t i = 0; i < cl->n_secrets; i++) { /* secrets do not outlive their use in readable form */
		explicit_bzero(cl->secrets[i], strlen(cl->secrets[i]));
		free(cl->secrets[i]);
	}
	free(cl->secrets);
	free(cl->sasl_user);
	free(cl->sasl_mechanism);
	pthread_mutex_destroy(&cl->mu);
	free(cl);
}

rd_kafka_t *client_rk(const lt_client *cl)
{
	return cl->rk;
}

void client_poll(lt_client *cl)
{
	rd_kafka_poll(cl->rk, 0);
}

bool client_last_error(lt_client *cl, char *buf, size_t len)
{
	pthread_mutex_lock(&cl->mu);
	snprintf(buf, len, "%s", cl->last_error[0] ? cl->last_error : cl->all_down);
	bool fatal = cl->last_fatal;
	pthread_mutex_unlock(&cl->mu);
	return fatal;
}

bool client_security_failed(lt_client *cl)
{
	pthread_mutex_lock(&cl->mu);
	bool r = cl->last_security;
	pthread_mutex_unlock(&cl->mu);
	return r;
}

int client_conf_dump(FILE *out, const struct lt_connection *cc, char *err, size_t errlen)
{
	rd_kafka_conf_t *conf = client_conf_build(cc, err, errlen);
	if (!conf)
		return -1;
	size_t cnt = 0;
	const char **kv = rd_kafka_conf_dump(conf, &cnt);
	for (size_t i = 0; i + 1 < cnt; i += 2)
		fprintf(out, "%s = %s\n", kv[i], client_prop_is_secret(kv[i]) ? "[hidden]" : kv[i + 1]);
	rd_kafka_conf_dump_free(kv, cnt);
	rd_kafka_conf_destroy(conf);
	return 0;
}

lt_group_type client_description_type(const rd_kafka_ConsumerGroupDescription_t *d)
{
#ifdef HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE
	return d && rd_kafka_ConsumerGroupDescription_type(d) == RD_KAFKA_CONSUMER_GROUP_TYPE_CONSUMER
		       ? LT_GTYPE_CONSUMER
		       : LT_GTYPE_UNKNOWN;
#else
	(void)d;
	return LT_GTYPE_UNKNOWN;
#endif
}

lt_group_type client_listing_type(const rd_kafka_ConsumerGroupListing_t *l)
{
#ifdef HAVE_RD_KAFKA_CONSUMERGROUPLISTING_TYPE
	switch (l ? rd_kafka_ConsumerGroupListing_type(l) : RD_KAFKA_CONSUMER_GROUP_TYPE_UNKNOWN) {
	case RD_KAFKA_CONSUMER_GROUP_TYPE_CONSUMER: return LT_GTYPE_CONSUMER;
	case RD_KAFKA_CONSUMER_GROUP_TYPE_CLASSIC: return LT_GTYPE_CLASSIC;
	default: return LT_GTYPE_UNKNOWN;
	}
#else
	(void)l;
	return LT_GTYPE_UNKNOWN;
#endif
}

const char *client_error_text(const rd_kafka_error_t *e, char *buf, size_t len)
{
	const char *s = rd_kafka_error_string(e);
	const char *name = rd_kafka_err2str(rd_kafka_error_code(e));
	if (!s)
		s = "";
	size_t n = strlen(s);
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == ':'))
		n--;
	if (strstr(s, name))
		snprintf(buf, len, "%.*s", (int)n, s);
	else if (n)
		snprintf(buf, len, "%.*s: %s", (int)n, s, name);
	else
		snprintf(buf, len, "%s", name);
	return buf;
}

void client_properties_show(FILE *out)
{
	rd_kafka_conf_properties_show(out);
}

const char *client_librdkafka_version(void)
{
	return rd_kafka_version_str();
}
