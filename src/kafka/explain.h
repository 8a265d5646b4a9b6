/* explain.h — librdkafka's connection errors (SASL, TLS) turned into one line that names the cause.
 *
 * librdkafka 2.0.2 reports a wrong password as "Local: Broker transport failure (sasl_plaintext://H:P/
 * bootstrap: SASL authentication error: Authentication failed during authentication due to invalid
 * credentials ... (after 327ms in state AUTH_REQ, 1 identical error(s) suppressed))", and every TLS
 * verification failure (an unknown CA, a certificate for another host) with the same advice to set
 * ssl.ca.location. explain_connection_error rewrites such a reason as
 *     authentication failed for user 'alice' (SCRAM-SHA-512) at 127.0.0.1:9093: invalid credentials ...
 *     TLS certificate verify failed at 127.0.0.1:9093: the certificate does not match the host name ...
 * using what lagtop knows (the user name, the mechanism, the X.509 error recorded by the certificate
 * verification callback). Pure string work: no librdkafka calls, no secrets (the password is never an
 * input). Returns false, leaving out alone, when the reason is none of these. */
#ifndef LAGTOP_KAFKA_EXPLAIN_H
#define LAGTOP_KAFKA_EXPLAIN_H

#include <stdbool.h>
#include <stddef.h>

struct lt_explain_ctx {
	const char *sasl_user;       /* sasl.username, NULL if unset */
	const char *sasl_mechanism;  /* sasl.mechanism(s), NULL if unset (librdkafka: GSSAPI) */
	const char *tls_cause;       /* from explain_x509_error, "" or NULL if none recorded */
	const char *rdkafka_version; /* rd_kafka_version_str() */
};

bool explain_connection_error(const char *reason, const struct lt_explain_ctx *ctx, char *out, size_t len);

/* The X.509 verification error (OpenSSL's X509_V_ERR_* number) as a cause with advice, e.g. 62:
 * "the broker's certificate does not match the host name (a certificate for another host?)". */
const char *explain_x509_error(int x509_error);

/* An authorization failure in a group request named as such, with the ACL it needs: why is the error text
 * (librdkafka's "Broker: Group authorization failed", or the same words anywhere in it), request the API
 * that failed ("DescribeGroups", "OffsetFetch", "ListGroups", "DeleteGroups", ...). Writes e.g.
 *     not authorized to describe the group (ACL: Describe on the Group)
 * and returns true; false, leaving out alone, for any other error. */
bool explain_authorization(const char *request, const char *why, char *out, size_t len);

#endif
