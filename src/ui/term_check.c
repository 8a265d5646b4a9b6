/* term_check.c — can the dashboard open the terminal? Asked before anything connects, so a run without
 * a terminal (or with an unknown TERM) fails at once instead of after the cluster connection closes.
 * Its own file: <term.h> defines macros (lines, columns, ...) that would clash with the UI's names. */
#include "config.h"

#include "ui/tui.h" /* before <term.h>, whose macros would rename its parameters */

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <term.h>
#include <unistd.h>

#include "util/errbuf.h"
#include "util/sanitize.h"

int tui_terminal_check(char *err, size_t errlen)
{
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO))
		return err_set(err, errlen, "the dashboard needs a terminal (use --once to print to a pipe)");
	/* the terminal description newterm() will load; freed again, newterm loads its own */
	int e = 0;
	if (setupterm(NULL, STDOUT_FILENO, &e) != OK) {
		const char *term = getenv("TERM");
		char *safe = sanitize_dup(term ? term : "", false);
		err_set(err, errlen, "cannot open the terminal (TERM='%s' unknown?)", safe);
		free(safe);
		return -1;
	}
	del_curterm(cur_term);
	return 0;
}
