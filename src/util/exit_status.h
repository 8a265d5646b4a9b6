/* exit_status.h — lagtop's exit statuses, one meaning each (doc/lagtop.1, EXIT STATUS). Every mode returns
 * one (src/cli/modes.h), and so does the dashboard loop (src/ui/tui.h); only main() exits. */
#ifndef LAGTOP_UTIL_EXIT_STATUS_H
#define LAGTOP_UTIL_EXIT_STATUS_H

enum {
	LT_EXIT_OK = 0,
	LT_EXIT_CLUSTER = 1, /* cannot reach / talk to the cluster, or local I/O failed */
	LT_EXIT_USAGE = 2,   /* bad options, config, or input files */
	LT_EXIT_REFUSED = 3, /* the guard refused a reset or delete */
	LT_EXIT_FAIL_ON = 4, /* --once --fail-on: a group's status is at or above the threshold */
	LT_EXIT_UNKNOWN = 5, /* a commit or delete got no answer and the read-back failed too: its outcome is
				unknown */
};

#endif
