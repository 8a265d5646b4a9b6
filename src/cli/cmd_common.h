/* cmd_common.h — what the guarded command-line modes share (reset_cmd.c, delete_cmd.c). */
#ifndef LAGTOP_CLI_CMD_COMMON_H
#define LAGTOP_CLI_CMD_COMMON_H

#include <stdio.h>

#include "cli/options.h"
#include "kafka/reset_exec.h"

/* The connection for a guarded write: the cluster from the config file (-c, default_cluster) merged with -b
 * and -X (cli/target.h). A cluster marked read_only in the config has no write path: NULL with err saying
 * "<what> are disabled for cluster ..." (what: "resets", "deletes"). exit_code gets the status to return. */
lt_reset_conn *cli_reset_connect(const struct lt_options *o, const char *what, int *exit_code, char *err,
				 size_t errlen);

/* The groups a guarded command acts on: with --all-groups every group the cluster lists (kcg_group_ids),
 * else the --group ids, a group named twice once. Returns an exit status (not LT_EXIT_OK: nothing in ids);
 * ids and its strings are the caller's. */
int cli_group_ids(const struct lt_options *o, char ***ids, size_t *n);

/* Writes text line by line, each prefixed and made terminal-safe (messages carry names from the cluster:
 * client ids, hosts, topics). */
void cli_print_lines(FILE *f, const char *prefix, const char *text);

#endif
