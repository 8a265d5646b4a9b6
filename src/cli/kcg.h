/* kcg.h — kafka-consumer-groups' --list and --describe: its tables and messages from a snapshot.
 *
 * The printers are pure formatting (a snapshot in, the tool's text out), so tests can feed them fixtures;
 * mode_list and mode_describe (modes.h) do the one refresh. The choices where Kafka 3.9's and 4.x's tools
 * differ are in kcg.c's header and doc/lagtop.1 ("COMING FROM KAFKA-CONSUMER-GROUPS").
 */
#ifndef LAGTOP_CLI_KCG_H
#define LAGTOP_CLI_KCG_H

#include <stdio.h>

#include "cli/options.h"
#include "kafka/collector.h"
#include "model/snapshot.h"

/* --list: group ids one a line, or with --state/--type the GROUP [TYPE] [STATE] table, filtered. */
void kcg_print_list(FILE *out, const struct lt_options *o, const lt_snapshot *s);

/* --describe for o->groups (or every group of s with --all-groups): per group, the tool's message (a group
 * that does not exist on out, "no active members" and "rebalancing" on err) and its table on out. */
void kcg_print_describe(FILE *out, FILE *err, const struct lt_options *o, const lt_snapshot *s);

/* One refresh through a collector made from conf (the read-only modes: the tool's tables, --peek); its error
 * said on stderr in one terminal-safe line. Returns LT_EXIT_OK, LT_EXIT_USAGE (no collector) or
 * LT_EXIT_CLUSTER. */
int kcg_refresh_once(const struct lt_collector_conf *conf, lt_snapshot **out);

/* Every group id of the cluster (--reset-offsets --all-groups), sorted; *ids is NULL-terminated, the caller
 * frees each and the array. Returns LT_EXIT_OK, or the exit status after printing the error. */
int kcg_group_ids(const struct lt_options *o, char ***ids, size_t *n);

#endif
