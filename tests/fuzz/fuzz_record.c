/* fuzz_record.c — the recording reader (src/record): arbitrary bytes as a record's decoded payload (the
 * codec: a keyframe, then the same bytes as a delta against it, as version 1 and as version 2 bytes), and as
 * a whole file (framing, index, checksums). Seeds: tests/fuzz/corpus/record (a keyframe, a delta and a
 * three-record file of small snapshots, in version 1 and in version 2: the *-v2 ones). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/codec.h"
#include "record/record.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[256];
	for (unsigned v = 1; v <= LT_REC_CODEC_VERSION; v++) { /* every version the reader reads */
		rec_codec *c = rec_codec_new();
		rec_codec_set_version(c, v);
		lt_snapshot *s = rec_decode(c, data, size, true, err, sizeof err);
		if (s) {
			lt_snapshot *d = rec_decode(c, data, size, false, err, sizeof err);
			if (d)
				snapshot_unref(d);
			snapshot_unref(s);
		}
		rec_codec_free(c);
	}

	char path[] = "/tmp/lagtop-fuzz-record-XXXXXX";
	int fd = mkstemp(path);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		rec_reader *r = rec_reader_open(path, err, sizeof err);
		if (r) {
			for (size_t i = 0; i < rec_reader_count(r) && i < 8; i++) {
				lt_snapshot *x = rec_reader_get(r, i, err, sizeof err);
				if (x)
					snapshot_unref(x);
			}
			rec_reader_close(r);
		}
	}
	close(fd);
	unlink(path);
	return 0;
}
