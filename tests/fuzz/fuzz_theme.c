/* fuzz_theme.c — libFuzzer harness for the theme loader (src/ui/theme.c, libconfig; no curses): the input
 * is written to a private temp file and read by theme_parse_file(), as a theme file from
 * ~/.config/lagtop/themes would be. Property: an error always has a message (it may quote the file's
 * bytes; the dashboard prints it terminal-safe). Inputs with @include are skipped (they would read other
 * files). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../lib/lagtop_test.h"

#include "ui/theme.h"

/* the file read as a theme; the bytes themselves are not needed again */
static void check_theme(const char *path, const uint8_t *data, size_t size)
{
	(void)data;
	(void)size;
	struct ui_theme t;
	theme_builtin(&t, false);
	char err[512] = "";
	if (theme_parse_file(path, &t, err, sizeof err) != 0 && !err[0])
		abort();
	if (!memchr(t.name, '\0', sizeof t.name))
		abort();
}

LT_FUZZ_LIBCONFIG_HARNESS("theme", check_theme)
