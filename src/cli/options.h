/* options.h — the command line: one table of options, parsed into struct lt_options.
 *
 * The table (options.c) is the single source for parsing, `--help` and the man page check
 * (tests/unit/test_options.c verifies every option appears in doc/lagtop.1).
 */
#ifndef LAGTOP_CLI_OPTIONS_H
#define LAGTOP_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
	LT_MODE_TUI = 0, /* default: the dashboard */
	LT_MODE_ONCE,    /* --once */
	LT_MODE_RESET,   /* --reset-offsets */
	LT_MODE_UNDO,    /* --undo GROUP */
	LT_MODE_DEMO,    /* --demo */
	LT_MODE_HELP,
	LT_MODE_VERSION,
	LT_MODE_X_LIST, /* -X list */
	LT_MODE_X_DUMP, /* -X dump */
	/* deletes (kafka-consumer-groups' --delete, --delete-offsets) */
	LT_MODE_DELETE,         /* --delete --group G... */
	LT_MODE_DELETE_OFFSETS, /* --delete-offsets --group G --topic T[:P,...]... */
	LT_MODE_LIST,           /* --list (kafka-consumer-groups) */
	LT_MODE_DESCRIBE,       /* --describe (kafka-consumer-groups) */
	LT_MODE_PEEK,           /* --peek GROUP: the records at its committed offsets */
} lt_mode;

/* What --describe shows (kafka-consumer-groups' sub-actions; --offsets is the default). */
typedef enum {
	LT_DESCRIBE_OFFSETS = 0,
	LT_DESCRIBE_MEMBERS,
	LT_DESCRIBE_STATE,
} lt_describe_what;

typedef enum {
	LT_FORMAT_TABLE = 0,
	LT_FORMAT_JSON,
	LT_FORMAT_CSV,
	LT_FORMAT_PROMETHEUS, /* Prometheus text exposition format (output_prom.c) */
} lt_format;

/* --fail-on: the group status from which --once exits LT_EXIT_FAIL_ON (modes.h). */
typedef enum {
	LT_FAIL_ON_NONE = 0,
	LT_FAIL_ON_WARN,
	LT_FAIL_ON_ERR,
} lt_fail_on;

/* Reset targets (doc/RESET-SEMANTICS.md). */
typedef enum {
	LT_TARGET_NONE = 0,
	LT_TARGET_EARLIEST,
	LT_TARGET_LATEST,
	LT_TARGET_CURRENT,
	LT_TARGET_OFFSET,   /* target_arg: N */
	LT_TARGET_SHIFT,    /* target_arg: ±N */
	LT_TARGET_DATETIME, /* target_arg: datetime text */
	LT_TARGET_DURATION, /* target_arg: ISO-8601 duration text */
	LT_TARGET_FILE,     /* target_arg: CSV path */
} lt_target_kind;

struct lt_options {
	lt_mode mode;

	/* connection */
	const char *config_path; /* --config */
	const char *cluster;     /* -c */
	const char *bootstrap;   /* -b */
	size_t n_props;          /* -X key=value, in order */
	const char **props;
	int timeout_ms;             /* --timeout (options_parse_timeout's rule), default 10 s */
	const char *command_config; /* --command-config: a kafka-consumer-groups properties file */
	bool allow_exec_config;     /* --allow-exec-config: the file may set properties that run programs */

	/* what to show */
	size_t n_groups; /* -g/--group: exact group ids, everywhere (as kafka-consumer-groups) */
	const char **groups;
	size_t n_group_regex; /* -G/--group-regex: regular expressions (once/tui) */
	const char **group_regex;
	bool all_groups;           /* --all-groups */
	lt_describe_what describe; /* --offsets (default), --members, --state with --describe */
	bool verbose;              /* --verbose with --describe */
	bool list_state;           /* --list --state [S,...]: show (and filter by) the state */
	unsigned state_mask;       /* the S,... given: bits 1u << lt_group_state; 0 for every state */
	bool list_type;            /* --list --type [T,...] */
	unsigned type_mask;        /* bits 1u << lt_group_type; 0 for every type */
	int interval_ms;           /* -i/--interval: refresh interval; -1 when not given */
	lt_format format;          /* --format */
	int samples;               /* --samples, default 1 */
	const char *theme;         /* --theme */
	bool read_only;            /* --read-only */
	bool no_commit_stream;     /* --no-commit-stream: overrides the config's commit_stream */
	bool no_color;             /* --no-color or NO_COLOR */
	bool ascii;                /* --ascii */
	bool no_mouse;             /* --no-mouse (or the config's mouse = false): the terminal keeps the mouse */
	size_t n_position_sources; /* --position-source URL|FILE (repeatable): consumers' own positions */
	const char **position_sources;

	/* monitoring (--format prometheus, --fail-on) */
	lt_fail_on fail_on; /* --fail-on warn|err */

	/* resets */
	bool all_topics; /* --all-topics */
	size_t n_topics; /* --topic T[:P,...] as given (resets, --delete-offsets) */
	const char **topics;
	lt_target_kind target;
	const char *target_arg;
	bool dry_run;            /* --dry-run given explicitly (with --delete*: preview, delete nothing) */
	bool execute;            /* --execute */
	bool export_csv;         /* --export */
	const char *undo_group;  /* --undo */
	const char *undo_backup; /* --backup FILE: the backup --undo applies (default: the newest change's) */
	const char *peek_group;  /* --peek GROUP */

	/* recording and replay (doc/RECORDING.md) */
	const char *record_path;  /* --record FILE: every refresh of the dashboard (or --headless) into FILE */
	bool headless;            /* --headless: record without a terminal, until SIGINT/SIGTERM */
	bool format_given;        /* --format was given: --headless then prints each refresh it records */
	uint64_t record_max_size; /* --record-max-size: rotate before FILE passes it; 0 = never */
	int record_keep;          /* --record-keep N: rotated files kept; -1 when not given */
	const char *replay_path;  /* --replay FILE: the dashboard (or --once) on a recording */
	const char *replay_at;    /* --at TIME: where the replay starts (--once: the moment printed) */
};

/* Parses argv. Returns 0 on success; on a usage error returns -1 with a one-line message in err
 * (no trailing newline). The options struct points into argv and owns only its arrays. */
int options_parse(struct lt_options *o, int argc, char **argv, char *err, size_t errlen);
void options_free(struct lt_options *o);

/* --timeout's rule, one for every mode: a number with a unit, "ms" or "s" ("5000ms", "10s", "0.5s"), or a
 * bare whole number of milliseconds as kafka-consumer-groups reads it ("5000"), which must be at least 1000:
 * a bare number below that is refused (lagtop used to read bare numbers as seconds: "--timeout 20" is asked
 * to say 20s or 20ms rather than be read either way). The result lies in [100 ms, 1 hour].
 * Returns 0 with *out_ms, or -1 with a one-line message in err. */
int options_parse_timeout(const char *s, int *out_ms, char *err, size_t errlen);

/* Writes --help (generated from the option table). */
void options_print_help(FILE *out, const char *argv0);

/* Iterates the option table: returns the long name of option i (without "--"), NULL past the end.
 * Used by the man page consistency test. */
const char *options_long_name(size_t i);

#endif
