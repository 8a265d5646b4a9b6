/* refresh_work.c — the bookkeeping of one refresh: the work set (one entry per group, sorted by
 * name), the result events kept while groups point into them, and the tickets that match an admin
 * result to the refresh that sent it. Calls no other refresh file; sends nothing.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "kafka/explain.h"
#include "kafka/refresh_internal.h"
#include "util/xalloc.h"

bool stopping(const bool *stop)
{
	return stop && __atomic_load_n(stop, __ATOMIC_ACQUIRE);
}

void soff_free(struct group_work *gw)
{
	for (size_t i = 0; i < gw->n_soff; i++)
		free(gw->soff[i].topic);
	free(gw->soff);
	gw->soff = NULL;
	gw->n_soff = 0;
}

/* Described: by the per-group call or by the batch. */
bool has_desc(const struct group_work *gw)
{
	return gw->desc || gw->binfo;
}

int cmp_work(const void *a, const void *b)
{
	return strcmp((*(struct group_work *const *)a)->name, (*(struct group_work *const *)b)->name);
}

struct group_work *work_find(const struct work_set *ws, const char *name)
{
	struct group_work key = { .name = (char *)name }, *kp = &key;
	struct group_work **hit = ws->n ? bsearch(&kp, ws->w, ws->n, sizeof *ws->w, cmp_work) : NULL;
	return hit ? *hit : NULL;
}

struct group_work *work_add(struct work_set *ws, const char *name, bool listed)
{
	ws->w = xgrow(ws->w, &ws->cap, ws->n + 1, sizeof *ws->w);
	struct group_work *gw = xcalloc(1, sizeof *gw);
	gw->name = xstrdup(name);
	gw->listed = listed;
	gw->coord = -1;
	gw->gen = -2;
	ws->w[ws->n++] = gw;
	return gw;
}

/* Sorts and merges duplicates (a group both remembered and given as extra is one group). */
void work_sort(struct work_set *ws)
{
	if (ws->n == 0)
		return;
	qsort(ws->w, ws->n, sizeof *ws->w, cmp_work);
	size_t o = 0;
	for (size_t i = 1; i < ws->n; i++) {
		if (strcmp(ws->w[i]->name, ws->w[o]->name) == 0) {
			if (ws->w[i]->listed && !ws->w[o]->listed) {
				ws->w[o]->list_state = ws->w[i]->list_state;
				ws->w[o]->list_type = ws->w[i]->list_type;
			}
			ws->w[o]->listed |= ws->w[i]->listed;
			free(ws->w[i]->name);
			free(ws->w[i]);
		} else {
			ws->w[++o] = ws->w[i];
		}
	}
	ws->n = o + 1;
}

void work_free(struct work_set *ws)
{
	for (size_t i = 0; i < ws->n; i++) {
		free(ws->w[i]->name);
		free(ws->w[i]->error);
		soff_free(ws->w[i]);
		free(ws->w[i]);
	}
	free(ws->w);
}

struct kept_event *keep_event(struct event_keep *k, rd_kafka_event_t *ev)
{
	k->ev = xgrow(k->ev, &k->cap, k->n + 1, sizeof *k->ev);
	struct kept_event *ke = xcalloc(1, sizeof *ke);
	ke->ev = ev;
	k->ev[k->n++] = ke;
	return ke;
}

/* Destroys the event if no group uses it (any more). */
void release_event(struct kept_event *ke, bool drop_user)
{
	if (!ke)
		return;
	if (drop_user && ke->users > 0)
		ke->users--;
	if (ke->users == 0 && ke->ev) {
		rd_kafka_event_destroy(ke->ev);
		ke->ev = NULL;
	}
}

void keep_free(struct event_keep *k)
{
	for (size_t i = 0; i < k->n; i++) {
		if (k->ev[i]->ev)
			rd_kafka_event_destroy(k->ev[i]->ev);
		free(k->ev[i]);
	}
	free(k->ev);
}

struct lt_ticket *ticket_new(struct lt_refresh_ctx *rc, enum ticket_kind kind, bool cold, struct group_work *const *g,
			     size_t n)
{
	struct lt_ticket *t = xcalloc(1, sizeof *t);
	t->kind = kind;
	t->seq = rc->seq;
	t->cold = cold;
	t->n = n;
	t->names = xcalloc(n + 1, sizeof *t->names);
	for (size_t i = 0; i < n; i++)
		t->names[i] = xstrdup(g[i]->name);
	t->next = rc->tickets;
	if (rc->tickets)
		rc->tickets->prev = t;
	rc->tickets = t;
	return t;
}

void ticket_free(struct lt_refresh_ctx *rc, struct lt_ticket *t)
{
	if (t->prev)
		t->prev->next = t->next;
	else
		rc->tickets = t->next;
	if (t->next)
		t->next->prev = t->prev;
	for (size_t i = 0; i < t->n; i++)
		free(t->names[i]);
	free(t->names);
	free(t);
}

/* Is a cold describe for this group still in flight from an earlier refresh? */
bool cold_in_flight(const struct lt_refresh_ctx *rc, const char *name)
{
	for (const struct lt_ticket *t = rc->tickets; t; t = t->next)
		if (t->cold && t->seq != rc->seq)
			for (size_t i = 0; i < t->n; i++)
				if (strcmp(t->names[i], name) == 0)
					return true;
	return false;
}

void refresh_ctx_close(struct lt_refresh_ctx *rc)
{
	if (rc->q)
		rd_kafka_queue_destroy(rc->q);
	rc->q = NULL;
	while (rc->tickets)
		ticket_free(rc, rc->tickets);
}

void set_error(struct group_work *gw, const char *what, const char *why)
{
	if (gw->error)
		return;
	char acl[200];
	gw->error = xasprintf("%s: %s", what, explain_authorization(what, why, acl, sizeof acl) ? acl : why);
	/* A principal allowed to Describe only some groups still gets the others from ListGroups when it
	 * may Describe the cluster: those are left out of the snapshot and counted in its error. */
	if (strstr(why, rd_kafka_err2str(RD_KAFKA_RESP_ERR_GROUP_AUTHORIZATION_FAILED)))
		gw->unauthorized = true;
}
