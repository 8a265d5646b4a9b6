/* sources.c — fetch, parse, match and watch a cluster's position sources (sources.h). */
#include "position/sources.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "position/commitwatch.h"
#include "position/fetch.h"
#include "position/match.h"
#include "position/rdkstats.h"
#include "util/timeutil.h"
#include "util/xalloc.h"

struct lt_pos_sources {
	size_t n;
	char **locations;
	char *names_store[3 * LT_PROM_MAX_NAMES + 3]; /* copies behind names */
	lt_prom_names names;
	int64_t max_age_ms;
	int timeout_ms;
	size_t max_bytes;
	lt_commitwatch *watch;

	/* one collection */
	pthread_t thread;
	bool running;
	int64_t deadline_ms;
	const bool *stop;
	lt_pos_fetch *fetch;
	lt_pos_reports *reports;
	int64_t *taken_ms;
};

static const char *keep(lt_pos_sources *ps, size_t *k, const char *s)
{
	if (!s)
		return NULL;
	ps->names_store[*k] = xstrdup(s);
	return ps->names_store[(*k)++];
}

lt_pos_sources *pos_sources_new(const lt_pos_sources_conf *conf)
{
	if (!conf || !conf->n)
		return NULL;
	lt_pos_sources *ps = xcalloc(1, sizeof *ps);
	ps->n = conf->n;
	ps->locations = xcalloc(conf->n, sizeof *ps->locations);
	for (size_t i = 0; i < conf->n; i++)
		ps->locations[i] = xstrdup(conf->locations[i]);
	size_t k = 0;
	const lt_prom_names *in = &conf->names, *def = &prom_names_builtin;
	const char *const *lead = in->lead[0] ? in->lead : def->lead;
	const char *const *lag = in->lag[0] ? in->lag : def->lag;
	for (int i = 0; i < LT_PROM_MAX_NAMES; i++) {
		ps->names.position[i] = keep(ps, &k, in->position[i]);
		ps->names.lead[i] = keep(ps, &k, lead[i]);
		ps->names.lag[i] = keep(ps, &k, lag[i]);
	}
	ps->names.client_label = keep(ps, &k, in->client_label ? in->client_label : def->client_label);
	ps->names.topic_label = keep(ps, &k, in->topic_label ? in->topic_label : def->topic_label);
	ps->names.partition_label = keep(ps, &k, in->partition_label ? in->partition_label : def->partition_label);
	ps->max_age_ms = conf->max_age_ms > 0 ? conf->max_age_ms : LT_POS_DEFAULT_MAX_AGE_MS;
	ps->timeout_ms = conf->timeout_ms > 0 ? conf->timeout_ms : 5000;
	ps->max_bytes = conf->max_bytes ? conf->max_bytes : LT_POS_DEFAULT_MAX_BYTES;
	ps->watch = commitwatch_new(conf->not_committing_ms); /* <= 0: the one default (model.h) */
	ps->fetch = xcalloc(ps->n, sizeof *ps->fetch);
	ps->reports = xcalloc(ps->n, sizeof *ps->reports);
	ps->taken_ms = xcalloc(ps->n, sizeof *ps->taken_ms);
	return ps;
}

static void clear_collection(lt_pos_sources *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		pos_fetch_clear(&ps->fetch[i]);
		pos_reports_free(&ps->reports[i]);
	}
}

static void parse_one(lt_pos_sources *ps, size_t i)
{
	lt_pos_fetch *f = &ps->fetch[i];
	pos_reports_init(&ps->reports[i]);
	if (!f->body)
		return;
	size_t k = 0;
	while (k < f->len && (f->body[k] == ' ' || f->body[k] == '\t' || f->body[k] == '\r' || f->body[k] == '\n'))
		k++;
	if (k < f->len && f->body[k] == '{')
		rdkstats_extract_positions(f->body, f->len, &ps->reports[i]);
	else
		prom_extract_positions(f->body, f->len, &ps->names, &ps->reports[i]);
	pos_fetch_clear(f); /* the reports hold what is needed */
}

static void *collect(void *arg)
{
	lt_pos_sources *ps = arg;
	int64_t started = now_wall_ms();
	for (size_t i = 0; i < ps->n; i++)
		ps->fetch[i].location = ps->locations[i];
	pos_fetch_all(ps->fetch, ps->n, ps->timeout_ms, ps->deadline_ms, ps->max_bytes, ps->stop);
	for (size_t i = 0; i < ps->n; i++) {
		ps->taken_ms[i] = ps->fetch[i].mtime_ms >= 0 ? ps->fetch[i].mtime_ms : started;
		parse_one(ps, i);
	}
	return NULL;
}

void pos_sources_start(lt_pos_sources *ps, int64_t deadline_ms, const bool *stop)
{
	if (!ps || ps->running)
		return;
	clear_collection(ps);
	ps->deadline_ms = deadline_ms;
	ps->stop = stop;
	ps->running = pthread_create(&ps->thread, NULL, collect, ps) == 0;
	if (!ps->running)
		collect(ps); /* no thread: fetch here (still bounded by the deadline) */
}

void pos_sources_finish(lt_pos_sources *ps, lt_snapshot *s)
{
	if (!ps)
		return;
	if (ps->running) {
		pthread_join(ps->thread, NULL);
		ps->running = false;
	}
	if (!s)
		return;
	int64_t now_ms = now_wall_ms(); /* after the wait: a report fetched during it is not from the future */
	lt_pos_input *in = xcalloc(ps->n, sizeof *in);
	for (size_t i = 0; i < ps->n; i++) {
		in[i].location = ps->locations[i];
		bool failed = ps->fetch[i].status[0] != '\0';
		in[i].reports = failed ? NULL : &ps->reports[i];
		in[i].failure = failed ? ps->fetch[i].status : NULL;
		in[i].taken_ms = ps->taken_ms[i];
	}
	pos_match(s, in, ps->n, now_ms, ps->max_age_ms);
	commitwatch_apply(ps->watch, s);
	free(in);
}

void pos_sources_free(lt_pos_sources *ps)
{
	if (!ps)
		return;
	if (ps->running)
		pthread_join(ps->thread, NULL);
	clear_collection(ps);
	for (size_t i = 0; i < ps->n; i++)
		free(ps->locations[i]);
	free(ps->locations);
	for (size_t i = 0; i < sizeof ps->names_store / sizeof ps->names_store[0]; i++)
		free(ps->names_store[i]);
	commitwatch_free(ps->watch);
	free(ps->fetch);
	free(ps->reports);
	free(ps->taken_ms);
	free(ps);
}
