/* explain.c — see explain.h. */
#include "config.h"

#include "kafka/explain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *explain_x509_error(int e)
{
	/* OpenSSL's X509_V_ERR_* numbers (stable since 1.0; x509_vfy.h), without linking libcrypto. */
	switch (e) {
	case 2: return "unable to get the issuer certificate (is the whole chain in ssl.ca.location?)";
	case 9: return "the broker's certificate is not yet valid";
	case 10: return "the broker's certificate has expired";
	case 18: return "the broker's certificate is self-signed and not trusted (set ssl.ca.location to it)";
	case 19:
		return "self-signed certificate in the chain: the broker's CA is not trusted "
		       "(set ssl.ca.location to the CA that signed it)";
	case 20:
		return "unable to get the local issuer certificate: the broker's CA is not trusted "
		       "(set ssl.ca.location to the CA that signed it)";
	case 21: return "unable to verify the first certificate (is the whole chain in ssl.ca.location?)";
	case 62:
		return "the broker's certificate does not match the host name it was reached by "
		       "(a certificate for another host)";
	case 64:
		return "the broker's certificate does not match the IP address it was reached by "
		       "(a certificate for another host)";
	default: return NULL;
	}
}

/* "sasl_ssl://127.0.0.1:9093/bootstrap: rest" -> broker "127.0.0.1:9093", *rest after ": ". */
static void split_broker(const char *reason, char *broker, size_t blen, const char **rest)
{
	snprintf(broker, blen, "the broker");
	*rest = reason;
	const char *scheme = strstr(reason, "://");
	const char *colon = scheme ? strstr(scheme, ": ") : NULL;
	if (!scheme || !colon)
		return;
	const char *h = scheme + 3;
	const char *slash = memchr(h, '/', (size_t)(colon - h));
	size_t n = (size_t)((slash ? slash : colon) - h);
	snprintf(broker, blen, "%.*s", (int)n, h);
	*rest = colon + 2;
}

/* Copies s without librdkafka's " (after 327ms in state AUTH_REQ, ...)" tail. */
static void without_tail(const char *s, char *out, size_t len)
{
	const char *t = strstr(s, " (after ");
	snprintf(out, len, "%.*s", (int)(t ? (size_t)(t - s) : strlen(s)), s);
}

static bool old_scram(const struct lt_explain_ctx *ctx)
{
	/* librdkafka before 2.6.1 cannot complete SCRAM with Kafka 4.x brokers (its pull request 4895). */
	if (!ctx->rdkafka_version || !ctx->sasl_mechanism || strncmp(ctx->sasl_mechanism, "SCRAM", 5) != 0)
		return false;
	int a = 0, b = 0, c = 0;
	if (sscanf(ctx->rdkafka_version, "%d.%d.%d", &a, &b, &c) < 2)
		return false;
	return a < 2 || (a == 2 && (b < 6 || (b == 6 && c < 1)));
}

bool explain_connection_error(const char *reason, const struct lt_explain_ctx *ctx, char *out, size_t len)
{
	if (!reason)
		return false;
	char broker[128], text[400];
	const char *rest;
	split_broker(reason, broker, sizeof broker, &rest);

	const char *sasl = strstr(rest, "SASL authentication error: ");
	if (sasl) {
		without_tail(sasl + strlen("SASL authentication error: "), text, sizeof text);
		snprintf(out, len, "authentication failed for user '%s' (%s) at %s: %s%s%s%s",
			 ctx->sasl_user ? ctx->sasl_user : "(no sasl.username)",
			 ctx->sasl_mechanism ? ctx->sasl_mechanism : "GSSAPI", broker, text,
			 old_scram(ctx) ? "; note: librdkafka " : "", old_scram(ctx) ? ctx->rdkafka_version : "",
			 old_scram(ctx) ? " cannot do SCRAM with Kafka 4.x brokers (fixed in 2.6.1): if the "
					  "credentials are right, build lagtop on a current librdkafka "
					  "(doc/LIBRDKAFKA.md)"
					: "");
		return true;
	}
	if (strstr(rest, "certificate verify failed")) {
		const char *cause = ctx->tls_cause && ctx->tls_cause[0]
					    ? ctx->tls_cause
					    : "the broker's certificate is not signed by a trusted CA (set "
					      "ssl.ca.location to the CA that "
					      "signed it)";
		snprintf(out, len, "TLS certificate verify failed at %s: %s", broker, cause);
		return true;
	}
	static const char *const alerts[] = { "alert bad certificate", "alert certificate required", "alert unknown ca",
					      "alert handshake failure" };
	for (size_t i = 0; i < sizeof alerts / sizeof alerts[0]; i++)
		if (strstr(rest, alerts[i])) {
			snprintf(out, len,
				 "TLS handshake rejected by %s (%s): it requires a client certificate it "
				 "trusts (ssl.certificate.location and ssl.key.location)",
				 broker, alerts[i]);
			return true;
		}
	if (strstr(rest, "SSL handshake failed")) {
		without_tail(rest, text, sizeof text);
		snprintf(out, len, "TLS handshake with %s failed: %s", broker, text);
		return true;
	}
	return false;
}

/* What each group request needs (Kafka's AclAuthorizer rules, KIP-11): the operation and resource its
 * authorization error is about. */
static const struct {
	const char *request;
	const char *group_need; /* on GROUP_AUTHORIZATION_FAILED */
	const char *topic_need; /* on TOPIC_AUTHORIZATION_FAILED */
} acl_needs[] = {
	{ "DescribeGroups", "describe the group (ACL: Describe on the Group)", NULL },
	{ "FindCoordinator", "describe the group (ACL: Describe on the Group)", NULL },
	{ "OffsetFetch", "read the group's committed offsets (ACL: Describe on the Group)",
	  "read the group's committed offsets (ACL: Describe on its Topics)" },
	{ "ListGroups", "list the groups (ACL: Describe on the Cluster, or on each Group)", NULL },
	{ "DeleteGroups", "delete the group (ACL: Delete on the Group)", NULL },
	{ "OffsetDelete", "delete the group's offsets (ACL: Delete on the Group)",
	  "delete the group's offsets (ACL: Read on its Topics)" },
	{ "OffsetCommit", "commit the group's offsets (ACL: Read on the Group)",
	  "commit the group's offsets (ACL: Read on its Topics)" },
};

bool explain_authorization(const char *request, const char *why, char *out, size_t len)
{
	if (!why)
		return false;
	bool group = strstr(why, "Group authorization failed") != NULL;
	bool topic = !group && strstr(why, "Topic authorization failed") != NULL;
	bool cluster = !group && !topic && strstr(why, "Cluster authorization failed") != NULL;
	if (!group && !topic && !cluster)
		return false;
	const char *need = NULL;
	for (size_t i = 0; request && i < sizeof acl_needs / sizeof acl_needs[0]; i++)
		if (strcmp(acl_needs[i].request, request) == 0)
			need = group ? acl_needs[i].group_need : topic ? acl_needs[i].topic_need : NULL;
	if (need)
		snprintf(out, len, "not authorized to %s", need);
	else if (cluster)
		snprintf(out, len, "not authorized on the cluster (ACL: Describe on the Cluster)");
	else
		snprintf(out, len, "not authorized (%s)", group ? "ACL on the Group" : "ACL on its Topics");
	return true;
}
