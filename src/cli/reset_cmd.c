/* reset_cmd.c — `lagtop --reset-offsets` and `lagtop --undo`: plan, print, and with --execute commit through
 * the guarded executor, the group's lock held from the preview to the audit line. Exit: 0 planned/executed,
 * 3 refused, 1 cluster or I/O error, 2 usage error, 5 outcome unknown (no answer, and no read-back). */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_common.h"
#include "cli/kcg.h"
#include "cli/modes.h"
#include "cli/target.h"
#include "kafka/reset_exec.h"
#include "kafka/reset_store.h"
#include "reset/csv.h"
#include "reset/plan.h"
#include "reset/render.h"
#include "util/sanitize.h"
#include "util/xalloc.h"

#define FROM_FILE_MAX_BYTES (64u << 20)

static const struct {
	lt_target_kind cli;
	lt_reset_target reset;
} target_map[] = {
	{ LT_TARGET_EARLIEST, LT_RESET_EARLIEST }, { LT_TARGET_LATEST, LT_RESET_LATEST },
	{ LT_TARGET_CURRENT, LT_RESET_CURRENT },   { LT_TARGET_OFFSET, LT_RESET_OFFSET },
	{ LT_TARGET_SHIFT, LT_RESET_SHIFT },       { LT_TARGET_DATETIME, LT_RESET_DATETIME },
	{ LT_TARGET_DURATION, LT_RESET_DURATION }, { LT_TARGET_FILE, LT_RESET_FILE },
};

static lt_reset_target map_target(lt_target_kind k)
{
	for (size_t i = 0; i < sizeof target_map / sizeof target_map[0]; i++)
		if (target_map[i].cli == k)
			return target_map[i].reset;
	return LT_RESET_NONE;
}

lt_reset_conn *cli_reset_connect(const struct lt_options *o, const char *what, int *exit_code, char *err, size_t errlen)
{
	struct lt_config cfg;
	struct lt_target t;
	*exit_code = LT_EXIT_USAGE;
	if (target_from_options(o, &t, stderr, &cfg, err, errlen))
		return NULL;
	lt_reset_conn *c = NULL;
	if (t.read_only)
		snprintf(err, errlen, "%s are disabled for cluster '%s' (read_only = true in %s)", what,
			 connection_name(&t.conn), cfg.path ? cfg.path : "the configuration");
	else
		c = reset_conn_new(&t.conn, o->timeout_ms, err, errlen);
	target_free(&t);
	config_free(&cfg);
	return c;
}

int cli_group_ids(const struct lt_options *o, char ***ids, size_t *n)
{
	*ids = NULL;
	*n = 0;
	if (o->all_groups)
		return kcg_group_ids(o, ids, n);
	*ids = xcalloc(o->n_groups + 1, sizeof **ids);
	for (size_t i = 0; i < o->n_groups; i++) {
		bool seen = false;
		for (size_t k = 0; k < *n && !seen; k++)
			seen = strcmp((*ids)[k], o->groups[i]) == 0;
		if (!seen)
			(*ids)[(*n)++] = xstrdup(o->groups[i]);
	}
	return LT_EXIT_OK;
}

void cli_print_lines(FILE *f, const char *prefix, const char *text)
{
	const char *p = text;
	while (*p) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		char *line = xstrndup(p, len), *safe = sanitize_dup(line, true);
		fprintf(f, "%s%s\n", prefix, safe);
		free(safe);
		free(line);
		p += len + (nl != NULL);
	}
}

/* out: stdout, or stderr when stdout carries the --export CSV. */
static void print_result(const lt_reset_result *res, FILE *out)
{
	/* the per-partition outcome, once a commit was attempted (a backup is always written first) */
	if (res->n_parts && res->backup_path && res->status != LT_EXEC_REFUSED) {
		fprintf(out, "\n%-30s %-10s %-15s %-15s %s\n", "TOPIC", "PARTITION", "PLANNED", "NOW", "RESULT");
		for (size_t i = 0; i < res->n_parts; i++) {
			const lt_reset_part_result *r = &res->parts[i];
			char now[24] = "-", planned[24] = "-"; /* planned "-": the commit was to be deleted */
			if (r->after >= 0)
				snprintf(now, sizeof now, "%lld", (long long)r->after);
			if (r->planned >= 0)
				snprintf(planned, sizeof planned, "%lld", (long long)r->planned);
			char *topic = sanitize_dup(r->topic, true);
			fprintf(out, "%-30s %-10d %-15s %-15s %s\n", topic, r->partition, planned, now,
				r->error                ? r->error
				: !res->readback_ok     ? "unknown"
				: r->matches            ? "ok"
				: r->after == r->before ? "unchanged"
							: "differs");
			free(topic);
		}
	}
	if (res->status == LT_EXEC_REFUSED) {
		for (size_t i = 0; i < res->n_parts; i++)
			if (res->parts[i].error) {
				char *line = xasprintf("%s-%d: refused: %s", res->parts[i].topic,
						       res->parts[i].partition, res->parts[i].error);
				cli_print_lines(stderr, "lagtop: ", line);
				free(line);
			}
	}
	/* "not applied" only when known: from the broker's answer, or from the offsets read back */
	bool known_unapplied = !res->committed && res->status != LT_EXEC_UNKNOWN;
	if (res->backup_path)
		fprintf(stderr, "lagtop: backup of the previous offsets: %s%s\n", res->backup_path,
			known_unapplied ? " (the reset was not applied: the offsets are still these)" : "");
	cli_print_lines(stderr, "lagtop: ", res->message ? res->message : "");
	if (res->audit_error && !(res->message && strstr(res->message, res->audit_error)))
		fprintf(stderr, "lagtop: warning: the audit log was not written: %s\n", res->audit_error);
}

/* With several groups (--group repeated, --all-groups): what happened to each, for the closing summary, and
 * the plans --export prints together at the end (one CSV with a group column, as the tool writes it). */
struct batch {
	bool several;
	char *outcome; /* the current group's outcome, one phrase ("dry run", "refused: ...") */
	size_t n_plans;
	lt_reset_plan **plans;
};

static void set_outcome(struct batch *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void set_outcome(struct batch *b, const char *fmt, ...)
{
	if (!b)
		return;
	free(b->outcome);
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	b->outcome = xstrdup(buf);
}
/* A --to-datetime with no record at or after the time falls back to the log end. kafka-consumer-groups says
 * so on standard output, a blank line before each partition's sentence, before the plan (whose table the
 * tool starts with a blank line: one more after the sentences when a table follows); the plan's own
 * clearer warning (kept for the dashboard's preview) is then not printed again. */
static void print_ts_fallbacks(const lt_reset_plan *plan, bool table_follows)
{
	bool any = false;
	for (size_t i = 0; i < plan->n_rows; i++)
		if (plan->rows[i].notes & LT_RESET_NOTE_TS_FALLBACK) {
			printf("\nWarn: Partition %d from topic %s is empty. Falling back to latest known offset.\n",
			       plan->rows[i].partition, plan->rows[i].topic);
			any = true;
		}
	if (any && table_follows)
		putchar('\n');
}

static bool is_ts_fallback_warning(const lt_reset_plan *plan, const char *warning)
{
	for (size_t i = 0; i < plan->n_rows; i++) {
		if (!(plan->rows[i].notes & LT_RESET_NOTE_TS_FALLBACK))
			continue;
		char *start = xasprintf("Partition %d from topic %s has no message at or after ",
					plan->rows[i].partition, plan->rows[i].topic);
		bool same = strncmp(warning, start, strlen(start)) == 0;
		free(start);
		if (same)
			return true;
	}
	return false;
}

/* An --execute that ends before its commit is audited too (a dry run writes nothing). */
static void audit_early(const struct lt_options *o, lt_reset_conn *c, const char *group, const char *target_desc,
			const char *word, const char *reason)
{
	if (!o->execute)
		return;
	char *ae = reset_exec_audit(c, group, NULL, target_desc, word, NULL, reason);
	if (ae)
		fprintf(stderr, "lagtop: warning: the audit log was not written: %s\n", ae);
	free(ae);
}

/* reset_conn_lock, its failure (not a refusal) worded as what it means for the commit. */
static int lock_group(lt_reset_conn *c, const char *group, char *err, size_t errlen)
{
	char why[512];
	int rc = reset_conn_lock(c, group, why, sizeof why);
	if (rc < 0)
		snprintf(err, errlen, "the group's lock could not be taken, nothing was committed: %s", why);
	else if (rc > 0)
		snprintf(err, errlen, "%s", why);
	return rc;
}

static int exit_for(lt_exec_status st)
{
	switch (st) {
	case LT_EXEC_EXECUTED: return LT_EXIT_OK;
	case LT_EXEC_REFUSED: return LT_EXIT_REFUSED;
	case LT_EXEC_UNKNOWN: return LT_EXIT_UNKNOWN;
	case LT_EXEC_FAILED:
	case LT_EXEC_MISMATCH:
	default: return LT_EXIT_CLUSTER;
	}
}

static void set_result_outcome(struct batch *b, const lt_reset_result *res)
{
	if (res->status == LT_EXEC_EXECUTED)
		set_outcome(b, "executed (backup %s)", res->backup_path);
	else if (res->status == LT_EXEC_UNKNOWN)
		set_outcome(b, "outcome unknown: no answer and no read-back, see above");
	else if (res->status == LT_EXEC_REFUSED)
		set_outcome(b, "refused at commit time: %s",
			    res->committed ? "partly applied, see above" : "not applied");
	else
		set_outcome(b, "failed: %s",
			    res->committed ? "committed, but the offsets read back differ, see above"
					   : "not applied, see above");
}

/* Plans rq on the cluster, prints it, and commits it with --execute; c is the caller's connection, or NULL
 * for one of its own. Under --execute the group's lock is taken before the preview, so the plan's PREVIOUS
 * column, the backup and the commit see no other lagtop's change in between. */
static int run(const struct lt_options *o, lt_reset_request *rq, const char *target_desc, struct batch *b,
	       lt_reset_conn *given)
{
	char err[1024];
	int exit_code;
	lt_reset_conn *c = given ? given : cli_reset_connect(o, "resets", &exit_code, err, sizeof err);
	if (!c) {
		cli_print_lines(stderr, "lagtop: ", err);
		set_outcome(b, "not reset: %s", err);
		return exit_code;
	}
	int rc = LT_EXIT_OK;
	int lrc = o->execute ? lock_group(c, rq->group, err, sizeof err) : 0;
	if (lrc) {
		cli_print_lines(stderr, "lagtop: ", err);
		set_outcome(b, "not reset: %s", err);
		audit_early(o, c, rq->group, target_desc, lrc > 0 ? "refused" : "failed", err);
		if (!given)
			reset_conn_free(c);
		return lrc > 0 ? LT_EXIT_REFUSED : LT_EXIT_CLUSTER;
	}
	lt_reset_plan *plan = NULL;
	lt_reset_preview pv;
	switch (reset_exec_preview(c, rq, &pv)) {
	case LT_PREVIEW_PLANNED:
		plan = pv.plan; /* taken: kept past the preview for the batch's CSV */
		pv.plan = NULL;
		break;
	case LT_PREVIEW_NO_ANSWER:
		cli_print_lines(stderr, "lagtop: ", pv.message);
		set_outcome(b, "not reset: %s", pv.message);
		audit_early(o, c, rq->group, target_desc, "not-planned", pv.message);
		rc = LT_EXIT_CLUSTER;
		goto out;
	case LT_PREVIEW_REFUSED:
		/* Like kafka-consumer-groups: an active group is refused before anything is planned or printed. */
		cli_print_lines(stderr, "lagtop: ", pv.message);
		set_outcome(b, "refused by the guard (%s): nothing planned or committed", group_state_name(pv.state));
		audit_early(o, c, rq->group, target_desc, "refused", pv.message);
		rc = LT_EXIT_REFUSED;
		goto out;
	case LT_PREVIEW_NOT_PLANNED:
	default:
		cli_print_lines(stderr, "lagtop: ", pv.message);
		set_outcome(b, "not planned: %s", pv.message);
		audit_early(o, c, rq->group, target_desc, "not-planned", pv.message);
		rc = pv.cluster_fault ? LT_EXIT_CLUSTER : LT_EXIT_USAGE;
		goto out;
	}
	print_ts_fallbacks(plan, !o->export_csv);
	for (size_t i = 0; i < plan->n_warnings; i++)
		if (!is_ts_fallback_warning(plan, plan->warnings[i]))
			cli_print_lines(stderr, "lagtop: warning: ", plan->warnings[i]);
	if (o->export_csv && b && b->several) {
		/* printed with the other groups' plans at the end */
	} else if (o->export_csv) {
		char *csv = reset_csv_export((const lt_reset_plan *const[]){ plan }, 1);
		fputs(csv, stdout);
		free(csv);
	} else {
		char *table = reset_plan_table(plan), *totals = reset_plan_totals(plan);
		printf("%s\n%s\n", table, totals);
		free(table);
		free(totals);
	}
	fflush(stdout);
	if (plan->n_rows == 0) {
		fprintf(stderr, "lagtop: nothing to reset: the scope holds no partition\n");
		set_outcome(b, "nothing to reset: the scope holds no partition");
		goto out;
	}
	if (plan->timestamp_ms >= 0) { /* "-10m" means a time: which one, before it is committed */
		char *target = reset_plan_target_text(plan, target_desc);
		fprintf(stderr, "lagtop: target %s\n", target);
		free(target);
	}
	if (!o->execute) {
		fprintf(stderr, "lagtop: dry run: nothing was committed (add --execute to commit this plan)\n");
		set_outcome(b, "dry run: nothing committed");
		goto out;
	}
	lt_reset_result res;
	rc = exit_for(reset_exec_commit(c, plan, target_desc, &res));
	print_result(&res, o->export_csv ? stderr : stdout);
	set_result_outcome(b, &res);
	reset_result_free(&res);
out:
	if (plan && b && b->several && o->export_csv) {
		b->plans = xrealloc(b->plans, (b->n_plans + 1) * sizeof *b->plans);
		b->plans[b->n_plans++] = plan;
		plan = NULL;
	}
	reset_plan_free(plan);
	reset_preview_free(&pv);
	if (given)
		reset_conn_unlock(c);
	else
		reset_conn_free(c);
	return rc;
}

/* One group's reset: the request from the options, then run(). */
static int reset_one(const struct lt_options *o, const char *group, struct batch *b)
{
	char err[1024];
	lt_reset_request rq;
	lt_reset_target target = map_target(o->target);
	if (reset_request_init(&rq, group, target, o->target_arg, reset_now_ms(), err, sizeof err)) {
		cli_print_lines(stderr, "lagtop: ", err);
		reset_request_free(&rq);
		return LT_EXIT_USAGE;
	}
	rq.all_topics = o->all_topics;
	for (size_t i = 0; i < o->n_topics; i++)
		if (reset_request_add_topic(&rq, o->topics[i], err, sizeof err)) {
			cli_print_lines(stderr, "lagtop: ", err);
			reset_request_free(&rq);
			return LT_EXIT_USAGE;
		}
	if (target == LT_RESET_FILE) {
		char *text = reset_file_read(o->target_arg, FROM_FILE_MAX_BYTES, err, sizeof err);
		if (!text || reset_request_load_csv(&rq, text, err, sizeof err)) {
			/* err quotes the file's bytes: terminal-safe like every other message */
			char *msg = xasprintf("%s%s%s", text ? o->target_arg : "", text ? ": " : "", err);
			cli_print_lines(stderr, "lagtop: ", msg);
			free(msg);
			free(text);
			reset_request_free(&rq);
			return LT_EXIT_USAGE;
		}
		free(text);
	}
	char *desc = o->target_arg ? xasprintf("%s %s", reset_target_name(target), o->target_arg)
				   : xstrdup(reset_target_name(target));
	int rc = run(o, &rq, desc, b, NULL);
	free(desc);
	reset_request_free(&rq);
	return rc;
}

/* kafka-consumer-groups resets several groups in one run (--group repeated, --all-groups), refusing the active
 * ones and resetting the others. lagtop does the same, one group after the other, each with its own guard,
 * plan, backup, commit and audit line, so a refused group never leaves another's plan half applied; a closing
 * summary says per group what happened. Exit: 5 if any group's outcome is unknown, else 3 if any was refused,
 * else 1 if any failed, else 2 if any plan was bad, else 0. */
int mode_reset(const struct lt_options *o)
{
	size_t n = 0;
	char **ids = NULL;
	int ids_rc = cli_group_ids(o, &ids, &n);
	if (ids_rc != LT_EXIT_OK)
		return ids_rc;
	if (o->all_groups && n == 0) {
		fprintf(stderr, "lagtop: --all-groups: the cluster has no groups\n");
		free(ids);
		return LT_EXIT_OK;
	}
	if (n == 1) {
		int rc = reset_one(o, ids[0], NULL);
		free(ids[0]);
		free(ids);
		return rc;
	}
	struct batch b = { .several = true };
	char **outcomes = xcalloc(n, sizeof *outcomes);
	bool refused = false, failed = false, bad = false, unknown = false;
	for (size_t i = 0; i < n; i++) {
		char *safe = sanitize_dup(ids[i], true);
		fprintf(stderr, "%slagtop: group '%s' (%zu of %zu)\n", i ? "\n" : "", safe, i + 1, n);
		free(safe);
		fflush(stderr);
		int rc = reset_one(o, ids[i], &b);
		refused |= rc == LT_EXIT_REFUSED;
		unknown |= rc == LT_EXIT_UNKNOWN;
		failed |= rc == LT_EXIT_CLUSTER;
		bad |= rc == LT_EXIT_USAGE;
		outcomes[i] = b.outcome ? b.outcome : xstrdup(rc == LT_EXIT_OK ? "done" : "not reset");
		b.outcome = NULL;
		fflush(stdout);
	}
	if (o->export_csv && b.n_plans) {
		char *csv = reset_csv_export((const lt_reset_plan *const *)b.plans, b.n_plans);
		fputs(csv, stdout);
		free(csv);
		fflush(stdout);
	}
	fprintf(stderr, "\nlagtop: %zu groups:\n", n);
	for (size_t i = 0; i < n; i++) {
		char *line = xasprintf("  %s: %s", ids[i], outcomes[i]);
		cli_print_lines(stderr, "lagtop: ", line);
		free(line);
		free(outcomes[i]);
		free(ids[i]);
	}
	for (size_t i = 0; i < b.n_plans; i++)
		reset_plan_free(b.plans[i]);
	free(b.plans);
	free(outcomes);
	free(ids);
	return unknown   ? LT_EXIT_UNKNOWN
	       : refused ? LT_EXIT_REFUSED
	       : failed  ? LT_EXIT_CLUSTER
	       : bad     ? LT_EXIT_USAGE
			 : LT_EXIT_OK;
}

/* Says which backup the undo applies, from when, and what it undoes. */
static void print_undo_choice(const char *group, const lt_undo_choice *u, bool explicit_path)
{
	char *line =
		xasprintf("undo of group '%s': applying %sbackup %s%s%s%s", group, explicit_path ? "the named " : "",
			  u->path, u->taken[0] ? " (taken " : "", u->taken, u->taken[0] ? ")" : "");
	cli_print_lines(stderr, "lagtop: ", line);
	free(line);
	if (u->undone_target)
		line = xasprintf("it undoes the group's newest change: %s, at %s", u->undone_target, u->undone_when);
	else if (!explicit_path)
		line = xstrdup("no change of the group is on record in the audit log: this is its newest backup");
	else
		line = xstrdup("it is not the backup of the group's newest change on record");
	cli_print_lines(stderr, "lagtop: ", line);
	free(line);
	if (u->undoes_undo)
		cli_print_lines(stderr, "lagtop: ",
				"that change was itself an undo: this undo of an undo re-applies what it reverted");
}

int mode_undo(const struct lt_options *o)
{
	char err[1024];
	int rc = LT_EXIT_OK;
	lt_reset_conn *c = cli_reset_connect(o, "resets", &rc, err, sizeof err);
	if (!c) {
		cli_print_lines(stderr, "lagtop: ", err);
		return rc;
	}
	/* the lock first: the backup chosen is then still the newest change's when it is applied */
	int lrc = o->execute ? lock_group(c, o->undo_group, err, sizeof err) : 0;
	if (lrc) {
		cli_print_lines(stderr, "lagtop: ", err);
		reset_conn_free(c);
		return lrc > 0 ? LT_EXIT_REFUSED : LT_EXIT_CLUSTER;
	}
	lt_undo_choice u;
	int ch = reset_exec_undo_choose(c, o->undo_group, o->undo_backup, &u, err, sizeof err);
	if (ch != 0) {
		cli_print_lines(stderr, "lagtop: ", err);
		reset_undo_choice_free(&u);
		reset_conn_free(c);
		return ch == 1 ? LT_EXIT_USAGE : ch == 2 ? LT_EXIT_REFUSED : LT_EXIT_CLUSTER;
	}
	print_undo_choice(o->undo_group, &u, o->undo_backup != NULL);
	lt_reset_request rq;
	memset(&rq, 0, sizeof rq);
	if (reset_undo_request_from(o->undo_group, u.path, &rq, err, sizeof err) != 0) {
		cli_print_lines(stderr, "lagtop: ", err);
		reset_request_free(&rq);
		reset_undo_choice_free(&u);
		reset_conn_free(c);
		return o->undo_backup ? LT_EXIT_USAGE : LT_EXIT_CLUSTER;
	}
	char *desc = xasprintf("undo %s", u.path);
	rc = run(o, &rq, desc, NULL, c);
	free(desc);
	reset_request_free(&rq);
	reset_undo_choice_free(&u);
	reset_conn_free(c);
	return rc;
}
