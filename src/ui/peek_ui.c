/* peek_ui.c — the record popup (v in the partitions pane): the record at the focused partition's committed
 * offset and at its position, read by src/kafka/record_peek.h on a thread of its own (the UI never waits on the
 * cluster): the popup says "reading..." until the thread writes its pipe, which the loop polls (ui_peek_fd).
 * Read-only. Closing the popup while the read runs leaves it to its bounded end (--timeout); its answer is
 * then dropped. The lines are model/peek.h's, every byte sanitised. */
#include "config.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kafka/record_peek.h"
#include "model/peek.h"
#include "ui/tui.h"
#include "ui/ui.h"
#include "util/sanitize.h"
#include "util/strv.h"
#include "util/xalloc.h"

struct ui_peek {
	pthread_t thread;
	bool running; /* started and not joined */
	bool done;    /* the answer is in */
	int pipe[2];
	struct lt_connection conn;
	int timeout_ms;
	char *topic;
	int32_t partition;
	lt_peek_req req[2]; /* committed, position */
	lt_peeked out[2];
	char err[256]; /* the handle could not be made */
	/* what the popup shows, safe: formatted when the read starts and when its answer is in (peek_shown) */
	char title[200];
	char **lines;
	size_t n_lines;
};

static void peek_shown(struct ui_peek *pk, bool utf8);

static void peek_free(struct ui_peek *pk)
{
	if (!pk)
		return;
	if (pk->running)
		pthread_join(pk->thread, NULL);
	close(pk->pipe[0]);
	close(pk->pipe[1]);
	connection_free(&pk->conn);
	for (int i = 0; i < 2; i++)
		peek_clear(&pk->out[i]);
	strv_free(pk->n_lines, pk->lines);
	free(pk->topic);
	free(pk);
}

static void *peek_main(void *arg)
{
	struct ui_peek *pk = arg;
	lt_peeker *r = peeker_new(&pk->conn, pk->err, sizeof pk->err);
	if (r) {
		peeker_read(r, pk->req, 2, pk->out, pk->timeout_ms);
		peeker_free(r);
	}
	char c = 1;
	if (write(pk->pipe[1], &c, 1) < 0) {
		/* a byte per read: the pipe cannot be full */
	}
	return NULL;
}

void ui_peek_free(struct ui *u)
{
	peek_free(u->peek);
	u->peek = NULL;
}

/* v: the record under the cursor's committed offset and position. */
void ui_peek_open(struct ui *u)
{
	if (u->focus != UI_PANE_PARTS || u->parts.cursor >= u->parts.n_rows)
		return;
	const lt_row *row = &u->parts.rows[u->parts.cursor];
	struct tui_reset_conf rc;
	if (!u->clusters || !u->clusters->reset_conf || u->clusters->reset_conf(u->clusters->ctx, &rc) != 0) {
		ui_set_message(u, "records cannot be read from this data source");
		return;
	}
	if (u->peek && u->peek->running) { /* never wait for it here: the UI does not wait on the cluster */
		ui_set_message(u, "still reading the previous record");
		return;
	}
	ui_peek_free(u);
	struct ui_peek *pk = xcalloc(1, sizeof *pk);
	if (pipe2(pk->pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		free(pk);
		ui_set_message(u, "cannot read the record: no pipe");
		return;
	}
	connection_copy(&pk->conn, rc.conn);
	pk->timeout_ms = rc.timeout_ms;
	pk->topic = xstrdup(row->part->topic);
	pk->partition = row->part->partition;
	const lt_partition *p = row->part;
	pk->req[0] = (lt_peek_req){ pk->topic, p->partition, p->committed, p->log_start, p->log_end };
	pk->req[1] = pk->req[0];
	pk->req[1].offset = p->has_position ? partition_position(row->group, p) : -1;
	u->peek = pk;
	if (pthread_create(&pk->thread, NULL, peek_main, pk) != 0) {
		snprintf(pk->err, sizeof pk->err, "cannot start a thread");
		pk->done = true;
	} else {
		pk->running = true;
	}
	peek_shown(pk, !u->ascii);
	u->popup = UI_POPUP_PEEK;
	u->popup_top = 0;
	u->dirty |= UI_DIRTY_DRAW;
}

int ui_peek_fd(const struct ui *u)
{
	return u->peek && u->peek->running && !u->peek->done ? u->peek->pipe[0] : -1;
}

void ui_peek_wake(struct ui *u)
{
	struct ui_peek *pk = u->peek;
	char buf[8];
	if (!pk || read(pk->pipe[0], buf, sizeof buf) <= 0)
		return;
	pthread_join(pk->thread, NULL);
	pk->running = false;
	pk->done = true;
	if (u->popup != UI_POPUP_PEEK)
		ui_peek_free(u); /* closed meanwhile */
	else
		peek_shown(pk, !u->ascii);
	u->dirty |= UI_DIRTY_DRAW;
}

static void add(char ***lines, size_t *n, const char *line)
{
	*lines = xrealloc(*lines, (*n + 1) * sizeof **lines);
	(*lines)[(*n)++] = xstrdup(line);
}

struct collect {
	char ***lines;
	size_t *n;
};

static void collect_line(void *arg, const char *line)
{
	struct collect *c = arg;
	char buf[600];
	snprintf(buf, sizeof buf, "  %s", line);
	add(c->lines, c->n, buf);
}

/* The popup's lines as the read stands (reading, failed, or the records), into pk->lines. */
static void peek_shown(struct ui_peek *pk, bool utf8)
{
	strv_free(pk->n_lines, pk->lines);
	pk->lines = NULL;
	pk->n_lines = 0;
	char ***lines = &pk->lines;
	size_t *n = &pk->n_lines;
	char *topic = sanitize_dup(pk->topic, utf8);
	snprintf(pk->title, sizeof pk->title, "Record of %s:%d (read-only)", topic, (int)pk->partition);
	free(topic);
	if (!pk->done) {
		add(lines, n, "reading...");
		return;
	}
	if (pk->err[0]) {
		char *e = sanitize_dup(pk->err, utf8);
		char buf[300];
		snprintf(buf, sizeof buf, "cannot read: %s", e);
		add(lines, n, buf);
		free(e);
		return;
	}
	struct collect c = { lines, n };
	for (int k = 0; k < 2; k++) {
		const lt_peeked *r = &pk->out[k];
		char head[64];
		if (r->status == LT_PEEK_NO_OFFSET) {
			if (k == 0)
				add(lines, n, "committed: none");
			continue;
		}
		if (k == 1)
			add(lines, n, "");
		snprintf(head, sizeof head, "%s %lld:", k == 0 ? "committed" : "position", (long long)r->asked);
		add(lines, n, head);
		peek_format(r, utf8, collect_line, &c);
	}
}

char *const *ui_peek_lines(const struct ui *u, const char **title, size_t *n)
{
	const struct ui_peek *pk = u->peek;
	*title = pk ? pk->title : "Record";
	*n = pk ? pk->n_lines : 0;
	return pk ? pk->lines : NULL;
}
