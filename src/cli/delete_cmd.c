/* delete_cmd.c — `lagtop --delete --group G...` and `lagtop --delete-offsets --group G --topic T[:P,...]...`.
 *
 * They delete at once, as kafka-consumer-groups does (scripts written for it run unchanged), and print what
 * it prints on stdout: the same sentences, the same per-partition table, the same exception texts — those of
 * the 4.x tool (3.9's differ in wording: tests/kafka/test_kafka_delete.py lists how). What
 * lagtop adds goes to stderr: the guard's refusal (an active group is never touched), the backup written
 * before anything is deleted (`--undo G --execute` restores it), the audit log. --dry-run previews.
 * Exit: 0 everything deleted (or previewed), 3 refused (guard or broker: the group is not empty),
 * 1 anything else failed (the group or topic does not exist, the cluster did not answer, no backup), 2 usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_common.h"
#include "cli/modes.h"
#include "kafka/delete_exec.h"
#include "reset/plan.h"
#include "util/sanitize.h"
#include "util/xalloc.h"

/* The exception kafka-consumer-groups names for a Kafka error, with Kafka's message (Errors.java). */
static const struct {
	int kerr;
	const char *exception;
	const char *message;
} java_errors[] = {
	{ LT_KERR_UNKNOWN_TOPIC_OR_PARTITION, "UnknownTopicOrPartitionException",
	  "This server does not host this topic-partition." },
	{ LT_KERR_INVALID_GROUP_ID, "InvalidGroupIdException", "The configured groupId is invalid." },
	{ LT_KERR_TOPIC_AUTHORIZATION_FAILED, "TopicAuthorizationException", "Topic authorization failed." },
	{ LT_KERR_GROUP_AUTHORIZATION_FAILED, "GroupAuthorizationException", "Group authorization failed." },
	{ LT_KERR_NON_EMPTY_GROUP, "GroupNotEmptyException", "The group is not empty." },
	{ LT_KERR_GROUP_ID_NOT_FOUND, "GroupIdNotFoundException", "The group id does not exist." },
	{ LT_KERR_GROUP_SUBSCRIBED_TO_TOPIC, "GroupSubscribedToTopicException",
	  "Deleting offsets of a topic is forbidden while the consumer group is actively subscribed to it." },
};

/* Kafka's message for an error (Errors.message()), librdkafka's for one not in the table. */
static const char *kafka_message(int kerr)
{
	for (size_t i = 0; i < sizeof java_errors / sizeof java_errors[0]; i++)
		if (java_errors[i].kerr == kerr)
			return java_errors[i].message;
	return delete_kerr_text(kerr);
}

/* "org.apache.kafka.common.errors.GroupNotEmptyException: The group is not empty." for a Kafka error;
 * librdkafka's text for the others, and lagtop's message when no broker answered. Newly allocated. */
static char *error_text(int kerr, const char *lagtop_message)
{
	if (kerr < 0)
		return xstrdup(lagtop_message ? lagtop_message : "no answer");
	for (size_t i = 0; i < sizeof java_errors / sizeof java_errors[0]; i++)
		if (java_errors[i].kerr == kerr)
			return xasprintf("org.apache.kafka.common.errors.%s: %s", java_errors[i].exception,
					 java_errors[i].message);
	return xasprintf("%s", delete_kerr_text(kerr));
}

static void print_safe(FILE *f, const char *fmt_prefix, const char *text)
{
	char *safe = sanitize_dup(text, true);
	fprintf(f, "%s%s", fmt_prefix, safe);
	free(safe);
}

/* A denial fails the guard's own read, before the backup step: nothing was read to back up. */
static bool kerr_denied(int kerr)
{
	return kerr == LT_KERR_GROUP_AUTHORIZATION_FAILED || kerr == LT_KERR_TOPIC_AUTHORIZATION_FAILED;
}

/* What lagtop adds, on stderr: the refusal or error, the backup, the audit log's failure. */
static void report_extras(const char *group, const lt_delete_result *r, bool dry_run)
{
	if (r->status == LT_DEL_REFUSED || r->status == LT_DEL_FAILED || r->status == LT_DEL_UNKNOWN)
		cli_print_lines(stderr, "lagtop: ", r->message ? r->message : "failed");
	else if (r->status == LT_DEL_DELETED && r->message) /* an outcome settled by reading back */
		cli_print_lines(stderr, "lagtop: ", r->message);
	if (r->backup_path) {
		char *line = xasprintf("backup of the %zu committed offset%s of group '%s': %s (lagtop --undo %s "
				       "--execute restores them)",
				       r->n_backed_up, r->n_backed_up == 1 ? "" : "s", group, r->backup_path, group);
		cli_print_lines(stderr, "lagtop: ", line);
		free(line);
	} else if (!dry_run && (r->status == LT_DEL_DELETED ||
				(r->status == LT_DEL_FAILED && r->group_kerr >= 0 &&
				 r->group_kerr != LT_KERR_GROUP_ID_NOT_FOUND && !kerr_denied(r->group_kerr)))) {
		char *line = xasprintf("group '%s' had no committed offsets to back up", group);
		cli_print_lines(stderr, "lagtop: ", line);
		free(line);
	}
	if (r->audit_error && !(r->message && strstr(r->message, r->audit_error)))
		cli_print_lines(stderr, "lagtop: warning: the audit log was not written: ", r->audit_error);
}

static int exit_for(int rc, const lt_delete_result *r)
{
	if (r->status == LT_DEL_UNKNOWN || rc == LT_EXIT_UNKNOWN)
		return LT_EXIT_UNKNOWN;
	if (r->status == LT_DEL_FAILED)
		return LT_EXIT_CLUSTER;
	if (r->status == LT_DEL_REFUSED && rc == LT_EXIT_OK)
		return LT_EXIT_REFUSED;
	return rc;
}

/* ---- --delete ---- */

/* kafka-consumer-groups' summary (ConsumerGroupCommand.deleteGroups, 4.x), byte for byte. */
static void print_delete_summary(const char *const *groups, const lt_delete_result *res, size_t n)
{
	size_t n_ok = 0;
	for (size_t i = 0; i < n; i++)
		n_ok += res[i].status == LT_DEL_DELETED;
	if (n_ok == n) {
		printf("Deletion of requested consumer groups (");
		for (size_t i = 0; i < n; i++) {
			print_safe(stdout, i ? ", '" : "'", groups[i]);
			printf("'");
		}
		printf(") was successful.\n");
		return;
	}
	printf("\nError: Deletion of some consumer groups failed:\n");
	for (size_t i = 0; i < n; i++) {
		if (res[i].status == LT_DEL_DELETED)
			continue;
		char *why = error_text(res[i].group_kerr, res[i].message);
		print_safe(stdout, "* Group '", groups[i]);
		print_safe(stdout, "' could not be deleted due to: ", why);
		printf("\n");
		free(why);
	}
	if (n_ok) {
		printf("\nThese consumer groups were deleted successfully: ");
		for (size_t i = 0, k = 0; i < n; i++)
			if (res[i].status == LT_DEL_DELETED) {
				print_safe(stdout, k++ ? ", '" : "'", groups[i]);
				printf("'");
			}
		printf("\n");
	}
}

int mode_delete(const struct lt_options *o)
{
	char err[1024];
	int rc = LT_EXIT_OK;
	lt_reset_conn *c = cli_reset_connect(o, "deletes", &rc, err, sizeof err);
	if (!c) {
		cli_print_lines(stderr, "lagtop: ", err);
		return rc;
	}
	rc = LT_EXIT_OK;
	/* --all-groups: every group the cluster lists, as kafka-consumer-groups deletes them (each still guarded,
	 * so the active ones are refused and the rest deleted); a group named twice is deleted once, as the
	 * admin client's map of groups does */
	char **ids = NULL;
	size_t n = 0;
	rc = cli_group_ids(o, &ids, &n);
	if (rc != LT_EXIT_OK) {
		reset_conn_free(c);
		return rc;
	}
	const char **groups = (const char **)ids;
	if (o->all_groups && n == 0)
		fprintf(stderr, "lagtop: --all-groups: the cluster has no groups\n");
	lt_delete_result *res = xcalloc(n, sizeof *res);
	for (size_t i = 0; i < n; i++) {
		delete_exec_group(c, groups[i], o->dry_run, &res[i]);
		report_extras(groups[i], &res[i], o->dry_run);
		rc = exit_for(rc, &res[i]);
	}
	if (o->dry_run) {
		for (size_t i = 0; i < n; i++) {
			if (res[i].status != LT_DEL_PREVIEW)
				continue;
			print_safe(stdout, "Group '", groups[i]);
			printf("' would be deleted, with its %zu committed offset%s (backed up first).\n",
			       res[i].n_backed_up, res[i].n_backed_up == 1 ? "" : "s");
		}
		fprintf(stderr, "lagtop: dry run: nothing was deleted (run without --dry-run to delete)\n");
	} else {
		print_delete_summary(groups, res, n);
	}
	for (size_t i = 0; i < n; i++)
		delete_result_free(&res[i]);
	free(res);
	for (size_t i = 0; i < n; i++)
		free(ids[i]);
	free(ids);
	reset_conn_free(c);
	return rc;
}

/* ---- --delete-offsets ---- */

/* The first line of kafka-consumer-groups' answer (ConsumerGroupCommand.deleteOffsets, 4.x): from the
 * group's error, or else the first partition's (the admin client's all() fails with it). */
static void print_offsets_headline(const struct lt_options *o, const lt_delete_result *r)
{
	int top = r->group_kerr;
	for (size_t i = 0; top == 0 && i < r->n_parts; i++)
		if (r->parts[i].partition >= 0 && r->parts[i].kerr)
			top = r->parts[i].kerr;
	switch (top) {
	case 0:
		print_safe(stdout, "Request succeeded for deleting offsets from group ", o->groups[0]);
		printf(".\n");
		break;
	case LT_KERR_INVALID_GROUP_ID:
	case LT_KERR_GROUP_ID_NOT_FOUND:
	case LT_KERR_GROUP_AUTHORIZATION_FAILED:
	case LT_KERR_NON_EMPTY_GROUP: printf("\nError: %s\n", kafka_message(top)); break;
	case LT_KERR_GROUP_SUBSCRIBED_TO_TOPIC:
	case LT_KERR_TOPIC_AUTHORIZATION_FAILED:
	case LT_KERR_UNKNOWN_TOPIC_OR_PARTITION:
		printf("\nError: Encountered some partition-level error, see the follow-up details.\n");
		break;
	default:
		if (top < 0)
			print_safe(stdout,
				   "\nError: Encountered some unknown error: ", r->message ? r->message : "no answer");
		else
			printf("\nError: Encountered some unknown error: %s", delete_kerr_name(top));
		printf("\n");
	}
}

/* The tool's table: TOPIC as wide as the longest topic (at least 15), PARTITION 10, STATUS 15. */
static void print_offsets_table(const lt_delete_result *r, bool dry_run)
{
	int w = 15;
	char **topics = xcalloc(r->n_parts + 1, sizeof *topics);
	for (size_t i = 0; i < r->n_parts; i++) {
		topics[i] = sanitize_dup(r->parts[i].topic, true);
		if ((int)strlen(topics[i]) > w)
			w = (int)strlen(topics[i]);
	}
	printf("\n%-*s %-10s %-15s", w, "TOPIC", "PARTITION", "STATUS");
	for (size_t i = 0; i < r->n_parts; i++) {
		const lt_delete_part *p = &r->parts[i];
		char part[24], *status;
		if (p->partition >= 0)
			snprintf(part, sizeof part, "%d", p->partition);
		else
			snprintf(part, sizeof part, "-");
		if (dry_run && !p->kerr)
			status = p->committed >= 0 ? xasprintf("Would delete offset %lld", (long long)p->committed)
						   : xstrdup("No committed offset");
		else if (p->kerr) {
			char *why = error_text(p->kerr, NULL);
			status = xasprintf("Error: %s", why);
			free(why);
		} else
			status = xstrdup("Successful");
		printf("\n%-*s %-10s %-15s", w, topics[i], part, status);
		free(status);
	}
	printf("\n");
	for (size_t i = 0; i < r->n_parts; i++)
		free(topics[i]);
	free(topics);
}

int mode_delete_offsets(const struct lt_options *o)
{
	char err[1024];
	/* a request for its group and scopes only (--topic parsed as --reset-offsets parses it): no target */
	lt_reset_request rq;
	memset(&rq, 0, sizeof rq);
	rq.group = xstrdup(o->groups[0]);
	for (size_t i = 0; i < o->n_topics; i++)
		if (reset_request_add_topic(&rq, o->topics[i], err, sizeof err)) {
			cli_print_lines(stderr, "lagtop: ", err);
			reset_request_free(&rq);
			return LT_EXIT_USAGE;
		}
	int rc = LT_EXIT_OK;
	lt_reset_conn *c = cli_reset_connect(o, "deletes", &rc, err, sizeof err);
	if (!c) {
		cli_print_lines(stderr, "lagtop: ", err);
		reset_request_free(&rq);
		return rc;
	}
	lt_delete_result r;
	delete_exec_offsets(c, &rq, o->dry_run, &r);
	rc = exit_for(LT_EXIT_OK, &r);
	/* a partition the broker did not delete fails the run, as a partial reset does */
	for (size_t i = 0; r.status == LT_DEL_DELETED && i < r.n_parts; i++)
		if (r.parts[i].kerr)
			rc = LT_EXIT_CLUSTER;
	report_extras(o->groups[0], &r, o->dry_run);
	if (o->dry_run && r.status == LT_DEL_PREVIEW) {
		char *g = sanitize_dup(o->groups[0], true);
		printf("Dry run: the committed offsets of group '%s' on these partitions would be deleted (backed up "
		       "first)\n",
		       g);
		free(g);
		fprintf(stderr, "lagtop: dry run: nothing was deleted (run without --dry-run to delete)\n");
	} else {
		print_offsets_headline(o, &r);
	}
	if (r.n_parts && !(r.status == LT_DEL_FAILED && r.group_kerr < 0))
		print_offsets_table(&r, o->dry_run && r.status == LT_DEL_PREVIEW);
	delete_result_free(&r);
	reset_conn_free(c);
	reset_request_free(&rq);
	return rc;
}
