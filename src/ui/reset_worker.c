/* reset_worker.c — the reset executor on a worker thread (see reset_worker.h). The preview is
 * reset_exec_preview, as for src/cli/reset_cmd.c: gather, guard (refuse before planning, like
 * kafka-consumer-groups), plan; the commit is reset_exec_commit, which checks the guard again, writes the
 * backup and reads back.
 * A delete (D) mirrors src/cli/delete_cmd.c: its preview is the executor's dry run, its commit the delete. */
#include "config.h"

#include "ui/reset_worker.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kafka/reset_store.h"
#include "util/xalloc.h"

struct rw_worker {
	int pipe[2];
	pthread_t thread;
	bool running; /* a thread was started and not joined */
	struct rw_job *job;
};

struct rw_job *rw_job_new(enum rw_kind kind, const struct lt_connection *conn, int timeout_ms)
{
	struct rw_job *j = xcalloc(1, sizeof *j);
	j->kind = kind;
	connection_copy(&j->conn, conn);
	j->timeout_ms = timeout_ms;
	return j;
}

void rw_job_free(struct rw_job *j)
{
	if (!j)
		return;
	connection_free(&j->conn); /* wipes the values: they may be secrets (sasl.password) */
	free(j->group);
	reset_request_free(&j->rq);
	reset_plan_free(j->plan_out);
	free(j->msg);
	free(j->desc_out);
	if (j->kind == RW_COMMIT && !j->del)
		reset_result_free(&j->res);
	delete_result_free(&j->dres);
	for (size_t i = 0; i < j->n_del_scopes; i++)
		free(j->del_scopes[i]);
	free(j->del_scopes);
	free(j);
}

static lt_reset_conn *job_connect(struct rw_job *j, char *err, size_t errlen)
{
	return reset_conn_new(&j->conn, j->timeout_ms, err, errlen);
}

/* An undo's request, from the backup of the group's newest change (reset_exec_undo_choose, as --undo):
 * 0 with *note saying which backup, from when and what it undoes; -1 with j->msg. */
static int undo_request(struct rw_job *j, lt_reset_conn *c, char **note)
{
	char err[1024];
	lt_undo_choice u;
	reset_request_free(&j->rq);
	memset(&j->rq, 0, sizeof j->rq);
	if (reset_exec_undo_choose(c, j->group, NULL, &u, err, sizeof err) != 0 ||
	    reset_undo_request_from(j->group, u.path, &j->rq, err, sizeof err) != 0) {
		reset_undo_choice_free(&u);
		j->msg = xstrdup(err);
		return -1;
	}
	j->desc_out = xasprintf("undo %s", u.path);
	*note = xasprintf("Backup: %s%s%s%s\n%s%s%s%s", u.path, u.taken[0] ? " (taken " : "", u.taken,
			  u.taken[0] ? ")" : "",
			  u.undone_target ? "It undoes the group's newest change: "
					  : "No change of the group is on "
					    "record: this is its newest backup",
			  u.undone_target ? u.undone_target : "", u.undone_target ? ", at " : "",
			  u.undone_when ? u.undone_when : "");
	if (u.undoes_undo) {
		char *more = xasprintf("%s\nThat change was itself an undo: this undo of an undo re-applies what it "
				       "reverted.",
				       *note);
		free(*note);
		*note = more;
	}
	reset_undo_choice_free(&u);
	return 0;
}

static void run_preview(struct rw_job *j)
{
	char err[1024];
	lt_reset_conn *c = job_connect(j, err, sizeof err);
	if (!c) {
		j->msg = xstrdup(err);
		return;
	}
	char *note = NULL;
	if (j->undo && undo_request(j, c, &note) != 0) {
		reset_conn_free(c);
		return;
	}
	lt_reset_preview pv;
	j->refused = reset_exec_preview(c, &j->rq, &pv) == LT_PREVIEW_REFUSED;
	j->plan_out = pv.plan;
	pv.plan = NULL;
	j->msg = pv.message ? pv.message : note; /* a planned undo shows its note */
	if (pv.message)
		free(note);
	pv.message = NULL;
	reset_preview_free(&pv);
	reset_conn_free(c);
}

static void run_commit(struct rw_job *j)
{
	char err[1024];
	lt_reset_conn *c = job_connect(j, err, sizeof err);
	if (!c) {
		memset(&j->res, 0, sizeof j->res);
		j->res.status = LT_EXEC_FAILED;
		j->res.message = xstrdup(err);
		return;
	}
	reset_exec_commit(c, j->plan, j->target_desc, &j->res);
	reset_conn_free(c);
}

/* A delete (D), or its dry run for the preview: the same guard, backup and audit as --delete. */
static void run_delete(struct rw_job *j)
{
	char err[1024];
	bool dry_run = j->kind == RW_PREVIEW;
	memset(&j->dres, 0, sizeof j->dres);
	lt_reset_conn *c = job_connect(j, err, sizeof err);
	if (!c) {
		delete_result_set_failed(&j->dres, xstrdup(err));
		return;
	}
	if (j->n_del_scopes) {
		lt_reset_request rq;
		memset(&rq, 0, sizeof rq);
		rq.group = xstrdup(j->group);
		int rc = 0;
		for (size_t i = 0; i < j->n_del_scopes && rc == 0; i++)
			rc = reset_request_add_topic(&rq, j->del_scopes[i], err, sizeof err);
		if (rc != 0)
			delete_result_set_failed(&j->dres, xstrdup(err));
		else
			delete_exec_offsets(c, &rq, dry_run, &j->dres);
		reset_request_free(&rq);
	} else {
		delete_exec_group(c, j->group, dry_run, &j->dres);
	}
	reset_conn_free(c);
}

void rw_job_run(struct rw_job *j)
{
	if (j->del)
		run_delete(j);
	else if (j->kind == RW_PREVIEW)
		run_preview(j);
	else
		run_commit(j);
}

static void *thread_main(void *arg)
{
	struct rw_worker *w = arg;
	rw_job_run(w->job);
	char c = 1;
	if (write(w->pipe[1], &c, 1) < 0) {
		/* the pipe holds at most a byte per job: it cannot be full */
	}
	return NULL;
}

struct rw_worker *rw_new(char *err, size_t errlen)
{
	struct rw_worker *w = xcalloc(1, sizeof *w);
	if (pipe2(w->pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
		snprintf(err, errlen, "cannot create a pipe: %s", strerror(errno));
		free(w);
		return NULL;
	}
	return w;
}

void rw_free(struct rw_worker *w)
{
	if (!w)
		return;
	if (w->running)
		pthread_join(w->thread, NULL);
	rw_job_free(w->job);
	close(w->pipe[0]);
	close(w->pipe[1]);
	free(w);
}

int rw_fd(const struct rw_worker *w)
{
	return w ? w->pipe[0] : -1;
}

bool rw_busy(const struct rw_worker *w)
{
	return w && w->running;
}

int rw_start(struct rw_worker *w, struct rw_job *job, char *err, size_t errlen)
{
	if (w->running) {
		snprintf(err, errlen, "the previous reset request is still running; try again in a moment");
		return -1;
	}
	w->job = job;
	int rc = pthread_create(&w->thread, NULL, thread_main, w);
	if (rc != 0) {
		w->job = NULL;
		snprintf(err, errlen, "cannot start the reset thread: %s", strerror(rc));
		return -1;
	}
	w->running = true;
	return 0;
}

struct rw_job *rw_collect(struct rw_worker *w)
{
	char buf[16];
	if (!w->running || read(w->pipe[0], buf, sizeof buf) <= 0)
		return NULL;
	pthread_join(w->thread, NULL);
	w->running = false;
	struct rw_job *j = w->job;
	w->job = NULL;
	return j;
}
