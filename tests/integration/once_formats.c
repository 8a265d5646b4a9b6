/* once_formats.c — a test helper (not a test): what `lagtop --once` does, but one snapshot written in two
 * formats, so test_once_monitoring.py can hold the Prometheus output to the JSON of the very same refresh
 * (time lags and refresh times move between two runs of lagtop).
 *
 *   once_formats BOOTSTRAP SAMPLES INTERVAL_MS JSON_FILE PROM_FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "cli/output.h"
#include "kafka/collector.h"

int main(int argc, char **argv)
{
	if (argc != 6) {
		fprintf(stderr, "usage: once_formats BOOTSTRAP SAMPLES INTERVAL_MS JSON_FILE PROM_FILE\n");
		return 2;
	}
	struct lt_collector_conf conf = {
		.conn = &(struct lt_connection){ .bootstrap = argv[1] },
		.interval_ms = atoi(argv[3]),
		.timeout_ms = 10000,
		.commit_stream = true,
	};
	model_params_default(&conf.model);
	char err[1024];
	lt_collector *c = collector_new(&conf, err, sizeof err);
	if (!c) {
		fprintf(stderr, "once_formats: %s\n", err);
		return 1;
	}
	lt_snapshot *s = NULL;
	int samples = atoi(argv[2]), rc = 0;
	for (int i = 0; i < samples && rc == 0; i++) {
		snapshot_unref(s);
		s = NULL;
		if (collector_refresh_once(c, &s, err, sizeof err) != 0) {
			fprintf(stderr, "once_formats: %s\n", err);
			rc = 1;
		} else if (i + 1 < samples) {
			struct timespec ts = { conf.interval_ms / 1000, (long)(conf.interval_ms % 1000) * 1000000L };
			nanosleep(&ts, NULL);
		}
	}
	if (rc == 0) {
		collector_complete_commit_stream(c, s, conf.timeout_ms);
		FILE *j = fopen(argv[4], "w"), *p = fopen(argv[5], "w");
		if (!j || !p || output_json(j, s) != 0 || output_prometheus(p, s) != 0)
			rc = 1;
		if (j && fclose(j) != 0)
			rc = 1;
		if (p && fclose(p) != 0)
			rc = 1;
	}
	snapshot_unref(s);
	collector_free(c);
	return rc;
}
