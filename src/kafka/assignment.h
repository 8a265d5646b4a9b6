/* assignment.h — a classic consumer group member's assignment, as DescribeGroups returns it: the bytes
 * of Kafka's ConsumerProtocolAssignment (int16 version; an array of topic, int32 partitions; from v1 user
 * data, which lagtop does not read). Pure: no I/O, no librdkafka.
 *
 * The bytes come from the broker, so they are checked whole before anything is handed out: a count
 * larger than the bytes left, a negative length, a topic that is empty or holds a NUL byte, or bytes
 * ending inside a field make the whole assignment malformed (-1 and a one-line reason), never part of it.
 * Bytes past the fields this version knows are a newer version's and are left alone, as Kafka's own
 * ConsumerProtocol does. No bytes at all is no assignment (a group that is not Stable sends none).
 */
#ifndef LAGTOP_KAFKA_ASSIGNMENT_H
#define LAGTOP_KAFKA_ASSIGNMENT_H

#include <stddef.h>
#include <stdint.h>

/* Called once per assigned partition, in the bytes' order; topic is NUL-terminated and valid for the
 * call only. */
typedef void (*lt_assignment_fn)(const char *topic, int32_t partition, void *arg);

/* 0 and fn called per partition; -1 when the bytes are malformed (fn never called, err says why). */
int assignment_decode(const void *bytes, size_t len, lt_assignment_fn fn, void *arg, char *err, size_t errlen);

#endif
