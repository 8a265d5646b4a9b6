/* cmd_common.h — what the guarded command-line modes share (reset_cmd.c, delete_cmd.c). */
#ifndef LAGTOP_CLI_CMD_COMMON_H
#define LAGTOP_CLI_CMD_COMMON_H

#include <stdio.h>

#include "cli/options.h"
#include "kafka/reset_exec.h"

/* The connection for a guarded write: the cluster from the config file (-c, default_cluster) merged with -b
 * and -X (src/config). A cluster marked read_only in the config has no write path: NULL with err saying
 * "<what> are disabled for cluster ..." (what: "resets", "deletes"). exit_code gets the status to return. */
lt_reset_conn *cli_reset_connect(const struct lt_options *o, const char *what, int *exit_code, char *err,
				 size_t errlen);

/* Writes text line by line, each prefixed and made terminal-safe (messages carry names from the cluster:
 * client ids, hosts, topics). */
void cli_print_lines(FILE *f, const char *prefix, const char *text);

#endif
