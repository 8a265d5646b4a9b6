/* assignment.c — ConsumerProtocolAssignment bytes to (topic, partition) pairs (assignment.h). */
#include "kafka/assignment.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

struct rd {
	const uint8_t *p;
	size_t len, off;
	const char *bad; /* the first malformed field, NULL while all is well */
};

static bool need(struct rd *r, size_t n, const char *what)
{
	if (r->bad)
		return false;
	if (r->len - r->off < n) {
		r->bad = what;
		return false;
	}
	return true;
}

static int32_t rd_i32(struct rd *r, const char *what)
{
	if (!need(r, 4, what))
		return -1;
	const uint8_t *b = r->p + r->off;
	r->off += 4;
	return (int32_t)((uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]);
}

static int16_t rd_i16(struct rd *r, const char *what)
{
	if (!need(r, 2, what))
		return -1;
	const uint8_t *b = r->p + r->off;
	r->off += 2;
	return (int16_t)((uint16_t)b[0] << 8 | b[1]);
}

/* An array's count, checked against the bytes left (each element is at least min_size bytes). */
static int32_t rd_count(struct rd *r, size_t min_size, const char *what)
{
	int32_t n = rd_i32(r, what);
	if (r->bad)
		return -1;
	if (n < 0 || (size_t)n > (r->len - r->off) / min_size) {
		r->bad = what;
		return -1;
	}
	return n;
}

/* One pass over the bytes; fn NULL only checks them. */
static const char *walk(const void *bytes, size_t len, lt_assignment_fn fn, void *arg)
{
	struct rd r = { .p = bytes, .len = len };
	int16_t version = rd_i16(&r, "version");
	if (!r.bad && version < 0)
		return "version";
	int32_t n_topics = rd_count(&r, 2 + 4, "topic count");
	char topic[32768];
	for (int32_t t = 0; t < n_topics && !r.bad; t++) {
		int16_t tlen = rd_i16(&r, "topic length");
		if (r.bad)
			break;
		if (tlen <= 0 || !need(&r, (size_t)tlen, "topic"))
			return "topic";
		memcpy(topic, r.p + r.off, (size_t)tlen);
		topic[tlen] = '\0';
		r.off += (size_t)tlen;
		if (strlen(topic) != (size_t)tlen)
			return "topic";
		int32_t n_parts = rd_count(&r, 4, "partition count");
		for (int32_t k = 0; k < n_parts && !r.bad; k++) {
			int32_t p = rd_i32(&r, "partition");
			if (!r.bad && p < 0)
				return "partition";
			if (!r.bad && fn)
				fn(topic, p, arg);
		}
	}
	return r.bad;
}

int assignment_decode(const void *bytes, size_t len, lt_assignment_fn fn, void *arg, char *err, size_t errlen)
{
	if (len == 0)
		return 0;
	const char *bad = walk(bytes, len, NULL, arg);
	if (bad) {
		snprintf(err, errlen, "malformed consumer assignment (%zu bytes): bad %s", len, bad);
		return -1;
	}
	if (fn) /* NULL: only checked */
		walk(bytes, len, fn, arg);
	return 0;
}
