/* crc32c.h — CRC-32C (Castagnoli), the checksum of Kafka record batches (magic v2).
 *
 * Reflected polynomial 0x82F63B78, initial value and final XOR 0xFFFFFFFF, as in RFC 3720 (iSCSI):
 * crc32c("123456789") == 0xE3069283.
 */
#ifndef LAGTOP_UTIL_CRC32C_H
#define LAGTOP_UTIL_CRC32C_H

#include <stddef.h>
#include <stdint.h>

/* Checksum of one buffer. */
uint32_t crc32c(const void *buf, size_t len);

/* Incremental form: start with crc = 0 and feed pieces in order; the result equals crc32c() of the
 * concatenation. */
uint32_t crc32c_update(uint32_t crc, const void *buf, size_t len);

#endif
