/* output.h — a snapshot as text for scripts: an aligned table (like kafka-consumer-groups --describe),
 * JSON (the shape in doc/ARCHITECTURE.md, "Interfaces that tests rely on") or CSV with a header.
 *
 * Names come from the cluster and are untrusted: the table shows them through util/sanitize (escapes for
 * control characters and invalid UTF-8), JSON escapes them, CSV quotes them (exact bytes).
 */
#ifndef LAGTOP_CLI_OUTPUT_H
#define LAGTOP_CLI_OUTPUT_H

#include <stdio.h>

#include "model/snapshot.h"

void output_table(FILE *out, const lt_snapshot *s);
/* JSON and CSV return 0, or -1 on a write error. */
int output_json(FILE *out, const lt_snapshot *s);
int output_csv(FILE *out, const lt_snapshot *s);
/* Prometheus text exposition format, kafka-lag-exporter's metric names plus lagtop_* (output_prom.c). */
int output_prometheus(FILE *out, const lt_snapshot *s);

/* Untrusted text made safe for a terminal: a new string (caller frees). */
char *output_sanitize(const char *s);

/* One "lagtop: warning: ..." line on err naming the consumer-protocol groups whose members this
 * librdkafka cannot read (their owners show as "?" or "-", which would read as "nobody"); nothing when
 * there are none. */
void output_warn_unreadable(FILE *err, const lt_snapshot *s);

/* "850ms", "12.3s", "4m05s", "2h03m", "3d04h" into buf. */
void output_duration(char *buf, size_t len, int64_t ms);

#endif
