/* xmodes.c — -X list (every property librdkafka knows), -X dump (the effective configuration), --version. */
#include "config.h"

#include <stdio.h>

#include "cli/modes.h"
#include "cli/target.h"
#include "kafka/client.h"

int mode_x_list(const struct lt_options *o)
{
	(void)o;
	client_properties_show(stdout);
	return fflush(stdout) == 0 ? LT_EXIT_OK : LT_EXIT_CLUSTER;
}

int mode_x_dump(const struct lt_options *o)
{
	struct lt_target t;
	char err[512];
	if (target_from_options(o, &t, stderr, NULL, err, sizeof err) != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}
	int rc = client_conf_dump(stdout, &t.conn, err, sizeof err);
	target_free(&t);
	if (rc != 0) {
		fprintf(stderr, "lagtop: %s\n", err);
		return LT_EXIT_USAGE;
	}
	return fflush(stdout) == 0 ? LT_EXIT_OK : LT_EXIT_CLUSTER;
}

/* Three lines: lagtop's version; the librdkafka it runs on (the loaded library) and the newer APIs this
 * build uses, in configure's words (doc/LIBRDKAFKA.md); the librdkafka it was built with and how it is
 * linked (the bundled one is inside the binary, so no ldd names it), e.g.
 *   librdkafka 2.15.1; newer APIs: ListOffsets KIP-848-describe
 *   librdkafka built in: 2.15.1 (bundled, linked statically)
 * Tests read it to know which behaviour to expect. */
int mode_version(const struct lt_options *o)
{
	(void)o;
	printf("%s %s\n", PACKAGE_NAME, PACKAGE_VERSION);
	printf("librdkafka %s; newer APIs:", client_librdkafka_version());
	int n = 0;
#ifdef HAVE_RD_KAFKA_LISTOFFSETS
	printf(" ListOffsets");
	n++;
#endif
#ifdef HAVE_RD_KAFKA_CONSUMERGROUPDESCRIPTION_TYPE
	printf(" KIP-848-describe");
	n++;
#endif
	printf("%s\n", n ? "" : " none beyond 2.0.2");
	printf("librdkafka built in: %s\n", LT_RDKAFKA_BUILD);
	return fflush(stdout) == 0 ? LT_EXIT_OK : LT_EXIT_CLUSTER;
}
