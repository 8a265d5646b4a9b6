/* codec.h — one snapshot to bytes and back, as a change from the previous one (doc/RECORDING.md).
 *
 * Pure: no I/O, no compression (file.c frames and compresses what this produces). Every field of
 * the snapshot, observed and derived, is kept exactly, so a replay shows what the dashboard showed
 * then, whatever later versions' model would compute.
 *
 * The encoder and the decoder keep the same state: the previous snapshot (a reference) and, per
 * partition, the last few recorded (time, committed, log end) samples. Values are written as the
 * difference from a prediction made from that state (a rate is usually "the offsets' advance since
 * sample j over the time since sample j", a lag "log end − committed"), so a steady partition costs
 * a few zero bytes, which the compressor then squeezes.
 *
 * A keyframe is coded against an empty previous snapshot but keeps the sample history, so a reader
 * must start decoding at least LT_REC_HISTORY records before the keyframe it wants: the reader
 * starts at the keyframe before (file.c guarantees keyframes are at least that far apart). Values
 * decoded before the history is warm may be wrong; they are never shown.
 */
#ifndef LAGTOP_RECORD_CODEC_H
#define LAGTOP_RECORD_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/snapshot.h"

/* Samples kept per partition for the predictions (the model's default ring capacity). */
#define LT_REC_HISTORY 16

/* The version of the bytes rec_encode writes (doc/RECORDING.md, "Versions"); rec_decode reads 1 and 2. */
#define LT_REC_CODEC_VERSION 2

typedef struct rec_codec rec_codec;

rec_codec *rec_codec_new(void);
void rec_codec_free(rec_codec *c);
/* The version of the bytes to decode (the file header's; a new codec has LT_REC_CODEC_VERSION). */
void rec_codec_set_version(rec_codec *c, unsigned version);
/* Forget everything (a reader about to decode from another keyframe). */
void rec_codec_reset(rec_codec *c);

/* Appends the encoding of s (a keyframe when `key`) to *buf (xrealloc'd; *len, *cap updated) and
 * advances the state. */
void rec_encode(rec_codec *c, const lt_snapshot *s, bool key, unsigned char **buf, size_t *len, size_t *cap);

/* Decodes one record; NULL with a one-line reason in err when the bytes are not a valid record
 * (the state is then undefined: reset before decoding again). The result is a new reference. */
lt_snapshot *rec_decode(rec_codec *c, const unsigned char *buf, size_t len, bool key, char *err, size_t errlen);

/* Light decoding, for the warm-up records a reader decodes before the keyframe it starts showing
 * from: only the groups, their partitions and each partition's flags, offsets and lag are decoded (what
 * the samples and the next light record need); the other columns are not read (so not checked), and the
 * groups that did not change go without their members and commit epochs. Such a record must not be
 * shown, and what follows it must be another light record or a keyframe (which predicts from nothing). */
void rec_codec_set_light(rec_codec *c, bool light);

/* A record that will not be shown but that later records are predicted from (a reader's records between
 * the keyframe it shows from and the one wanted; a light record is hidden too): its partitions' status,
 * has_eta and ETA are not predicted (nothing is predicted from them), so they are wrong and it must not be
 * shown. Set after rec_codec_set_light. */
void rec_codec_set_hidden(rec_codec *c, bool hidden);

/* The fewest partitions a record decoded in place needs for its range-coded streams to be read on a
 * second thread (codec.c, decode_ahead; the values are the same either way). The default suits M-sized
 * recordings; 0 always, SIZE_MAX never (tests and the fuzzer run both). */
void rec_codec_set_ahead_min(rec_codec *c, size_t partitions);

/* The lags of one partition over the decoded history, oldest first (the detail popup's sparkline). */
size_t rec_codec_partition_lags(const rec_codec *c, const char *group, const char *topic, int32_t partition,
				int64_t *out, size_t max);

#endif
