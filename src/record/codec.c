/* codec.c — a snapshot as its change from the previous record (see codec.h and doc/RECORDING.md).
 *
 * A record is a set of columns: one byte stream per kind of value (all partitions' log ends together,
 * all their committed offsets together, ...), so alike bytes sit together for zstd. Numbers are LEB128
 * varints; a signed one is zigzag-coded as its difference from a prediction both sides make from the
 * previous record (mostly "the previous value"). Every value goes through one cv_* function in both
 * directions, so the encoder and the decoder cannot drift apart. What rarely changes (names, members,
 * errors) is written whole when it differs from the previous record's, and every record is
 * compressed with the file's first record as zstd's dictionary (file.c), so what repeats it is cheap.
 */
#include "config.h"

#include "record/codec.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "util/errbuf.h"
#include "util/xalloc.h"

enum col {
	C_HDR,     /* snapshot-wide fields */
	C_GROUP,   /* per group: name, and whether its partition keys and slow fields are the previous record's */
	C_GMETA,   /* the slow fields (state, members, commit epochs, ...) of the groups whose changed, whole */
	C_KEYS,    /* partition keys of the groups whose keys changed (or are new) */
	C_GVAL,    /* per group: aggregates, trend and commit-stream figures */
	C_PBITS,   /* per partition: flags, status, has_* bits, XOR the previous */
	C_MEMBER,  /* per partition: member index */
	C_LSTART,  /* log start */
	C_LEND,    /* log end */
	C_COMMIT,  /* committed offset, predicted to move as the log end moved */
	C_LAG,     /* lag − (log end − committed) */
	C_TLAG,    /* time lag */
	C_ETA,     /* ETA − the model's ETA from the lag and rates */
	C_RTAG,    /* doubles: which coding (previous, zero, advance over a span, raw) */
	C_RSPAN,   /* a rate's span (ms) */
	C_RADV,    /* a rate's advance over its span − the previous rate's over it */
	C_DBL,     /* doubles no coding gave, 8 bytes each */
	C_COMMITS, /* per partition: last commit time, its age, the time unmoved */
	C_EXT,     /* what only some rows have: commit metadata, position, its age, stale age, source */
	N_COL
};

static const char *const col_names[N_COL] = {
	"header",        "groups",      "group-meta", "partition-keys", "group-values", "partition-bits",
	"member",        "log-start",   "log-end",    "committed",      "lag",          "time-lag",
	"eta",           "double-tags", "rate-spans", "rate-advances",  "doubles",      "commits",
	"partition-ext",
};

/* The encoder's candidate spans for a rate: the times of the last records (the model measures a rate
 * over its window's samples, which are refreshes). */
#define N_TIMES 32

struct col_buf {
	unsigned char *p;
	size_t len, cap; /* encoder */
	size_t pos;      /* decoder */
};

struct rec_codec {
	bool enc, bad;
	char why[200];
	struct col_buf col[N_COL];
	lt_snapshot *prev;      /* the previous record; NULL before a keyframe */
	int64_t times[N_TIMES]; /* encoder: the last records' times, newest at times[0] */
	size_t n_times;
	int64_t span_hint; /* encoder: the span the last rate was found over (tried first) */
	char *scratch;     /* decoder: a topic name being read */
	size_t scratch_cap;
};

rec_codec *rec_codec_new(void)
{
	return xcalloc(1, sizeof(rec_codec));
}

void rec_codec_reset(rec_codec *c)
{
	if (c->prev)
		snapshot_unref(c->prev);
	c->prev = NULL;
}

void rec_codec_free(rec_codec *c)
{
	if (!c)
		return;
	rec_codec_reset(c);
	for (int i = 0; i < N_COL; i++)
		free(c->col[i].p); /* the encoder's (the decoder's point into its input, and are cleared) */
	free(c->scratch);
	free(c);
}

static void fail(rec_codec *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(rec_codec *c, const char *fmt, ...)
{
	if (c->bad)
		return;
	c->bad = true;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->why, sizeof c->why, fmt, ap);
	va_end(ap);
}

/* ---- bytes ---- */

static void put_bytes(struct col_buf *b, const void *p, size_t n)
{
	if (n == 0)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		while (cap < b->len + n)
			cap *= 2;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

/* The varints are most of a record's work both ways: inlined, a one-byte value without a loop. */
static inline __attribute__((always_inline)) void put_u64(struct col_buf *b, uint64_t v)
{
	if (b->cap - b->len < 10) {
		size_t cap = b->cap ? b->cap * 2 : 4096;
		b->p = xrealloc(b->p, cap);
		b->cap = cap;
	}
	unsigned char *p = b->p + b->len;
	while (v >= 0x80) {
		*p++ = (unsigned char)(v | 0x80);
		v >>= 7;
	}
	*p++ = (unsigned char)v;
	b->len = (size_t)(p - b->p);
}

static inline __attribute__((always_inline)) bool get_u64(struct col_buf *b, uint64_t *v)
{
	if (b->pos < b->len && b->p[b->pos] < 0x80) {
		*v = b->p[b->pos++];
		return true;
	}
	uint64_t r = 0;
	for (unsigned shift = 0; shift < 70; shift += 7) {
		if (b->pos >= b->len)
			return false;
		unsigned char byte = b->p[b->pos++];
		if (shift == 63 && byte > 1)
			return false;
		r |= (uint64_t)(byte & 0x7f) << shift;
		if (!(byte & 0x80)) {
			*v = r;
			return true;
		}
	}
	return false;
}

/* Wrapping arithmetic: predictions over corrupt or extreme values must not overflow (UBSan). */
static int64_t wadd(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static int64_t wsub(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a - (uint64_t)b);
}

static bool same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* ---- one value, both directions: the encoder writes v and returns it, the decoder returns what it reads ---- */

static inline __attribute__((always_inline)) uint64_t cv_u64(rec_codec *c, enum col k, uint64_t v)
{
	if (c->enc) {
		put_u64(&c->col[k], v);
		return v;
	}
	uint64_t r = 0;
	if (!c->bad && !get_u64(&c->col[k], &r))
		fail(c, "%s column ends early", col_names[k]);
	return r;
}

/* v − pred, zigzag-coded. */
static inline __attribute__((always_inline)) int64_t cv_i64(rec_codec *c, enum col k, int64_t v, int64_t pred)
{
	uint64_t d = (uint64_t)wsub(v, pred);
	uint64_t z = cv_u64(c, k, (d << 1) ^ (uint64_t)((int64_t)d >> 63));
	return wadd(pred, (int64_t)((z >> 1) ^ (0 - (z & 1))));
}

static double cv_raw_double(rec_codec *c, double v)
{
	unsigned char b[8];
	if (c->enc) {
		memcpy(b, &v, 8);
		put_bytes(&c->col[C_DBL], b, 8);
		return v;
	}
	struct col_buf *col = &c->col[C_DBL];
	if (c->bad || col->len - col->pos < 8) {
		fail(c, "doubles column ends early");
		return 0;
	}
	memcpy(&v, col->p + col->pos, 8);
	col->pos += 8;
	return v;
}

enum { D_PREV, D_ZERO, D_SPAN, D_RAW };

/* The model's rate (rates.c): an advance over a span of ms. */
static double rate_of(int64_t advance, int64_t span_ms)
{
	return (double)advance / ((double)span_ms / 1000.0);
}

/* Whether v is some advance over span ms (the advance into *adv). */
static bool rate_over(double v, int64_t span, int64_t *adv)
{
	double a = v * (double)span / 1000.0;
	if (!(a > -9.0e15 && a < 9.0e15))
		return false;
	*adv = (int64_t)(a < 0 ? a - 0.5 : a + 0.5);
	return same_double(rate_of(*adv, span), v);
}

/* The encoder's search for the span of a rate: the last one that worked, then the spans to the last
 * records' times. */
static bool find_span(rec_codec *c, double v, int64_t now, int64_t *span, int64_t *adv)
{
	if (c->span_hint > 0 && rate_over(v, c->span_hint, adv)) {
		*span = c->span_hint;
		return true;
	}
	for (size_t j = 0; j < c->n_times; j++) {
		int64_t s = now - c->times[j];
		if (s > 0 && s != c->span_hint && rate_over(v, s, adv)) {
			*span = c->span_hint = s;
			return true;
		}
	}
	return false;
}

/* A double: the previous value, zero, or raw. */
static double cv_double(rec_codec *c, double v, double prev)
{
	uint64_t tag = cv_u64(c, C_RTAG, c->enc ? (same_double(v, prev) ? D_PREV : D_RAW) : 0);
	if (tag == D_PREV)
		return prev;
	if (tag != D_RAW)
		fail(c, "double-tags column: tag %llu where a previous or raw value goes", (unsigned long long)tag);
	return cv_raw_double(c, v);
}

/* A rate: the previous value, zero, an advance over a span (the model's own division, so exact), or raw. */
static double cv_rate(rec_codec *c, double v, double prev, int64_t now)
{
	int64_t span = 0, adv = 0;
	uint64_t tag = 0;
	if (c->enc)
		tag = same_double(v, prev)                ? D_PREV
		      : same_double(v, 0.0)               ? D_ZERO
		      : find_span(c, v, now, &span, &adv) ? D_SPAN
							  : D_RAW;
	switch (cv_u64(c, C_RTAG, tag)) {
	case D_PREV: return prev;
	case D_ZERO: return 0.0;
	case D_RAW: return cv_raw_double(c, v);
	case D_SPAN: {
		span = (int64_t)cv_u64(c, C_RSPAN, (uint64_t)span);
		if (span <= 0) {
			fail(c, "rate-spans column: a span of %lld ms", (long long)span);
			return 0;
		}
		int64_t pred = 0;
		if (!rate_over(prev, span, &pred))
			pred = 0;
		return rate_of(cv_i64(c, C_RADV, adv, pred), span);
	}
	default: fail(c, "double-tags column: unknown tag"); return 0;
	}
}

static char *cv_str(rec_codec *c, enum col k, const char *s)
{
	uint64_t n = cv_u64(c, k, s ? strlen(s) + 1 : 0);
	if (c->enc && n > 1)
		put_bytes(&c->col[k], s, (size_t)(n - 1));
	if (c->enc || n == 0 || c->bad)
		return NULL;
	struct col_buf *b = &c->col[k];
	if (n - 1 > b->len - b->pos) {
		fail(c, "%s column: a string longer than the record", col_names[k]);
		return NULL;
	}
	char *r = xstrndup((const char *)b->p + b->pos, (size_t)(n - 1));
	b->pos += (size_t)(n - 1);
	return r;
}

/* A topic name: 0 when it is the one before (*last), else 1 and the name. The decoder's result is valid
 * until the next call; the caller interns it and sets *last to the interned pointer. */
static const char *cv_topic(rec_codec *c, enum col k, const char *topic, const char *last)
{
	bool same = c->enc && last && (last == topic || strcmp(last, topic) == 0);
	if (cv_u64(c, k, same ? 0 : 1) == 0) {
		if (!c->enc && !last)
			fail(c, "%s column: a topic repeated before any", col_names[k]);
		return last ? last : "";
	}
	if (c->enc) {
		cv_str(c, k, topic);
		return topic;
	}
	char *s = cv_str(c, k, NULL);
	size_t n = s ? strlen(s) + 1 : 1;
	c->scratch = xgrow(c->scratch, &c->scratch_cap, n, 1);
	memcpy(c->scratch, s ? s : "", n);
	free(s);
	return c->scratch;
}

/* Counts read back are checked against the bytes left, so a corrupt count cannot ask for a huge
 * allocation: every element takes at least one byte of column k. */
static size_t cv_count(rec_codec *c, enum col k, size_t n)
{
	uint64_t v = cv_u64(c, k, n);
	if (!c->enc && v > c->col[k].len - c->col[k].pos + 1) {
		fail(c, "%s column: a count of %llu, larger than the record", col_names[k], (unsigned long long)v);
		return 0;
	}
	return (size_t)v;
}

/* ---- the snapshot's own fields ---- */

static void code_header(rec_codec *c, const lt_snapshot *cur, lt_snapshot *o, const lt_snapshot *prev)
{
	static const lt_snapshot none;
	const bool enc = c->enc;
	lt_snapshot scratch; /* the encoder's values land here (its strings are NULL), the decoder's in o */
	if (enc)
		o = &scratch;
	if (!prev)
		prev = &none;
	o->seq = (uint64_t)cv_i64(c, C_HDR, enc ? (int64_t)cur->seq : 0, (int64_t)prev->seq + 1);
	o->taken_at_ms = cv_i64(c, C_HDR, enc ? cur->taken_at_ms : 0, prev->taken_at_ms);
	o->duration_ms = cv_i64(c, C_HDR, enc ? cur->duration_ms : 0, prev->duration_ms);
	o->status_window = (size_t)cv_u64(c, C_HDR, enc ? cur->status_window : 0);
	o->brokers_up = (int)cv_i64(c, C_HDR, enc ? cur->brokers_up : 0, 0);
	o->brokers_total = (int)cv_i64(c, C_HDR, enc ? cur->brokers_total : 0, 0);
	o->commit_stream = (lt_cstream_state)cv_u64(c, C_HDR, enc ? (uint64_t)cur->commit_stream : 0);
	o->cluster = cv_str(c, C_HDR, enc ? cur->cluster : NULL);
	o->error = cv_str(c, C_HDR, enc ? cur->error : NULL);
	o->commit_stream_reason = cv_str(c, C_HDR, enc ? cur->commit_stream_reason : NULL);
	size_t nb = cv_count(c, C_HDR, enc ? cur->n_brokers : 0);
	for (size_t i = 0; i < nb && !c->bad; i++) {
		int32_t id = (int32_t)cv_i64(c, C_HDR, enc ? cur->brokers[i].id : 0, 0);
		int port = (int)cv_i64(c, C_HDR, enc ? cur->brokers[i].port : 0, 0);
		char *host = cv_str(c, C_HDR, enc ? cur->brokers[i].host : NULL);
		if (!enc)
			snapshot_add_broker(o, id, host ? host : "", port);
		free(host);
	}
	size_t np = cv_count(c, C_HDR, enc ? cur->n_pos_sources : 0);
	if (!enc && np)
		o->pos_sources = xcalloc(np, sizeof *o->pos_sources);
	for (size_t i = 0; i < np && !c->bad; i++) {
		const lt_pos_source *ps = enc ? &cur->pos_sources[i] : NULL;
		char *loc = cv_str(c, C_HDR, ps ? ps->location : NULL);
		char *st = cv_str(c, C_HDR, ps ? ps->status : NULL);
		bool ok = cv_u64(c, C_HDR, ps ? ps->ok : 0) != 0;
		size_t nr = (size_t)cv_u64(c, C_HDR, ps ? ps->n_reports : 0);
		size_t nu = (size_t)cv_u64(c, C_HDR, ps ? ps->n_used : 0);
		if (!enc) {
			o->pos_sources[i] = (lt_pos_source){
				.location = loc, .status = st, .ok = ok, .n_reports = nr, .n_used = nu
			};
			o->n_pos_sources = i + 1;
		}
	}
}

/* ---- a group's slow fields, whole ---- */

static void code_meta(rec_codec *c, const lt_group *cg, lt_group *o)
{
	const bool enc = c->enc;
	const enum col k = C_GMETA;
	lt_group scratch; /* the encoder's values land here, the decoder's in o */
	lt_group *to = enc ? &scratch : o;
	to->state = (lt_group_state)cv_u64(c, k, enc ? (uint64_t)cg->state : 0);
	to->type = (lt_group_type)cv_u64(c, k, enc ? (uint64_t)cg->type : 0);
	to->members_unreadable = cv_u64(c, k, enc ? cg->members_unreadable : 0) != 0;
	to->coordinator = (int32_t)cv_i64(c, k, enc ? cg->coordinator : 0, 0);
	to->stale_ms = cv_i64(c, k, enc ? cg->stale_ms : 0, 0);
	to->protocol_type = cv_str(c, k, enc ? cg->protocol_type : NULL);
	to->protocol = cv_str(c, k, enc ? cg->protocol : NULL);
	to->error = cv_str(c, k, enc ? cg->error : NULL);
	size_t nm = cv_count(c, k, enc ? cg->n_members : 0);
	for (size_t m = 0; m < nm && !c->bad; m++) {
		const lt_member *cm = enc ? &cg->members[m] : NULL;
		char *id = cv_str(c, k, cm ? cm->member_id : NULL);
		char *client = cv_str(c, k, cm ? cm->client_id : NULL);
		char *host = cv_str(c, k, cm ? cm->host : NULL);
		char *instance = cv_str(c, k, cm ? cm->instance_id : NULL);
		lt_member *om = NULL;
		if (!enc) {
			om = group_add_member(o, id, client, host);
			om->instance_id = instance;
		}
		free(id), free(client), free(host);
		size_t na = cv_count(c, k, cm ? cm->n_assigned : 0);
		const char *last = NULL;
		for (size_t a = 0; a < na && !c->bad; a++) {
			const char *t = cv_topic(c, k, cm ? cm->assigned[a].topic : NULL, last);
			int32_t part = (int32_t)cv_i64(c, k, cm ? cm->assigned[a].partition : 0, 0);
			if (enc)
				last = t;
			else {
				member_add_assignment(om, t, part);
				last = om->assigned[om->n_assigned - 1].topic;
			}
		}
	}
	size_t ne = cv_count(c, k, enc ? cg->n_commit_epochs : 0);
	for (size_t i = 0; i < ne && !c->bad; i++) {
		const lt_commit_epoch *e = enc ? &cg->commit_epochs[i] : NULL;
		char *topic = cv_str(c, k, e ? e->topic : NULL);
		int32_t part = (int32_t)cv_i64(c, k, e ? e->partition : 0, 0);
		int32_t epoch = (int32_t)cv_i64(c, k, e ? e->epoch : 0, 0);
		if (!enc)
			group_add_commit_epoch(o, topic ? topic : "", part, epoch);
		free(topic);
	}
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether code_meta would write the same bytes for a and b (a NULL string is not ""). */
static bool meta_same(const lt_group *a, const lt_group *b)
{
	if (a->state != b->state || a->type != b->type || a->members_unreadable != b->members_unreadable ||
	    a->coordinator != b->coordinator || a->stale_ms != b->stale_ms ||
	    !same_str(a->protocol_type, b->protocol_type) || !same_str(a->protocol, b->protocol) ||
	    !same_str(a->error, b->error) || a->n_members != b->n_members || a->n_commit_epochs != b->n_commit_epochs)
		return false;
	for (size_t m = 0; m < a->n_members; m++) {
		const lt_member *x = &a->members[m], *y = &b->members[m];
		if (!same_str(x->member_id, y->member_id) || !same_str(x->client_id, y->client_id) ||
		    !same_str(x->host, y->host) || !same_str(x->instance_id, y->instance_id) ||
		    x->n_assigned != y->n_assigned)
			return false;
		for (size_t k = 0; k < x->n_assigned; k++)
			if (x->assigned[k].partition != y->assigned[k].partition ||
			    !same_str(x->assigned[k].topic, y->assigned[k].topic))
				return false;
	}
	for (size_t i = 0; i < a->n_commit_epochs; i++) {
		const lt_commit_epoch *x = &a->commit_epochs[i], *y = &b->commit_epochs[i];
		if (x->partition != y->partition || x->epoch != y->epoch || !same_str(x->topic, y->topic))
			return false;
	}
	return true;
}

static char *dup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

/* The decoder's copy of the previous group's slow fields into o. */
static void meta_copy(lt_group *o, const lt_group *pg)
{
	o->state = pg->state;
	o->type = pg->type;
	o->members_unreadable = pg->members_unreadable;
	o->coordinator = pg->coordinator;
	o->stale_ms = pg->stale_ms;
	o->protocol_type = dup_or_null(pg->protocol_type);
	o->protocol = dup_or_null(pg->protocol);
	o->error = dup_or_null(pg->error);
	for (size_t m = 0; m < pg->n_members; m++) {
		const lt_member *pm = &pg->members[m];
		lt_member *om = group_add_member(o, pm->member_id, pm->client_id, pm->host);
		om->instance_id = dup_or_null(pm->instance_id);
		const char *from = NULL, *to = NULL; /* a run of one topic looked up once */
		for (size_t a = 0; a < pm->n_assigned; a++) {
			const char *t = pm->assigned[a].topic;
			member_add_assignment(om, t == from ? to : t, pm->assigned[a].partition);
			from = t;
			to = om->assigned[om->n_assigned - 1].topic;
		}
	}
	for (size_t i = 0; i < pg->n_commit_epochs; i++)
		group_add_commit_epoch(o, pg->commit_epochs[i].topic, pg->commit_epochs[i].partition,
				       pg->commit_epochs[i].epoch);
}

/* The same partitions (topic and number), in the same order. */
static bool keys_same(const lt_group *a, const lt_group *b)
{
	if (a->n_partitions != b->n_partitions)
		return false;
	for (size_t i = 0; i < a->n_partitions; i++) {
		const lt_partition *x = &a->partitions[i], *y = &b->partitions[i];
		if (x->partition != y->partition || (x->topic != y->topic && strcmp(x->topic, y->topic) != 0))
			return false;
	}
	return true;
}

/* The group's partition keys: the previous group's (same), or written. The decoder adds the rows. */
static void code_keys(rec_codec *c, const lt_group *cg, lt_group *o, const lt_group *pg, bool same)
{
	if (same) {
		/* a run of one topic is looked up in this snapshot's table once */
		const char *from = NULL, *to = NULL;
		for (size_t i = 0; !c->enc && i < pg->n_partitions; i++) {
			const lt_partition *p = &pg->partitions[i];
			lt_partition *q = group_add_partition(o, p->topic == from ? to : p->topic, p->partition);
			from = p->topic;
			to = q->topic;
		}
		return;
	}
	size_t n = cv_count(c, C_KEYS, c->enc ? cg->n_partitions : 0);
	const char *last = NULL;
	for (size_t i = 0; i < n && !c->bad; i++) {
		const lt_partition *p = c->enc ? &cg->partitions[i] : NULL;
		const char *t = cv_topic(c, C_KEYS, p ? p->topic : NULL, last);
		int32_t part = (int32_t)cv_i64(c, C_KEYS, p ? p->partition : 0, 0);
		last = c->enc ? t : group_add_partition(o, t, part)->topic;
	}
}

/* ---- a partition's values ---- */

#define BIT_EXT (1ull << 32) /* the row has an lt_partition_ext */

static uint64_t pbits_pack(const lt_group *g, const lt_partition *p)
{
	uint64_t bits = (uint64_t)p->has_lag | (uint64_t)p->has_time_lag << 1 | (uint64_t)p->has_rates << 2 |
			(uint64_t)p->has_eta << 3 | (uint64_t)p->has_last_commit << 4 | (uint64_t)p->has_unmoved << 5 |
			(uint64_t)p->repeating << 6 | (uint64_t)p->has_position << 7;
	return bits | (uint64_t)p->status << 8 | (uint64_t)p->flags << 16 | (partition_ext(g, p) ? BIT_EXT : 0);
}

static void pbits_unpack(lt_partition *p, uint64_t v)
{
	p->has_lag = v & 1;
	p->has_time_lag = v >> 1 & 1;
	p->has_rates = v >> 2 & 1;
	p->has_eta = v >> 3 & 1;
	p->has_last_commit = v >> 4 & 1;
	p->has_unmoved = v >> 5 & 1;
	p->repeating = v >> 6 & 1;
	p->has_position = v >> 7 & 1;
	p->status = (lt_status)(v >> 8 & 0xff);
	p->flags = (unsigned)(v >> 16 & 0xffff);
}

static const lt_partition no_partition = {
	.log_start = LT_OFFSET_NONE, .committed = LT_OFFSET_NONE, .log_end = LT_OFFSET_NONE, .member = -1
};

static void code_ext(rec_codec *c, const lt_partition_ext *cx, lt_group *og, lt_partition *o,
		     const lt_partition_ext *px)
{
	static const lt_partition_ext none;
	if (!px)
		px = &none;
	const bool enc = c->enc;
	char *md = cv_str(c, C_EXT, enc ? cx->commit_metadata : NULL);
	int64_t pos = cv_i64(c, C_EXT, enc ? cx->position : 0, px->position);
	int64_t age = cv_i64(c, C_EXT, enc ? cx->position_age_ms : 0, px->position_age_ms);
	int64_t stale = cv_i64(c, C_EXT, enc ? cx->stale_ms : 0, px->stale_ms);
	int32_t src = (int32_t)cv_i64(c, C_EXT, enc ? cx->position_source : 0, px->position_source);
	if (!enc)
		*partition_ext_add(og, o) = (lt_partition_ext){ .commit_metadata = md,
								.position = pos,
								.position_age_ms = age,
								.stale_ms = stale,
								.position_source = src };
}

/* Row cp of group cg (encoder) or o of og (decoder), against row pp of pg (the previous record's same
 * row, NULL when there is none). */
static void code_partition(rec_codec *c, const lt_group *cg, const lt_partition *cp, lt_group *og, lt_partition *o,
			   const lt_group *pg, const lt_partition *pp, int64_t now)
{
	const bool enc = c->enc;
	lt_partition scratch;
	if (enc)
		o = &scratch;
	if (!pp) {
		pp = &no_partition;
		pg = NULL;
	}
	const uint64_t pbits = pbits_pack(pg, pp);
	const uint64_t bits = cv_u64(c, C_PBITS, enc ? pbits_pack(cg, cp) ^ pbits : 0) ^ pbits;
	pbits_unpack(o, bits);
	o->member = (int)cv_i64(c, C_MEMBER, enc ? cp->member : 0, pp->member);
	o->log_start = cv_i64(c, C_LSTART, enc ? cp->log_start : 0, pp->log_start);
	o->log_end = cv_i64(c, C_LEND, enc ? cp->log_end : 0, pp->log_end);
	/* a consumer keeping up moves its committed offset as far as the log end moved */
	int64_t commit_pred = pp->committed;
	if (pp->committed >= 0 && pp->log_end >= 0 && o->log_end >= 0)
		commit_pred = wadd(pp->committed, wsub(o->log_end, pp->log_end));
	o->committed = cv_i64(c, C_COMMIT, enc ? cp->committed : 0, commit_pred);
	int64_t lag_pred = o->committed >= 0 && o->log_end >= 0 ? wsub(o->log_end, o->committed) : 0;
	o->lag = cv_i64(c, C_LAG, enc ? cp->lag : 0, lag_pred > 0 ? lag_pred : 0);
	o->time_lag_ms = cv_i64(c, C_TLAG, enc ? cp->time_lag_ms : 0, pp->time_lag_ms);
	o->consume_rate = cv_rate(c, enc ? cp->consume_rate : 0, pp->consume_rate, now);
	o->produce_rate = cv_rate(c, enc ? cp->produce_rate : 0, pp->produce_rate, now);
	int64_t eta = 0;
	if (o->has_eta && !eta_compute(o->lag, o->consume_rate, o->produce_rate, &eta))
		eta = 0;
	o->eta_ms = cv_i64(c, C_ETA, enc ? cp->eta_ms : 0, eta);
	o->last_commit_ms = cv_i64(c, C_COMMITS, enc ? cp->last_commit_ms : 0, pp->last_commit_ms);
	o->last_commit_age_ms = cv_i64(c, C_COMMITS, enc ? cp->last_commit_age_ms : 0, pp->last_commit_age_ms);
	o->unmoved_ms = cv_i64(c, C_COMMITS, enc ? cp->unmoved_ms : 0, pp->unmoved_ms);
	o->commits_per_min = cv_double(c, enc ? cp->commits_per_min : 0, pp->commits_per_min);
	if (bits & BIT_EXT)
		code_ext(c, enc ? partition_ext(cg, cp) : NULL, og, o, partition_ext(pg, pp));
}

/* ---- a group's aggregates ---- */

static uint64_t gbits_pack(const lt_group *g)
{
	return (uint64_t)g->has_max_time_lag | (uint64_t)g->time_lag_high << 1 | (uint64_t)g->status_complete << 2 |
	       (uint64_t)g->has_last_commit << 3 | (uint64_t)g->has_expiry << 4 | (uint64_t)g->expiry_warn << 5 |
	       (uint64_t)g->status << 8;
}

static void code_trend(rec_codec *c, const lt_group *cg, lt_group *o, const lt_group *pg)
{
	const bool enc = c->enc;
	size_t n = (size_t)cv_u64(c, C_GVAL, enc ? cg->n_trend : 0);
	if (n > sizeof o->trend / sizeof o->trend[0]) {
		fail(c, "group-values column: a trend of %zu values", n);
		return;
	}
	o->n_trend = n;
	/* the previous trend moved along by one, the new total at its end */
	size_t from = n == pg->n_trend ? 1 : 0;
	bool can = n > 0 && (n == pg->n_trend + 1 || n == pg->n_trend);
	bool moved = enc && can && memcmp(cg->trend, pg->trend + from, (n - 1) * sizeof cg->trend[0]) == 0;
	if (cv_u64(c, C_GVAL, moved)) {
		if (!can) {
			fail(c, "group-values column: a trend moved along from none");
			return;
		}
		memcpy(o->trend, pg->trend + from, (n - 1) * sizeof o->trend[0]);
		o->trend[n - 1] = cv_i64(c, C_GVAL, enc ? cg->trend[n - 1] : 0, o->total_lag);
		return;
	}
	for (size_t i = 0; i < n; i++) /* whole: each against the one before */
		o->trend[i] = cv_i64(c, C_GVAL, enc ? cg->trend[i] : 0, i > 0 ? o->trend[i - 1] : 0);
}

static void code_group_values(rec_codec *c, const lt_group *cg, lt_group *o, const lt_group *pg)
{
	static const lt_group none;
	const bool enc = c->enc;
	lt_group scratch;
	if (enc) {
		scratch = (lt_group){ .n_partitions = cg->n_partitions, .partitions = cg->partitions };
		o = &scratch;
	}
	if (!pg)
		pg = &none;
	uint64_t bits = (uint64_t)cv_i64(c, C_GVAL, enc ? (int64_t)gbits_pack(cg) : 0, (int64_t)gbits_pack(pg));
	o->has_max_time_lag = bits & 1;
	o->time_lag_high = bits >> 1 & 1;
	o->status_complete = bits >> 2 & 1;
	o->has_last_commit = bits >> 3 & 1;
	o->has_expiry = bits >> 4 & 1;
	o->expiry_warn = bits >> 5 & 1;
	o->status = (lt_status)(bits >> 8 & 0xff);
	/* predicted: the sums and maxima the model takes over the partitions */
	const lt_group_totals t = group_totals(o->partitions, o->n_partitions);
	o->total_lag = cv_i64(c, C_GVAL, enc ? cg->total_lag : 0, t.total_lag);
	o->max_lag = cv_i64(c, C_GVAL, enc ? cg->max_lag : 0, t.max_lag);
	o->max_time_lag_ms = cv_i64(c, C_GVAL, enc ? cg->max_time_lag_ms : 0, t.max_time_lag_ms);
	o->consume_rate = cv_double(c, enc ? cg->consume_rate : 0, t.consume_rate);
	o->n_topics = (size_t)cv_i64(c, C_GVAL, enc ? (int64_t)cg->n_topics : 0, (int64_t)pg->n_topics);
	code_trend(c, cg, o, pg);
	o->last_commit_ms = cv_i64(c, C_GVAL, enc ? cg->last_commit_ms : 0, pg->last_commit_ms);
	o->last_commit_age_ms = cv_i64(c, C_GVAL, enc ? cg->last_commit_age_ms : 0, pg->last_commit_age_ms);
	o->commits_per_min = cv_double(c, enc ? cg->commits_per_min : 0, pg->commits_per_min);
	o->expires_at_ms = cv_i64(c, C_GVAL, enc ? cg->expires_at_ms : 0, pg->expires_at_ms);
	o->expires_in_ms = cv_i64(c, C_GVAL, enc ? cg->expires_in_ms : 0, pg->expires_in_ms);
	o->n_expired = (size_t)cv_i64(c, C_GVAL, enc ? (int64_t)cg->n_expired : 0, (int64_t)pg->n_expired);
	o->expired_ms = cv_i64(c, C_GVAL, enc ? cg->expired_ms : 0, pg->expired_ms);
}

/* ---- the record ---- */

/* The previous record's group of that name, looked for from *at on (both lists are sorted by name). */
static const lt_group *find_prev(const lt_snapshot *prev, size_t *at, const char *name)
{
	for (size_t i = *at; prev && i < prev->n_groups; i++) {
		int r = strcmp(prev->groups[i].group, name);
		if (r == 0) {
			*at = i + 1;
			return &prev->groups[i];
		}
		if (r > 0)
			break;
	}
	return NULL;
}

enum { SAME_KEYS = 1, SAME_META = 2 };

static void code_group(rec_codec *c, const lt_group *cg, lt_group *og, const lt_group *pg, int64_t now)
{
	const bool enc = c->enc;
	uint64_t flags = enc && pg ? (keys_same(cg, pg) ? SAME_KEYS : 0) | (meta_same(cg, pg) ? SAME_META : 0) : 0;
	flags = cv_u64(c, C_GROUP, flags);
	if (flags > (SAME_KEYS | SAME_META) || (flags && !pg)) {
		fail(c, "groups column: group '%s' %s", og->group,
		     flags > (SAME_KEYS | SAME_META) ? "has unknown flags"
						     : "continues a group the record before lacks");
		return;
	}
	if (!(flags & SAME_META))
		code_meta(c, cg, og);
	else if (!enc)
		meta_copy(og, pg);
	const bool same = flags & SAME_KEYS;
	code_keys(c, cg, og, pg, same);
	const lt_group *rows = enc ? cg : og;
	for (size_t k = 0; k < rows->n_partitions && !c->bad; k++)
		code_partition(c, cg, enc ? &cg->partitions[k] : NULL, og, enc ? NULL : &og->partitions[k], pg,
			       same ? &pg->partitions[k] : NULL, now);
	if (!c->bad)
		code_group_values(c, cg, og, pg);
}

static void code_record(rec_codec *c, const lt_snapshot *cur, lt_snapshot *out)
{
	const bool enc = c->enc;
	code_header(c, cur, out, c->prev);
	int64_t now = enc ? cur->taken_at_ms : out->taken_at_ms;
	size_t n = cv_count(c, C_GROUP, enc ? cur->n_groups : 0);
	size_t at = 0;
	for (size_t i = 0; i < n && !c->bad; i++) {
		const lt_group *cg = enc ? &cur->groups[i] : NULL;
		char *name = cv_str(c, C_GROUP, enc ? cg->group : NULL);
		if (!enc && !name) {
			fail(c, "groups column: a group without a name");
			return;
		}
		const lt_group *pg = find_prev(c->prev, &at, enc ? cg->group : name);
		lt_group *og = enc ? NULL : snapshot_add_group(out, name);
		free(name);
		code_group(c, cg, og, pg, now);
	}
}

/* What the readers index with must be in range: a decoded record is as safe to draw as a live one. */
static void validate(rec_codec *c, const lt_snapshot *s)
{
	if ((unsigned)s->commit_stream > LT_CSTREAM_FAILED)
		fail(c, "header: unknown commit-stream state %u", (unsigned)s->commit_stream);
	for (size_t i = 0; i < s->n_groups && !c->bad; i++) {
		const lt_group *g = &s->groups[i];
		if ((unsigned)g->state > LT_GROUP_RECONCILING || (unsigned)g->type > LT_GTYPE_CONSUMER ||
		    (unsigned)g->status > LT_STATUS_ERR) {
			fail(c, "group '%s': state, type or status out of range", g->group);
			break;
		}
		for (size_t k = 0; k < g->n_partitions; k++) {
			const lt_partition *p = &g->partitions[k];
			if (p->member < -1 || (p->member >= 0 && (size_t)p->member >= g->n_members) ||
			    (unsigned)p->status > LT_STATUS_ERR) {
				fail(c, "group '%s' partition %s-%d: member or status out of range", g->group, p->topic,
				     (int)p->partition);
				break;
			}
		}
	}
}

/* Payload: the number of columns, each column's length, then the columns. */
void rec_encode(rec_codec *c, const lt_snapshot *s, bool key, unsigned char **buf, size_t *len, size_t *cap)
{
	c->enc = true;
	c->bad = false;
	if (key)
		rec_codec_reset(c);
	for (int i = 0; i < N_COL; i++)
		c->col[i].len = 0;
	code_record(c, s, NULL);
	struct col_buf out = { .p = *buf, .len = *len, .cap = *cap };
	put_u64(&out, N_COL);
	for (int i = 0; i < N_COL; i++)
		put_u64(&out, c->col[i].len);
	for (int i = 0; i < N_COL; i++)
		put_bytes(&out, c->col[i].p, c->col[i].len);
	*buf = out.p;
	*len = out.len;
	*cap = out.cap;
	rec_codec_reset(c);
	c->prev = snapshot_ref((lt_snapshot *)s);
	if (c->n_times == 0 || c->times[0] != s->taken_at_ms) {
		memmove(c->times + 1, c->times, (N_TIMES - 1) * sizeof c->times[0]);
		c->times[0] = s->taken_at_ms;
		c->n_times += c->n_times < N_TIMES;
	}
}

/* Points the decoder's columns into buf (never written); -1 with err when the table does not fit. */
static int split_columns(rec_codec *c, const unsigned char *buf, size_t len, char *err, size_t errlen)
{
	struct col_buf in = { .p = (unsigned char *)buf, .len = len };
	uint64_t ncol = 0, lens[N_COL];
	if (!get_u64(&in, &ncol) || ncol != N_COL)
		return err_set(err, errlen, "record has %llu columns, not %d", (unsigned long long)ncol, N_COL);
	for (int i = 0; i < N_COL; i++)
		if (!get_u64(&in, &lens[i]))
			return err_set(err, errlen, "record's column table is cut short");
	size_t off = in.pos;
	for (int i = 0; i < N_COL; i++) {
		if (lens[i] > len - off)
			return err_set(err, errlen, "record's %s column runs past its end", col_names[i]);
		c->col[i] = (struct col_buf){ .p = (unsigned char *)buf + off, .len = (size_t)lens[i] };
		off += (size_t)lens[i];
	}
	return off == len ? 0 : err_set(err, errlen, "record has %zu bytes after its columns", len - off);
}

lt_snapshot *rec_decode(rec_codec *c, const unsigned char *buf, size_t len, bool key, char *err, size_t errlen)
{
	c->enc = false;
	c->bad = false;
	if (key)
		rec_codec_reset(c);
	if (!c->prev && !key)
		fail(c, "a delta record without the record before it");
	else if (split_columns(c, buf, len, c->why, sizeof c->why) != 0)
		c->bad = true;
	lt_snapshot *out = snapshot_new();
	if (!c->bad)
		code_record(c, NULL, out);
	for (int i = 0; i < N_COL && !c->bad; i++)
		if (c->col[i].pos != c->col[i].len)
			fail(c, "%s column has %zu bytes left over", col_names[i], c->col[i].len - c->col[i].pos);
	if (!c->bad)
		validate(c, out);
	memset(c->col, 0, sizeof c->col); /* they were buf's */
	rec_codec_reset(c);
	if (c->bad) {
		err_set(err, errlen, "%s", c->why);
		snapshot_unref(out);
		return NULL;
	}
	c->prev = snapshot_ref(out);
	return out;
}
