/* test_rangecoder.c — src/record/rangecoder.c: values come back exactly (edge values, every bit length, many
 * contexts interleaved), a stream cut short, lengthened or flipped is never taken as whole, garbage decodes in
 * bounded time, and the coder earns its place: uniform values cost close to their entropy. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "record/rangecoder.h"

#define N_CTX 8

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* Encodes v[i] in context ctx[i], decodes with fresh models, checks every value and the end. */
static void round_trip(const int64_t *v, const unsigned *ctx, size_t n, rc_enc *e)
{
	rc_model m[N_CTX];
	rc_model_init(m, N_CTX);
	rc_enc_init(e);
	for (size_t i = 0; i < n; i++)
		rc_enc_int(e, &m[ctx[i]], v[i]);
	rc_enc_finish(e);
	rc_model_init(m, N_CTX);
	rc_dec d;
	rc_dec_init(&d, e->p, e->len);
	for (size_t i = 0; i < n; i++) {
		int64_t got = rc_dec_int(&d, &m[ctx[i]]);
		if (got != v[i])
			fail_msg("value %zu: %lld decoded as %lld", i, (long long)v[i], (long long)got);
	}
	assert_true(rc_dec_done(&d));
}

static void edge_values(void **state)
{
	(void)state;
	int64_t v[200];
	unsigned ctx[200];
	size_t n = 0;
	const int64_t edges[] = { 0,
				  1,
				  -1,
				  2,
				  -2,
				  3,
				  7,
				  -8,
				  255,
				  256,
				  -256,
				  INT32_MAX,
				  INT32_MIN,
				  INT64_MAX,
				  INT64_MIN,
				  INT64_MAX - 1,
				  INT64_MIN + 1 };
	for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++, n++) {
		v[n] = edges[i];
		ctx[n] = (unsigned)i % N_CTX;
	}
	for (int b = 0; b < 63; b++, n += 2) { /* every bit length, both signs, in one context */
		v[n] = (int64_t)1 << b | (int64_t)(next() & (((uint64_t)1 << b) - 1));
		v[n + 1] = -v[n];
		ctx[n] = ctx[n + 1] = 3;
	}
	rc_enc e = { 0 };
	round_trip(v, ctx, n, &e);
	/* nothing at all is a stream too */
	round_trip(v, ctx, 0, &e);
	assert_int_equal(e.len, 5);
	rc_enc_free(&e);
}

static void random_values_many_contexts(void **state)
{
	(void)state;
	size_t n = 100000;
	int64_t *v = malloc(n * sizeof *v);
	unsigned *ctx = malloc(n * sizeof *ctx);
	for (size_t i = 0; i < n; i++) {
		ctx[i] = (unsigned)(next() % N_CTX);
		unsigned bits = ctx[i] * 8; /* each context its own scale, 0 (only zeros) to 2^56 */
		v[i] = bits ? (int64_t)(next() % ((uint64_t)1 << bits)) - (int64_t)((uint64_t)1 << (bits - 1)) : 0;
		if (i % 97 == 0)
			v[i] = (int64_t)next(); /* outliers anywhere */
	}
	rc_enc e = { 0 };
	round_trip(v, ctx, n, &e);
	free(v);
	free(ctx);
	rc_enc_free(&e);
}

/* Uniform on ±255 is log2(511) = 8.997 bits of entropy: the coder must come close (varints take 16). */
static void close_to_the_entropy(void **state)
{
	(void)state;
	size_t n = 50000;
	rc_model m;
	rc_model_init(&m, 1);
	rc_enc e = { 0 };
	rc_enc_init(&e);
	for (size_t i = 0; i < n; i++)
		rc_enc_int(&e, &m, (int64_t)(next() % 511) - 255);
	rc_enc_finish(&e);
	double bits = (double)e.len * 8 / (double)n;
	if (bits > 9.15 || bits < 8.99)
		fail_msg("%.3f bits per value", bits);
	rc_enc_free(&e);
}

static void damaged_streams_are_not_whole(void **state)
{
	(void)state;
	size_t n = 2000;
	int64_t v[2000];
	for (size_t i = 0; i < n; i++)
		v[i] = (int64_t)(next() % 100000) - 50000;
	rc_model m;
	rc_model_init(&m, 1);
	rc_enc e = { 0 };
	rc_enc_init(&e);
	for (size_t i = 0; i < n; i++)
		rc_enc_int(&e, &m, v[i]);
	rc_enc_finish(&e);
	unsigned char *b = malloc(e.len + 1);
	/* cut short at every length, and one byte too many: decoding the same count never ends whole */
	for (size_t len = 0; len <= e.len + 1; len++) {
		if (len == e.len)
			continue;
		memcpy(b, e.p, e.len);
		b[e.len] = 0x5a;
		rc_model_init(&m, 1);
		rc_dec d;
		rc_dec_init(&d, b, len);
		for (size_t i = 0; i < n; i++)
			rc_dec_int(&d, &m);
		if (rc_dec_done(&d))
			fail_msg("a stream of %zu bytes (of %zu) read as whole", len, e.len);
	}
	/* a flipped bit changes the values or the end, except in the flush's last 4 bytes, which may hold bits
	 * no value needs (the frame's CRC-32C covers those) */
	size_t whole_and_same = 0;
	for (size_t at = 0; at < e.len; at++) {
		memcpy(b, e.p, e.len);
		b[at] ^= 0x10;
		rc_model_init(&m, 1);
		rc_dec d;
		rc_dec_init(&d, b, e.len);
		bool same = true;
		for (size_t i = 0; i < n; i++)
			same &= rc_dec_int(&d, &m) == v[i];
		if (same && rc_dec_done(&d) && at + 4 < e.len)
			whole_and_same++;
	}
	assert_int_equal(whole_and_same, 0);
	free(b);
	rc_enc_free(&e);
}

/* Random bytes: every value decodes in bounded time (64 bits at most), and reading on past the end is
 * marked. */
static void garbage_is_bounded(void **state)
{
	(void)state;
	unsigned char g[64];
	rc_model m[2];
	for (int round = 0; round < 2000; round++) {
		for (size_t i = 0; i < sizeof g; i++)
			g[i] = (unsigned char)next();
		g[0] = round % 2 ? 0 : g[0];
		rc_model_init(m, 2);
		rc_dec d;
		rc_dec_init(&d, g, (size_t)(next() % sizeof g));
		for (int i = 0; i < 200; i++)
			rc_dec_int(&d, &m[i & 1]);
		assert_false(rc_dec_done(&d)); /* 200 values need more than 64 bytes of anything */
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(edge_values),          cmocka_unit_test(random_values_many_contexts),
		cmocka_unit_test(close_to_the_entropy), cmocka_unit_test(damaged_streams_are_not_whole),
		cmocka_unit_test(garbage_is_bounded),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
