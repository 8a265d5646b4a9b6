/* pending.c — modes whose module has not landed yet. Each says so plainly and exits 1; the
 * module that implements a mode deletes its function here. This file disappears when empty. */
#include <stdio.h>

#include "cli/modes.h"

static int not_yet(const char *what)
{
	fprintf(stderr, "lagtop: %s is not available in this build yet\n", what);
	return LT_EXIT_CLUSTER;
}

int mode_tui(const struct lt_options *o) { (void)o; return not_yet("the dashboard"); }
int mode_demo(const struct lt_options *o) { (void)o; return not_yet("--demo"); }
