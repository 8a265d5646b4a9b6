/* main.c — parse the command line, pick a mode, return its exit status. Nothing else. */
#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>

#include "cli/modes.h"
#include "cli/options.h"
#include "util/xalloc.h"

/* Passwords reach lagtop from the configuration file, --command-config, -X and the environment, and
 * librdkafka keeps copies of them: a core dump of any mode that connects would hold them (a probe found four
 * copies of one). So no core is ever written, from the start, before any of them is read: the limit is 0,
 * and the process is not dumpable (which also keeps other processes of the user from reading its memory
 * through ptrace or /proc/PID/mem). Nothing lagtop does needs a core. */
static void no_core_dumps(void)
{
	struct rlimit none = { 0, 0 };
	(void)setrlimit(RLIMIT_CORE, &none);
	(void)prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
}

int main(int argc, char **argv)
{
	struct lt_options opts;
	char err[512];
	const char *argv0 = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];

	no_core_dumps();
	xalloc_init_policy();
	setlocale(LC_ALL, "");
	if (options_parse(&opts, argc, argv, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", argv0, err);
		options_free(&opts);
		return LT_EXIT_USAGE;
	}

	int rc;
	/* --replay and --record --headless ride on the dashboard's and --once's modes (options.c's rules) */
	if (opts.replay_path)
		rc = opts.mode == LT_MODE_ONCE ? mode_replay_once(&opts) : mode_replay(&opts);
	else if (opts.record_path && opts.headless)
		rc = mode_record_headless(&opts);
	else
		switch (opts.mode) {
		case LT_MODE_HELP:
			options_print_help(stdout, argv0);
			rc = LT_EXIT_OK;
			break;
		case LT_MODE_VERSION: rc = mode_version(&opts); break;
		case LT_MODE_ONCE: rc = mode_once(&opts); break;
		case LT_MODE_RESET: rc = mode_reset(&opts); break;
		case LT_MODE_LIST: rc = mode_list(&opts); break;
		case LT_MODE_DESCRIBE: rc = mode_describe(&opts); break;
		case LT_MODE_UNDO: rc = mode_undo(&opts); break;
		case LT_MODE_PEEK: rc = mode_peek(&opts); break;
		case LT_MODE_DELETE: rc = mode_delete(&opts); break;
		case LT_MODE_DELETE_OFFSETS: rc = mode_delete_offsets(&opts); break;
		case LT_MODE_DEMO: rc = mode_demo(&opts); break;
		case LT_MODE_X_LIST: rc = mode_x_list(&opts); break;
		case LT_MODE_X_DUMP: rc = mode_x_dump(&opts); break;
		case LT_MODE_TUI:
		default: rc = mode_tui(&opts); break;
		}
	options_free(&opts);
	return rc;
}
