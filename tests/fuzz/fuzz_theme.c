/* fuzz_theme.c — libFuzzer harness for the theme loader (src/ui/theme.c, libconfig; no curses): the input
 * is written to a private temp file and read by theme_parse_file(), as a theme file from
 * ~/.config/lagtop/themes would be. Property: an error always has a message (it may quote the file's
 * bytes; the dashboard prints it terminal-safe). Inputs with @include are skipped (they would read other
 * files). */
#define _GNU_SOURCE /* memmem */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/theme.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* libconfig 1.5 leaks its scanner's string buffer on some syntax errors (an unterminated string after a
 * NUL byte): not ours, and harmless for lagtop, which exits on a bad file. */
const char *__lsan_default_suppressions(void);
const char *__lsan_default_suppressions(void)
{
	return "leak:libconfig.so\n";
}

static char path[64];

static void cleanup(void)
{
	if (path[0])
		unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16 || memmem(data, size, "@include", 8))
		return 0;
	if (!path[0]) {
		snprintf(path, sizeof path, "/tmp/lagtop-fuzz-theme.XXXXXX");
		int fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
		atexit(cleanup);
	}
	FILE *f = fopen(path, "wb");
	if (!f)
		abort();
	fwrite(data, 1, size, f);
	fclose(f);
	struct ui_theme t;
	theme_builtin(&t, false);
	char err[512] = "";
	if (theme_parse_file(path, &t, err, sizeof err) != 0 && !err[0])
		abort();
	if (!memchr(t.name, '\0', sizeof t.name))
		abort();
	return 0;
}
