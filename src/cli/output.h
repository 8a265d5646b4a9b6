/* output.h — a snapshot as text for scripts: an aligned table (like kafka-consumer-groups --describe),
 * JSON (the shape in doc/ARCHITECTURE.md, "Interfaces that tests rely on") or CSV with a header.
 *
 * Names come from the cluster and are untrusted: the table replaces control characters and invalid
 * UTF-8 with '?', JSON and CSV escape them.
 */
#ifndef LAGTOP_CLI_OUTPUT_H
#define LAGTOP_CLI_OUTPUT_H

#include <stdio.h>

#include "model/snapshot.h"

void output_table(FILE *out, const lt_snapshot *s);
void output_json(FILE *out, const lt_snapshot *s);
void output_csv(FILE *out, const lt_snapshot *s);

/* Untrusted text made safe for a terminal: a new string (caller frees). */
char *output_sanitize(const char *s);

/* "850ms", "12.3s", "4m05s", "2h03m", "3d04h" into buf. */
void output_duration(char *buf, size_t len, int64_t ms);

#endif
