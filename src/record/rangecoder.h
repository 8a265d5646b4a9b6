/* rangecoder.h — an adaptive binary range coder and a signed-integer model on it (doc/RECORDING.md,
 * "Version 2: the residual columns").
 *
 * Why: zstd codes bytes, and a varint's bytes say little about the number's size. The committed
 * offsets' residuals of a busy recording are as wide as each partition's own step: coded here, with
 * the probabilities of one context (the caller's bucket of that partition's recent scale), they cost
 * close to their entropy instead of ~30 % over it.
 *
 * The coder is LZMA's: 32-bit range, 11-bit probabilities moved by 1/32 towards each coded bit, bytes
 * with a carry. A value v is: zero? then sign, then the bit length of |v| (a 6-level bit tree), then the
 * bits below its leading one, the top two modelled, the rest direct. Encoder and decoder hold the same
 * models (rc_model_init), so the two sides stay in step as long as they code the same contexts.
 *
 * The decoder never trusts its input: reading past the end gives zero bytes and marks the decoder
 * (rc_dec_ok() false), and every loop is bounded by the 64 bits of the value, so garbage decodes to
 * garbage values in bounded time, never to a crash.
 */
#ifndef LAGTOP_RECORD_RANGECODER_H
#define LAGTOP_RECORD_RANGECODER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef uint16_t rc_prob;

/* The probabilities of one context. */
typedef struct rc_model {
	rc_prob zero, sign;
	rc_prob len[64];    /* bit tree over the bit length − 1 (0..63) */
	rc_prob top[64][4]; /* per bit length: the two bits below the leading one (a 2-level tree) */
} rc_model;

void rc_model_init(rc_model *m, size_t n);

typedef struct rc_enc {
	uint64_t low;
	uint32_t range;
	uint8_t cache;
	uint64_t cache_size;
	unsigned char *p; /* output, xrealloc'd */
	size_t len, cap;
} rc_enc;

/* Starts an empty output (keeps the buffer's memory). */
void rc_enc_init(rc_enc *e);
void rc_enc_free(rc_enc *e);
void rc_enc_int(rc_enc *e, rc_model *m, int64_t v);
/* Writes the last bytes: e->p[0 .. e->len) is then the whole stream. */
void rc_enc_finish(rc_enc *e);

typedef struct rc_dec {
	uint32_t range, code;
	const unsigned char *p;
	size_t len, pos;
	bool over; /* read past the end (or a stream that cannot come from rc_enc) */
} rc_dec;

void rc_dec_init(rc_dec *d, const unsigned char *p, size_t len);
int64_t rc_dec_int(rc_dec *d, rc_model *m);
/* True when the stream was well formed and read exactly to its end. */
bool rc_dec_done(const rc_dec *d);

#endif
