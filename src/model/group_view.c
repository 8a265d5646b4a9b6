/* group_view.c — combining ListGroups and DescribeGroups into one view of a group (group_view.h). */
#include "model/group_view.h"

#include <stdio.h>
#include <stdlib.h>

#include "util/xalloc.h"

bool group_describe_ambiguous(const lt_group_described *d)
{
	return d->state == LT_GROUP_DEAD && d->n_members == 0 && d->protocol_type_empty;
}

lt_group_view group_view_combine(const lt_group_listing *l, const lt_group_described *d, const lt_group_view *hint)
{
	if (d->type == LT_GTYPE_CONSUMER)
		return (lt_group_view){ .state = d->state, .type = LT_GTYPE_CONSUMER };
	if (!group_describe_ambiguous(d))
		return (lt_group_view){ .state = d->state, .type = LT_GTYPE_CLASSIC };

	switch (l->kind) {
	case LT_LISTING_LISTED:
		if (l->type == LT_GTYPE_CLASSIC) /* deleted between the list and the describe */
			return (lt_group_view){ .state = LT_GROUP_DEAD, .type = LT_GTYPE_UNKNOWN };
		if (l->state != LT_GROUP_DEAD)
			return (lt_group_view){ .state = l->state,
						.type = LT_GTYPE_CONSUMER,
						.members_unreadable = true };
		return (lt_group_view){ .state = LT_GROUP_DEAD, .type = LT_GTYPE_UNKNOWN };
	case LT_LISTING_ABSENT: return (lt_group_view){ .state = LT_GROUP_DEAD, .type = LT_GTYPE_UNKNOWN };
	case LT_LISTING_UNKNOWN:
	default: break;
	}
	/* Without a listing, Dead may be a consumer-protocol group that is alive. The last view of a
	 * consumer-protocol group is the best guess for display (marked as carried); anything else is
	 * unknown. A Dead hint is not carried: it says nothing about the group now. */
	if (hint && hint->type == LT_GTYPE_CONSUMER && hint->state != LT_GROUP_DEAD)
		return (lt_group_view){ .state = hint->state,
					.type = LT_GTYPE_CONSUMER,
					.members_unreadable = true,
					.state_carried = true };
	return (lt_group_view){ .state = LT_GROUP_UNKNOWN, .type = LT_GTYPE_UNKNOWN, .members_unreadable = true };
}

lt_group_view group_view_of(const lt_group *g)
{
	return (lt_group_view){ .state = g->state, .type = g->type, .members_unreadable = g->members_unreadable };
}

#define NAMES_SHOWN 3

char *group_view_unreadable_line(const lt_snapshot *s)
{
	size_t n = 0;
	const char *names[NAMES_SHOWN] = { NULL };
	for (size_t i = 0; s && i < s->n_groups; i++)
		if (!group_members_known(&s->groups[i])) {
			if (n < NAMES_SHOWN)
				names[n] = s->groups[i].group;
			n++;
		}
	if (n == 0)
		return NULL;
	if (n == 1)
		return xasprintf("group %s: %s", names[0], LT_MEMBERS_UNREADABLE_NOTE);
	char more[48] = "";
	if (n > NAMES_SHOWN)
		snprintf(more, sizeof more, " and %zu more", n - NAMES_SHOWN);
	return xasprintf(
		"%zu groups (%s, %s%s%s%s) are KIP-848 consumer-protocol groups: their members need librdkafka "
		"2.10+ to be read",
		n, names[0], names[1], n > 2 ? ", " : "", n > 2 ? names[2] : "", more);
}
