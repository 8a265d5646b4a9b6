/* file.c — recording files: framing, compression, rotation, the index (see record.h and
 * doc/RECORDING.md). All integers in the file are little-endian. */
#include "config.h"

#include "record/record.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "record/codec.h"
#include "util/crc32c.h"
#include "util/errbuf.h"
#include "util/file_trust.h"
#include "util/fileio.h"
#include "util/xalloc.h"

#define FILE_MAGIC       "LAGTOPRC"
#define FILE_HEADER_LEN  32
#define FRAME_HEADER_LEN 24
#define FOOTER_MAGIC     "LTRINDEX"
#define FOOTER_LEN       16
#define INDEX_ENTRY_LEN  17
/* A record's decoded size is bounded so a corrupt length cannot ask for a huge buffer. */
#define MAX_RAW_LEN (1u << 30)
/* Beyond RAW_NO_RATIO_BELOW bytes, a record may unpack to at most MAX_EXPANSION times its stored size, or
 * (against the dictionary) DICT_GROWTH times the dictionary: a record of real offsets and names compresses
 * far less than that, while zstd reaches 30,000 times on zeros (a 36 KB frame declaring 1 GiB). */
#define RAW_NO_RATIO_BELOW (16u << 20)
#define MAX_EXPANSION      1024u
#define DICT_GROWTH        4u

enum { FR_KEY = 'K', FR_DELTA = 'D', FR_INDEX = 'X' };

static void le_put(unsigned char *p, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t le_get(const unsigned char *p, int n)
{
	uint64_t v = 0;
	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static uint32_t frame_crc(const unsigned char *h, const void *body, size_t n)
{
	return crc32c_update(crc32c_update(0, h, 20), body, n);
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

static int read_at(int fd, void *p, size_t n, uint64_t off)
{
	unsigned char *b = p;
	while (n) {
		ssize_t r = pread(fd, b, n, (off_t)off);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		b += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

bool rec_parse_size(const char *s, uint64_t *out)
{
	static const char units[] = "kmg"; /* K, M, G: powers of 1,024 */
	if (!s || !*s || *s == '-')
		return false;
	char *end;
	errno = 0;
	unsigned long long v = strtoull(s, &end, 10);
	uint64_t mul = 1;
	if (end == s || errno)
		return false;
	if (*end) {
		const char *u = strchr(units, tolower((unsigned char)*end++));
		if (!u)
			return false;
		mul = 1ull << (10 * (u - units + 1));
		end += *end == 'B' || *end == 'b';
	}
	if (*end || v == 0 || v > UINT64_MAX / mul)
		return false;
	*out = v * mul;
	return true;
}

/* ------------------------------------------------------------------ writer */

struct idx_entry {
	int64_t t;
	uint64_t off;
	unsigned char type;
};

struct rec_writer {
	char *path;
	rec_writer_opts o;
	int fd;
	uint64_t size;
	rec_codec *codec;
	ZSTD_CCtx *zc;
	ZSTD_CDict *dict; /* the file's first record, the dictionary of the others (NULL before it) */
	unsigned char *raw, *packed;
	size_t raw_len, raw_cap, packed_cap;
	struct idx_entry *idx;
	size_t n_idx, idx_cap;
	size_t since_key;
	unsigned rotations; /* files closed for their size or for another cluster, so far */
	char *cluster;      /* the cluster this file's records are of (NULL: none yet, or unnamed) */
	bool has_cluster;   /* the file has a record, so `cluster` says whose */
};

/* FILE.(k), and FILE itself for k = 0. */
static void rotated_name(char *buf, size_t len, const char *path, unsigned k)
{
	if (k)
		snprintf(buf, len, "%s.%u", path, k);
	else
		snprintf(buf, len, "%s", path);
}

/* FILE.(keep) is deleted, FILE.(k) → FILE.(k+1), FILE → FILE.1. With keep 0, FILE is deleted. */
static int rotate(const char *path, unsigned keep, char *err, size_t errlen)
{
	char from[PATH_MAX], to[PATH_MAX];
	rotated_name(to, sizeof to, path, keep);
	if (unlink(to) != 0 && errno != ENOENT)
		return err_set(err, errlen, "cannot remove %s: %s", to, strerror(errno));
	for (unsigned k = keep; k-- > 0;) {
		rotated_name(from, sizeof from, path, k);
		rotated_name(to, sizeof to, path, k + 1);
		if (rename(from, to) != 0 && errno != ENOENT)
			return err_set(err, errlen, "cannot rename %s to %s: %s", from, to, strerror(errno));
	}
	return 0;
}

/* Appends n bytes to the file; -1 with err naming it. */
static int put(rec_writer *w, const void *p, size_t n, char *err, size_t errlen)
{
	if (fd_write_all(w->fd, p, n) != 0)
		return err_set(err, errlen, "cannot write %s: %s", w->path, strerror(errno));
	w->size += n;
	return 0;
}

/* Frame header: type, 3 zero bytes, stored length (u32), time (i64 ms), raw length (u32), CRC-32C
 * (u32) of the first 20 header bytes and the stored bytes. Then the stored bytes. */
static int put_frame(rec_writer *w, int type, const void *body, uint32_t n, int64_t t, uint32_t raw, char *err,
		     size_t errlen)
{
	unsigned char h[FRAME_HEADER_LEN] = { (unsigned char)type };
	le_put(h + 4, n, 4);
	le_put(h + 8, (uint64_t)t, 8);
	le_put(h + 16, raw, 4);
	le_put(h + 20, frame_crc(h, body, n), 4);
	return put(w, h, sizeof h, err, errlen) || put(w, body, n, err, errlen) ? -1 : 0;
}

static int open_file(rec_writer *w, char *err, size_t errlen)
{
	struct stat st;
	if (stat(w->path, &st) == 0) {
		/* rotation renames what is there: never a device, a pipe or a directory (--record /dev/null) */
		if (!S_ISREG(st.st_mode))
			return err_set(err, errlen, "%s is not a regular file: a recording is never written over it",
				       w->path);
		if (rotate(w->path, w->o.keep, err, errlen) != 0)
			return -1;
	}
	/* 0600: a recording holds the cluster's group, member and host names */
	w->fd = open(w->path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (w->fd < 0)
		return err_set(err, errlen, "cannot create %s: %s", w->path, strerror(errno));
	w->size = 0;
	w->n_idx = 0;
	free(w->cluster);
	w->cluster = NULL;
	w->has_cluster = false;
	w->since_key = 0;
	rec_codec_reset(w->codec); /* every file starts afresh: it is read alone */
	ZSTD_freeCDict(w->dict);   /* and its first record is its own dictionary */
	w->dict = NULL;
	unsigned char h[FILE_HEADER_LEN] = { 0 };
	memcpy(h, FILE_MAGIC, 8);
	le_put(h + 8, LT_REC_VERSION, 2);
	le_put(h + 10, FILE_HEADER_LEN, 2);
	le_put(h + 12, w->o.keyframe_every, 4);
	le_put(h + 28, crc32c(h, 28), 4);
	if (put(w, h, sizeof h, err, errlen) == 0)
		return 0;
	close(w->fd); /* no trailer follows a header that could not be written */
	w->fd = -1;
	return -1;
}

rec_writer *rec_writer_open(const char *path, const rec_writer_opts *o, char *err, size_t errlen)
{
	rec_writer *w = xcalloc(1, sizeof *w);
	w->path = xstrdup(path);
	if (o)
		w->o = *o;
	if (w->o.keyframe_every == 0)
		w->o.keyframe_every = LT_REC_KEYFRAME_EVERY;
	if (w->o.level == 0)
		w->o.level = LT_REC_ZSTD_LEVEL;
	w->codec = rec_codec_new();
	w->zc = ZSTD_createCCtx();
	w->fd = -1;
	if (!w->zc)
		err_set(err, errlen, "zstd: cannot create a compression context");
	if (!w->zc || open_file(w, err, errlen) != 0) {
		rec_writer_close(w, NULL, 0);
		return NULL;
	}
	return w;
}

uint64_t rec_writer_size(const rec_writer *w)
{
	return w ? w->size : 0;
}

size_t rec_writer_records(const rec_writer *w)
{
	return w ? w->n_idx : 0;
}

unsigned rec_writer_rotations(const rec_writer *w)
{
	return w ? w->rotations : 0;
}

/* Writes the trailer — the index frame: count (u32), then per record time (i64), offset (u64), type (u8);
 * then the footer: FOOTER_MAGIC and the index frame's offset (u64) — and closes the file. */
static int close_file(rec_writer *w, char *err, size_t errlen)
{
	size_t n = 4 + w->n_idx * INDEX_ENTRY_LEN;
	unsigned char *p = xmalloc(n), foot[FOOTER_LEN];
	le_put(p, w->n_idx, 4);
	for (size_t i = 0; i < w->n_idx; i++) {
		unsigned char *e = p + 4 + i * INDEX_ENTRY_LEN;
		le_put(e, (uint64_t)w->idx[i].t, 8);
		le_put(e + 8, w->idx[i].off, 8);
		e[16] = w->idx[i].type;
	}
	memcpy(foot, FOOTER_MAGIC, 8);
	le_put(foot + 8, w->size, 8);
	int rc = put_frame(w, FR_INDEX, p, (uint32_t)n, 0, (uint32_t)n, err, errlen) ||
				 put(w, foot, sizeof foot, err, errlen)
			 ? -1
			 : 0;
	free(p);
	if (close(w->fd) != 0 && rc == 0)
		rc = err_set(err, errlen, "cannot close %s: %s", w->path, strerror(errno));
	w->fd = -1;
	return rc;
}

/* Closes this file with its index and starts the next (FILE → FILE.1, ...): the next record is a keyframe. */
static int next_file(rec_writer *w, char *err, size_t errlen)
{
	if (close_file(w, err, errlen) != 0)
		return -1;
	w->rotations++;
	return open_file(w, err, errlen);
}

/* Each record is one zstd frame (its content size in its header). The file's first record is compressed
 * alone, and its decoded bytes are the dictionary of every other record: what a record repeats of it —
 * names, members, partition keys, steady columns — costs a few bytes of a match, keyframes included. */
static int compress_record(rec_writer *w, size_t *z, char *err, size_t errlen)
{
	size_t bound = ZSTD_compressBound(w->raw_len);
	if (bound > w->packed_cap) {
		w->packed = xrealloc(w->packed, bound);
		w->packed_cap = bound;
	}
	*z = w->dict ? ZSTD_compress_usingCDict(w->zc, w->packed, w->packed_cap, w->raw, w->raw_len, w->dict)
		     : ZSTD_compressCCtx(w->zc, w->packed, w->packed_cap, w->raw, w->raw_len, w->o.level);
	return ZSTD_isError(*z) ? err_set(err, errlen, "zstd: %s", ZSTD_getErrorName(*z)) : 0;
}

int rec_writer_append(rec_writer *w, const lt_snapshot *s, char *err, size_t errlen)
{
	/* One file, one cluster: after a switch (the dashboard's c) the new cluster's records start the next
	 * file, so a replay never runs from one cluster's groups into another's. */
	if (w->has_cluster && !same_str(w->cluster, s->cluster) && next_file(w, err, errlen) != 0)
		return -1;
	if (!w->has_cluster) {
		w->cluster = s->cluster ? xstrdup(s->cluster) : NULL;
		w->has_cluster = true;
	}
	bool key = w->n_idx == 0 || w->since_key + 1 >= w->o.keyframe_every;
	w->raw_len = 0;
	rec_encode(w->codec, s, key, &w->raw, &w->raw_len, &w->raw_cap);
	size_t z;
	if (compress_record(w, &z, err, errlen) != 0)
		return -1;
	uint64_t frame = FRAME_HEADER_LEN + z;
	uint64_t trailer = FRAME_HEADER_LEN + 4 + (w->n_idx + 1) * INDEX_ENTRY_LEN + FOOTER_LEN;
	if (w->o.max_size && w->n_idx > 0 && w->size + frame + trailer > w->o.max_size) {
		/* The record was coded against this file's state: the next file starts with a keyframe. */
		if (next_file(w, err, errlen) != 0)
			return -1;
		return rec_writer_append(w, s, err, errlen);
	}
	w->idx = xgrow(w->idx, &w->idx_cap, w->n_idx + 1, sizeof *w->idx);
	w->idx[w->n_idx] = (struct idx_entry){ .t = s->taken_at_ms, .off = w->size, .type = key ? FR_KEY : FR_DELTA };
	if (put_frame(w, w->idx[w->n_idx].type, w->packed, (uint32_t)z, s->taken_at_ms, (uint32_t)w->raw_len, err,
		      errlen) != 0)
		return -1;
	w->n_idx++;
	w->since_key = key ? 0 : w->since_key + 1;
	if (!w->dict && !(w->dict = ZSTD_createCDict(w->raw, w->raw_len, w->o.level)))
		return err_set(err, errlen, "zstd: cannot create a dictionary");
	return 0;
}

int rec_writer_close(rec_writer *w, char *err, size_t errlen)
{
	if (!w)
		return 0;
	int rc = w->fd >= 0 ? close_file(w, err, errlen) : 0;
	rec_codec_free(w->codec);
	ZSTD_freeCCtx(w->zc);
	ZSTD_freeCDict(w->dict);
	free(w->raw);
	free(w->packed);
	free(w->idx);
	free(w->cluster);
	free(w->path);
	free(w);
	return rc;
}

/* ------------------------------------------------------------------ reader */

struct rec_reader {
	char *path;
	int fd;
	uint64_t file_size;
	struct idx_entry *idx;
	size_t n_idx, idx_cap;
	char note[256];
	rec_codec *codec;
	ZSTD_DCtx *zd;
	ZSTD_DDict *dict; /* the first record's bytes, the other records' dictionary (NULL until needed) */
	size_t dict_len;  /* and their length */
	char why[128];    /* why a record does not decompress */
	unsigned char *stored, *raw;
	size_t stored_cap, raw_cap;
	size_t cur; /* the record the codec's state is at; SIZE_MAX: none */
	struct lag_cache {
		size_t at; /* the record they end at; SIZE_MAX: none */
		char *group, *topic;
		int32_t partition;
		size_t n;
		int64_t lags[LT_REC_LAGS];
	} lags;
};

/* The frame of that type at off: its header into h, its stored bytes into r->stored, checked against
 * the file's size and the CRC. NULL, or why not. */
static const char *read_frame(rec_reader *r, uint64_t off, int type, unsigned char h[FRAME_HEADER_LEN])
{
	if (read_at(r->fd, h, FRAME_HEADER_LEN, off) != 0)
		return "cannot be read";
	size_t n = (size_t)le_get(h + 4, 4);
	if (h[0] != type || off + FRAME_HEADER_LEN + n > r->file_size || le_get(h + 16, 4) > MAX_RAW_LEN)
		return "has a damaged frame header";
	r->stored = xgrow(r->stored, &r->stored_cap, n ? n : 1, 1);
	if (read_at(r->fd, r->stored, n, off + FRAME_HEADER_LEN) != 0 ||
	    frame_crc(h, r->stored, n) != (uint32_t)le_get(h + 20, 4))
		return "is corrupt (its CRC-32C does not match)";
	return NULL;
}

static void add_entry(rec_reader *r, struct idx_entry e)
{
	r->idx = xgrow(r->idx, &r->idx_cap, r->n_idx + 1, sizeof *r->idx);
	r->idx[r->n_idx++] = e;
}

/* Reads the trailer's index; false when there is none or it does not hold together. */
static bool load_trailer(rec_reader *r)
{
	unsigned char foot[FOOTER_LEN], h[FRAME_HEADER_LEN];
	if (r->file_size < FILE_HEADER_LEN + FRAME_HEADER_LEN + 4 + FOOTER_LEN ||
	    read_at(r->fd, foot, sizeof foot, r->file_size - FOOTER_LEN) != 0 || memcmp(foot, FOOTER_MAGIC, 8) != 0)
		return false;
	uint64_t off = le_get(foot + 8, 8);
	if (off < FILE_HEADER_LEN || off > r->file_size - FOOTER_LEN - FRAME_HEADER_LEN ||
	    read_frame(r, off, FR_INDEX, h) != NULL)
		return false;
	uint64_t n = le_get(h + 4, 4), count = n >= 4 ? le_get(r->stored, 4) : 0;
	if (off + FRAME_HEADER_LEN + n + FOOTER_LEN != r->file_size || n < 4 || 4 + count * INDEX_ENTRY_LEN != n)
		return false;
	for (size_t i = 0; i < count; i++) {
		const unsigned char *e = r->stored + 4 + i * INDEX_ENTRY_LEN;
		struct idx_entry x = { .t = (int64_t)le_get(e, 8), .off = le_get(e + 8, 8), .type = e[16] };
		if (!(x.type == FR_KEY || x.type == FR_DELTA) || x.off < FILE_HEADER_LEN || x.off >= off ||
		    (i == 0 ? x.off != FILE_HEADER_LEN || x.type != FR_KEY : x.off <= r->idx[i - 1].off))
			return false;
		add_entry(r, x);
	}
	return true;
}

/* Walks the frame headers from the start; stops at the first frame that does not fit the file. */
static void scan(rec_reader *r)
{
	uint64_t off = FILE_HEADER_LEN;
	r->n_idx = 0;
	while (off + FRAME_HEADER_LEN <= r->file_size) {
		unsigned char h[FRAME_HEADER_LEN];
		if (read_at(r->fd, h, sizeof h, off) != 0)
			break;
		if (h[0] == FR_INDEX) { /* a trailer that did not check out: the records before it are complete */
			snprintf(r->note, sizeof r->note, "%s: its index trailer is damaged: rebuilt by scanning",
				 r->path);
			return;
		}
		uint64_t stored = le_get(h + 4, 4);
		if ((h[0] != FR_KEY && h[0] != FR_DELTA) || h[1] || h[2] || h[3] || (r->n_idx == 0 && h[0] != FR_KEY)) {
			snprintf(r->note, sizeof r->note,
				 "%s: unreadable frame header at byte %llu: %zu records before it are read", r->path,
				 (unsigned long long)off, r->n_idx);
			return;
		}
		if (off + FRAME_HEADER_LEN + stored > r->file_size)
			break;
		add_entry(r, (struct idx_entry){ .t = (int64_t)le_get(h + 8, 8), .off = off, .type = h[0] });
		off += FRAME_HEADER_LEN + stored;
	}
	if (off < r->file_size)
		snprintf(r->note, sizeof r->note,
			 "%s is cut short at byte %llu (a recorder that stopped mid-record): %zu "
			 "complete records are read",
			 r->path, (unsigned long long)off, r->n_idx);
	else
		snprintf(r->note, sizeof r->note,
			 "%s has no index (the recorder did not close it): rebuilt by scanning", r->path);
}

/* The file header: the magic, its CRC, version 3 and its length; -1 with err naming what is wrong. */
static int check_file_header(int fd, const char *path, char *err, size_t errlen)
{
	unsigned char h[FILE_HEADER_LEN];
	if (read_at(fd, h, sizeof h, 0) != 0 || memcmp(h, FILE_MAGIC, 8) != 0)
		return err_set(err, errlen, "%s is not a lagtop recording (no LAGTOPRC header)", path);
	if (crc32c(h, 28) != (uint32_t)le_get(h + 28, 4))
		return err_set(err, errlen, "%s: the file header's checksum does not match (a damaged file)", path);
	unsigned version = (unsigned)le_get(h + 8, 2), header_len = (unsigned)le_get(h + 10, 2);
	if (version != LT_REC_VERSION)
		return err_set(err, errlen,
			       "%s is a version %u recording; this lagtop reads version %d only (versions 1 and 2 "
			       "were written by earlier 0.x builds: replay them with the build that wrote them)",
			       path, version, LT_REC_VERSION);
	if (header_len != FILE_HEADER_LEN)
		return err_set(err, errlen, "%s: its file header says %u bytes, not %d (a damaged file)", path,
			       header_len, FILE_HEADER_LEN);
	return 0;
}

rec_reader *rec_reader_open(const char *path, char *err, size_t errlen)
{
	struct stat st; /* a FIFO or a device named by mistake is refused, never waited on */
	int fd = ft_open_read(path, 0, "cannot open", &st, err, errlen);
	if (fd < 0)
		return NULL;
	if (check_file_header(fd, path, err, errlen) != 0) {
		close(fd);
		return NULL;
	}
	rec_reader *r = xcalloc(1, sizeof *r);
	r->path = xstrdup(path);
	r->fd = fd;
	r->file_size = (uint64_t)st.st_size;
	r->codec = rec_codec_new();
	r->zd = ZSTD_createDCtx();
	r->cur = SIZE_MAX;
	r->lags.at = SIZE_MAX;
	if (r->zd && !load_trailer(r))
		scan(r);
	if (!r->zd || r->n_idx == 0) {
		if (r->zd)
			err_set(err, errlen, "%s holds no complete record", path);
		else
			err_set(err, errlen, "zstd: cannot create a decompression context");
		rec_reader_close(r);
		return NULL;
	}
	return r;
}

void rec_reader_close(rec_reader *r)
{
	if (!r)
		return;
	close(r->fd);
	rec_codec_free(r->codec);
	ZSTD_freeDCtx(r->zd);
	ZSTD_freeDDict(r->dict);
	free(r->stored);
	free(r->raw);
	free(r->idx);
	free(r->lags.group);
	free(r->lags.topic);
	free(r->path);
	free(r);
}

size_t rec_reader_count(const rec_reader *r)
{
	return r->n_idx;
}

int64_t rec_reader_time(const rec_reader *r, size_t i)
{
	return i < r->n_idx ? r->idx[i].t : 0;
}

bool rec_reader_is_keyframe(const rec_reader *r, size_t i)
{
	return i < r->n_idx && r->idx[i].type == FR_KEY;
}

const char *rec_reader_note(const rec_reader *r)
{
	return r->note[0] ? r->note : NULL;
}

size_t rec_reader_find(const rec_reader *r, int64_t t)
{
	size_t lo = 0, hi = r->n_idx; /* the first record after t */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->idx[mid].t <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : 0;
}

/* Record i's decoded bytes into r->raw (*raw of them; every record but the first against the dictionary).
 * NULL, or why not. The zstd frame's own header must state the record's length before anything is
 * allocated: a frame that would unpack to more is refused unread. */
static const char *unpack(rec_reader *r, size_t i, size_t *raw)
{
	unsigned char h[FRAME_HEADER_LEN];
	const char *why = read_frame(r, r->idx[i].off, r->idx[i].type, h);
	if (why)
		return why;
	size_t n = (size_t)le_get(h + 4, 4);
	*raw = (size_t)le_get(h + 16, 4);
	const ZSTD_DDict *dict = i > 0 ? r->dict : NULL;
	if (ZSTD_getFrameContentSize(r->stored, n) != (unsigned long long)*raw)
		return "does not decompress (its zstd frame does not state the record's length)";
	if (*raw > RAW_NO_RATIO_BELOW && *raw / MAX_EXPANSION > n && !(dict && *raw / DICT_GROWTH <= r->dict_len))
		return "does not decompress (its stated length is not believable for its size)";
	r->raw = xgrow(r->raw, &r->raw_cap, *raw ? *raw : 1, 1);
	size_t got = dict ? ZSTD_decompress_usingDDict(r->zd, r->raw, *raw, r->stored, n, dict)
			  : ZSTD_decompressDCtx(r->zd, r->raw, *raw, r->stored, n);
	if (ZSTD_isError(got) || got != *raw) {
		snprintf(r->why, sizeof r->why, "does not decompress (%s)",
			 ZSTD_isError(got) ? ZSTD_getErrorName(got) : "shorter than its stated length");
		return r->why;
	}
	return NULL;
}

/* Decodes record i from the codec's state (which must be at i - 1, or i a keyframe). */
static lt_snapshot *decode_one(rec_reader *r, size_t i, char *err, size_t errlen)
{
	size_t raw = 0;
	const char *why = NULL;
	if (i > 0 && !r->dict) { /* the dictionary: the file's first record's decoded bytes */
		if (!(why = unpack(r, 0, &raw)) && !(r->dict = ZSTD_createDDict(r->raw, raw)))
			why = "cannot be made a zstd dictionary";
		r->dict_len = raw;
	}
	if (why) {
		err_set(err, errlen, "%s: record 1 at byte %d, the dictionary of the others, %s", r->path,
			FILE_HEADER_LEN, why);
		return NULL;
	}
	const struct idx_entry *e = &r->idx[i];
	char reason[200];
	lt_snapshot *s = NULL;
	if (!(why = unpack(r, i, &raw)) &&
	    !(s = rec_decode(r->codec, r->raw, raw, e->type == FR_KEY, reason, sizeof reason)))
		why = reason;
	if (why)
		err_set(err, errlen, "%s: record %zu at byte %llu %s%s", r->path, i + 1, (unsigned long long)e->off,
			why == reason ? "does not decode: " : "", why);
	return s;
}

/* The keyframe at or before i. */
static size_t key_before(const rec_reader *r, size_t i)
{
	while (i > 0 && r->idx[i].type != FR_KEY)
		i--;
	return i;
}

lt_snapshot *rec_reader_get(rec_reader *r, size_t i, char *err, size_t errlen)
{
	if (i >= r->n_idx) {
		snprintf(err, errlen, "%s has %zu records, not %zu", r->path, r->n_idx, i + 1);
		return NULL;
	}
	/* from the state when it is at or before i in i's keyframe interval, else from i's keyframe */
	size_t k = key_before(r, i);
	size_t from = r->cur != SIZE_MAX && r->cur < i && r->cur >= k ? r->cur + 1 : k;
	lt_snapshot *s = NULL;
	for (size_t j = from; j <= i; j++) {
		if (s)
			snapshot_unref(s);
		s = decode_one(r, j, err, errlen);
		if (!s) {
			r->cur = SIZE_MAX;
			rec_codec_reset(r->codec);
			return NULL;
		}
		r->cur = j;
	}
	return s;
}

static const lt_partition *find_partition(const lt_snapshot *s, const char *group, const char *topic, int32_t partition)
{
	const lt_group *g = snapshot_find_group(s, group);
	for (size_t k = 0; g && k < g->n_partitions; k++)
		if (g->partitions[k].partition == partition && strcmp(g->partitions[k].topic, topic) == 0)
			return &g->partitions[k];
	return NULL;
}

/* Decodes the records before the last one read again (once per partition and record: the popup that
 * asks redraws often), then that one, so the state is where it was. */
size_t rec_reader_partition_lags(rec_reader *r, const char *group, const char *topic, int32_t partition, int64_t *out,
				 size_t max)
{
	struct lag_cache *lc = &r->lags;
	size_t at = r->cur;
	if (at == SIZE_MAX)
		return 0;
	if (lc->at != at || lc->partition != partition || strcmp(lc->group, group) != 0 ||
	    strcmp(lc->topic, topic) != 0) {
		free(lc->group);
		free(lc->topic);
		*lc = (struct lag_cache){
			.at = at, .group = xstrdup(group), .topic = xstrdup(topic), .partition = partition
		};
		char err[256];
		for (size_t j = at + 1 > LT_REC_LAGS ? at + 1 - LT_REC_LAGS : 0; j <= at; j++) {
			lt_snapshot *s = rec_reader_get(r, j, err, sizeof err);
			if (!s)
				break;
			const lt_partition *p = find_partition(s, group, topic, partition);
			if (p && p->has_lag)
				lc->lags[lc->n++] = p->lag;
			snapshot_unref(s);
		}
		if (r->cur != at) /* a record would not decode: the reader starts afresh next time */
			lc->at = SIZE_MAX;
	}
	size_t n = lc->n < max ? lc->n : max;
	memcpy(out, lc->lags + (lc->n - n), n * sizeof *out);
	return n;
}
