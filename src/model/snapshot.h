/* snapshot.h — one refresh's picture of a cluster: groups, their members and partitions.
 *
 * This is the contract between the collector (src/kafka, which fills the "observed" fields),
 * the model (src/model, which fills the "derived" fields from its history), and the readers
 * (src/ui, --once output, the reset planner). Pure data: no librdkafka or curses types.
 *
 * Life cycle: the collector builds a snapshot, calls model_enrich() (model.h) to fill the derived
 * fields, then publishes it. Once published a snapshot is immutable and shared by reference count
 * (snapshot_ref / snapshot_unref), so the UI can keep drawing an old one while a new one is built.
 *
 * Conventions: offsets are int64_t and LT_OFFSET_NONE (-1, Kafka's own "no offset") means unknown.
 * Durations are in milliseconds (int64_t); rates in messages per second (double); a derived value
 * that cannot be computed has its has_* flag cleared — never NaN.
 *
 * Ownership: every string belongs to the snapshot and is freed by the last snapshot_unref. Topic
 * names (lt_partition.topic, lt_member.assigned[].topic) are interned: group_add_partition and
 * member_add_assignment store a pointer into the snapshot's string table, one copy per distinct
 * topic, so two rows of the same topic share one pointer. Never free or replace a topic pointer;
 * copy it (xstrdup) to keep it beyond the snapshot's life. Groups and members must come from
 * snapshot_add_group / group_add_member (they carry the table).
 */
#ifndef LAGTOP_MODEL_SNAPSHOT_H
#define LAGTOP_MODEL_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LT_OFFSET_NONE ((int64_t)-1)

/* Group states as Kafka names them; LT_GROUP_UNKNOWN when the state could not be read. Classic groups
 * use Empty, PreparingRebalance, CompletingRebalance, Stable and Dead; consumer-protocol (KIP-848)
 * groups Empty, Assigning, Reconciling, Stable and Dead. librdkafka 2.0.2 maps Assigning and
 * Reconciling to its UNKNOWN state, so the collector can only show them as Unknown; the names are
 * here for the simulator, the tests and a newer librdkafka. */
typedef enum {
	LT_GROUP_UNKNOWN = 0,
	LT_GROUP_EMPTY,
	LT_GROUP_PREPARING_REBALANCE,
	LT_GROUP_COMPLETING_REBALANCE,
	LT_GROUP_STABLE,
	LT_GROUP_DEAD,
	LT_GROUP_ASSIGNING,   /* consumer protocol: the target assignment is being computed */
	LT_GROUP_RECONCILING, /* consumer protocol: members are moving to the target assignment */
} lt_group_state;

/* Which group protocol a group runs (Kafka 4's ListGroups v5 "GroupType"). Unknown when nothing
 * said: a group that does not exist, or whose describe could not be interpreted. */
typedef enum {
	LT_GTYPE_UNKNOWN = 0,
	LT_GTYPE_CLASSIC,  /* JoinGroup/SyncGroup groups, and admin-only ("simple") groups */
	LT_GTYPE_CONSUMER, /* KIP-848 consumer-protocol groups (group.protocol=consumer) */
} lt_group_type;

/* Partition / group status (Burrow's rules, see doc/RESET-SEMANTICS.md and src/model/status.c). Ordered by
 * severity. A group's status is its worst partition's, except that REWIND, STALL and STOP become ERR for the
 * group, as Burrow reports it (the partitions pane says which), and that a group with a partition still
 * PENDING and none worse than OK is PENDING: "OK so far" is not OK. UNKNOWN and PENDING are both shown
 * as "-" and written as null: neither is ever reported as OK. */
typedef enum {
	LT_STATUS_UNKNOWN = 0, /* nothing to judge: no committed offset or no log end */
	LT_STATUS_PENDING,     /* not evaluated yet: fewer samples than the window (Burrow: incomplete) */
	LT_STATUS_OK,
	LT_STATUS_WARN,
	LT_STATUS_REWIND,
	LT_STATUS_STALL,
	LT_STATUS_STOP,
	LT_STATUS_ERR, /* groups only: some partition is REWIND, STALL or STOP (Burrow's group rule) */
} lt_status;

/* Per-partition flags. */
enum {
	LT_PF_OUT_OF_RANGE = 1u << 0,        /* committed < log_start: consumer will jump per auto.offset.reset */
	LT_PF_AHEAD_OF_END = 1u << 1,        /* committed > log_end: stale read or truncation; lag shown as 0 */
	LT_PF_STALE = 1u << 2,               /* offsets not refreshed this round (error); see stale_ms */
	LT_PF_NO_LEADER = 1u << 3,           /* log offsets unknown: partition has no live leader / topic gone */
	LT_PF_UNASSIGNED = 1u << 4,          /* has a commit but no member owns it */
	LT_PF_IDLE = 1u << 5,                /* log end has not moved over the window */
	LT_PF_TIME_LAG_HIGH = 1u << 6,       /* time lag above the configured threshold (time_lag_threshold) */
	LT_PF_LOG_UNKNOWN = 1u << 7,         /* log offsets unknown: the leader is up but its ListOffsets failed or
						timed out (not LT_PF_NO_LEADER: the partition has a leader) */
	LT_PF_NOT_COMMITTING = 1u << 8,      /* the consumer's position advanced over the not-committing window while
						the committed offset did not (src/position/commitwatch.h) */
	LT_PF_EXPIRED = 1u << 9,             /* the broker deleted the committed offset (offsets.retention.minutes;
						seen in __consumer_offsets): committed is LT_OFFSET_NONE, and the group
						restarts from its consumers' auto.offset.reset, which the broker does not know */
	LT_PF_TIME_LAG_ESTIMATED = 1u << 10, /* time_lag_ms was interpolated or extrapolated from the log-end
						history, or is a lower bound (timelag.c), not read from the record */
	LT_PF_COMMITTING_KNOWN = 1u << 11,   /* the not-committing verdict is known (LT_PF_NOT_COMMITTING says which);
						without it unknown: no position, or not watched a whole window yet */
};

/* What only some rows have: a commit's metadata (rare), the consumer's position (only with a
 * position source, --position-source) and the age of a stale row's data (a group whose refresh failed).
 * Kept beside the rows, in the group's pext, and reached through partition_ext(): in lt_partition they
 * would cost every row of every snapshot 40 bytes. */
typedef struct lt_partition_ext {
	char *commit_metadata;   /* may be NULL; owned by the snapshot (freed by snapshot_unref) */
	int64_t position;        /* the next offset the owning member will read; valid with has_position */
	int64_t position_age_ms; /* age of that report at the end of the refresh */
	int64_t stale_ms;        /* age of the data when LT_PF_STALE (the group's stale_ms) */
	int32_t position_source; /* index into lt_snapshot.pos_sources */
} lt_partition_ext;

/* Field order packs the struct (pointers and 8-byte values first, then 4-byte, then the bits): a
 * snapshot holds one per (group, partition) row, 320,000 of them on the L benchmark, and a steady
 * refresh holds two snapshots at its peak (120 bytes a row). The flags, the status and the bools share
 * one 32-bit word (bit-fields: never take their address); 8 bools and two 4-byte words would cost 16
 * bytes a row. */
typedef struct lt_partition {
	/* observed (collector) */
	char *topic;       /* interned: points into the snapshot's topic table, never free it (see above) */
	int64_t log_start; /* LT_OFFSET_NONE if unknown */
	int64_t committed; /* LT_OFFSET_NONE if the group has no commit here */
	int64_t log_end;   /* LT_OFFSET_NONE if unknown */

	/* derived (model_enrich) */
	int64_t lag;         /* log_end - committed, clamped at 0; valid with has_lag */
	int64_t time_lag_ms; /* valid with has_time_lag */
	double consume_rate; /* committed advance, msgs/s; valid with has_rates */
	double produce_rate; /* log-end advance, msgs/s */
	int64_t eta_ms;      /* valid with has_eta */

	/* observed from the commit stream (__consumer_offsets); ages are at the end of the refresh */
	int64_t last_commit_ms; /* wall clock of the last commit (the broker's commitTimestamp) */
	int64_t last_commit_age_ms;
	double commits_per_min; /* valid with has_last_commit */
	int64_t unmoved_ms;     /* time since the committed offset last moved (a lower bound if never seen moving) */

	/* observed (collector) */
	int32_t partition;
	int member;   /* index into group->members, -1 when unassigned */
	uint32_t ext; /* internal: 1 + the index of the row's lt_partition_ext in its group's pext, 0 when it
			 has none (partition_ext, partition_ext_add) */
	/* derived (model_enrich) */
	unsigned flags : 16;  /* LT_PF_* (12 of them) */
	lt_status status : 8; /* enum values 0..7: unsigned */
	bool has_lag : 1;
	bool has_time_lag : 1;
	bool has_rates : 1;
	bool has_eta : 1; /* false with has_rates: "never" (not catching up) */
	/* commit stream */
	bool has_last_commit : 1;
	bool has_unmoved : 1;
	bool repeating : 1;    /* commits the same offset again and again: alive but not moving */
	bool has_position : 1; /* a source reported the owning member's position (partition_ext; false when
				  zeroed) */
} lt_partition;
_Static_assert(LT_PF_EXPIRED < 1u << 16, "the LT_PF_* flags fit lt_partition.flags' 16 bits");
_Static_assert(LT_STATUS_ERR < 1 << 8, "lt_status fits lt_partition.status' 8 bits");

typedef struct lt_member {
	char *member_id;
	char *client_id;
	char *host;
	char *instance_id; /* group.instance.id, may be NULL */
	size_t n_assigned;
	struct lt_topic_partition {
		char *topic; /* interned, like lt_partition.topic */
		int32_t partition;
	} * assigned;
	struct lt_strtab *strtab; /* internal: the snapshot's topic table (set by group_add_member) */
} lt_member;

/* type and members_unreadable sit in the 4-byte holes after state and coordinator, so adding them
 * left the struct at its old size (488 bytes on x86-64). */
/* The leader epoch a commit was made with (OffsetCommit v6+; kafka-consumer-groups --offsets --verbose's
 * LEADER-EPOCH). Kept beside the partitions, only when asked (lt_collector_conf.commit_epochs): a field
 * of lt_partition would cost every row of every snapshot. */
typedef struct lt_commit_epoch {
	char *topic; /* interned, like lt_partition.topic */
	int32_t partition;
	int32_t epoch;
} lt_commit_epoch;

typedef struct lt_group {
	/* observed (collector) */
	char *group;
	lt_group_state state;
	lt_group_type type;  /* from group_view_combine (group_view.h) */
	char *protocol_type; /* "consumer", "" (simple/admin-only group), ... */
	char *protocol;      /* assignor, e.g. "range" */
	int32_t coordinator; /* broker id, -1 unknown */
	/* A consumer-protocol group described through the classic DescribeGroups API, which answers
	 * "Dead, no members" for it: n_members is 0 and says nothing; the state comes from ListGroups.
	 * Use group_members_known() before showing n_members. */
	bool members_unreadable;
	/* This refresh could not read the group (its describe or offsets failed or did not answer in time):
	 * error says why, and its data is the last refresh's (stale_ms > 0) or none at all. */
	bool unread;
	size_t n_members;
	lt_member *members;
	size_t n_partitions;
	lt_partition *partitions; /* sorted by (topic, partition); the snapshot's row blocks (snapshot.c):
				   * add with group_add_partition, never free or realloc */
	char *error;              /* last collection error for this group, NULL if none */
	size_t n_commit_epochs;   /* the commits' leader epochs, when asked and known (see lt_commit_epoch) */
	lt_commit_epoch *commit_epochs;
	size_t n_pext; /* what only some rows have (lt_partition_ext), reached from a row's ext */
	lt_partition_ext *pext;
	int64_t stale_ms; /* age of the group's data if this refresh failed for it, else 0 */

	/* derived (model_enrich) */
	int64_t total_lag; /* sum over partitions with has_lag */
	int64_t max_lag;
	bool has_max_time_lag;
	int64_t max_time_lag_ms;
	bool time_lag_high;   /* some partition has LT_PF_TIME_LAG_HIGH */
	bool status_complete; /* every partition's status was evaluated (none UNKNOWN or PENDING): Burrow's
				 "complete"; status may be WARN/ERR while false (a lower bound) */
	double consume_rate;  /* sum over partitions */
	size_t n_topics;
	lt_status status; /* worst partition */
	size_t n_trend;   /* total-lag history for the TREND sparkline, oldest first */
	int64_t trend[32];
	struct lt_strtab *strtab; /* internal: the snapshot's topic table (set by snapshot_add_group) */

	/* observed from the commit stream (__consumer_offsets); ages are at the end of the refresh */
	bool has_last_commit;
	int64_t last_commit_ms; /* newest commit over the group's partitions */
	int64_t last_commit_age_ms;
	double commits_per_min; /* sum over partitions */
	bool has_expiry;        /* offset-expiry forecast (Empty groups, see commitlog/stream.h) */
	int64_t expires_at_ms;  /* earliest over partitions */
	int64_t expires_in_ms;  /* negative: overdue */
	bool expiry_warn;       /* expires sooner than the configured horizon */
	size_t n_expired;       /* partitions with LT_PF_EXPIRED (offsets the broker expired) */
	int64_t expired_ms;     /* when the broker deleted the last of them (its tombstone's time) */
} lt_group;

/* Whether commit times are known: the reader of __consumer_offsets (src/kafka/commitreader.h). */
typedef enum {
	LT_CSTREAM_OFF = 0, /* disabled by configuration (or not started: resets) */
	LT_CSTREAM_STARTING,
	LT_CSTREAM_LOADING, /* reading the history: values may be incomplete */
	LT_CSTREAM_LIVE,
	LT_CSTREAM_DENIED, /* not authorized: polling only */
	LT_CSTREAM_FAILED,
} lt_cstream_state;

/* A position source (a Prometheus endpoint, a librdkafka statistics file or URL) and what it gave this
 * refresh (src/position/sources.h). */
typedef struct lt_pos_source {
	char *location; /* as configured */
	char *status;   /* "ok", or one line saying why not (unreachable, timeout, HTTP 500, parse error, ...) */
	bool ok;
	size_t n_reports; /* positions reported */
	size_t n_used;    /* of them, matched to the member that owns the partition now */
} lt_pos_source;

/* A live broker of the refresh's metadata (kafka-consumer-groups' --describe --state prints the
 * coordinator as host:port  (id)). */
typedef struct lt_broker {
	int32_t id;
	int port;
	char *host;
} lt_broker;

/* Something a refresh could not read that has no row in groups[]: a group asked for by name (-g) that
 * could not be asked or answered, or a broker's group list (ListGroups), without which the groups that
 * broker coordinates are missing altogether. */
typedef struct lt_unread {
	char *group;    /* the group, NULL for a broker's group list */
	int32_t broker; /* with group NULL: the broker whose ListGroups failed; else -1 */
	char *reason;   /* one line: "ListGroups: Broker: Coordinator not available" */
} lt_unread;

typedef struct lt_snapshot {
	int refs;             /* atomic; use snapshot_ref/unref */
	uint64_t seq;         /* increases by one per refresh */
	size_t status_window; /* samples a windowed status needs (the model's window; set by model_enrich) */
	int64_t taken_at_ms;  /* wall clock (ms since epoch) when the refresh started */
	int64_t duration_ms;  /* how long the refresh took */
	char *cluster;        /* display name */
	int brokers_up;
	int brokers_total;
	char *error; /* refresh-wide error (e.g. "all brokers down"), NULL if none */
	size_t n_groups;
	lt_group *groups;         /* sorted by group id */
	struct lt_strtab *strtab; /* topic names, interned once per snapshot (snapshot.c) */
	size_t n_brokers;         /* the metadata's live brokers, as listed (ids, host, port) */
	lt_broker *brokers;
	lt_cstream_state commit_stream; /* the commit-stream columns are empty unless LIVE (or LOADING) */
	char *commit_stream_reason;     /* one line saying why they are empty or partial, NULL if none */
	size_t n_pos_sources;           /* consumer-position sources, in configured order */
	lt_pos_source *pos_sources;
	/* What the refresh could not read. A snapshot is read whole when groups_unread is 0 and n_unread is 0;
	 * otherwise what it shows is not the cluster's whole answer (--once exits 1, doc/lagtop.1). */
	size_t groups_unread; /* groups listed or asked for and not read: those in groups[] with unread, and
			       * the groups of unread[] */
	size_t n_unread;      /* what has no row: unreadable -g groups and brokers' group lists */
	lt_unread *unread;
} lt_snapshot;

/* Position − committed: what the consumer has read but not committed (a restart would read it again).
 * False when either is unknown. */
bool partition_uncommitted(const lt_group *g, const lt_partition *p, int64_t *out);

/* What only some rows have (lt_partition_ext) for row p of group g, NULL when it has none (all fields
 * unset: no metadata, position, stale_ms and position_source 0). g may be NULL (then NULL). A row's ext
 * indexes its own group's pext: a row copied field by field into another group starts without one. */
const lt_partition_ext *partition_ext(const lt_group *g, const lt_partition *p);
/* The same to fill, added (zeroed) when the row has none yet; p must be one of g's rows. The pointer
 * is valid until the next partition_ext_add on g. */
lt_partition_ext *partition_ext_add(lt_group *g, lt_partition *p);
/* The row's commit metadata (NULL when none), and the other fields or 0 when unset. */
const char *partition_commit_metadata(const lt_group *g, const lt_partition *p);
int64_t partition_stale_ms(const lt_group *g, const lt_partition *p);
int64_t partition_position(const lt_group *g, const lt_partition *p);
int64_t partition_position_age_ms(const lt_group *g, const lt_partition *p);
int32_t partition_position_source(const lt_group *g, const lt_partition *p);

/* Construction helpers (snapshot.c). All allocation aborts cleanly on OOM (util/xalloc.h). */
lt_snapshot *snapshot_new(void);
lt_snapshot *snapshot_ref(lt_snapshot *s);
void snapshot_unref(lt_snapshot *s);
lt_group *snapshot_add_group(lt_snapshot *s, const char *group_id);
lt_partition *group_add_partition(lt_group *g, const char *topic, int32_t partition);
lt_member *group_add_member(lt_group *g, const char *member_id, const char *client_id, const char *host);
void member_add_assignment(lt_member *m, const char *topic, int32_t partition);
/* Sort groups by id and each group's partitions by (topic, partition); link partitions to members. */
void snapshot_finish(lt_snapshot *s);
const lt_group *snapshot_find_group(const lt_snapshot *s, const char *group_id);
/* Records what the refresh could not read (group NULL: broker's group list). A group given here has no
 * row; a group with a row is marked with lt_group.unread instead and counted by snapshot_count_unread. */
void snapshot_add_unread(lt_snapshot *s, const char *group, int32_t broker, const char *reason);
/* Sets groups_unread from the rows marked unread and the groups of unread[] (after snapshot_finish). */
void snapshot_count_unread(lt_snapshot *s);
/* Whether the snapshot is the cluster's whole answer: every group listed and every listed group read. */
bool snapshot_read_whole(const lt_snapshot *s);
/* Why the group id could not be read this refresh, NULL when it was read or is unknown to the refresh. */
const char *snapshot_unread_reason(const lt_snapshot *s, const char *group_id);
void snapshot_add_broker(lt_snapshot *s, int32_t id, const char *host, int port);
void group_add_commit_epoch(lt_group *g, const char *topic, int32_t partition, int32_t epoch);
/* Frees the group's protocol, error, members and commit epochs and leaves them empty (its name, state
 * and partitions stay): a recording's reader re-reads them into a snapshot it reuses (src/record). */
void group_clear_slow_fields(lt_group *g);
/* The leader epoch of the commit on (topic, partition), or -1 when unknown. */
int32_t group_commit_epoch(const lt_group *g, const char *topic, int32_t partition);
const lt_broker *snapshot_find_broker(const lt_snapshot *s, int32_t id); /* NULL when not among them */

const char *group_state_name(lt_group_state st);    /* "Stable", "Empty", ... "Unknown" */
lt_group_state group_state_parse(const char *name); /* Kafka's names; anything else: UNKNOWN */
const char *group_type_name(lt_group_type t);       /* "classic", "consumer", NULL when unknown */
/* Whether n_members is the real member count: the members could be read, or the state says there are
 * none (an Empty group has no members whatever its protocol). */
bool group_members_known(const lt_group *g);
/* One line for a group whose members cannot be read (panes, popups, --once warnings); short enough for
 * the members pane of an 80-column terminal. */
#define LT_MEMBERS_UNREADABLE_NOTE "KIP-848 consumer-protocol group: members need librdkafka 2.10+ to be read"
const char *status_name(lt_status st); /* "OK", "WARN", ... "-" for UNKNOWN and PENDING */
/* Whether st is a verdict (OK and worse), not UNKNOWN or PENDING: what tables show and JSON writes. */
bool status_evaluated(lt_status st);
/* Whether st is a verdict at least as bad as threshold (OK < WARN < REWIND < STALL < STOP < ERR); a status not
 * evaluated is never at least anything, not even OK (--fail-on). */
bool status_at_least(lt_status st, lt_status threshold);
const char *cstream_state_name(lt_cstream_state st); /* "off", "starting", "loading", "live", "denied", "failed" */

#endif
