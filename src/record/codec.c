/* codec.c — a snapshot as its change from the previous one (see codec.h and doc/RECORDING.md).
 *
 * A record is a set of columns (one byte stream per kind of value: all partitions' committed
 * offsets together, all their rates' tags together, ...), so the compressor sees long runs of alike
 * bytes. Numbers are LEB128 varints; signed ones zigzag-coded differences from a prediction that
 * the encoder and the decoder both make from the same state. The value passes through one function
 * per kind (cv_*) in both directions, so the two sides cannot drift apart.
 *
 * Both format versions go through the same code: version 2 (c->version) range-codes the committed
 * offsets and log ends in their partition's context (cv_res, rangecoder.h), predicts status and has_eta
 * with the model's rules (code_flags_v2) and a few values better; the places say "version 2".
 */
#include "config.h"

#include "record/codec.h"

#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"
#include "record/rangecoder.h"
#include "util/xalloc.h"

enum col {
	C_HDR,    /* snapshot-wide fields */
	C_GRP,    /* group list: which previous group each one continues */
	C_GSAME,  /* per group: 1 when its slow fields (meta) equal the previous group's */
	C_GMETA,  /* the slow fields of groups that changed: state, members, partition keys, ... */
	C_GVAL,   /* per group: aggregates (total lag, trend, commit-stream figures) */
	C_PFLAGS, /* per partition: flags, status, has_* bits, member, position source */
	C_LSTART, /* log start − previous */
	C_COMMIT, /* committed − (previous + last advance) */
	C_LEND,   /* log end − (previous + last advance) */
	C_LAG,    /* lag − (log end − committed) */
	C_TLTAG,  /* time lag: which prediction held */
	C_TL,     /* time lag when none did */
	C_RTAG,   /* rates: which prediction held */
	C_DBL,    /* doubles no prediction gave, 8 bytes each */
	C_ETA,    /* ETA − lag / (consume − produce) */
	C_MISC,   /* stale age, commit-stream and position figures */
	C_STR,    /* commit metadata */
	C_PMEM,   /* per partition: member and position source − previous (apart from the flags, which move) */
	C_PDER,   /* version 2, per partition: status and has_eta XOR the model's rule over the decoded values */
	N_COL
};
#define N_COL_V1 C_PDER /* version 1 has the columns before C_PDER */

struct col_buf {
	unsigned char *p;
	size_t len, cap; /* encoder */
	size_t pos;      /* decoder */
};

/* A partition's recent samples: a circular buffer, sample j (0 = the oldest) at RI(r, j). A ring's
 * samples are those of the last r->n records (a partition missing from a record loses its ring), so their
 * times are the codec's, one table for all rings (ring_time): a quarter less memory to stream through per
 * record. */
struct ring {
	uint8_t n;
	uint8_t head;           /* where sample 0 is */
	uint8_t hint_c, hint_e; /* the sample the last rate was measured from (tried first) */
	uint8_t since_key;      /* samples pushed since the last keyframe (at most LT_REC_HISTORY): only they
				   are known to a reader that started at that keyframe */
	int64_t c[LT_REC_HISTORY], e[LT_REC_HISTORY], lag[LT_REC_HISTORY];
};

/* Version 2 codes the committed offsets' and the log ends' residuals with the range coder
 * (rangecoder.h), each in the context of its partition's scale (scale_of): 0 = no samples to judge by,
 * 1 .. RC_SCALES = the scale in quarter octaves, RC_SEEN = a log end an earlier group of this record already
 * gave for the same topic partition, RC_CAUGHT_UP + scale = a committed offset whose lag was 0. The
 * probabilities carry on from record to record and start afresh at every keyframe (a reader starts
 * decoding at one). */
enum { RC_COMMIT, RC_LEND, N_RC };
#define RC_SCALES    252 /* scale_ctx's largest for any 64-bit value (an advance, below 2^63, gives at most 248) */
#define RC_SEEN      (RC_SCALES + 1)
#define RC_CAUGHT_UP (RC_SCALES + 2) /* + the scale: the committed offset's context when the lag was 0 */
#define RC_CTX       (RC_CAUGHT_UP + RC_SCALES + 1)
#define AHEAD_MIN    2048 /* decode_ahead: fewer partitions, and the thread's wake-up costs more than it gives */

/* Version 2 predicts a log end from an earlier group of the same record on the same topic (the brokers'
 * log end is one per partition): per topic, the first group's run of its partitions. Open addressing by
 * the topic's name, emptied by bumping gen. */
struct seen_topic {
	const char *topic;
	uint32_t gen;
	size_t group, first, n; /* layout->groups[group].partitions[first .. first + n) */
};
struct seen_table {
	struct seen_topic *slot;
	size_t cap; /* a power of two, at least twice the partitions */
	uint32_t gen;
};
struct rc_ahead;
static void decode_ahead_stop(struct rec_codec *c);

#define LAG_UNKNOWN INT64_MIN
#define RI(r, j)    (((r)->head + (j)) & (LT_REC_HISTORY - 1))
_Static_assert((LT_REC_HISTORY & (LT_REC_HISTORY - 1)) == 0, "the ring's size is a power of two");

struct rec_codec {
	unsigned version; /* of the bytes: the writer's is always LT_REC_CODEC_VERSION */
	bool enc;
	bool bad;
	bool light;  /* decoding a warm-up record: only what the next records' predictions need */
	bool hidden; /* decoding a record never shown (light or not): no status, has_eta nor ETA prediction */
	char why[160];
	struct col_buf col[N_COL];
	lt_snapshot *prev;  /* what the next record is coded against; NULL: nothing */
	struct ring *rings; /* one per partition of prev, in order (groups, then partitions) */
	size_t n_rings;
	uint32_t tick;                 /* records coded since the reset */
	int64_t times[LT_REC_HISTORY]; /* the time of record `tick` at tick % LT_REC_HISTORY */
	/* scratch */
	struct col_buf meta_a, meta_b;
	/* encoder: the slow fields' bytes of every group of prev (pmeta) and of the record being coded
	 * (nmeta), so each group is serialised once per record, not twice */
	struct col_buf *pmeta, *nmeta;
	size_t n_pmeta, cap_pmeta, cap_nmeta;
	bool *keys_same; /* encoder, per group of the record: its partition keys are its previous group's */
	size_t cap_keys;
	/* version 2 */
	rc_enc rce[N_RC];
	rc_dec rcd[N_RC];
	rc_model *rcm; /* RC_CTX per stream */
	struct seen_table seen;
	/* decoder, version 2: the residual streams of a record decoded in place, read ahead on a second
	 * thread (decode_ahead, below) */
	struct rc_ahead *ahead; /* NULL until the first such record */
	bool ahead_failed;      /* the thread could not be started: decode serially */
	size_t ahead_min;       /* the fewest partitions a record needs for it */
	const int64_t *pre;     /* this partition's residuals (N_RC) when decoded ahead, else NULL */
	/* per partition of prev, noted as it was decoded (note_next) for the next record in place (the same
	 * layout): the contexts of its N_RC values and the log end an earlier group gives it; n_next 0: none */
	uint16_t *next_ctx;
	const int64_t **next_seen;
	size_t n_next, cap_next;
};

rec_codec *rec_codec_new(void)
{
	rec_codec *c = xcalloc(1, sizeof(rec_codec));
	c->version = LT_REC_CODEC_VERSION;
	c->ahead_min = AHEAD_MIN;
	c->rcm = xmalloc(N_RC * RC_CTX * sizeof *c->rcm);
	rc_model_init(c->rcm, N_RC * RC_CTX);
	return c;
}

void rec_codec_set_version(rec_codec *c, unsigned version)
{
	c->version = version;
}

void rec_codec_reset(rec_codec *c)
{
	if (c->prev)
		snapshot_unref(c->prev);
	c->prev = NULL;
	free(c->rings);
	c->rings = NULL;
	c->n_rings = 0;
	c->n_next = 0;
	c->tick = 0;
	c->n_pmeta = 0;
	rc_model_init(c->rcm, N_RC * RC_CTX);
}

void rec_codec_free(rec_codec *c)
{
	if (!c)
		return;
	rec_codec_reset(c);
	for (int i = 0; i < N_COL; i++)
		free(c->col[i].p);
	free(c->meta_a.p);
	free(c->meta_b.p);
	for (size_t i = 0; i < c->cap_pmeta; i++)
		free(c->pmeta[i].p);
	for (size_t i = 0; i < c->cap_nmeta; i++)
		free(c->nmeta[i].p);
	free(c->pmeta);
	free(c->nmeta);
	free(c->keys_same);
	for (int i = 0; i < N_RC; i++)
		rc_enc_free(&c->rce[i]);
	free(c->rcm);
	free(c->seen.slot);
	free(c->next_ctx);
	free(c->next_seen);
	decode_ahead_stop(c);
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
		return; /* b->p may still be NULL */
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

static void reserve(struct col_buf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + n)
		cap *= 2;
	b->p = xrealloc(b->p, cap);
	b->cap = cap;
}

/* LEB128, written in place (the encoder's most frequent call: no copy through a scratch array). */
static inline __attribute__((always_inline)) void put_u64(struct col_buf *b, uint64_t v)
{
	if (b->cap - b->len < 10)
		reserve(b, 10);
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
	if (b->pos < b->len && b->p[b->pos] < 0x80) { /* most values are one byte */
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

static const char *const col_names[N_COL] = {
	"header",    "groups",  "group-same", "group-meta",       "group-values",      "partition-flags", "log-start",
	"committed", "log-end", "lag",        "time-lag-tag",     "time-lag",          "rate-tag",        "doubles",
	"eta",       "misc",    "strings",    "partition-member", "partition-derived",
};

/* ---- one value, both directions ---- */

static inline __attribute__((always_inline)) uint64_t cv_u64(rec_codec *c, enum col k, uint64_t v)
{
	if (c->enc) {
		put_u64(&c->col[k], v);
		return v;
	}
	uint64_t r = 0;
	if (!get_u64(&c->col[k], &r))
		fail(c, "%s column ends early", col_names[k]);
	return r;
}

/* v − pred, zigzag-coded; wraps instead of overflowing. Inlined: about a dozen per partition, each way. */
static inline __attribute__((always_inline)) int64_t cv_i64(rec_codec *c, enum col k, int64_t v, int64_t pred)
{
	if (c->enc) {
		uint64_t d = (uint64_t)v - (uint64_t)pred;
		put_u64(&c->col[k], (d << 1) ^ (uint64_t)((int64_t)d >> 63));
		return v;
	}
	uint64_t z = cv_u64(c, k, 0);
	uint64_t d = (z >> 1) ^ (0 - (z & 1));
	return (int64_t)((uint64_t)pred + d);
}

static double cv_raw_double(rec_codec *c, double v)
{
	uint64_t bits;
	if (c->enc) {
		memcpy(&bits, &v, 8);
		unsigned char b[8];
		for (int i = 0; i < 8; i++)
			b[i] = (unsigned char)(bits >> (8 * i));
		put_bytes(&c->col[C_DBL], b, 8);
		return v;
	}
	struct col_buf *b = &c->col[C_DBL];
	if (b->len - b->pos < 8) {
		fail(c, "doubles column ends early");
		return 0;
	}
	bits = 0;
	for (int i = 0; i < 8; i++)
		bits |= (uint64_t)b->p[b->pos + i] << (8 * i);
	b->pos += 8;
	memcpy(&v, &bits, 8);
	return v;
}

static bool same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof a) == 0;
}

/* A double that is usually the previous value: tag 0 = previous, 1 = raw. */
static double cv_double_prev(rec_codec *c, double v, double prev)
{
	uint64_t tag = cv_u64(c, C_RTAG, c->enc ? (same_double(v, prev) ? 0 : 1) : 0);
	if (tag == 0)
		return prev;
	if (tag != 1)
		fail(c, "unknown double tag %llu", (unsigned long long)tag);
	return cv_raw_double(c, v);
}

static char *cv_str(rec_codec *c, enum col k, const char *s)
{
	if (c->enc) {
		size_t n = s ? strlen(s) + 1 : 0;
		put_u64(&c->col[k], n);
		if (n > 1)
			put_bytes(&c->col[k], s, n - 1);
		return NULL;
	}
	uint64_t n = cv_u64(c, k, 0);
	if (n == 0 || c->bad)
		return NULL;
	struct col_buf *b = &c->col[k];
	if (n - 1 > b->len - b->pos) {
		fail(c, "%s column: string longer than the record", col_names[k]);
		return NULL;
	}
	char *r = xstrndup((const char *)b->p + b->pos, (size_t)(n - 1));
	b->pos += (size_t)(n - 1);
	return r;
}

/* Counts read back are checked against the bytes left, so a corrupt count cannot ask for a huge
 * allocation: every element takes at least one byte of column k. */
static size_t cv_count(rec_codec *c, enum col k, size_t n)
{
	uint64_t v = cv_u64(c, k, n);
	if (!c->enc && v > c->col[k].len - c->col[k].pos + 1) {
		fail(c, "%s column: count %llu larger than the record", col_names[k], (unsigned long long)v);
		return 0;
	}
	return (size_t)v;
}

/* ---- rings ---- */

/* The time of sample j of r: r's newest sample is the previous record's (tick - 1). */
static inline int64_t ring_time(const rec_codec *c, const struct ring *r, size_t j)
{
	return c->times[(c->tick - r->n + j) & (LT_REC_HISTORY - 1)];
}

static void ring_push(struct ring *r, bool key, int64_t cm, int64_t e, int64_t lag)
{
	r->since_key = key ? 1 : r->since_key < LT_REC_HISTORY ? r->since_key + 1 : LT_REC_HISTORY;
	/* (a full ring drops its oldest sample: the rate hints keep their index, so they point at the sample
	 * after the one the last rate was measured from, as the model's window slides by one sample) */
	if (r->n == LT_REC_HISTORY) {
		r->head = (uint8_t)RI(r, 1);
		r->n--;
	}
	size_t at = RI(r, r->n);
	r->c[at] = cm;
	r->e[at] = e;
	r->lag[at] = lag;
	r->n++;
}

/* Advance per second from sample j to now, computed as the model computes it (rates.c). */
static double rate_from(int64_t t0, int64_t v0, int64_t t1, int64_t v1)
{
	double dv = (double)v1 - (double)v0;
	double dt = (double)(t1 - t0) / 1000.0;
	return dv / dt;
}

/* Whether the advance since sample j over the time since it is v (the encoder's search for a rate's tag). */
static inline bool rate_is(const rec_codec *c, const struct ring *r, const int64_t *vals, size_t j, int64_t now,
			   int64_t cur, double v)
{
	size_t x = RI(r, j);
	int64_t t = ring_time(c, r, j);
	return vals[x] >= 0 && t < now && same_double(rate_from(t, vals[x], now, cur), v);
}

/* Rate: tag 0 = previous value, 1 = raw, 2 = zero, 3 + j = the advance since sample j of the ring.
 * The encoder tries the sample that worked last time first. */
static double cv_rate(rec_codec *c, double v, double prev, const struct ring *r, uint8_t *hint, int64_t now,
		      int64_t cur, bool log_end)
{
	const int64_t *vals = r ? (log_end ? r->e : r->c) : NULL;
	uint64_t tag = 0;
	if (c->enc) {
		if (same_double(v, prev))
			tag = 0;
		else if (same_double(v, 0.0))
			tag = 2;
		else {
			tag = 1;
			if (r && cur >= 0) {
				/* the hint first (it nearly always holds), then the others from the oldest */
				size_t h = *hint;
				if (h < r->n && rate_is(c, r, vals, h, now, cur, v))
					tag = 3 + h;
				for (size_t j = 0; tag == 1 && j < r->n; j++)
					if (j != h && rate_is(c, r, vals, j, now, cur, v)) {
						tag = 3 + j;
						*hint = (uint8_t)j;
					}
			}
		}
	}
	tag = cv_u64(c, C_RTAG, tag);
	switch (tag) {
	case 0: return prev;
	case 1: return cv_raw_double(c, v);
	case 2: return 0.0;
	default: {
		size_t j = (size_t)(tag - 3);
		if (j >= LT_REC_HISTORY) {
			fail(c, "rate tag %llu out of range", (unsigned long long)tag);
			return 0;
		}
		/* Before the history is warm (decoding from the keyframe before the one wanted) the sample
		 * may be missing: any value will do, it is never shown. */
		if (!r || j >= r->n)
			return 0;
		/* a warm-up record's rates are never shown nor predicted from (the keyframe after them codes its
		 * rates against nothing, and a warm-up record predicts no ETA): no division */
		if (c->light)
			return 0;
		*hint = (uint8_t)j;
		return rate_from(ring_time(c, r, j), vals[RI(r, j)], now, cur);
	}
	}
}

/* ETA as the model computes it (eta_compute), 0 when it gives none. */
static int64_t eta_predict(int64_t lag, double consume, double produce)
{
	int64_t ms;
	eta_compute(lag, consume, produce, &ms);
	return ms;
}

/* Topics are interned per snapshot: partitions of one snapshot and topic share a pointer, so the
 * result of comparing two topic pointers is remembered and the next pair of the same pointers (the
 * next partitions of both lists, nearly always) costs no strcmp. */
struct topic_cmp {
	const char *a, *b;
	int r;
};

static int cmp_key_cached(struct topic_cmp *tc, const lt_partition *a, const lt_partition *b)
{
	int r;
	if (a->topic == b->topic)
		r = 0;
	else if (a->topic == tc->a && b->topic == tc->b)
		r = tc->r;
	else {
		r = strcmp(a->topic, b->topic);
		*tc = (struct topic_cmp){ a->topic, b->topic, r };
	}
	return r ? r : (a->partition > b->partition) - (a->partition < b->partition);
}

static int cmp_key(const lt_partition *a, const lt_partition *b)
{
	int r = a->topic == b->topic ? 0 : strcmp(a->topic, b->topic);
	return r ? r : (a->partition > b->partition) - (a->partition < b->partition);
}

/* ---- the slow fields of a group (compared whole with the previous group's) ---- */

static void meta_write(struct col_buf *b, const lt_group *g)
{
	b->len = 0;
	put_u64(b, (uint64_t)g->state);
	put_u64(b, (uint64_t)g->type);
	put_u64(b, (uint64_t)g->members_unreadable);
	put_u64(b, (uint64_t)(int64_t)g->coordinator);
	put_u64(b, (uint64_t)g->stale_ms);
	const char *strs[] = { g->protocol_type, g->protocol, g->error };
	for (size_t i = 0; i < 3; i++) {
		size_t n = strs[i] ? strlen(strs[i]) + 1 : 0;
		put_u64(b, n);
		if (n > 1)
			put_bytes(b, strs[i], n - 1);
	}
#define PUT_STR(s)                                                                                                     \
	do {                                                                                                           \
		size_t n_ = (s) ? strlen(s) + 1 : 0;                                                                   \
		put_u64(b, n_);                                                                                        \
		if (n_ > 1)                                                                                            \
			put_bytes(b, (s), n_ - 1);                                                                     \
	} while (0)
	put_u64(b, g->n_members);
	for (size_t m = 0; m < g->n_members; m++) {
		const lt_member *mb = &g->members[m];
		PUT_STR(mb->member_id);
		PUT_STR(mb->client_id);
		PUT_STR(mb->host);
		PUT_STR(mb->instance_id);
		put_u64(b, mb->n_assigned);
		for (size_t a = 0; a < mb->n_assigned; a++) {
			PUT_STR(mb->assigned[a].topic);
			put_u64(b, (uint64_t)(uint32_t)mb->assigned[a].partition);
		}
	}
	put_u64(b, g->n_commit_epochs);
	for (size_t i = 0; i < g->n_commit_epochs; i++) {
		PUT_STR(g->commit_epochs[i].topic);
		put_u64(b, (uint64_t)(uint32_t)g->commit_epochs[i].partition);
		put_u64(b, (uint64_t)(uint32_t)g->commit_epochs[i].epoch);
	}
	/* partition keys: topic written when it differs from the one before */
	put_u64(b, g->n_partitions);
	const char *prev_topic = NULL;
	for (size_t i = 0; i < g->n_partitions; i++) {
		const lt_partition *p = &g->partitions[i];
		if (prev_topic && (prev_topic == p->topic || strcmp(prev_topic, p->topic) == 0)) /* (interned) */
			put_u64(b, 0);
		else {
			put_u64(b, 1);
			PUT_STR(p->topic);
		}
		prev_topic = p->topic;
		put_u64(b, (uint64_t)(uint32_t)p->partition);
	}
#undef PUT_STR
}

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && strcmp(a, b) == 0);
}

/* The same partitions (topic and number), in the same order. */
static bool keys_same(const lt_group *a, const lt_group *b)
{
	if (a->n_partitions != b->n_partitions)
		return false;
	struct topic_cmp tc = { 0 };
	for (size_t i = 0; i < a->n_partitions; i++)
		if (cmp_key_cached(&tc, &a->partitions[i], &b->partitions[i]) != 0)
			return false;
	return true;
}

/* With keys_same, whether meta_write writes the same bytes for a and b, without writing them: the same
 * fields but the partition keys, each compared as meta_write writes it (a NULL string is not ""). The
 * writer's test of a group's slow fields against the previous group's, which serialising every group each
 * record made ~20 % of its CPU. */
static bool meta_same_but_keys(const lt_group *a, const lt_group *b)
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

/* Reads meta_write's bytes into g (added to its snapshot with its name, nothing else). */
static bool meta_read(rec_codec *c, struct col_buf *b, lt_group *g)
{
#define U(v)                                                                                                           \
	do {                                                                                                           \
		if (!get_u64(b, &(v)))                                                                                 \
			goto bad;                                                                                      \
	} while (0)
#define S(dst)                                                                                                         \
	do {                                                                                                           \
		uint64_t n_;                                                                                           \
		U(n_);                                                                                                 \
		if (n_ == 0)                                                                                           \
			(dst) = NULL;                                                                                  \
		else {                                                                                                 \
			if (n_ - 1 > b->len - b->pos)                                                                  \
				goto bad;                                                                              \
			(dst) = xstrndup((const char *)b->p + b->pos, (size_t)(n_ - 1));                               \
			b->pos += (size_t)(n_ - 1);                                                                    \
		}                                                                                                      \
	} while (0)
	uint64_t v, n;
	char *tmp = NULL, *tmp2 = NULL, *tmp3 = NULL, *tmp4 = NULL;
	U(v);
	g->state = (lt_group_state)v;
	U(v);
	g->type = (lt_group_type)v;
	U(v);
	g->members_unreadable = v != 0;
	U(v);
	g->coordinator = (int32_t)(int64_t)v;
	U(v);
	g->stale_ms = (int64_t)v;
	S(g->protocol_type);
	S(g->protocol);
	S(g->error);
	U(n);
	if (n > b->len - b->pos)
		goto bad;
	for (uint64_t m = 0; m < n; m++) {
		S(tmp);
		S(tmp2);
		S(tmp3);
		S(tmp4);
		lt_member *mb = group_add_member(g, tmp, tmp2, tmp3);
		mb->instance_id = tmp4;
		free(tmp), free(tmp2), free(tmp3);
		tmp = tmp2 = tmp3 = tmp4 = NULL;
		uint64_t na;
		U(na);
		if (na > b->len - b->pos)
			goto bad;
		for (uint64_t a = 0; a < na; a++) {
			S(tmp);
			U(v);
			member_add_assignment(mb, tmp ? tmp : "", (int32_t)(uint32_t)v);
			free(tmp);
			tmp = NULL;
		}
	}
	U(n);
	if (n > b->len - b->pos)
		goto bad;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t pa, ep;
		S(tmp);
		U(pa);
		U(ep);
		group_add_commit_epoch(g, tmp ? tmp : "", (int32_t)(uint32_t)pa, (int32_t)(uint32_t)ep);
		free(tmp);
		tmp = NULL;
	}
	U(n);
	if (n > b->len - b->pos)
		goto bad;
	const char *topic = NULL;
	for (uint64_t i = 0; i < n; i++) {
		U(v);
		if (v == 1) {
			S(tmp);
			lt_partition *p = group_add_partition(g, tmp ? tmp : "", 0);
			free(tmp);
			tmp = NULL;
			topic = p->topic;
		} else if (v != 0 || !topic)
			goto bad;
		else
			group_add_partition(g, topic, 0);
		U(v);
		g->partitions[g->n_partitions - 1].partition = (int32_t)(uint32_t)v;
		if (g->n_partitions > 1 &&
		    cmp_key(&g->partitions[g->n_partitions - 2], &g->partitions[g->n_partitions - 1]) >= 0)
			goto bad; /* the readers bsearch them */
	}
	if (b->pos != b->len)
		goto bad;
	return true;
bad:
	free(tmp), free(tmp2), free(tmp3), free(tmp4);
	fail(c, "group-meta column: malformed group '%s'", g->group);
	return false;
#undef U
#undef S
}

/* The slow fields of src but its partition keys into g (whose own are empty: new, or cleared). */
static void meta_copy_slow(lt_group *g, const lt_group *src, bool light)
{
	g->state = src->state;
	g->type = src->type;
	g->members_unreadable = src->members_unreadable;
	g->coordinator = src->coordinator;
	g->stale_ms = src->stale_ms;
	g->protocol_type = src->protocol_type ? xstrdup(src->protocol_type) : NULL;
	g->protocol = src->protocol ? xstrdup(src->protocol) : NULL;
	g->error = src->error ? xstrdup(src->error) : NULL;
	/* members and epochs are never predicted from: a warm-up record (never shown) goes without */
	for (size_t m = 0; m < src->n_members && !light; m++) {
		const lt_member *sm = &src->members[m];
		lt_member *mb = group_add_member(g, sm->member_id, sm->client_id, sm->host);
		mb->instance_id = sm->instance_id ? xstrdup(sm->instance_id) : NULL;
		const char *sa = NULL, *da = NULL; /* as the partitions' topics below */
		for (size_t a = 0; a < sm->n_assigned; a++) {
			member_add_assignment(mb, sm->assigned[a].topic == sa ? da : sm->assigned[a].topic,
					      sm->assigned[a].partition);
			sa = sm->assigned[a].topic;
			da = mb->assigned[a].topic;
		}
	}
	for (size_t i = 0; i < src->n_commit_epochs && !light; i++)
		group_add_commit_epoch(g, src->commit_epochs[i].topic, src->commit_epochs[i].partition,
				       src->commit_epochs[i].epoch);
}

/* The slow fields of src into g (new, with only its name), as meta_read would read meta_write(src)'s
 * bytes, without the bytes: the decoder's path for the groups that did not change (nearly all). */
static void meta_copy(lt_group *g, const lt_group *src, bool light)
{
	meta_copy_slow(g, src, light);
	const char *st = NULL, *dt = NULL; /* the last topic seen in src, and its copy in g's table */
	for (size_t i = 0; i < src->n_partitions; i++) {
		const lt_partition *sp = &src->partitions[i];
		lt_partition *p = group_add_partition(g, sp->topic == st ? dt : sp->topic, sp->partition);
		st = sp->topic;
		dt = p->topic;
	}
}

/* The decoder: a changed group's slow fields, whole in the group-meta column, into g (new, with only its
 * name). False (and the codec failed) when they are malformed. */
static bool read_group_meta(rec_codec *c, lt_group *g)
{
	uint64_t n = cv_u64(c, C_GMETA, 0);
	struct col_buf *b = &c->col[C_GMETA];
	if (c->bad || n > b->len - b->pos) {
		fail(c, "group-meta column ends early");
		return false;
	}
	c->meta_a.len = 0;
	put_bytes(&c->meta_a, b->p + b->pos, (size_t)n);
	b->pos += (size_t)n;
	c->meta_a.pos = 0;
	return meta_read(c, &c->meta_a, g) && !c->bad;
}

/* ---- the record ---- */

static void code_header(rec_codec *c, const lt_snapshot *cur, lt_snapshot *out, const lt_snapshot *prev)
{
	const lt_snapshot *src = c->enc ? cur : out; /* decoder: fields are written into out */
	(void)src;
	lt_snapshot *o = out;
#define H_I64(field, pred) o->field = cv_i64(c, C_HDR, c->enc ? cur->field : 0, (pred))
	H_I64(seq, (int64_t)(prev ? prev->seq + 1 : 0));
	H_I64(taken_at_ms, prev ? prev->taken_at_ms : 0);
	H_I64(duration_ms, prev ? prev->duration_ms : 0);
	o->status_window = (size_t)cv_u64(c, C_HDR, c->enc ? cur->status_window : 0);
	o->brokers_up = (int)cv_i64(c, C_HDR, c->enc ? cur->brokers_up : 0, 0);
	o->brokers_total = (int)cv_i64(c, C_HDR, c->enc ? cur->brokers_total : 0, 0);
	o->commit_stream = (lt_cstream_state)cv_u64(c, C_HDR, c->enc ? (uint64_t)cur->commit_stream : 0);
#undef H_I64
	if (c->enc) {
		cv_str(c, C_HDR, cur->cluster);
		cv_str(c, C_HDR, cur->error);
		cv_str(c, C_HDR, cur->commit_stream_reason);
	} else {
		o->cluster = cv_str(c, C_HDR, NULL);
		o->error = cv_str(c, C_HDR, NULL);
		o->commit_stream_reason = cv_str(c, C_HDR, NULL);
	}
	size_t nb = cv_count(c, C_HDR, c->enc ? cur->n_brokers : 0);
	for (size_t i = 0; i < nb && !c->bad; i++) {
		int32_t id = (int32_t)cv_i64(c, C_HDR, c->enc ? cur->brokers[i].id : 0, 0);
		int port = (int)cv_i64(c, C_HDR, c->enc ? cur->brokers[i].port : 0, 0);
		char *host = cv_str(c, C_HDR, c->enc ? cur->brokers[i].host : NULL);
		if (!c->enc) {
			snapshot_add_broker(o, id, host, port);
			free(host);
		}
	}
	size_t np = cv_count(c, C_HDR, c->enc ? cur->n_pos_sources : 0);
	if (!c->enc && np)
		o->pos_sources = xcalloc(np, sizeof *o->pos_sources);
	for (size_t i = 0; i < np && !c->bad; i++) {
		const lt_pos_source *ps = c->enc ? &cur->pos_sources[i] : NULL;
		char *loc = cv_str(c, C_HDR, ps ? ps->location : NULL);
		char *st = cv_str(c, C_HDR, ps ? ps->status : NULL);
		bool ok = cv_u64(c, C_HDR, ps ? ps->ok : 0) != 0;
		size_t nr = (size_t)cv_u64(c, C_HDR, ps ? ps->n_reports : 0);
		size_t nu = (size_t)cv_u64(c, C_HDR, ps ? ps->n_used : 0);
		if (!c->enc) {
			o->pos_sources[i] = (lt_pos_source){
				.location = loc, .status = st, .ok = ok, .n_reports = nr, .n_used = nu
			};
			o->n_pos_sources = i + 1;
		}
	}
}

static uint64_t pflags_pack(const lt_partition *p)
{
	if (!p)
		return 0;
	uint64_t bits = (uint64_t)p->has_lag | (uint64_t)p->has_time_lag << 1 | (uint64_t)p->has_rates << 2 |
			(uint64_t)p->has_eta << 3 | (uint64_t)p->has_last_commit << 4 | (uint64_t)p->has_unmoved << 5 |
			(uint64_t)p->repeating << 6 | (uint64_t)p->has_position << 7;
	return bits | (uint64_t)p->status << 8 | (uint64_t)p->flags << 16;
}

/* The bits of pflags_pack that version 2 codes apart, in the partition-derived column: status, has_eta. */
#define PFLAGS_DERIVED (0xffull << 8 | 1u << 3)

static void pflags_unpack(lt_partition *p, uint64_t v)
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
	p->flags = (unsigned)(v >> 16);
}

/* Wrapping addition: predictions over corrupt or garbage values must not overflow (UBSan). */
static int64_t wadd(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a + (uint64_t)b);
}

static const lt_partition zero_partition = { .log_start = 0, .committed = 0, .log_end = 0, .member = -1 };
static const lt_partition_ext zero_ext; /* a row without one: what partition_ext's readers see */

/* ---- version 2: the residual columns ---- */

static unsigned bit_len(uint64_t x)
{
	return x ? 64 - (unsigned)__builtin_clzll(x) : 0;
}

/* A scale in quarter octaves: 1 .. 4 for 0 .. 3, then four buckets per bit length (5 .. RC_SCALES). */
static unsigned scale_ctx(uint64_t x)
{
	unsigned b = bit_len(x);
	if (b < 3)
		return 1 + (unsigned)x;                        /* 1 .. 4 */
	return 5 + 4 * (b - 3) + (unsigned)(x >> (b - 3) & 3); /* 5 .. 252 */
}

/* The scale of a partition is its log end's last advance, from samples since the keyframe only (a reader
 * that starts there has no others). The committed residual is minus the lag's move (the prediction keeps
 * the lag), and a consumer's moves grow with the traffic it reads: on bench_record's M this context
 * costs 4 % less than the mean of the lag's last moves; the log end's residual is its advance's change. */
static unsigned scale_of(const struct ring *r, bool key)
{
	if (key || !r || r->n < 2 || r->since_key < 2)
		return 0;
	int64_t e1 = r->e[RI(r, r->n - 1)], e0 = r->e[RI(r, r->n - 2)];
	return e0 >= 0 && e1 >= e0 ? scale_ctx((uint64_t)e1 - (uint64_t)e0) : 0;
}

/* The committed residual's context: the scale, apart for a partition that was caught up (lag 0) at the
 * previous sample, whose lag can only stay or grow (a residual of one sign, and mostly 0 when it keeps up). */
static unsigned commit_ctx(const struct ring *r, bool key, int64_t pe, int64_t pc)
{
	unsigned k = scale_of(r, key);
	return k && pc >= 0 && pe <= pc ? k + RC_CAUGHT_UP : k;
}

static rc_model *rc_model_of(rc_model *rcm, int which, unsigned ctx)
{
	if (ctx >= RC_CTX)
		ctx = 0; /* (cannot happen: scale_ctx is at most RC_SCALES) */
	return &rcm[which * RC_CTX + ctx];
}

/* v − pred: version 1 a varint in column k, version 2 through range coder stream `which` (or, decoding,
 * the residual decode_ahead already read from it, in the same context). */
static int64_t cv_res(rec_codec *c, int which, enum col k, int64_t v, int64_t pred, unsigned ctx)
{
	if (c->version < 2)
		return cv_i64(c, k, v, pred);
	if (c->enc) {
		rc_enc_int(&c->rce[which], rc_model_of(c->rcm, which, ctx), (int64_t)((uint64_t)v - (uint64_t)pred));
		return v;
	}
	if (c->pre)
		return wadd(pred, c->pre[which]);
	return wadd(pred, rc_dec_int(&c->rcd[which], rc_model_of(c->rcm, which, ctx)));
}

/* One partition's values. pp: the same partition in the previous snapshot (or the zero one); r: its
 * samples (NULL when none); dt: time since the previous snapshot. */
static void code_flags(rec_codec *c, const lt_partition *cp, lt_partition *o, const lt_partition *pp)
{
	uint64_t fl = pflags_pack(c->enc ? cp : NULL);
	uint64_t pfl = pflags_pack(pp);
	fl = (uint64_t)cv_i64(c, C_PFLAGS, (int64_t)fl, (int64_t)pfl);
	pflags_unpack(o, fl);
}

/* Version 2: the flags against the previous ones as in version 1 but without the status, which is coded
 * against the model's own rule over the samples (status_from_samples): random lags make the status of a
 * busy partition flip often, but the reader has the samples it was derived from. Its allowed lag is not
 * recorded; the default (0) is assumed: with another, statuses cost their residual. Before the history is
 * warm (a reader decoding from the keyframe before the one wanted) the prediction may differ from the
 * writer's, and so the status; nothing else is derived from it, and such records are never shown. */
static void code_flags_v2(rec_codec *c, const lt_partition *cp, lt_partition *o, const lt_partition *pp,
			  const struct ring *r, int64_t now, size_t window)
{
	uint64_t fl = pflags_pack(c->enc ? cp : NULL) & ~PFLAGS_DERIVED;
	uint64_t pfl = pflags_pack(pp) & ~PFLAGS_DERIVED;
	fl = (uint64_t)cv_i64(c, C_PFLAGS, (int64_t)fl, (int64_t)pfl);
	pflags_unpack(o, fl);
	/* a record never shown (hidden: a warm-up record, or one before the record a reader wants) needs no
	 * prediction of these two: nothing is predicted from them (both are masked out of pfl above) */
	lt_status pred = LT_STATUS_UNKNOWN;
	bool has_eta = false;
	if (!c->hidden) {
		int64_t t[LT_REC_HISTORY + 1], cm[LT_REC_HISTORY + 1], e[LT_REC_HISTORY + 1];
		size_t n = 0;
		/* without a lag, below the log start or caught up, the rule gives its verdict before it reads the
		 * window: no need to copy the samples (most partitions of a healthy cluster) */
		bool need_window = o->has_lag && !(o->flags & LT_PF_OUT_OF_RANGE) && o->lag > 0;
		for (size_t j = 0; need_window && r && j < r->n; j++, n++) {
			t[n] = ring_time(c, r, j);
			cm[n] = r->c[RI(r, j)];
			e[n] = r->e[RI(r, j)];
		}
		t[n] = now;
		cm[n] = o->committed;
		e[n++] = o->log_end;
		bool idle;
		pred = status_from_samples(t, cm, e, n, window, 0, now, o->member >= 0, o->has_lag, o->lag,
					   o->has_last_commit ? o->last_commit_ms : -1,
					   (o->flags & LT_PF_OUT_OF_RANGE) != 0, &idle);
		int64_t eta;
		has_eta = o->has_rates && o->has_lag && eta_compute(o->lag, o->consume_rate, o->produce_rate, &eta);
	}
	uint64_t dpred = (uint64_t)pred | (uint64_t)has_eta << 8;
	uint64_t d = c->enc ? ((uint64_t)cp->status | (uint64_t)cp->has_eta << 8) ^ dpred : 0;
	d = cv_u64(c, C_PDER, d) ^
	    dpred; /* XOR: a wrong prediction (before the history is warm) touches no other bit */
	o->status = (lt_status)(d & 0xff);
	o->has_eta = d >> 8 & 1;
	if (d >> 9)
		fail(c, "partition-derived column: unknown bits %llx", (unsigned long long)d);
}

/* The log end's prediction: the previous value plus the last advance (version 1) or the mean advance over
 * the samples since the keyframe (version 2: a steady producer's advance is its rate plus noise: the mean
 * leaves the noise of one advance, the last one of two), from samples since the last keyframe only
 * (integers must decode right from the first keyframe a reader starts at); else the previous value. */
static int64_t log_end_pred(const rec_codec *c, const struct ring *r, bool key, int64_t pe)
{
	if (key || !r || r->n < 2 || r->since_key < 2)
		return pe;
	size_t back = c->version >= 2 ? (r->since_key < r->n ? r->since_key : r->n) - 1 : 1;
	int64_t e1 = r->e[RI(r, r->n - 1)], e0 = r->e[RI(r, r->n - 1 - back)];
	if (e1 == pe && e0 >= 0 && e1 >= e0)
		return (int64_t)((uint64_t)e1 + (uint64_t)(e1 - e0) / back);
	return pe;
}

/* The offsets every record needs: log end, committed and lag. The committed offset is predicted as the
 * log end less the previous lag (a consumer keeping up keeps its lag), in a keyframe less nothing (the lag
 * is then the residual, far smaller than the offset); else the previous value. */
static void code_offsets(rec_codec *c, const lt_partition *cp, lt_partition *o, const lt_partition *pp,
			 const struct ring *r, bool key, const int64_t *seen_end)
{
	const bool enc = c->enc, ahead = c->pre != NULL; /* (the residuals read ahead: no contexts needed) */
	int64_t pc = pp->committed, pe = pp->log_end;
	if (seen_end)
		o->log_end = cv_res(c, RC_LEND, C_LEND, enc ? cp->log_end : 0, *seen_end, RC_SEEN);
	else
		o->log_end = cv_res(c, RC_LEND, C_LEND, enc ? cp->log_end : 0, log_end_pred(c, r, key, pe),
				    ahead ? 0 : scale_of(r, key));
	int64_t predc = pc;
	if (o->log_end >= 0 && (key || (pc >= 0 && pe >= pc)))
		predc = key ? o->log_end : wadd(o->log_end, (int64_t)(0 - (uint64_t)(pe - pc)));
	o->committed =
		cv_res(c, RC_COMMIT, C_COMMIT, enc ? cp->committed : 0, predc, ahead ? 0 : commit_ctx(r, key, pe, pc));
	int64_t lag_pred = o->committed >= 0 && o->log_end > o->committed ? o->log_end - o->committed : 0;
	o->lag = cv_i64(c, C_LAG, enc ? cp->lag : 0, lag_pred);
}

/* A warm-up record (decoder, light): only what the samples and the next warm-up record need — the flags,
 * log end, committed offset and lag. The other columns are not read at all (each is its own byte stream,
 * and nothing after the keyframe that ends the warm-up is predicted from them). */
static void decode_partition_light(rec_codec *c, lt_partition *o, const lt_partition *pp, const struct ring *r,
				   bool key, const int64_t *seen_end)
{
	const uint64_t derived = c->version >= 2 ? PFLAGS_DERIVED : 0; /* version 1 codes them with the flags */
	uint64_t fl = (uint64_t)cv_i64(c, C_PFLAGS, 0, (int64_t)(pflags_pack(pp) & ~derived));
	pflags_unpack(o, fl);
	o->member = -1;
	code_offsets(c, NULL, o, pp, r, key, seen_end);
}

/* Which columns a warm-up record reads through (the others it leaves unread). */
static bool light_reads(enum col k)
{
	return k == C_HDR || k == C_GRP || k == C_GSAME || k == C_GMETA || k == C_PFLAGS || k == C_COMMIT ||
	       k == C_LEND || k == C_LAG;
}

/* The model's time lag over the ring's samples and this one (the oldest left out when the ring is full, as
 * pushing this one will drop it). */
static bool time_lag_interp(const rec_codec *c, const struct ring *r, int64_t now, const lt_partition *o, int64_t *tl)
{
	if (!r)
		return false;
	int64_t t[LT_REC_HISTORY], e[LT_REC_HISTORY];
	size_t drop = r->n == LT_REC_HISTORY ? 1 : 0, n = 0;
	for (size_t j = drop; j < r->n; j++, n++) {
		t[n] = ring_time(c, r, j);
		e[n] = r->e[RI(r, j)];
	}
	t[n] = now;
	e[n++] = o->log_end;
	return timelag_compute(t, e, n, o->committed, now, tl);
}

/* One partition's values. cx, px: cp's and pp's lt_partition_ext (NULL when none); og: o's group, where
 * the decoder adds o's ext when it has one. pp: the same partition in the previous snapshot (or the zero
 * one); r: its samples (NULL when none); dt: time since the previous snapshot; seen_end: the log end an
 * earlier group of this record gave the same topic partition (version 2), or NULL. */
static void code_partition(rec_codec *c, const lt_partition *cp, const lt_partition_ext *cx, lt_partition *o,
			   lt_group *og, const lt_partition *pp, const lt_partition_ext *px, struct ring *r, bool key,
			   int64_t now, int64_t dt, const int64_t *seen_end, size_t window)
{
	const bool enc = c->enc;
	if (!enc && c->light) {
		decode_partition_light(c, o, pp, r, key, seen_end);
		return;
	}
	if (!cx)
		cx = &zero_ext;
	if (!px)
		px = &zero_ext;
	if (c->version < 2)
		code_flags(c, cp, o, pp);
	o->member = (int)cv_i64(c, C_PMEM, enc ? cp->member : 0, pp->member);
	int32_t psrc = (int32_t)cv_i64(c, C_PMEM, enc ? cx->position_source : 0, px->position_source);

	o->log_start = cv_i64(c, C_LSTART, enc ? cp->log_start : 0, pp->log_start);
	code_offsets(c, cp, o, pp, r, key, seen_end);

	/* rates over the ring as it was before this sample (the model's window ends at this sample:
	 * rate_from(sample j, now) with the current value) */
	uint8_t dummy = 0;
	o->consume_rate = cv_rate(c, enc ? cp->consume_rate : 0, pp->consume_rate, r, r ? &r->hint_c : &dummy, now,
				  o->committed, false);
	o->produce_rate = cv_rate(c, enc ? cp->produce_rate : 0, pp->produce_rate, r, r ? &r->hint_e : &dummy, now,
				  o->log_end, true);
	/* (a warm-up record's doubles are not all right yet, and the ETA of a record never shown is not needed:
	 * nothing is predicted from it) */
	o->eta_ms = cv_i64(c, C_ETA, enc ? cp->eta_ms : 0,
			   c->hidden ? 0 : eta_predict(o->lag, o->consume_rate, o->produce_rate));

	/* time lag: 0 = interpolated over the ring with this sample, 1 = previous + elapsed, 2 = explicit (the
	 * decoder interpolates only when the tag says so) */
	int64_t tl_interp = 0, tl_elapsed = pp->time_lag_ms ? wadd(pp->time_lag_ms, dt) : 0;
	bool interp_ok = enc && time_lag_interp(c, r, now, o, &tl_interp);
	uint64_t tag = 2;
	if (enc)
		tag = interp_ok && cp->time_lag_ms == tl_interp ? 0 : cp->time_lag_ms == tl_elapsed ? 1 : 2;
	tag = cv_u64(c, C_TLTAG, tag);
	if (tag == 0) {
		if (!enc)
			interp_ok = time_lag_interp(c, r, now, o, &tl_interp);
		o->time_lag_ms = interp_ok ? tl_interp : 0;
	} else if (tag == 1)
		o->time_lag_ms = tl_elapsed;
	else
		o->time_lag_ms = cv_i64(c, C_TL, enc ? cp->time_lag_ms : 0, tl_elapsed);

	int64_t stale = cv_i64(c, C_MISC, enc ? cx->stale_ms : 0, px->stale_ms);
	o->last_commit_ms = cv_i64(c, C_MISC, enc ? cp->last_commit_ms : 0, pp->last_commit_ms);
	o->last_commit_age_ms = cv_i64(c, C_MISC, enc ? cp->last_commit_age_ms : 0,
				       o->last_commit_ms == pp->last_commit_ms ? wadd(pp->last_commit_age_ms, dt)
									       : pp->last_commit_age_ms);
	o->unmoved_ms = cv_i64(c, C_MISC, enc ? cp->unmoved_ms : 0, pp->unmoved_ms ? wadd(pp->unmoved_ms, dt) : 0);
	o->commits_per_min = cv_double_prev(c, enc ? cp->commits_per_min : 0, pp->commits_per_min);
	int64_t pos = cv_i64(c, C_MISC, enc ? cx->position : 0, px->position);
	int64_t pos_age = cv_i64(c, C_MISC, enc ? cx->position_age_ms : 0, px->position_age_ms);

	/* commit metadata: 0 = as before, 1 = new value follows */
	const char *pm = px->commit_metadata, *cm = cx->commit_metadata;
	bool same_md = enc && ((!cm && !pm) || (cm && pm && strcmp(cm, pm) == 0));
	uint64_t md = cv_u64(c, C_STR, enc ? !same_md : 0);
	char *omd = NULL;
	if (md == 0)
		omd = enc ? NULL : xstrdup(pm);
	else if (enc)
		cv_str(c, C_STR, cm);
	else
		omd = cv_str(c, C_STR, NULL);
	if (c->version >= 2)
		code_flags_v2(c, cp, o, pp, r, now, window);
	/* the decoder's row gets an ext only when something in it is set, as the collector's rows (after the
	 * flags, which version 2 codes last: has_position is one of them) */
	if (!enc && (psrc || pos || pos_age || stale || omd || o->has_position)) {
		lt_partition_ext *x = partition_ext_add(og, o);
		x->stale_ms = stale;
		x->commit_metadata = omd;
		x->position = pos;
		x->position_age_ms = pos_age;
		x->position_source = psrc;
	}
}

/* The group's total lag at its newest samples from its n partitions' samples, as the model sums it:
 * sums[b] for b samples before this one (0: this one), for b below the count returned (at most max: the
 * samples every partition still has; 0 without partitions). One pass over each ring. */
static size_t totals(const struct ring *rings, size_t n, size_t max, int64_t *sums)
{
	size_t have = n ? max : 0;
	for (size_t k = 0; k < n; k++)
		if (rings[k].n < have)
			have = rings[k].n;
	for (size_t b = 0; b < have; b++)
		sums[b] = 0;
	for (size_t k = 0; k < n && have; k++) {
		const struct ring *r = &rings[k];
		for (size_t b = 0; b < have; b++) {
			int64_t l = r->lag[RI(r, r->n - 1 - b)], t;
			if (l != LAG_UNKNOWN)
				sums[b] = __builtin_add_overflow(sums[b], l, &t) ? (l > 0 ? INT64_MAX : INT64_MIN) : t;
		}
	}
	return have;
}

/* rings: the group's partitions' samples, this record's pushed. */
static void code_group_values(rec_codec *c, const lt_group *cg, lt_group *o, const lt_group *pg, int64_t dt,
			      const struct ring *rings)
{
	static const lt_group zero_group;
	const bool enc = c->enc;
	if (!pg)
		pg = &zero_group;
	uint64_t bits =
		enc ? ((uint64_t)cg->has_max_time_lag | (uint64_t)cg->time_lag_high << 1 |
		       (uint64_t)cg->status_complete << 2 | (uint64_t)cg->has_last_commit << 3 |
		       (uint64_t)cg->has_expiry << 4 | (uint64_t)cg->expiry_warn << 5 | (uint64_t)cg->status << 8)
		    : 0;
	uint64_t pbits = (uint64_t)pg->has_max_time_lag | (uint64_t)pg->time_lag_high << 1 |
			 (uint64_t)pg->status_complete << 2 | (uint64_t)pg->has_last_commit << 3 |
			 (uint64_t)pg->has_expiry << 4 | (uint64_t)pg->expiry_warn << 5 | (uint64_t)pg->status << 8;
	bits = (uint64_t)cv_i64(c, C_GVAL, (int64_t)bits, (int64_t)pbits);
	o->has_max_time_lag = bits & 1;
	o->time_lag_high = bits >> 1 & 1;
	o->status_complete = bits >> 2 & 1;
	o->has_last_commit = bits >> 3 & 1;
	o->has_expiry = bits >> 4 & 1;
	o->expiry_warn = bits >> 5 & 1;
	o->status = (lt_status)(bits >> 8 & 0xff);

	/* the aggregates the model sums over the partitions: predicted from the decoded partitions */
	int64_t total = 0, max_lag = 0, max_tl = 0;
	double rate = 0;
	bool any_tl = false;
	for (size_t i = 0; i < o->n_partitions; i++) {
		const lt_partition *p = &o->partitions[i];
		if (p->has_lag) {
			int64_t r;
			total = __builtin_add_overflow(total, p->lag, &r) ? INT64_MAX : r;
			if (p->lag > max_lag)
				max_lag = p->lag;
		}
		if (p->has_time_lag && (!any_tl || p->time_lag_ms > max_tl)) {
			max_tl = p->time_lag_ms;
			any_tl = true;
		}
		if (p->has_rates)
			rate += p->consume_rate;
	}
	o->total_lag = cv_i64(c, C_GVAL, enc ? cg->total_lag : 0, total);
	o->max_lag = cv_i64(c, C_GVAL, enc ? cg->max_lag : 0, max_lag);
	o->max_time_lag_ms = cv_i64(c, C_GVAL, enc ? cg->max_time_lag_ms : 0, max_tl);
	o->n_topics = (size_t)cv_i64(c, C_GVAL, enc ? (int64_t)cg->n_topics : 0, (int64_t)pg->n_topics);
	uint64_t rtag = cv_u64(c, C_RTAG, enc ? (same_double(cg->consume_rate, rate) ? 0 : 1) : 0);
	o->consume_rate = rtag == 0 ? rate : cv_raw_double(c, enc ? cg->consume_rate : 0);

	/* trend: the previous one moved along by one with the new total at the end (tag 0), or whole */
	size_t n = (size_t)cv_u64(c, C_GVAL, enc ? cg->n_trend : 0);
	if (n > sizeof o->trend / sizeof o->trend[0]) {
		fail(c, "group-values column: trend of %zu values", n);
		return;
	}
	o->n_trend = n;
	size_t keep = n == pg->n_trend + 1 ? pg->n_trend : n == pg->n_trend && n > 0 ? n - 1 : (size_t)-1;
	size_t from = n == pg->n_trend ? 1 : 0;
	uint64_t shifted = 0;
	if (enc && keep != (size_t)-1 && n > 0)
		shifted = memcmp(cg->trend, pg->trend + from, keep * sizeof cg->trend[0]) == 0 ? 1 : 0;
	shifted = cv_u64(c, C_GVAL, shifted);
	if (shifted && keep != (size_t)-1 && n > 0) {
		if (!enc)
			memcpy(o->trend, pg->trend + from, keep * sizeof o->trend[0]);
		o->trend[n - 1] = cv_i64(c, C_GVAL, enc ? cg->trend[n - 1] : 0, o->total_lag);
	} else if (c->version >= 2 && pg->n_trend == 0) {
		/* version 2, a keyframe (or a group new since the previous record): the trend is the group's
		 * total lag per refresh, so where the partitions' samples reach, against their sums (tag 1, when
		 * the encoder finds that every one matches), else against the value before (a total moves by
		 * less than it is). Before the history is warm the sums may be wrong: the trend is then wrong,
		 * never shown, and nothing else is predicted from it; a warm-up (light) record does not sum. */
		int64_t sums[sizeof o->trend / sizeof o->trend[0]];
		size_t have = c->light ? 0 : totals(rings, o->n_partitions, n, sums);
		uint64_t by_sums = 0;
		if (enc) {
			size_t hits = 0, misses = 0;
			for (size_t b = 0; b < have; b++)
				*(sums[b] == cg->trend[n - 1 - b] ? &hits : &misses) += 1;
			by_sums = hits > 0 && misses == 0;
		}
		by_sums = cv_u64(c, C_GVAL, by_sums);
		for (size_t i = 0; i < n; i++) {
			size_t b = n - 1 - i;
			int64_t pred = by_sums && b < have ? sums[b] : i > 0 ? o->trend[i - 1] : 0;
			o->trend[i] = cv_i64(c, C_GVAL, enc ? cg->trend[i] : 0, pred);
		}
	} else
		/* whole: each value against the previous record's at its place */
		for (size_t i = 0; i < n; i++)
			o->trend[i] = cv_i64(c, C_GVAL, enc ? cg->trend[i] : 0, i < pg->n_trend ? pg->trend[i] : 0);

	o->last_commit_ms = cv_i64(c, C_GVAL, enc ? cg->last_commit_ms : 0, pg->last_commit_ms);
	o->last_commit_age_ms = cv_i64(c, C_GVAL, enc ? cg->last_commit_age_ms : 0,
				       o->last_commit_ms == pg->last_commit_ms ? wadd(pg->last_commit_age_ms, dt)
									       : pg->last_commit_age_ms);
	o->commits_per_min = cv_double_prev(c, enc ? cg->commits_per_min : 0, pg->commits_per_min);
	o->expires_at_ms = cv_i64(c, C_GVAL, enc ? cg->expires_at_ms : 0, pg->expires_at_ms);
	o->expires_in_ms =
		cv_i64(c, C_GVAL, enc ? cg->expires_in_ms : 0, wadd(pg->expires_in_ms, (int64_t)(0 - (uint64_t)dt)));
	o->n_expired = (size_t)cv_i64(c, C_GVAL, enc ? (int64_t)cg->n_expired : 0, (int64_t)pg->n_expired);
	o->expired_ms = cv_i64(c, C_GVAL, enc ? cg->expired_ms : 0, pg->expired_ms);
}

/* ---- version 2: log ends an earlier group gave ---- */

static uint64_t str_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

/* Empties the table for a record of `total` partitions (a topic run has at least one: the table is at
 * most half full, so probing always ends). */
static void seen_begin(struct seen_table *t, size_t total)
{
	size_t need = 16;
	while (need < 2 * total)
		need *= 2;
	if (need > t->cap) {
		free(t->slot);
		t->slot = xcalloc(need, sizeof *t->slot);
		t->cap = need;
		t->gen = 0;
	}
	if (++t->gen == 0) {
		memset(t->slot, 0, t->cap * sizeof *t->slot);
		t->gen = 1;
	}
}

static bool same_topic(const char *a, const char *b)
{
	return a == b || strcmp(a, b) == 0;
}

/* The slot of a topic: in use (gen is this record's) or the empty one to fill. */
static struct seen_topic *seen_slot(struct seen_table *t, const char *topic)
{
	uint64_t h = str_hash(topic);
	size_t mask = t->cap - 1, i = (size_t)(h ^ h >> 29) & mask;
	for (;;) {
		struct seen_topic *e = &t->slot[i];
		if (e->gen != t->gen || same_topic(e->topic, topic))
			return e;
		i = (i + 1) & mask;
	}
}

/* Where a record's partition loop is in the earlier group's run of the current topic. */
struct seen_walk {
	const lt_partition *run; /* NULL: this topic's first group in the record */
	size_t n, at;
};

/* The log end an earlier group of this record gave partition k of group i (layout: the record's
 * groups), or NULL; the loop calls it for every partition in order, and it notes each topic's first run. */
static const int64_t *seen_end_of(struct seen_table *t, struct seen_walk *w, const lt_snapshot *layout, size_t i,
				  size_t k)
{
	const lt_group *lg = &layout->groups[i];
	const lt_partition *p = &lg->partitions[k];
	if (k == 0 || !same_topic(lg->partitions[k - 1].topic, p->topic)) {
		struct seen_topic *st = seen_slot(t, p->topic);
		w->run = NULL;
		if (st->gen == t->gen) {
			*w = (struct seen_walk){ layout->groups[st->group].partitions + st->first, st->n, 0 };
		} else {
			size_t n = 1;
			while (k + n < lg->n_partitions && same_topic(lg->partitions[k + n].topic, p->topic))
				n++;
			*st = (struct seen_topic){ p->topic, t->gen, i, k, n };
		}
	}
	while (w->run && w->at < w->n && w->run[w->at].partition < p->partition)
		w->at++;
	return w->run && w->at < w->n && w->run[w->at].partition == p->partition ? &w->run[w->at].log_end : NULL;
}

/* Index of the group named `name` in prev, from the expected index on (both lists are sorted). */
static size_t find_prev_group(const lt_snapshot *prev, size_t from, const char *name)
{
	if (!prev)
		return (size_t)-1;
	if (from < prev->n_groups && strcmp(prev->groups[from].group, name) == 0)
		return from;
	const lt_group *g = snapshot_find_group(prev, name);
	return g ? (size_t)(g - prev->groups) : (size_t)-1;
}

/* ---- version 2: a record's residual streams read ahead on a second thread ----
 *
 * Reaching a recorded moment decodes up to 33 records that are never shown, most in place
 * (decode_in_place), and a third of each is the range decoder: two streams (log ends, committed offsets)
 * of one value per partition, ten adaptive bits in one dependency chain each. Which model a value is read
 * with depends only on what precedes the record — the partition's ring, its previous log end and committed
 * offset, whether an earlier group gave its topic partition — never on the record's other values. So the
 * decoding thread notes each partition's two contexts for the next record as it pushes the partition's
 * sample (the ring and the row are then in its cache: next_ctx), and when the next record too decodes in
 * place a worker thread reads both streams with them, into res, while the decoding thread does the rest
 * (flags, lags, rates, time lags, the rings), waiting only when it catches up with the worker. The worker
 * reads nothing of the snapshot: only next_ctx[i], which the decoding thread overwrites for the record
 * after only once it has seen partition i published (done, release / acquire). The worker owns c->rcd and
 * c->rcm from the job's start to its end (over). */
#define AHEAD_BATCH    32      /* partitions per published step */
#define AHEAD_AWAKE_NS 2000000 /* the worker's wait awake for the next record (yielding), then asleep */

struct rc_ahead {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t wake;
	uint64_t job; /* (atomic; written under mu) bumped for each record */
	bool quit;    /* (mu) */
	/* the record: set before job is bumped, read by the worker */
	rec_codec *c;
	size_t n;     /* partitions */
	int64_t *res; /* N_RC per partition */
	size_t cap;   /* of res (/ N_RC) */
	/* (atomic) partitions whose residuals are in res; on a line of its own, as the worker's writes */
	_Alignas(64) size_t done;
	_Alignas(64) bool cancel, over; /* (atomic) stop early; the worker is finished with the record */
};

static void ahead_read(struct rc_ahead *a)
{
	rec_codec *c = a->c;
	const uint16_t *ctx = c->next_ctx;
	rc_model *rcm = c->rcm;
	const size_t n = a->n;
	int64_t *res = a->res;
	/* the decoders' state on this thread's stack: in c it shares cache lines with what the decoding
	 * thread writes for every partition (c->pre, the columns' positions), and each value would bounce them */
	rc_dec d[N_RC] = { c->rcd[0], c->rcd[1] };
	size_t flat = 0;
	for (; flat < n; flat++) {
		if (flat % AHEAD_BATCH == 0) {
			__atomic_store_n(&a->done, flat, __ATOMIC_RELEASE);
			if (__atomic_load_n(&a->cancel, __ATOMIC_RELAXED))
				break;
		}
		for (int w = 0; w < N_RC; w++)
			res[flat * N_RC + w] = rc_dec_int(&d[w], rc_model_of(rcm, w, ctx[flat * N_RC + w]));
	}
	if (flat == n)
		__atomic_store_n(&a->done, n, __ATOMIC_RELEASE);
	c->rcd[0] = d[0];
	c->rcd[1] = d[1];
}

static void *ahead_main(void *arg)
{
	struct rc_ahead *a = arg;
	uint64_t seen_job = 0;
	for (;;) {
		/* a reach decodes its records back to back: the next job comes after a record's other work
		 * (zstd, the groups' values, well under a millisecond), sooner than a sleeping thread wakes */
		struct timespec t0, t;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		for (unsigned spins = 1; __atomic_load_n(&a->job, __ATOMIC_ACQUIRE) == seen_job; spins++) {
			if (spins < 64)
				continue;
			sched_yield();
			clock_gettime(CLOCK_MONOTONIC, &t);
			if ((t.tv_sec - t0.tv_sec) * 1000000000L + (t.tv_nsec - t0.tv_nsec) > AHEAD_AWAKE_NS)
				break;
		}
		pthread_mutex_lock(&a->mu);
		while (a->job == seen_job && !a->quit)
			pthread_cond_wait(&a->wake, &a->mu);
		if (a->quit)
			break;
		seen_job = a->job;
		pthread_mutex_unlock(&a->mu);
		ahead_read(a);
		__atomic_store_n(&a->over, true, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

static void decode_ahead_stop(rec_codec *c)
{
	struct rc_ahead *a = c->ahead;
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->quit = true;
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->mu);
	pthread_join(a->thread, NULL);
	pthread_cond_destroy(&a->wake);
	pthread_mutex_destroy(&a->mu);
	free(a->res);
	free(a);
	c->ahead = NULL;
}

/* Starts reading the residuals of a record of n partitions ahead, with the contexts the previous record
 * noted, or NULL: decode them in line (none noted, a small record, or no thread). */
static struct rc_ahead *decode_ahead_start(rec_codec *c, size_t n)
{
	if (n != c->n_next || n < c->ahead_min || n == 0 || c->ahead_failed)
		return NULL;
	struct rc_ahead *a = c->ahead;
	if (!a) {
		a = xcalloc(1, sizeof *a); /* (16-byte aligned: done's line holds nothing else hot) */
		pthread_mutex_init(&a->mu, NULL);
		pthread_cond_init(&a->wake, NULL);
		/* the worker takes no signal (the program reads its own from a signalfd, blocked in every thread) */
		sigset_t all, old;
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		int rc = pthread_create(&a->thread, NULL, ahead_main, a);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		if (rc != 0) {
			pthread_cond_destroy(&a->wake);
			pthread_mutex_destroy(&a->mu);
			free(a);
			c->ahead_failed = true;
			return NULL;
		}
		c->ahead = a;
	}
	if (n > a->cap) {
		free(a->res);
		a->res = xmalloc(n * N_RC * sizeof *a->res);
		a->cap = n;
	}
	pthread_mutex_lock(&a->mu);
	a->c = c;
	a->n = n;
	a->done = 0;
	a->cancel = false;
	a->over = false;
	__atomic_store_n(&a->job, a->job + 1, __ATOMIC_RELEASE);
	pthread_cond_signal(&a->wake);
	pthread_mutex_unlock(&a->mu);
	return a;
}

/* Waits until the worker has read partition `flat` (spinning: it is a few microseconds ahead or behind). */
static void decode_ahead_wait(struct rc_ahead *a, size_t flat)
{
	for (unsigned spins = 0; __atomic_load_n(&a->done, __ATOMIC_ACQUIRE) <= flat; spins++)
		if (spins >= 64)
			sched_yield();
}

/* The record is decoded (or failed): the worker lets go of the streams before anyone reads them. */
static void decode_ahead_end(rec_codec *c, struct rc_ahead *a)
{
	c->pre = NULL;
	if (c->bad)
		__atomic_store_n(&a->cancel, true, __ATOMIC_RELAXED);
	for (unsigned spins = 0; !__atomic_load_n(&a->over, __ATOMIC_ACQUIRE); spins++)
		if (spins >= 64)
			sched_yield();
}

/* Whether a decoded record of `total` partitions notes its contexts for the next one (note_next), which
 * only a worker reads: the arrays made ready. */
static bool note_begin(rec_codec *c, size_t total)
{
	if (c->enc || c->version < 2 || total < c->ahead_min || total == 0 || c->ahead_failed)
		return false;
	if (total > c->cap_next) {
		free(c->next_ctx);
		free(c->next_seen);
		c->next_ctx = xmalloc(total * N_RC * sizeof *c->next_ctx);
		c->next_seen = xmalloc(total * sizeof *c->next_seen);
		c->cap_next = total;
	}
	return true;
}

/* Partition `flat`'s contexts for the next record, if it decodes in place (not a keyframe, the same
 * layout), as code_offsets will work them out there: right after its sample is pushed, while its ring and
 * row are in cache. */
static void note_next(rec_codec *c, size_t flat, const struct ring *r, const lt_partition *p, const int64_t *seen_end)
{
	c->next_ctx[flat * N_RC + RC_LEND] = (uint16_t)(seen_end ? RC_SEEN : scale_of(r, false));
	c->next_ctx[flat * N_RC + RC_COMMIT] = (uint16_t)commit_ctx(r, false, p->log_end, p->committed);
	c->next_seen[flat] = seen_end;
}

/* The whole record, both directions. enc: cur is the snapshot; dec: out is being built. */
static void code_record(rec_codec *c, const lt_snapshot *cur, lt_snapshot *out, bool key)
{
	const lt_snapshot *prev = key ? NULL : c->prev;
	if (key && c->version >= 2)
		rc_model_init(c->rcm, N_RC * RC_CTX); /* a reader may start here */
	lt_snapshot header_scratch = { 0 };           /* the encoder's decoded header: only its numbers are set */
	if (c->enc)
		out = &header_scratch;
	code_header(c, cur, out, prev);
	if (c->bad)
		return;
	const int64_t now = out->taken_at_ms;
	const int64_t dt = prev ? wadd(now, (int64_t)(0 - (uint64_t)prev->taken_at_ms)) : 0;

	/* groups: tag 0 = the previous group after the last one matched, 1 = new (name follows),
	 * 2 + i = previous group i */
	size_t ng = cv_count(c, C_GRP, c->enc ? cur->n_groups : 0);
	size_t *pidx = xmalloc((ng ? ng : 1) * sizeof *pidx);
	size_t expect = 0;
	for (size_t i = 0; i < ng && !c->bad; i++) {
		uint64_t tag = 0;
		size_t pi = (size_t)-1;
		if (c->enc) {
			pi = find_prev_group(prev, expect, cur->groups[i].group);
			tag = pi == (size_t)-1 ? 1 : pi == expect ? 0 : 2 + pi;
		}
		tag = cv_u64(c, C_GRP, tag);
		if (tag == 1) {
			char *name = cv_str(c, C_GRP, c->enc ? cur->groups[i].group : NULL);
			if (!c->enc) {
				snapshot_add_group(out, name ? name : "");
				free(name);
			}
			pi = (size_t)-1;
		} else {
			pi = tag == 0 ? expect : (size_t)(tag - 2);
			if (!prev || pi >= prev->n_groups) {
				fail(c, "groups column: group %zu continues a group the previous record does not have",
				     i);
				break;
			}
			if (!c->enc)
				snapshot_add_group(out, prev->groups[pi].group);
		}
		pidx[i] = pi;
		if (pi != (size_t)-1)
			expect = pi + 1;
	}
	if (!c->enc)
		for (size_t i = 1; i < out->n_groups && !c->bad; i++)
			if (strcmp(out->groups[i - 1].group, out->groups[i].group) >= 0)
				fail(c, "groups column: groups out of order");

	/* slow fields */
	if (c->enc && ng > c->cap_nmeta) {
		c->nmeta = xrealloc(c->nmeta, ng * sizeof *c->nmeta);
		memset(c->nmeta + c->cap_nmeta, 0, (ng - c->cap_nmeta) * sizeof *c->nmeta);
		c->cap_nmeta = ng;
	}
	if (c->enc && ng > c->cap_keys) {
		free(c->keys_same);
		c->keys_same = xmalloc(ng * sizeof *c->keys_same);
		c->cap_keys = ng;
	}
	for (size_t i = 0; i < ng && !c->bad; i++) {
		const lt_group *pg = pidx[i] != (size_t)-1 ? &prev->groups[pidx[i]] : NULL;
		uint64_t same = 0;
		if (c->enc) {
			struct col_buf *m = &c->nmeta[i];
			const struct col_buf *pm = pg && pidx[i] < c->n_pmeta ? &c->pmeta[pidx[i]] : NULL;
			/* (noted: the samples' layout below asks again) */
			c->keys_same[i] = pg && keys_same(&cur->groups[i], pg);
			if (pm && c->keys_same[i] && meta_same_but_keys(&cur->groups[i], pg)) {
				/* unchanged (nearly every group): its bytes are the previous group's, copied */
				m->len = 0;
				put_bytes(m, pm->p, pm->len);
				same = 1;
			} else {
				meta_write(m, &cur->groups[i]);
				if (pg && !pm) { /* (prev came from elsewhere: serialise it) */
					meta_write(&c->meta_b, pg);
					pm = &c->meta_b;
				}
				same = pm && m->len == pm->len && memcmp(m->p, pm->p, m->len) == 0;
			}
		}
		same = cv_u64(c, C_GSAME, same);
		if (c->enc) {
			if (!same) {
				put_u64(&c->col[C_GMETA], c->nmeta[i].len);
				put_bytes(&c->col[C_GMETA], c->nmeta[i].p, c->nmeta[i].len);
			}
			continue;
		}
		if (same) {
			if (!pg) {
				fail(c, "group-same column: group '%s' is new but marked unchanged",
				     out->groups[i].group);
				break;
			}
			meta_copy(&out->groups[i], pg, c->light);
			continue;
		}
		read_group_meta(c, &out->groups[i]);
	}
	if (c->bad) {
		free(pidx);
		return;
	}

	/* partitions: where each one was in the previous snapshot (and its samples) */
	const lt_snapshot *layout = c->enc ? cur : out;
	size_t total = 0;
	for (size_t i = 0; i < ng; i++)
		total += layout->groups[i].n_partitions;
	size_t *prev_start = NULL;
	if (c->prev) {
		prev_start = xmalloc((c->prev->n_groups + 1) * sizeof *prev_start);
		size_t acc = 0;
		for (size_t i = 0; i < c->prev->n_groups; i++) {
			prev_start[i] = acc;
			acc += c->prev->groups[i].n_partitions;
		}
		prev_start[c->prev->n_groups] = acc;
	}
	/* The samples follow the partition whatever `key` says; a keyframe only codes values against
	 * nothing. The ring array is reused in place when every partition stays where it was. */
	const lt_snapshot *rp = c->prev;
	bool in_place = rp && total == c->n_rings && rp->n_groups == ng;
	for (size_t i = 0; i < ng && in_place; i++) {
		const lt_group *g = &layout->groups[i], *pg = &rp->groups[i];
		if (c->enc && prev && pidx[i] == i) { /* (the same group: its keys were compared above) */
			in_place = c->keys_same[i];
			continue;
		}
		in_place = strcmp(g->group, pg->group) == 0 && keys_same(g, pg);
	}
	struct ring *rings = in_place ? c->rings : xcalloc(total ? total : 1, sizeof *rings);
	size_t flat = 0;
	const bool v2 = c->version >= 2;
	if (v2)
		seen_begin(&c->seen, total);
	const bool note = note_begin(c, total); /* (the decoder's: out is the next record's layout) */
	struct seen_walk walk = { 0 };
	for (size_t i = 0; i < ng && !c->bad; i++) {
		const lt_group *cg = c->enc ? &cur->groups[i] : NULL;
		lt_group *og = c->enc ? NULL : &out->groups[i];
		const lt_group *lg = layout == cur ? cg : og;
		const lt_group *pg = pidx[i] != (size_t)-1 ? &prev->groups[pidx[i]] : NULL;
		/* the same group in the previous snapshot for the samples, which survive keyframes */
		const lt_group *rg = NULL;
		size_t rbase = 0;
		if (rp) {
			size_t ri = find_prev_group(rp, i, lg->group);
			if (ri != (size_t)-1) {
				rg = &rp->groups[ri];
				rbase = prev_start[ri];
			}
		}
		size_t pk = 0, rk = 0;
		struct topic_cmp tcp = { 0 }, tcr = { 0 };
		for (size_t k = 0; k < lg->n_partitions && !c->bad; k++, flat++) {
			const lt_partition *key_p = &lg->partitions[k];
			const lt_partition *pp = &zero_partition;
			if (pg && in_place && pg == &rp->groups[i]) {
				pp = &pg->partitions[k]; /* the same layout: the same place */
			} else if (pg) {
				while (pk < pg->n_partitions && cmp_key_cached(&tcp, &pg->partitions[pk], key_p) < 0)
					pk++;
				if (pk < pg->n_partitions && cmp_key_cached(&tcp, &pg->partitions[pk], key_p) == 0)
					pp = &pg->partitions[pk];
			}
			struct ring *r = NULL;
			if (in_place)
				r = &rings[flat];
			else if (rg) {
				while (rk < rg->n_partitions && cmp_key_cached(&tcr, &rg->partitions[rk], key_p) < 0)
					rk++;
				if (rk < rg->n_partitions && cmp_key_cached(&tcr, &rg->partitions[rk], key_p) == 0) {
					rings[flat] = c->rings[rbase + rk];
					r = &rings[flat];
				}
			}
			lt_partition scratch;
			lt_partition *o = c->enc ? &scratch : &og->partitions[k];
			const int64_t *seen_end = v2 ? seen_end_of(&c->seen, &walk, layout, i, k) : NULL;
			const lt_partition *cp = c->enc ? &cg->partitions[k] : NULL;
			code_partition(c, cp, partition_ext(cg, cp), o, og, pp, partition_ext(pg, pp), r, key, now, dt,
				       seen_end, out->status_window);
			if (!r)
				r = &rings[flat];
			ring_push(r, key, o->committed, o->log_end, o->has_lag ? o->lag : LAG_UNKNOWN);
			if (note)
				note_next(c, flat, r, o, seen_end);
		}
	}
	if (note && !c->bad && flat == total)
		c->n_next = total;
	c->times[c->tick++ & (LT_REC_HISTORY - 1)] = now; /* every ring's newest sample is now this record's */
	for (size_t i = 0, gflat = 0; i < ng && !c->bad; gflat += layout->groups[i].n_partitions, i++) {
		const lt_group *pg = pidx[i] != (size_t)-1 ? &prev->groups[pidx[i]] : NULL;
		if (c->enc) {
			/* the predictions read the partitions' values, which the encoder has in cur */
			lt_group scratch = cur->groups[i];
			code_group_values(c, &cur->groups[i], &scratch, pg, dt, rings + gflat);
		} else if (!c->light) /* (a warm-up record's group values are never shown nor predicted from) */
			code_group_values(c, NULL, &out->groups[i], pg, dt, rings + gflat);
	}
	free(prev_start);
	free(pidx);
	if (!in_place)
		free(c->rings);
	c->rings = rings;
	c->n_rings = total;
}

/* A record never shown (a warm-up record, or a hidden one before the record a reader wants) whose groups
 * and their partition keys are the previous record's (nearly every one): decoded into the previous
 * snapshot itself, which only the codec holds. Building a fresh snapshot (every group's slow fields and
 * partition keys copied, every partition matched, the old one freed) was ~40 % of a hidden record's cost
 * and ~17 % of a warm-up record's (doc/RECORDING.md, "Round 5"). Each partition and group
 * is coded against a copy of its previous values (the coding reads some of them after writing the new
 * ones); a partition's extra fields start from zero, as a fresh row's, and its old commit metadata is
 * freed after. False, with the columns untouched, when the layout changed or another holder has the
 * snapshot: the caller decodes the record the usual way. On a recording of at least ahead_min partitions
 * the range-coded values are read on a second thread with the contexts the record before noted
 * (note_next, decode_ahead_start, above). */
static bool decode_in_place(rec_codec *c)
{
	lt_snapshot *s = c->prev;
	if (!s || __atomic_load_n(&s->refs, __ATOMIC_ACQUIRE) != 1)
		return false;
	const size_t grp_at = c->col[C_GRP].pos, same_at = c->col[C_GSAME].pos, meta_at = c->col[C_GMETA].pos;
	size_t ng = cv_count(c, C_GRP, 0);
	bool same = !c->bad && ng == s->n_groups;
	for (size_t i = 0; i < ng && same; i++) /* tag 0: the previous group after the last one matched */
		same = cv_u64(c, C_GRP, 0) == 0 && !c->bad;
	/* a group whose slow fields changed (a member joined, its state moved) keeps its place if its
	 * partition keys did not: its new slow fields are read apart (into `fresh`, in the order of `changed`) */
	lt_snapshot *fresh = NULL; /* (made for the first changed group) */
	size_t *changed = NULL, n_changed = 0;
	for (size_t i = 0; i < ng && same; i++) {
		if (cv_u64(c, C_GSAME, 0) == 1 && !c->bad)
			continue;
		const lt_group *g = &s->groups[i];
		if (!fresh)
			fresh = snapshot_new();
		lt_group *f = snapshot_add_group(fresh, g->group);
		same = !c->bad && read_group_meta(c, f) && keys_same(f, g);
		changed = xrealloc(changed, (n_changed + 1) * sizeof *changed);
		changed[n_changed++] = i;
	}
	if (!same) {
		c->col[C_GRP].pos = grp_at;
		c->col[C_GSAME].pos = same_at;
		c->col[C_GMETA].pos = meta_at;
		c->bad = false;
		free(changed);
		snapshot_unref(fresh);
		return false;
	}
	for (size_t j = 0; j < n_changed; j++) {
		lt_group *g = &s->groups[changed[j]];
		group_clear_slow_fields(g);
		meta_copy_slow(g, &fresh->groups[j], c->light);
	}
	free(changed);
	snapshot_unref(fresh);
	/* the header is the record's own: decoded apart, then swapped in (all but the groups) */
	lt_snapshot *h = snapshot_new();
	code_header(c, NULL, h, s);
	lt_snapshot old = *s;
	*s = *h;
	s->refs = old.refs;
	s->n_groups = old.n_groups;
	s->groups = old.groups;
	s->strtab = old.strtab;
	old.refs = h->refs;
	old.n_groups = 0;
	old.groups = NULL;
	old.strtab = h->strtab;
	*h = old;
	snapshot_unref(h);
	const int64_t now = s->taken_at_ms, dt = wadd(now, (int64_t)(0 - (uint64_t)old.taken_at_ms));
	size_t flat = 0;
	const bool v2 = c->version >= 2;
	size_t total = 0;
	for (size_t i = 0; i < ng; i++)
		total += s->groups[i].n_partitions;
	struct rc_ahead *ahead = v2 && total <= c->n_rings ? decode_ahead_start(c, total) : NULL;
	c->n_next = 0;
	if (v2 && !ahead)
		seen_begin(&c->seen, c->n_rings);
	/* (with a worker reading next_ctx, total is what was noted, so note_begin never reallocates it) */
	const bool note = note_begin(c, total);
	for (size_t i = 0; i < ng && !c->bad; i++) {
		lt_group *g = &s->groups[i];
		struct seen_walk walk = { 0 };
		for (size_t k = 0; k < g->n_partitions && !c->bad; k++, flat++) {
			if (flat >= c->n_rings) {
				fail(c,
				     "record: more partitions than samples"); /* (cannot happen: rings follow prev) */
				break;
			}
			lt_partition *p = &g->partitions[k];
			struct ring *r = &c->rings[flat];
			const int64_t *seen_end = NULL;
			if (ahead) {
				decode_ahead_wait(ahead, flat);
				seen_end = c->next_seen[flat]; /* (the layout is the previous record's) */
				c->pre = &ahead->res[flat * N_RC];
			} else if (v2)
				seen_end = seen_end_of(&c->seen, &walk, s, i, k);
			if (c->light) {
				/* only the flags and offsets, each read before it is written */
				decode_partition_light(c, p, p, r, false, seen_end);
			} else {
				lt_partition before = *p;
				lt_partition_ext px = { 0 },
						 *x = p->ext && p->ext <= g->n_pext ? &g->pext[p->ext - 1] : NULL;
				if (x) {
					px = *x;
					*x = (lt_partition_ext){ 0 };
				}
				code_partition(c, NULL, NULL, p, g, &before, &px, r, false, now, dt, seen_end,
					       s->status_window);
				free(px.commit_metadata);
			}
			ring_push(r, false, p->committed, p->log_end, p->has_lag ? p->lag : LAG_UNKNOWN);
			if (note)
				note_next(c, flat, r, p, seen_end);
		}
	}
	if (ahead)
		decode_ahead_end(c, ahead);
	if (note && !c->bad && flat == total)
		c->n_next = total;
	c->times[c->tick++ & (LT_REC_HISTORY - 1)] = now;
	for (size_t i = 0, gflat = 0; i < ng && !c->bad && !c->light; gflat += s->groups[i].n_partitions, i++) {
		lt_group before = s->groups[i];
		code_group_values(c, NULL, &s->groups[i], &before, dt, c->rings + gflat);
	}
	return true;
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

/* Payload: "number of columns" then each column's length, then the columns. */
void rec_encode(rec_codec *c, const lt_snapshot *s, bool key, unsigned char **buf, size_t *len, size_t *cap)
{
	c->enc = true;
	c->bad = false;
	for (int i = 0; i < N_COL; i++)
		c->col[i].len = 0;
	for (int i = 0; i < N_RC; i++)
		rc_enc_init(&c->rce[i]);
	code_record(c, s, NULL, key);
	if (c->version >= 2) {
		static const enum col rc_col[N_RC] = { C_COMMIT, C_LEND };
		for (int i = 0; i < N_RC; i++) {
			rc_enc_finish(&c->rce[i]);
			put_bytes(&c->col[rc_col[i]], c->rce[i].p, c->rce[i].len);
		}
	}
	struct col_buf out = { .p = *buf, .len = *len, .cap = *cap };
	const int ncol = c->version >= 2 ? N_COL : N_COL_V1;
	put_u64(&out, (uint64_t)ncol);
	for (int i = 0; i < ncol; i++)
		put_u64(&out, c->col[i].len);
	for (int i = 0; i < ncol; i++)
		if (c->col[i].len)
			put_bytes(&out, c->col[i].p, c->col[i].len);
	*buf = out.p;
	*len = out.len;
	*cap = out.cap;
	if (c->prev)
		snapshot_unref(c->prev);
	c->prev = snapshot_ref((lt_snapshot *)s);
	/* this record's groups' bytes are the next one's previous ones */
	struct col_buf *t = c->pmeta;
	size_t tcap = c->cap_pmeta;
	c->pmeta = c->nmeta;
	c->cap_pmeta = c->cap_nmeta;
	c->n_pmeta = c->bad ? 0 : s->n_groups;
	c->nmeta = t;
	c->cap_nmeta = tcap;
}

lt_snapshot *rec_decode(rec_codec *c, const unsigned char *buf, size_t len, bool key, char *err, size_t errlen)
{
	c->enc = false;
	c->bad = false;
	struct col_buf in = { .p = (unsigned char *)buf, .len = len };
	uint64_t ncol = 0;
	const int want = c->version >= 2 ? N_COL : N_COL_V1;
	if (!get_u64(&in, &ncol) || ncol != (uint64_t)want) {
		snprintf(err, errlen, "record has %llu columns, version %u has %d", (unsigned long long)ncol,
			 c->version, want);
		return NULL;
	}
	uint64_t lens[N_COL] = { 0 };
	for (int i = 0; i < want; i++)
		if (!get_u64(&in, &lens[i])) {
			snprintf(err, errlen, "record's column table is cut short");
			return NULL;
		}
	size_t off = in.pos;
	for (int i = 0; i < N_COL; i++) {
		if (lens[i] > len - off) {
			snprintf(err, errlen, "record's %s column runs past its end", col_names[i]);
			return NULL;
		}
		/* decoder columns point into buf (never written) */
		free(c->col[i].p);
		c->col[i].p = NULL;
		c->col[i].cap = 0;
		c->col[i].len = (size_t)lens[i];
		c->col[i].pos = 0;
		off += (size_t)lens[i];
	}
	if (off != len) {
		snprintf(err, errlen, "record has %zu bytes after its columns", len - off);
		return NULL;
	}
	unsigned char *base = (unsigned char *)buf + in.pos;
	for (int i = 0; i < N_COL; i++) {
		c->col[i].p = base;
		base += c->col[i].len;
	}
	static const enum col rc_col[N_RC] = { C_COMMIT, C_LEND };
	if (c->version >= 2)
		for (int i = 0; i < N_RC; i++)
			rc_dec_init(&c->rcd[i], c->col[rc_col[i]].p, c->col[rc_col[i]].len);
	lt_snapshot *out;
	if (c->hidden && !key && decode_in_place(c))
		out = snapshot_ref(c->prev);
	else {
		c->n_next = 0; /* (the contexts noted are for the same layout, in place) */
		out = snapshot_new();
		code_record(c, NULL, out, key);
	}
	if (c->version >= 2)
		for (int i = 0; i < N_RC && !c->bad; i++) {
			if (!rc_dec_done(&c->rcd[i]))
				fail(c, "%s column: the range-coded values do not end where the column does",
				     col_names[rc_col[i]]);
			c->col[rc_col[i]].pos = c->col[rc_col[i]].len;
		}
	for (int i = 0; i < N_COL && !c->bad; i++)
		if (c->col[i].pos != c->col[i].len && (!c->light || light_reads((enum col)i)))
			fail(c, "%s column has %zu bytes left over", col_names[i], c->col[i].len - c->col[i].pos);
	/* a warm-up record lacks its members, and a hidden one's statuses were not predicted: never drawn */
	if (!c->bad && !c->light && !c->hidden)
		validate(c, out);
	for (int i = 0; i < N_COL; i++) /* the columns were borrowed from buf */
		c->col[i] = (struct col_buf){ 0 };
	if (c->bad) {
		snprintf(err, errlen, "%s", c->why);
		snapshot_unref(out);
		rec_codec_reset(c);
		return NULL;
	}
	if (c->prev)
		snapshot_unref(c->prev);
	c->prev = snapshot_ref(out);
	return out;
}

void rec_codec_set_light(rec_codec *c, bool light)
{
	c->light = light;
	c->hidden = light;
}

void rec_codec_set_hidden(rec_codec *c, bool hidden)
{
	c->hidden = hidden || c->light;
}

void rec_codec_set_ahead_min(rec_codec *c, size_t partitions)
{
	c->ahead_min = partitions;
}

size_t rec_codec_partition_lags(const rec_codec *c, const char *group, const char *topic, int32_t partition,
				int64_t *out, size_t max)
{
	if (!c->prev)
		return 0;
	size_t flat = 0;
	for (size_t i = 0; i < c->prev->n_groups; i++) {
		const lt_group *g = &c->prev->groups[i];
		if (strcmp(g->group, group) != 0) {
			flat += g->n_partitions;
			continue;
		}
		for (size_t k = 0; k < g->n_partitions; k++)
			if (g->partitions[k].partition == partition && strcmp(g->partitions[k].topic, topic) == 0) {
				const struct ring *r = &c->rings[flat + k];
				size_t n = 0;
				for (size_t j = 0; j < r->n && n < max; j++)
					if (r->lag[RI(r, j)] != LAG_UNKNOWN)
						out[n++] = r->lag[RI(r, j)];
				return n;
			}
		return 0;
	}
	return 0;
}
