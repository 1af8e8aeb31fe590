// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_hdr_codec.c - HdrHistogram V2 encoding, ZigZag-LEB128, compressed base64, base64. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <zlib.h>

#include "fixtures.h"
#include "js_hist.h"
#include "hist_test_rng.h"

/* golden vector A: L=1, H=3.6e12, S=3, {1 x1, 100 x2, 1000000 x1} */
static const uint8_t golden_a[] = {
	0x1c, 0x84, 0x93, 0x13, 0x00, 0x00, 0x00, 0x09, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x03, 0x46, 0x30, 0xb8, 0xa0, 0x00, 0x3f, 0xf0, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x01, 0x02, 0xc3, 0x01, 0x04, 0xf7, 0xac, 0x01, 0x02, /* payload */
};
static const char golden_a_l9[] =
	"HISTFAAAACl42pNpmSzMwMDAyQABzFCaEch0M9ixgMH+A1SA6TAjy/c1jEwAgcIGxQ==";
static const char golden_a_l6[] =
	"HISTFAAAACl4nJNpmSzMwMDAyQABzFCaEch0M9ixgMH+A1SA6TAjy/c1jEwAgcIGxQ==";

static void golden_a_hist(struct js_hist *h)
{
	assert_int_equal(hist_init(h, 1, JS_HIST_HIGHEST_NS, 3), 0);
	hist_record(h, 1);
	hist_record_n(h, 100, 2);
	hist_record(h, 1000000);
}

/* assert two histograms carry the same configuration and counts */
static void assert_same_hist(const struct js_hist *a, const struct js_hist *b)
{
	assert_int_equal(a->lowest, b->lowest);
	assert_int_equal(a->highest, b->highest);
	assert_int_equal(a->sig, b->sig);
	assert_int_equal(a->counts_len, b->counts_len);
	assert_memory_equal(a->counts, b->counts, (size_t)a->counts_len * sizeof(*a->counts));
	assert_int_equal(a->total, b->total);
	assert_int_equal(hist_max(a), hist_max(b));
	assert_int_equal(hist_min(a), hist_min(b));
	assert_int_equal(hist_value_at_percentile(a, 99.9), hist_value_at_percentile(b, 99.9));
}

struct zz_case {
	int64_t v;
	const char *hex;
};

static void hex(char *out, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
	out[2 * n] = '\0';
}

/** Check ZigZag-LEB128 "64b9B" examples (Java's ZigZagEncoding), both ways. */
static void test_zigzag_examples(void **state)
{
	static const struct zz_case cases[] = {
		{ 0, "00" },
		{ 1, "02" },
		{ -1, "01" },
		{ 63, "7e" },
		{ -64, "7f" },
		{ 64, "8001" },
		{ 1000, "d00f" },
		{ -98, "c301" },
		{ 1LL << 62, "808080808080808080" },
		{ INT64_MIN, "ffffffffffffffffff" },
		{ -11068, "f7ac01" },
		{ INT64_MAX, "feffffffffffffffff" },
	};
	uint8_t buf[16];
	char h[40];
	size_t i, n;
	int64_t v;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = hist_zigzag_put(buf, cases[i].v);
		hex(h, buf, n);
		assert_string_equal(h, cases[i].hex);
		assert_int_equal(hist_zigzag_get(buf, n, &v), (int)n);
		assert_int_equal(v, cases[i].v);
		/* truncated input is refused */
		assert_int_equal(hist_zigzag_get(buf, n - 1, &v), -EINVAL);
	}
}

/** Check ZigZag round trip on random values of every magnitude. */
static void test_zigzag_random(void **state)
{
	uint8_t buf[16];
	int64_t v, w;
	size_t n;
	int k;

	(void)state;
	rng_state = 1;
	for (k = 0; k < (int)fx_heavy(200000); k++) {
		v = (int64_t)(rnd() >> (rnd() % 64));
		if (k & 1)
			v = -v;
		n = hist_zigzag_put(buf, v);
		assert_true(n >= 1 && n <= 9);
		assert_int_equal(hist_zigzag_get(buf, n, &w), (int)n);
		assert_int_equal(w, v);
	}
}

/** Check golden vector A's uncompressed header + payload bytes exactly. */
static void test_golden_a_bytes(void **state)
{
	struct js_hist h, d;
	uint8_t *buf;
	size_t len;

	(void)state;
	golden_a_hist(&h);
	assert_int_equal(hist_encode_v2(&h, &buf, &len), 0);
	assert_int_equal(len, sizeof(golden_a));
	assert_memory_equal(buf, golden_a, sizeof(golden_a));
	assert_int_equal(hist_decode_v2(buf, len, &d), 0);
	assert_same_hist(&h, &d);
	free(buf);
	hist_free(&d);
	hist_free(&h);
}

/** Check the doc's compressed strings decode to golden A, and ours is HISTF... and decodes. */
static void test_golden_a_compressed(void **state)
{
	struct js_hist h, d;
	char *b64;
	int level;

	(void)state;
	golden_a_hist(&h);
	assert_int_equal(hist_decode_compressed_b64(golden_a_l9, &d), 0);
	assert_same_hist(&h, &d);
	assert_int_equal(d.total, 4);
	assert_int_equal(hist_max(&d), 1000447);
	hist_free(&d);
	assert_int_equal(hist_decode_compressed_b64(golden_a_l6, &d), 0);
	assert_same_hist(&h, &d);
	hist_free(&d);
	for (level = -1; level <= 9; level++) {
		assert_int_equal(hist_encode_compressed_b64(&h, level, &b64), 0);
		assert_memory_equal(b64, "HISTF", 5);
		assert_int_equal(hist_decode_compressed_b64(b64, &d), 0);
		assert_same_hist(&h, &d);
		hist_free(&d);
		free(b64);
	}
	assert_int_equal(hist_encode_compressed_b64(&h, 10, &b64), -EINVAL);
	hist_free(&h);
}

/** Check encode/decode round trips of random histograms in several configurations. */
static void test_roundtrip_random(void **state)
{
	static const int64_t cfg[][3] = {
		{ 1, 3600000000000LL, 3 },
		{ 20000, 3600000000000LL, 2 },
		{ 1, 1000000000LL, 5 },
		{ 1000, 1LL << 50, 1 },
	};
	struct js_hist h, d;
	size_t c;
	int round, k, n;
	char *b64;

	(void)state;
	rng_state = 1234;
	for (c = 0; c < sizeof(cfg) / sizeof(cfg[0]); c++) {
		assert_int_equal(hist_init(&h, cfg[c][0], cfg[c][1], (int)cfg[c][2]), 0);
		for (round = 0; round < 20; round++) {
			hist_reset(&h);
			n = (int)(rnd() % 5000);
			for (k = 0; k < n; k++)
				hist_record_n(&h, rnd_value(44),
					      1 + (rnd() % 4 == 0 ? rnd() % 1000 : 0));
			if (round % 5 == 1)
				hist_record_n(&h, rnd_value(30), 1ULL << 40); /* 7-byte count */
			if (round % 5 == 2)
				hist_record(&h, 0);
			assert_int_equal(hist_encode_compressed_b64(&h, 6, &b64), 0);
			assert_int_equal(hist_decode_compressed_b64(b64, &d), 0);
			assert_same_hist(&h, &d);
			assert_int_equal(d.overflow, 0); /* not carried by the format */
			hist_free(&d);
			free(b64);
		}
		hist_free(&h);
	}
}

/** Check the empty histogram: one zero entry, decodes back empty. */
static void test_empty(void **state)
{
	struct js_hist h, d;
	uint8_t *buf;
	size_t len;
	char *b64;

	(void)state;
	assert_int_equal(hist_init(&h, 1, JS_HIST_HIGHEST_NS, 3), 0);
	assert_int_equal(hist_encode_v2(&h, &buf, &len), 0);
	assert_int_equal(len, JS_HDR_V2_HEADER_LEN + 1);
	assert_int_equal(buf[JS_HDR_V2_HEADER_LEN], 0x01); /* one zero: -1 */
	free(buf);
	assert_int_equal(hist_encode_compressed_b64(&h, 9, &b64), 0);
	assert_int_equal(hist_decode_compressed_b64(b64, &d), 0);
	assert_same_hist(&h, &d);
	assert_int_equal(d.total, 0);
	free(b64);
	hist_free(&d);
	hist_free(&h);
}

/* compress a raw V2 buffer into a "HISTF..." string, the way the encoder does */
static char *wrap(const uint8_t *raw, size_t len, uint32_t cookie)
{
	uint8_t out[1024];
	uLongf dlen = sizeof(out) - 8;
	char *b64;

	assert_int_equal(compress2(out + 8, &dlen, raw, len, 6), Z_OK);
	out[0] = (uint8_t)(cookie >> 24);
	out[1] = (uint8_t)(cookie >> 16);
	out[2] = (uint8_t)(cookie >> 8);
	out[3] = (uint8_t)cookie;
	out[4] = out[5] = 0;
	out[6] = (uint8_t)(dlen >> 8);
	out[7] = (uint8_t)dlen;
	assert_int_equal(js_b64_encode(out, 8 + dlen, &b64), 0);
	return b64;
}

/** Check that malformed input is refused without crashing. */
static void test_decode_errors(void **state)
{
	uint8_t raw[sizeof(golden_a) + 16];
	struct js_hist d;
	char *b64, *trunc;
	size_t len;

	(void)state;
	assert_int_equal(hist_decode_compressed_b64("", &d), -EINVAL);
	assert_int_equal(hist_decode_compressed_b64("!!!!", &d), -EINVAL);
	assert_int_equal(hist_decode_compressed_b64("HISTFAAA", &d), -EINVAL);
	/* truncated compressed data */
	trunc = strndup(golden_a_l9, 40);
	assert_int_equal(hist_decode_compressed_b64(trunc, &d), -EINVAL);
	free(trunc);
	/* V1 compressed cookie: recognised family, unsupported variant */
	b64 = wrap(golden_a, sizeof(golden_a), 0x1c849384u);
	assert_int_equal(hist_decode_compressed_b64(b64, &d), -ENOTSUP);
	free(b64);
	/* wrong cookie */
	b64 = wrap(golden_a, sizeof(golden_a), 0x12345678u);
	assert_int_equal(hist_decode_compressed_b64(b64, &d), -EINVAL);
	free(b64);
	/* trailing garbage after the announced payload is refused */
	memcpy(raw, golden_a, sizeof(golden_a));
	raw[sizeof(golden_a)] = 0x02;
	b64 = wrap(raw, sizeof(golden_a) + 1, JS_HDR_V2_COMPRESSED_COOKIE);
	assert_int_equal(hist_decode_compressed_b64(b64, &d), -EINVAL);
	free(b64);
	/* a zero run past the end of the counts array */
	memcpy(raw, golden_a, sizeof(golden_a));
	raw[JS_HDR_V2_HEADER_LEN + 5] = 0xff; /* -11068 -> a huge run */
	raw[JS_HDR_V2_HEADER_LEN + 6] = 0xff;
	raw[JS_HDR_V2_HEADER_LEN + 7] = 0x7f;
	assert_int_equal(hist_decode_v2(raw, sizeof(golden_a), &d), -EINVAL);
	assert_null(d.counts);
	/* a 2^32+1 zero run (would wrap a 32-bit index to 1), then a count */
	memcpy(raw, golden_a, sizeof(golden_a));
	len = hist_zigzag_put(raw + JS_HDR_V2_HEADER_LEN, -((1LL << 32) + 1));
	len += hist_zigzag_put(raw + JS_HDR_V2_HEADER_LEN + len, 1);
	raw[7] = (uint8_t)len;
	assert_int_equal(hist_decode_v2(raw, JS_HDR_V2_HEADER_LEN + len, &d), -EINVAL);
	/* payload length larger than the buffer */
	memcpy(raw, golden_a, sizeof(golden_a));
	raw[7] = 10;
	assert_int_equal(hist_decode_v2(raw, sizeof(golden_a), &d), -EINVAL);
	/* invalid configuration in the header */
	memcpy(raw, golden_a, sizeof(golden_a));
	raw[15] = 9; /* sig 9 */
	assert_int_equal(hist_decode_v2(raw, sizeof(golden_a), &d), -EINVAL);
	/* non-zero normalizing index offset */
	memcpy(raw, golden_a, sizeof(golden_a));
	raw[11] = 1;
	assert_int_equal(hist_decode_v2(raw, sizeof(golden_a), &d), -ENOTSUP);
	/* a payload ending inside a multi-byte value */
	memcpy(raw, golden_a, sizeof(golden_a));
	raw[7] = 6; /* cuts f7 ac | 01 */
	assert_int_equal(hist_decode_v2(raw, JS_HDR_V2_HEADER_LEN + 6, &d), -EINVAL);
	assert_int_equal(hist_decode_v2(raw, 10, &d), -EINVAL);
}

/** Check RFC 4648 section 10 base64 test vectors and the decoder's strictness. */
static void test_base64(void **state)
{
	static const char *const plain[] = { "", "f", "fo", "foo", "foob", "fooba", "foobar" };
	static const char *const enc[] = { "",	       "Zg==",	   "Zm8=",    "Zm9v",
					   "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy" };
	uint8_t *bin, all[256];
	size_t i, len;
	char *s;

	(void)state;
	for (i = 0; i < 7; i++) {
		assert_int_equal(js_b64_encode((const uint8_t *)plain[i], strlen(plain[i]), &s), 0);
		assert_string_equal(s, enc[i]);
		free(s);
		assert_int_equal(js_b64_decode(enc[i], &bin, &len), 0);
		assert_int_equal(len, strlen(plain[i]));
		assert_memory_equal(bin, plain[i], len);
		free(bin);
	}
	for (i = 0; i < 256; i++)
		all[i] = (uint8_t)(255 - i);
	assert_int_equal(js_b64_encode(all, 256, &s), 0);
	assert_non_null(strchr(s, '+'));
	assert_non_null(strchr(s, '/'));
	assert_int_equal(js_b64_decode(s, &bin, &len), 0);
	assert_int_equal(len, 256);
	assert_memory_equal(bin, all, 256);
	free(bin);
	free(s);
	assert_int_equal(js_b64_decode("Zm9v\r\n", &bin, &len), 0); /* trailing newline */
	assert_int_equal(len, 3);
	free(bin);
	assert_int_equal(js_b64_decode("Zm9", &bin, &len), 0); /* missing padding */
	assert_int_equal(len, 2);
	free(bin);
	assert_int_equal(js_b64_decode("Zm9v!", &bin, &len), -EINVAL);
	assert_int_equal(js_b64_decode("Zm=v", &bin, &len), -EINVAL);
	assert_int_equal(js_b64_decode("Z", &bin, &len), -EINVAL);
	assert_int_equal(js_b64_decode("Zm9=====", &bin, &len), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_zigzag_examples),	 cmocka_unit_test(test_zigzag_random),
		cmocka_unit_test(test_golden_a_bytes),	 cmocka_unit_test(test_golden_a_compressed),
		cmocka_unit_test(test_roundtrip_random), cmocka_unit_test(test_empty),
		cmocka_unit_test(test_decode_errors),	 cmocka_unit_test(test_base64),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
