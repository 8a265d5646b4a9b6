/* record.h — recording files: the writer (with rotation) and the reader (with its index).
 *
 * The format is doc/RECORDING.md: a header, then framed records (length, time, CRC-32C, a zstd frame of
 * codec.h's bytes, compressed with the file's first record as its dictionary), keyframes every
 * `keyframe_every` records, and an index trailer written on close. A file without its trailer (the recorder was killed)
 * is indexed by scanning the frame headers; a file cut short reads up to its last complete record. No curses, no
 * clocks.
 */
#ifndef LAGTOP_RECORD_RECORD_H
#define LAGTOP_RECORD_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* The version written and read (the reader refuses others with one line naming the version). */
#define LT_REC_VERSION 3

typedef struct rec_writer_opts {
	uint64_t max_size;       /* rotate before a file would pass this many bytes; 0 = never */
	unsigned keep;           /* rotated files kept: FILE.1 (newest) .. FILE.keep; older ones deleted */
	unsigned keyframe_every; /* records per keyframe (0 = the default) */
	int level;               /* zstd level; 0 = the default */
} rec_writer_opts;

/* Reaching a moment decodes the records from the keyframe before it: at most this many (make bench,
 * doc/PERFORMANCE.md). */
#define LT_REC_KEYFRAME_EVERY 10
#define LT_REC_ZSTD_LEVEL     3
#define LT_REC_KEEP_DEFAULT   9

typedef struct rec_writer rec_writer;

/* Creates path; an existing file is rotated away first (FILE → FILE.1, ...), never overwritten. */
rec_writer *rec_writer_open(const char *path, const rec_writer_opts *o, char *err, size_t errlen);
/* Appends one snapshot (rotating first when the size limit says so, or when the snapshot is of another
 * cluster than the file's records: one file, one cluster). -1 with err on a write error. */
int rec_writer_append(rec_writer *w, const lt_snapshot *s, char *err, size_t errlen);
/* Bytes written to the current file so far, and records in it. */
uint64_t rec_writer_size(const rec_writer *w);
size_t rec_writer_records(const rec_writer *w);
/* Files closed because they were full or for another cluster, since the writer opened (each one a FILE →
 * FILE.1 rotation). */
unsigned rec_writer_rotations(const rec_writer *w);
/* Writes the index trailer and closes; NULL is fine. -1 with err when the trailer could not be written
 * (the records are all there; readers rebuild the index). */
int rec_writer_close(rec_writer *w, char *err, size_t errlen);

typedef struct rec_reader rec_reader;

rec_reader *rec_reader_open(const char *path, char *err, size_t errlen);
void rec_reader_close(rec_reader *r);
size_t rec_reader_count(const rec_reader *r);
int64_t rec_reader_time(const rec_reader *r, size_t i);
bool rec_reader_is_keyframe(const rec_reader *r, size_t i);
/* The last record at or before t (0 when t is before the first). */
size_t rec_reader_find(const rec_reader *r, int64_t t_ms);
/* Record i as a snapshot (a new reference), NULL with one line in err when it cannot be read (a
 * checksum that does not match, a record that does not decode). */
lt_snapshot *rec_reader_get(rec_reader *r, size_t i, char *err, size_t errlen);
/* One line about the file itself, NULL when nothing to say ("cut short after record N ...",
 * "no index trailer: index rebuilt by scanning"). */
const char *rec_reader_note(const rec_reader *r);
/* Lags of a partition over the last LT_REC_LAGS records up to the last one read, oldest first (the detail
 * popup's sparkline; decoded again the first time a partition is asked for at a record). */
#define LT_REC_LAGS 16
size_t rec_reader_partition_lags(rec_reader *r, const char *group, const char *topic, int32_t partition, int64_t *out,
				 size_t max);

/* "100M", "2G", "512K", "1000000" → bytes; false when not a size. */
bool rec_parse_size(const char *s, uint64_t *out);

/* --at TIME against a recording from first_ms to last_ms (at.c, pure):
 *   2026-12-01T03:10:00[.000][Z|+01:00]  (util/timeparse.h's datetime; no zone is UTC)
 *   03:10 or 03:10:30                    UTC, on the first day of the recording that has that moment (a
 *                                        night across midnight: the next day's 01:00); none: refused
 *   -2h, 30m, 90s, 1d                    that long before the recording's end
 * 0 with *out_ms, or -1 with one line naming the input and, for a time outside the recording, its span. */
int rec_parse_at(const char *s, int64_t first_ms, int64_t last_ms, int64_t *out_ms, char *err, size_t errlen);
/* ms since the epoch as "2026-12-01 03:10:05Z" (at least 24 bytes). */
void rec_format_time(int64_t ms, char *buf, size_t len);

#endif
