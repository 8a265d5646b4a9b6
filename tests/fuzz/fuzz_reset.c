/* fuzz_reset.c — libFuzzer harness for the reset input parsers (src/reset, pure): --to-datetime,
 * --by-duration and the --from-file CSV plan. Properties: an error always comes with a message (it may
 * quote the input, newlines included: the CLI prints each line prefixed and terminal-safe); parsed CSV
 * rows have a non-empty topic, a partition >= 0 and an offset >= 0. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "reset/csv.h"
#include "util/timeparse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void one_line(int rc, const char *err)
{
	if (rc != 0 && !err[0])
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 1 << 16)
		return 0;
	char *s = malloc(size + 1);
	memcpy(s, data, size);
	s[size] = '\0';
	const int64_t now = 1700000000000LL;
	char err[512];
	int64_t ms, sec;
	int32_t nanos;

	err[0] = '\0';
	one_line(reset_parse_datetime(s, now, &ms, err, sizeof err), err);
	err[0] = '\0';
	one_line(reset_parse_duration(s, &sec, &nanos, err, sizeof err), err);
	err[0] = '\0';
	one_line(reset_duration_before(s, now, &ms, err, sizeof err), err);

	lt_reset_csv_row *rows = NULL;
	size_t n = 0;
	err[0] = '\0';
	int rc = reset_csv_parse(s, "g", &rows, &n, err, sizeof err);
	one_line(rc, err);
	if (rc == 0) {
		for (size_t i = 0; i < n; i++)
			if (!rows[i].topic || !rows[i].topic[0] || rows[i].partition < 0 || rows[i].offset < 0)
				abort();
		reset_csv_rows_free(rows, n);
	}
	free(s);
	return 0;
}
