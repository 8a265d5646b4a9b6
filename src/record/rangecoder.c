/* rangecoder.c — see rangecoder.h. */
#include "config.h"

#include "record/rangecoder.h"

#include <stdlib.h>

#include "util/xalloc.h"

#define PROB_BITS 11
#define PROB_ONE  (1u << PROB_BITS)
#define MOVE_BITS 5
#define TOP       (1u << 24)

void rc_model_init(rc_model *m, size_t n)
{
	for (size_t k = 0; k < n; k++) {
		m[k].zero = m[k].sign = PROB_ONE / 2;
		for (size_t i = 0; i < 64; i++) {
			m[k].len[i] = PROB_ONE / 2;
			for (size_t j = 0; j < 4; j++)
				m[k].top[i][j] = PROB_ONE / 2;
		}
	}
}

/* ---- encoder ---- */

void rc_enc_init(rc_enc *e)
{
	e->low = 0;
	e->range = 0xFFFFFFFFu;
	e->cache = 0;
	e->cache_size = 1;
	e->len = 0;
}

void rc_enc_free(rc_enc *e)
{
	free(e->p);
	e->p = NULL;
	e->len = e->cap = 0;
}

static void put_byte(rc_enc *e, unsigned char b)
{
	if (e->len == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 4096;
		e->p = xrealloc(e->p, e->cap);
	}
	e->p[e->len++] = b;
}

/* The top byte of low leaves once no carry can reach it; a run of 0xFF bytes waits for the carry. */
static void shift_low(rc_enc *e)
{
	if ((uint32_t)e->low < 0xFF000000u || (e->low >> 32) != 0) {
		unsigned char carry = (unsigned char)(e->low >> 32);
		unsigned char b = e->cache;
		do {
			put_byte(e, (unsigned char)(b + carry));
			b = 0xFF;
		} while (--e->cache_size != 0);
		e->cache = (uint8_t)(e->low >> 24);
	}
	e->cache_size++;
	e->low = (e->low & 0x00FFFFFFu) << 8;
}

/* Without branches on the bit (it is random: a mispredicted branch per bit was the coder's main cost). */
static inline void enc_bit(rc_enc *e, rc_prob *p, unsigned bit)
{
	uint32_t bound = (e->range >> PROB_BITS) * *p;
	uint32_t mask = 0 - (uint32_t)(bit & 1);
	e->low += bound & mask;
	e->range = (bound & ~mask) | ((e->range - bound) & mask);
	unsigned q = *p;
	*p = (rc_prob)(q + ((((PROB_ONE - q) >> MOVE_BITS) & ~mask) - ((q >> MOVE_BITS) & mask)));
	while (e->range < TOP) {
		e->range <<= 8;
		shift_low(e);
	}
}

/* n (1..8) bits with equal probabilities at once: range ≥ 2^24 before, so ≥ 2^16 after the shift. */
static inline void enc_direct(rc_enc *e, unsigned bits, unsigned n)
{
	e->range >>= n;
	e->low += (uint64_t)bits * e->range;
	while (e->range < TOP) {
		e->range <<= 8;
		shift_low(e);
	}
}

void rc_enc_int(rc_enc *e, rc_model *m, int64_t v)
{
	if (v == 0) {
		enc_bit(e, &m->zero, 0);
		return;
	}
	enc_bit(e, &m->zero, 1);
	enc_bit(e, &m->sign, v < 0);
	uint64_t mag = v < 0 ? 0 - (uint64_t)v : (uint64_t)v; /* INT64_MIN: 2^63 */
	unsigned bl = 64 - (unsigned)__builtin_clzll(mag);    /* 1..64 */
	unsigned sym = bl - 1, node = 1;
	for (int i = 5; i >= 0; i--) {
		unsigned b = sym >> i & 1;
		enc_bit(e, &m->len[node & 63], b);
		node = node << 1 | b;
	}
	int rest = (int)bl - 1; /* bits below the leading one */
	unsigned tnode = 1;
	for (int i = 0; i < 2 && rest > 0; i++) {
		rest--;
		unsigned b = (unsigned)(mag >> rest & 1);
		enc_bit(e, &m->top[sym][tnode], b);
		tnode = tnode << 1 | b;
	}
	while (rest > 0) {
		int n = rest < 8 ? rest : 8;
		rest -= n;
		enc_direct(e, (unsigned)(mag >> rest & ((1u << n) - 1)), (unsigned)n);
	}
}

void rc_enc_finish(rc_enc *e)
{
	for (int i = 0; i < 5; i++)
		shift_low(e);
}

/* ---- decoder ---- */

static inline unsigned char get_byte(rc_dec *d)
{
	if (d->pos < d->len)
		return d->p[d->pos++];
	d->over = true;
	return 0;
}

void rc_dec_init(rc_dec *d, const unsigned char *p, size_t len)
{
	d->p = p;
	d->len = len;
	d->pos = 0;
	d->over = false;
	d->range = 0xFFFFFFFFu;
	d->code = 0;
	if (get_byte(d) != 0) /* the encoder's first byte is always 0 (its initial cache) */
		d->over = true;
	for (int i = 0; i < 4; i++)
		d->code = d->code << 8 | get_byte(d);
}

/* One bit (without branches on it, as enc_bit) and the direct bits, with the hot state in locals: the
 * compiler cannot keep d's fields in registers across the stores to the probabilities, which may alias
 * them. Reading past the end gives zero bytes and marks the decoder, as get_byte. */
#define DEC_NORM()                                                                                                     \
	while (range < TOP) {                                                                                          \
		range <<= 8;                                                                                           \
		unsigned char b_ = 0;                                                                                  \
		if (pos < len)                                                                                         \
			b_ = p[pos++];                                                                                 \
		else                                                                                                   \
			over = true;                                                                                   \
		code = code << 8 | b_;                                                                                 \
	}
#define DEC_BIT(prob, out)                                                                                             \
	do {                                                                                                           \
		rc_prob *p_ = (prob);                                                                                  \
		unsigned q_ = *p_;                                                                                     \
		uint32_t bound_ = (range >> PROB_BITS) * q_;                                                           \
		unsigned bit_ = code >= bound_;                                                                        \
		uint32_t mask_ = 0 - (uint32_t)bit_;                                                                   \
		code -= bound_ & mask_;                                                                                \
		range = (bound_ & ~mask_) | ((range - bound_) & mask_);                                                \
		*p_ = (rc_prob)(q_ + ((((PROB_ONE - q_) >> MOVE_BITS) & ~mask_) - ((q_ >> MOVE_BITS) & mask_)));       \
		DEC_NORM();                                                                                            \
		(out) = bit_;                                                                                          \
	} while (0)

int64_t rc_dec_int(rc_dec *d, rc_model *m)
{
	uint32_t range = d->range, code = d->code;
	const unsigned char *p = d->p;
	size_t pos = d->pos, len = d->len;
	bool over = d->over;
	unsigned bit;
	uint64_t mag = 0;
	unsigned neg = 0;
	DEC_BIT(&m->zero, bit);
	if (bit) {
		DEC_BIT(&m->sign, neg);
		unsigned node = 1;
		for (int i = 0; i < 6; i++) {
			DEC_BIT(&m->len[node & 63], bit);
			node = node << 1 | bit;
		}
		unsigned sym = node & 63;
		int rest = (int)sym; /* bits below the leading one */
		mag = 1;
		unsigned tnode = 1;
		for (int i = 0; i < 2 && rest > 0; i++, rest--) {
			DEC_BIT(&m->top[sym][tnode], bit);
			tnode = tnode << 1 | bit;
			mag = mag << 1 | bit;
		}
		while (rest > 0) {
			int n = rest < 8 ? rest : 8;
			rest -= n;
			range >>= n;
			uint32_t v = code / range;
			if (v >> n) { /* not from rc_enc: clamp, and say so at the end */
				v = (1u << n) - 1;
				over = true;
			}
			code -= v * range;
			DEC_NORM();
			mag = mag << n | v;
		}
	}
	d->range = range;
	d->code = code;
	d->pos = pos;
	d->over = over;
	return neg ? (int64_t)(0 - mag) : (int64_t)mag;
}
#undef DEC_BIT
#undef DEC_NORM

bool rc_dec_done(const rc_dec *d)
{
	/* a stream from rc_enc keeps code below range; anything else is not one */
	return !d->over && d->pos == d->len && d->code < d->range;
}
