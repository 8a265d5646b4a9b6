/* log_offsets.c — log start and log end of every partition in a snapshot (see log_offsets.h). */
#include "config.h"

#include "kafka/log_offsets.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/errbuf.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

/* One thread per chunk of a partition leader's partitions (offsets_for_times blocks), at most this many
 * at a time. */
#define MAX_LEADER_THREADS 16
/* Partitions per offsets_for_times call. librdkafka 2.0.2 matches a ListOffsets answer to its request
 * with rd_kafka_topic_partition_list_find, a linear scan per partition, so a call costs O(n^2) strcmp:
 * with all of a leader's partitions in one call that was ~20% of a refresh's CPU on bench M (1,067
 * partitions per leader) and seconds on bench L (10,667). Chunks bound it at O(n * chunk) for one more
 * ListOffsets pair per chunk (doc/PERFORMANCE.md). */
#define OFFSETS_CHUNK 250

/* Admin ListOffsets calls in flight at once (two per chunk: earliest and latest). All of bench L's chunks
 * at once (256 calls) held librdkafka's copies of every request and result together, ~17 MB at the
 * steady refresh's peak; a window of 16 calls holds about 1 MB and keeps every leader busy. */
#define LIST_OFFSETS_IN_FLIGHT 16

struct tp_ent {
	const char *topic; /* points into the snapshot: interned, so one pointer per topic name */
	int32_t partition;
	int32_t leader; /* -1: none (topic gone, partition unknown, no leader) */
	int64_t log_start, log_end;
	int64_t start_read_at; /* when log_start was read (carried: an earlier refresh) */
	bool carried;          /* log_start kept from an earlier refresh (log_starts.h): not asked again */
	bool ok;
};

/* By topic pointer, not name: the snapshot interns its topic names (snapshot.h), so equal names are
 * equal pointers, and the order only has to group and find entries. strcmp here was ~5% of a
 * refresh's CPU on bench M (32,000 rows sorted and looked up). */
static int cmp_tp(const void *a, const void *b)
{
	const struct tp_ent *x = a, *y = b;
	uintptr_t tx = (uintptr_t)x->topic, ty = (uintptr_t)y->topic;
	if (tx != ty)
		return (tx > ty) - (tx < ty);
	return (x->partition > y->partition) - (x->partition < y->partition);
}

static int cmp_tp_leader(const void *a, const void *b)
{
	const struct tp_ent *x = a, *y = b;
	if (x->leader != y->leader)
		return (x->leader > y->leader) - (x->leader < y->leader);
	return cmp_tp(a, b);
}

static int cmp_md_topic(const void *a, const void *b)
{
	return strcmp((*(const rd_kafka_metadata_topic_t *const *)a)->topic,
		      (*(const rd_kafka_metadata_topic_t *const *)b)->topic);
}

static const rd_kafka_metadata_topic_t *md_topic(const rd_kafka_metadata_topic_t *const *idx, size_t n,
						 const char *topic)
{
	rd_kafka_metadata_topic_t key = { .topic = (char *)topic };
	const rd_kafka_metadata_topic_t *kp = &key;
	const rd_kafka_metadata_topic_t *const *hit = bsearch(&kp, idx, n, sizeof *idx, cmp_md_topic);
	return hit && !(*hit)->err ? *hit : NULL;
}

static int32_t leader_of(const rd_kafka_metadata_topic_t *mt, const struct rd_kafka_metadata *md, int32_t partition)
{
	if (!mt)
		return -1;
	/* Partitions are usually listed in id order: start looking at index `partition` (O(1) then, rather
	 * than a scan per partition: topics of 64 partitions on bench L). */
	for (int k = 0; k < mt->partition_cnt; k++) {
		int i = (partition >= 0 && partition < mt->partition_cnt) ? (partition + k) % mt->partition_cnt : k;
		const rd_kafka_metadata_partition_t *mp = &mt->partitions[i];
		if (mp->id != partition)
			continue;
		if (mp->leader < 0)
			return -1;
		for (int b = 0; b < md->broker_cnt; b++)
			if (md->brokers[b].id == mp->leader)
				return mp->leader;
		return -1; /* leader not among the live brokers */
	}
	return -1;
}

/* Whether tps[from..to) (a chunk) needs its log starts asked: some were not carried from an earlier refresh.
 * A chunk whose log starts were all carried asks only for its log ends. */
static bool chunk_asks_start(const struct tp_ent *tps, size_t from, size_t to)
{
	for (size_t i = from; i < to; i++)
		if (!tps[i].carried)
			return true;
	return false;
}

struct leader_job {
	rd_kafka_t *rk;
	struct tp_ent *tps; /* a chunk of this leader's range */
	size_t n;
	int64_t deadline;
	rd_kafka_resp_err_t err;
	int32_t leader;
};

/* Two offsets_for_times calls for one chunk of a leader's partitions: −2 (log start) then −1 (log end);
 * each sends one ListOffsets. A call per leader (rather than one for all) keeps a dead leader from failing the
 * others: offsets_for_times drops every result when any leader fails. */
static void *leader_job_run(void *arg)
{
	struct leader_job *j = arg;
	static const int64_t which[2] = { -2, -1 };
	bool ask_start = chunk_asks_start(j->tps, 0, j->n);
	for (size_t i = 0; i < j->n && !ask_start; i++)
		j->tps[i].ok = true; /* every log start carried */
	for (int w = ask_start ? 0 : 1; w < 2 && !j->err; w++) {
		rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)j->n);
		for (size_t i = 0; i < j->n; i++)
			rd_kafka_topic_partition_list_add(l, j->tps[i].topic, j->tps[i].partition)->offset = which[w];
		int r = deadline_remaining_ms(j->deadline);
		j->err = r > 0 ? rd_kafka_offsets_for_times(j->rk, l, r) : RD_KAFKA_RESP_ERR__TIMED_OUT;
		for (int i = 0; !j->err && i < l->cnt; i++) {
			const rd_kafka_topic_partition_t *e = &l->elems[i];
			struct tp_ent *t = &j->tps[i];
			/* The list keeps its order: element i is tps[i]. */
			if (e->err || e->offset < 0) {
				t->ok = false;
				continue;
			}
			if (w == 0) {
				t->log_start = e->offset;
				t->carried = false;
				t->ok = true;
			} else if (t->ok) {
				t->log_end = e->offset;
			}
		}
		rd_kafka_topic_partition_list_destroy(l);
	}
	if (j->err)
		for (size_t i = 0; i < j->n; i++)
			j->tps[i].ok = false;
	return NULL;
}

/* tps is sorted by leader: the end of the chunk that starts at i — the same leader, at most OFFSETS_CHUNK
 * partitions. Both paths ask one chunk per call. */
static size_t chunk_end(const struct tp_ent *tps, size_t n, size_t i)
{
	size_t e = i + 1;
	while (e < n && e - i < OFFSETS_CHUNK && tps[e].leader == tps[i].leader)
		e++;
	return e;
}

/* offsets_for_times, one call pair per chunk of a leader's partitions, leaders in parallel threads.
 * tps is sorted by leader. Returns the failed calls' errors through s->error. */
static void fill_by_offsets_for_times(rd_kafka_t *rk, lt_snapshot *s, struct tp_ent *tps, size_t n, int64_t deadline)
{
	size_t n_jobs = 0;
	struct leader_job *jobs = xcalloc(n, sizeof *jobs);
	for (size_t i = 0, e; i < n; i = e) {
		e = chunk_end(tps, n, i);
		if (tps[i].leader >= 0)
			jobs[n_jobs++] = (struct leader_job){
				.rk = rk, .tps = &tps[i], .n = e - i, .deadline = deadline, .leader = tps[i].leader
			};
	}
	for (size_t b = 0; b < n_jobs; b += MAX_LEADER_THREADS) {
		pthread_t th[MAX_LEADER_THREADS];
		bool started[MAX_LEADER_THREADS] = { false };
		size_t end = b + MAX_LEADER_THREADS < n_jobs ? b + MAX_LEADER_THREADS : n_jobs;
		for (size_t j = b; j < end; j++)
			started[j - b] = pthread_create(&th[j - b], NULL, leader_job_run, &jobs[j]) == 0;
		for (size_t j = b; j < end; j++) {
			if (started[j - b])
				pthread_join(th[j - b], NULL);
			else
				leader_job_run(&jobs[j]);
		}
	}
	for (size_t j = 0; j < n_jobs; j++)
		if (jobs[j].err)
			err_append(&s->error, "ListOffsets (broker %d): %s", (int)jobs[j].leader,
				   rd_kafka_err2str(jobs[j].err));
	free(jobs);
}

#ifdef HAVE_RD_KAFKA_LISTOFFSETS
/* The admin ListOffsets (librdkafka >= 2.3.0): errors come per partition, so a dead leader fails only its
 * own partitions, and every call is asynchronous on one queue: no threads. Calls are chunked like
 * offsets_for_times, OFFSETS_CHUNK partitions of one leader each, earliest and latest for every chunk all
 * in flight together (one ListOffsets request per call): librdkafka merges each leader's answer into the
 * call's result by a linear scan over the call's partitions (rd_kafka_ListOffsets_response_merge, still
 * in 2.15.1), so one call for every partition cost O(n^2): +90 ms of CPU per refresh on bench M (3,200
 * partitions), more than the whole chunked offsets_for_times path (doc/LIBRDKAFKA.md). Answers are matched
 * by name, through an index of tps sorted by (name, partition). */
static int cmp_tp_name(const void *a, const void *b)
{
	const struct tp_ent *x = *(const struct tp_ent *const *)a, *y = *(const struct tp_ent *const *)b;
	int c = strcmp(x->topic, y->topic);
	return c ? c : (x->partition > y->partition) - (x->partition < y->partition);
}

/* tps is sorted by leader: sends the calls for tps[from..to) (one leader's chunk), earliest (unless every log
 * start was carried) and latest; returns how many. */
static int list_offsets_send(rd_kafka_t *rk, rd_kafka_queue_t *q, const struct tp_ent *tps, size_t from, size_t to,
			     int timeout_ms)
{
	static const int64_t spec[2] = { RD_KAFKA_OFFSET_SPEC_EARLIEST, RD_KAFKA_OFFSET_SPEC_LATEST };
	int first = chunk_asks_start(tps, from, to) ? 0 : 1;
	for (int w = first; w < 2; w++) {
		rd_kafka_topic_partition_list_t *l = rd_kafka_topic_partition_list_new((int)(to - from));
		for (size_t i = from; i < to; i++)
			rd_kafka_topic_partition_list_add(l, tps[i].topic, tps[i].partition)->offset = spec[w];
		rd_kafka_AdminOptions_t *o = rd_kafka_AdminOptions_new(rk, RD_KAFKA_ADMIN_OP_LISTOFFSETS);
		char es[256];
		rd_kafka_AdminOptions_set_request_timeout(o, timeout_ms, es, sizeof es);
		/* the high watermark, like kafka-consumer-groups (not the last stable offset) */
		rd_kafka_error_t *e =
			rd_kafka_AdminOptions_set_isolation_level(o, RD_KAFKA_ISOLATION_LEVEL_READ_UNCOMMITTED);
		if (e)
			rd_kafka_error_destroy(e);
		rd_kafka_AdminOptions_set_opaque(o, (void *)(intptr_t)(w + 1));
		rd_kafka_ListOffsets(rk, l, o, q);
		rd_kafka_AdminOptions_destroy(o);
		rd_kafka_topic_partition_list_destroy(l);
	}
	return 2 - first;
}

/* One leader's chunk of tps, [from, to). */
struct chunk {
	size_t from, to;
	size_t rank; /* its place among its leader's chunks */
	int32_t leader;
};

static int cmp_chunk_turn(const void *a, const void *b)
{
	const struct chunk *x = a, *y = b;
	if (x->rank != y->rank)
		return (x->rank > y->rank) - (x->rank < y->rank);
	return (x->leader > y->leader) - (x->leader < y->leader);
}

/* tps is sorted by leader: its chunks with a leader, taking the leaders in turn (every leader's first
 * chunk, then every leader's second...), so that a window of calls in flight keeps every leader busy. */
static struct chunk *chunks_interleaved(const struct tp_ent *tps, size_t n, size_t *n_chunks)
{
	struct chunk *c = xcalloc(n + 1, sizeof *c);
	size_t k = 0, rank = 0;
	for (size_t i = 0, e; i < n; i = e) {
		e = chunk_end(tps, n, i);
		if (tps[i].leader < 0)
			continue;
		rank = k > 0 && c[k - 1].leader == tps[i].leader ? rank + 1 : 0;
		c[k++] = (struct chunk){ .from = i, .to = e, .rank = rank, .leader = tps[i].leader };
	}
	qsort(c, k, sizeof *c, cmp_chunk_turn);
	*n_chunks = k;
	return c;
}

static void fill_by_list_offsets(rd_kafka_t *rk, lt_snapshot *s, struct tp_ent *tps, size_t n, int64_t deadline)
{
	struct tp_ent **byname = xcalloc(n + 1, sizeof *byname);
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		if (tps[i].leader >= 0)
			byname[m++] = &tps[i];
	if (m == 0) {
		free(byname);
		return;
	}
	qsort(byname, m, sizeof *byname, cmp_tp_name);
	bool *got_start = xcalloc(m, sizeof *got_start), *got_end = xcalloc(m, sizeof *got_end);
	for (size_t i = 0; i < m; i++)
		got_start[i] = byname[i]->carried;

	size_t n_chunks = 0;
	struct chunk *chunks = chunks_interleaved(tps, n, &n_chunks);
	rd_kafka_queue_t *q = rd_kafka_queue_new(rk);
	int sent = 0, r = deadline_remaining_ms(deadline);
	size_t next = 0; /* the first chunk not sent yet */
	for (int done = 0; done < sent || next < n_chunks;) {
		r = deadline_remaining_ms(deadline);
		/* at most LIST_OFFSETS_IN_FLIGHT calls at a time: each holds its request and result copies */
		while (next < n_chunks && r > 0 && sent - done < LIST_OFFSETS_IN_FLIGHT) {
			sent += list_offsets_send(rk, q, tps, chunks[next].from, chunks[next].to, r);
			next++;
		}
		if (done == sent)
			break; /* out of time before everything was sent, or nothing left with a leader */
		rd_kafka_event_t *ev = r > 0 ? rd_kafka_queue_poll(q, r < 100 ? r : 100) : NULL;
		if (!ev) {
			if (r > 0)
				continue;
			err_append(&s->error, "ListOffsets: %s", rd_kafka_err2str(RD_KAFKA_RESP_ERR__TIMED_OUT));
			break;
		}
		const rd_kafka_ListOffsets_result_t *res = rd_kafka_event_ListOffsets_result(ev);
		int w = (int)(intptr_t)rd_kafka_event_opaque(ev) - 1;
		if (!res || w < 0 || w > 1) {
			rd_kafka_event_destroy(ev);
			continue;
		}
		done++;
		if (rd_kafka_event_error(ev)) {
			err_append(&s->error, "ListOffsets: %s", rd_kafka_event_error_string(ev));
			rd_kafka_event_destroy(ev);
			continue;
		}
		size_t cnt = 0;
		const rd_kafka_ListOffsetsResultInfo_t **infos = rd_kafka_ListOffsets_result_infos(res, &cnt);
		for (size_t i = 0; i < cnt; i++) {
			const rd_kafka_topic_partition_t *tp = rd_kafka_ListOffsetsResultInfo_topic_partition(infos[i]);
			struct tp_ent key = { .topic = tp->topic, .partition = tp->partition }, *kp = &key;
			struct tp_ent **hit = bsearch(&kp, byname, m, sizeof *byname, cmp_tp_name);
			if (!hit || tp->err || tp->offset < 0)
				continue;
			size_t at = (size_t)(hit - byname);
			if (w == 0) {
				(*hit)->log_start = tp->offset;
				(*hit)->carried = false;
				got_start[at] = true;
			} else {
				(*hit)->log_end = tp->offset;
				got_end[at] = true;
			}
		}
		rd_kafka_event_destroy(ev);
	}
	for (size_t i = 0; i < m; i++)
		byname[i]->ok = got_start[i] && got_end[i];
	/* Late answers are dropped with the queue: a result for a destroyed queue is freed by librdkafka. */
	rd_kafka_queue_destroy(q);
	free(chunks);
	free(got_start);
	free(got_end);
	free(byname);
}

/* Which way log offsets are read: the admin ListOffsets where librdkafka has it, unless
 * LAGTOP_LOG_OFFSETS=offsets_for_times asks for the older path (tests compare the two; the benchmark
 * measures both). */
static bool use_list_offsets(void)
{
	const char *v = getenv("LAGTOP_LOG_OFFSETS");
	return !(v && strcmp(v, "offsets_for_times") == 0);
}
#endif

/* Each partition's log start read less than the kept set's max age ago is carried, not asked. */
static size_t carry_log_starts(const lt_log_starts *kept, struct tp_ent *tps, size_t n, int64_t now)
{
	size_t carried = 0;
	for (size_t i = 0; i < n; i++) {
		tps[i].carried = tps[i].leader >= 0 && log_starts_get(kept, tps[i].topic, tps[i].partition, now,
								      &tps[i].log_start, &tps[i].start_read_at);
		carried += tps[i].carried;
	}
	return carried;
}

/* The log starts to carry into the next refresh: those read now or carried, and not above the log end read now
 * (a log truncated or made again: unknown this time, asked next time). tps is sorted by topic. */
static void keep_log_starts(lt_log_starts *kept, struct tp_ent *tps, size_t n, int64_t now)
{
	for (size_t i = 0; i < n; i++) {
		struct tp_ent *t = &tps[i];
		if (t->ok && t->carried && t->log_start > t->log_end)
			t->log_start = LT_OFFSET_NONE;
		else if (t->ok)
			log_starts_put(kept, t->topic, t->partition, t->log_start, t->carried ? t->start_read_at : now);
	}
	log_starts_commit(kept);
}

void log_offsets_fill(rd_kafka_t *rk, lt_snapshot *s, const struct rd_kafka_metadata *md, int64_t deadline,
		      lt_log_starts *kept)
{
	/* Distinct topic-partitions through a hash set of (interned topic, partition): groups share topics
	 * (10 groups per topic on the benchmarks), and an entry per row cost 13 MB and a sort of 320,000
	 * on bench L for 32,000 distinct partitions. */
	size_t rows = 0;
	for (size_t g = 0; g < s->n_groups; g++)
		rows += s->groups[g].error ? 0 : s->groups[g].n_partitions;
	if (rows == 0)
		return;
	size_t hcap = 64;
	while (hcap < 2 * rows)
		hcap *= 2;
	uint32_t *set = xcalloc(hcap, sizeof *set); /* index + 1 into tps, 0 empty */
	size_t n = 0, cap = 0;
	struct tp_ent *tps = NULL;
	for (size_t g = 0; g < s->n_groups; g++) {
		lt_group *gr = &s->groups[g];
		if (gr->error)
			continue; /* stale or failed groups keep last round's numbers */
		for (size_t k = 0; k < gr->n_partitions; k++) {
			const lt_partition *p = &gr->partitions[k];
			uint64_t h = ((uint64_t)(uintptr_t)p->topic * 0x9E3779B97F4A7C15ull) ^ (uint32_t)p->partition;
			size_t j = (size_t)((h * 0xBF58476D1CE4E5B9ull) >> 32) & (hcap - 1);
			for (; set[j]; j = (j + 1) & (hcap - 1))
				if (tps[set[j] - 1].topic == p->topic && tps[set[j] - 1].partition == p->partition)
					break;
			if (set[j])
				continue;
			tps = xgrow(tps, &cap, n + 1, sizeof *tps);
			tps[n++] = (struct tp_ent){ .topic = p->topic, .partition = p->partition };
			set[j] = (uint32_t)n;
		}
	}
	free(set);
	qsort(tps, n, sizeof *tps, cmp_tp);

	const rd_kafka_metadata_topic_t **idx = xcalloc((size_t)md->topic_cnt + 1, sizeof *idx);
	for (int i = 0; i < md->topic_cnt; i++)
		idx[i] = &md->topics[i];
	qsort(idx, (size_t)md->topic_cnt, sizeof *idx, cmp_md_topic);
	const rd_kafka_metadata_topic_t *mt = NULL;
	size_t n_unseen = 0; /* topics the metadata leaves out: no Describe on them, or deleted */
	char unseen[200] = "";
	for (size_t i = 0; i < n; i++) {
		if (i == 0 || tps[i].topic != tps[i - 1].topic) { /* sorted: one lookup per topic */
			mt = md_topic(idx, (size_t)md->topic_cnt, tps[i].topic);
			if (!mt || mt->err == RD_KAFKA_RESP_ERR_TOPIC_AUTHORIZATION_FAILED) {
				size_t used = strlen(unseen);
				if (n_unseen < 3)
					snprintf(unseen + used, sizeof unseen - used, "%s%s", n_unseen ? ", " : "",
						 tps[i].topic);
				n_unseen++;
			}
		}
		tps[i].leader = leader_of(mt, md, tps[i].partition);
		tps[i].log_start = tps[i].log_end = LT_OFFSET_NONE;
	}
	free(idx);
	if (n_unseen)
		err_append(&s->error,
			   "log offsets unknown for %zu topic%s not in the metadata (not authorized to "
			   "Describe, or deleted): %s%s",
			   n_unseen, n_unseen == 1 ? "" : "s", unseen, n_unseen > 3 ? ", ..." : "");
	int64_t now = now_mono_ms();
	size_t n_carried = kept ? carry_log_starts(kept, tps, n, now) : 0;
	qsort(tps, n, sizeof *tps, cmp_tp_leader);

	const char *via = "rd_kafka_offsets_for_times";
#ifdef HAVE_RD_KAFKA_LISTOFFSETS
	if (use_list_offsets()) {
		via = "rd_kafka_ListOffsets";
		fill_by_list_offsets(rk, s, tps, n, deadline);
	} else
#endif
		fill_by_offsets_for_times(rk, s, tps, n, deadline);
	/* which path ran, for LAGTOP_DEBUG (tests check that LAGTOP_LOG_OFFSETS switches it) */
	const char *dbg = getenv("LAGTOP_DEBUG");
	if (dbg && *dbg && strcmp(dbg, "0") != 0)
		fprintf(stderr, "lagtop: log offsets of %zu partitions via %s (%zu log starts carried)\n", n, via,
			n_carried);

	qsort(tps, n, sizeof *tps, cmp_tp);
	if (kept)
		keep_log_starts(kept, tps, n, now);
	for (size_t g = 0; g < s->n_groups; g++) {
		lt_group *gr = &s->groups[g];
		if (gr->error)
			continue;
		for (size_t k = 0; k < gr->n_partitions; k++) {
			lt_partition *p = &gr->partitions[k];
			struct tp_ent key = { .topic = p->topic, .partition = p->partition };
			struct tp_ent *t = bsearch(&key, tps, n, sizeof *tps, cmp_tp);
			if (t && t->ok) {
				p->log_start = t->log_start;
				p->log_end = t->log_end;
			} else if (t && t->leader >= 0) {
				p->flags |=
					LT_PF_LOG_UNKNOWN; /* asked its live leader: the answer failed or never came */
			} else {
				p->flags |= LT_PF_NO_LEADER;
			}
		}
	}
	free(tps);
}
