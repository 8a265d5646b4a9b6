/* codec.h — one snapshot to bytes and back, as its change from the previous one (doc/RECORDING.md).
 *
 * Pure: no I/O, no compression (file.c frames and compresses what this produces). Every field of
 * the snapshot, observed and derived, is kept exactly, so a replay shows what the dashboard showed
 * then, whatever later versions' model would compute.
 *
 * The encoder and the decoder keep the same state: the previous record's snapshot. A keyframe is coded
 * against nothing, so a reader can start decoding at any keyframe.
 */
#ifndef LAGTOP_RECORD_CODEC_H
#define LAGTOP_RECORD_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

typedef struct rec_codec rec_codec;

rec_codec *rec_codec_new(void);
void rec_codec_free(rec_codec *c);
/* Forget the previous record (the next one is a keyframe). */
void rec_codec_reset(rec_codec *c);

/* Appends the encoding of s (a keyframe when `key`) to *buf (xrealloc'd; *len, *cap updated) and
 * advances the state. */
void rec_encode(rec_codec *c, const lt_snapshot *s, bool key, unsigned char **buf, size_t *len, size_t *cap);

/* Decodes one record; NULL with a one-line reason in err when the bytes are not a valid record (the
 * state is then reset: decode from a keyframe again). The result is a new reference. */
lt_snapshot *rec_decode(rec_codec *c, const unsigned char *buf, size_t len, bool key, char *err, size_t errlen);

#endif
