/* unread.h — what a refresh could not read, said on stderr for --once, --list and --describe: one line per
 * cause with a count and the first few names, never a line per group (50,000 groups past --timeout are one
 * line), and the exit status that goes with it. */
#ifndef LAGTOP_CLI_UNREAD_H
#define LAGTOP_CLI_UNREAD_H

#include <stdio.h>

#include "model/snapshot.h"

/* One line per cause on err, prefixed "lagtop: ":
 *     lagtop: 3 groups not read (fx-empty, fx-rebalancing, fx-stable): DescribeGroups: Broker: ...
 *     lagtop: the group lists of 2 brokers not read (1, 3): ListGroups: ...: the groups they coordinate are missing
 * Nothing when the snapshot was read whole. */
void unread_warn(FILE *err, const lt_snapshot *s);

/* LT_EXIT_CLUSTER when the snapshot was not read whole (then a "not read" line has said why), else rc. */
int unread_exit(const lt_snapshot *s, int rc);

/* For --list, which needs only the brokers' group lists: their lines, and LT_EXIT_CLUSTER when one of them
 * was not read (else rc). A group listed but not described is still listed. */
void unread_warn_lists(FILE *err, const lt_snapshot *s);
int unread_lists_exit(const lt_snapshot *s, int rc);

#endif
