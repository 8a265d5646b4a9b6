/* partition.c — which __consumer_offsets partition holds a group (Kafka's partitionFor).
 *
 * Kafka computes Utils.abs(groupId.hashCode()) % offsets.topic.num.partitions. Java's hashCode runs
 * over UTF-16 code units, so the UTF-8 id is decoded first: a code point above U+FFFF counts as a
 * surrogate pair, and malformed input as one U+FFFD per maximal invalid subpart (the replacement
 * Java's UTF-8 decoder performs). Utils.abs maps Integer.MIN_VALUE to 0, unlike Math.abs.
 */
#include "commitlog/record.h"

#include <stdint.h>

/* Decodes one code point starting at s[0] (s NUL-terminated); returns the bytes it used. Malformed
 * sequences give U+FFFD and consume the valid prefix only (at least one byte). */
static size_t utf8_next(const uint8_t *s, uint32_t *cp)
{
	uint8_t b = s[0];
	if (b < 0x80) {
		*cp = b;
		return 1;
	}
	size_t need;
	uint8_t lo = 0x80, hi = 0xBF;
	uint32_t v;
	if (b >= 0xC2 && b <= 0xDF) {
		need = 1;
		v = b & 0x1F;
	} else if (b >= 0xE0 && b <= 0xEF) {
		need = 2;
		v = b & 0x0F;
		if (b == 0xE0)
			lo = 0xA0;
		else if (b == 0xED)
			hi = 0x9F; /* no UTF-16 surrogates in UTF-8 */
	} else if (b >= 0xF0 && b <= 0xF4) {
		need = 3;
		v = b & 0x07;
		if (b == 0xF0)
			lo = 0x90;
		else if (b == 0xF4)
			hi = 0x8F;
	} else {
		*cp = 0xFFFD;
		return 1;
	}
	size_t i = 1;
	for (; i <= need; i++) {
		uint8_t c = s[i]; /* the terminating NUL stops us: it is never a continuation byte */
		if (c < lo || c > hi) {
			*cp = 0xFFFD;
			return i;
		}
		lo = 0x80;
		hi = 0xBF;
		v = v << 6 | (c & 0x3F);
	}
	*cp = v;
	return i;
}

int32_t commit_group_hash(const char *group)
{
	uint32_t h = 0; /* unsigned: Java's int overflow wraps, C's signed overflow is undefined */
	const uint8_t *s = (const uint8_t *)group;
	while (*s) {
		uint32_t cp;
		s += utf8_next(s, &cp);
		if (cp >= 0x10000) {
			cp -= 0x10000;
			h = 31 * h + (0xD800 + (cp >> 10));
			h = 31 * h + (0xDC00 + (cp & 0x3FF));
		} else {
			h = 31 * h + cp;
		}
	}
	return (int32_t)h;
}

int32_t commit_partition_for_group(const char *group, int32_t partitions)
{
	int32_t h = commit_group_hash(group);
	int32_t a = h == INT32_MIN ? 0 : (h < 0 ? -h : h);
	return partitions > 0 ? a % partitions : 0;
}
