/* reset_worker.h — runs the blocking reset executor (src/kafka/reset_exec.h) off the UI thread.
 *
 * One job at a time, on its own thread, with its own connection (made and freed on that thread). When the
 * job ends the thread writes one byte to a pipe; the UI polls rw_fd() in its loop, then rw_collect() joins
 * the thread and hands back the finished job. The UI never waits on the cluster: a job the user cancelled
 * keeps running to its (bounded) end and is discarded when collected.
 */
#ifndef LAGTOP_UI_RESET_WORKER_H
#define LAGTOP_UI_RESET_WORKER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config/connection.h"
#include "kafka/delete_exec.h"
#include "kafka/reset_exec.h"
#include "reset/plan.h"

enum rw_kind { RW_PREVIEW, RW_COMMIT };

struct rw_job {
	enum rw_kind kind;
	struct lt_connection conn; /* the cluster (a copy: the dashboard may switch cluster meanwhile) */
	int timeout_ms;            /* per cluster request */
	/* RW_PREVIEW: the request (undo: built here from the backup of the group's newest change) */
	bool undo;
	char *group;
	lt_reset_request rq; /* owned by the job */
	/* RW_COMMIT: borrowed from the dialog, which stays open until the job is collected */
	const lt_reset_plan *plan;
	const char *target_desc;
	bool discard; /* the dialog was closed: free the answer when collected */
	/* D: a delete of group (no scopes) or of the offsets del_scopes name (--topic arguments: "T", "T:P,P");
	 * PREVIEW is its dry run */
	bool del;
	char **del_scopes;
	size_t n_del_scopes;

	/* answers */
	bool refused;            /* PREVIEW: the guard refused (msg says why, with the members) */
	lt_reset_plan *plan_out; /* PREVIEW: NULL on error (msg) */
	char *msg;
	char *desc_out;        /* PREVIEW with undo: "undo <backup path>" */
	lt_reset_result res;   /* COMMIT */
	lt_delete_result dres; /* del: PREVIEW and COMMIT */
};

struct rw_worker;

struct rw_worker *rw_new(char *err, size_t errlen);
/* Joins a running job (bounded by its connection's timeouts) and frees everything. */
void rw_free(struct rw_worker *w);
int rw_fd(const struct rw_worker *w);
bool rw_busy(const struct rw_worker *w);
/* Starts job (the worker owns it until rw_collect). -1 with err when busy or the thread cannot start
 * (the job is then still the caller's). */
int rw_start(struct rw_worker *w, struct rw_job *job, char *err, size_t errlen);
/* The finished job, or NULL while it runs / when there is none. The caller frees it with rw_job_free. */
struct rw_job *rw_collect(struct rw_worker *w);

/* A job connecting to conn (copied), each request waiting at most timeout_ms. */
struct rw_job *rw_job_new(enum rw_kind kind, const struct lt_connection *conn, int timeout_ms);
void rw_job_free(struct rw_job *job);

/* The job body, synchronous (the thread calls it; tests may too). */
void rw_job_run(struct rw_job *job);

#endif
