/* modes.h — the entry point of each thing lagtop can do; main.c picks one from the options.
 * Every mode returns the process exit status (LT_EXIT_*) and prints its own errors, one line each,
 * prefixed "lagtop: ". Only main() exits. */
#ifndef LAGTOP_CLI_MODES_H
#define LAGTOP_CLI_MODES_H

#include "cli/options.h"
#include "util/exit_status.h" /* LT_EXIT_* */

int mode_tui(const struct lt_options *o);  /* src/cli/dashboard.c: the dashboard (src/ui) on a cluster */
int mode_demo(const struct lt_options *o); /* src/cli/demo.c: in-process sim + the dashboard */
int mode_once(const struct lt_options *o); /* src/cli/once.c */
/* src/cli/once.c: what --once prints for s (warnings on stderr, s in --format on stdout) and its exit
 * status (--fail-on); the live --once and --replay --once share it */
struct lt_snapshot;
int once_print(const struct lt_options *o, const struct lt_snapshot *s);
int mode_reset(const struct lt_options *o);          /* src/cli/reset_cmd.c */
int mode_list(const struct lt_options *o);           /* src/cli/kcg.c: --list */
int mode_describe(const struct lt_options *o);       /* src/cli/kcg.c: --describe */
int mode_undo(const struct lt_options *o);           /* src/cli/reset_cmd.c */
int mode_delete(const struct lt_options *o);         /* src/cli/delete_cmd.c: --delete */
int mode_delete_offsets(const struct lt_options *o); /* src/cli/delete_cmd.c: --delete-offsets */
int mode_peek(const struct lt_options *o);           /* src/cli/peek_cmd.c: --peek GROUP */
int mode_x_list(const struct lt_options *o);         /* src/cli/xmodes.c: -X list */
/* src/cli/xmodes.c: --version, and the librdkafka lagtop runs on with what it uses of it beyond 2.0.2 */
int mode_version(const struct lt_options *o);
int mode_x_dump(const struct lt_options *o);          /* src/cli/xmodes.c: -X dump (secrets masked) */
int mode_record_headless(const struct lt_options *o); /* src/cli/record_cmd.c: --record FILE --headless */
/* src/cli/record_cmd.c: the recording writer's options from --record-max-size and --record-keep */
struct rec_writer_opts;
void record_writer_opts(const struct lt_options *o, struct rec_writer_opts *w);
int mode_replay(const struct lt_options *o);      /* src/cli/replay.c: --replay FILE (the dashboard) */
int mode_replay_once(const struct lt_options *o); /* src/cli/replay_once.c: --replay FILE --once */

#endif
