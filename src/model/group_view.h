/* group_view.h — a group's state, type and whether its members can be read, from the two admin answers:
 * ListGroups and the describe (pure, no I/O).
 *
 * Why two answers: on Kafka 4.x a consumer-protocol (KIP-848) group answers DescribeGroups below v6
 * (librdkafka 2.0.2 sends v4 at most) with error 0, state Dead, no members and an empty protocol
 * type, even while it has members; ListGroups lists the same group with its real state. A Dead that
 * ListGroups contradicts is therefore not Dead (doc/RESET-SEMANTICS.md, "The guard"). The collector
 * (src/kafka/refresh_build.c) and the reset executor (src/kafka/reset_exec.c) both decide through
 * group_view_combine, so the dashboard, --once and the reset guard never disagree.
 *
 * librdkafka 2.10 and later describe through ConsumerGroupDescribe first and fall back to DescribeGroups
 * (doc/LIBRDKAFKA.md): a consumer-protocol group is then described whole, with its type, and the Dead
 * ambiguity remains only for groups that do not exist (or brokers without ConsumerGroupDescribe).
 */
#ifndef LAGTOP_MODEL_GROUP_VIEW_H
#define LAGTOP_MODEL_GROUP_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "model/snapshot.h"

/* What ListGroups said about one group. */
typedef enum {
	LT_LISTING_UNKNOWN = 0, /* no complete answer: not asked, failed, timed out, or some broker did not answer
				   and the group was not among those that did */
	LT_LISTING_ABSENT,      /* every broker answered and none listed the group */
	LT_LISTING_LISTED,      /* listed, in `state` (UNKNOWN when librdkafka could not name it) */
} lt_listing_kind;

typedef struct lt_group_listing {
	lt_listing_kind kind;
	lt_group_state state; /* with LT_LISTING_LISTED */
	lt_group_type type;   /* with LT_LISTING_LISTED: ListGroups v5's GroupType, read through librdkafka >= 2.10
				 (rd_kafka_ConsumerGroupListing_type); UNKNOWN below either */
} lt_group_listing;

/* What the classic DescribeGroups said (librdkafka's DescribeConsumerGroups). */
typedef struct lt_group_described {
	lt_group_state state;
	size_t n_members;
	bool protocol_type_empty; /* "" (librdkafka: is_simple_consumer_group) */
	/* CONSUMER when ConsumerGroupDescribe described the group (librdkafka >= 2.10,
	 * rd_kafka_ConsumerGroupDescription_type): a consumer-protocol group read whole. UNKNOWN otherwise,
	 * also for librdkafka's "classic", which it gives every DescribeGroups answer, a Dead one included. */
	lt_group_type type;
} lt_group_described;

typedef struct lt_group_view {
	lt_group_state state;
	lt_group_type type;
	bool members_unreadable; /* the describe's member list is empty for want of a protocol, not of members */
	bool state_carried;      /* state and type come from the hint (an earlier refresh), not this answer */
} lt_group_view;

/* True when the describe alone cannot tell "does not exist" from "consumer-protocol group": Dead, no
 * members, empty protocol type. Only then does the listing matter (the executor asks ListGroups only
 * then: it costs one request per broker and, with a broker down, its whole timeout). */
bool group_describe_ambiguous(const lt_group_described *d);

/* The rule:
 *  - a describe through ConsumerGroupDescribe (type CONSUMER) is the group whole: its state (Unknown for
 *    Assigning and Reconciling, which librdkafka 2.15 cannot name either), type consumer, members readable;
 *  - a describe that is not ambiguous is the classic API describing a classic group: its state, members
 *    readable, whatever the listing says (it is per group and carries the members);
 *  - an ambiguous describe of a group ListGroups listed in any state but Dead is a consumer-protocol group:
 *    the listed state (Unknown if librdkafka could not name it), type consumer, members unreadable; unless
 *    the listing's own type says classic: a classic group, which the classic describe knows best (Dead);
 *  - listed as Dead, or absent from a complete listing: the group does not exist (Dead, type unknown);
 *  - no complete listing: the last view (hint, NULL if none) if it was a consumer-protocol group, marked
 *    state_carried; otherwise Unknown with members unreadable, because an unconfirmed Dead proves nothing
 *    (the reset guard fails closed on it).
 * A group that really becomes Dead (deleted) is dropped from every broker's ListGroups answer, so the first
 * complete listing after the delete turns it Dead. */
lt_group_view group_view_combine(const lt_group_listing *l, const lt_group_described *d, const lt_group_view *hint);

/* The view a group of a snapshot stands for (the hint for the next refresh). */
lt_group_view group_view_of(const lt_group *g);

/* One line saying which groups' members cannot be read (group_members_known false), or NULL when none:
 * "group g: <LT_MEMBERS_UNREADABLE_NOTE>" for one, "N groups (a, b, c and M more) are KIP-848 ..." for
 * several, so that a cluster where every group uses the consumer protocol gets one line, not one per
 * group. Names are raw: sanitize before display. Free with free(). */
char *group_view_unreadable_line(const lt_snapshot *s);

#endif
