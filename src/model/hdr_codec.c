// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * hdr_codec.c - HdrHistogram V2 encoding: 40-byte big-endian header + ZigZag-LEB128
 * ("64b9B") counts, the zlib-compressed wrapper, and base64. What goes in the 4th
 * column of a .hlog line; decodes in Java HdrHistogram, HdrHistogram_c and
 * hdr-histogram-js. The layout: docs/DESIGN.md, HdrHistogram.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "js_hist.h"

#define COOKIE_BASE_MASK (~0xf0u)
#define V2_ENC_BASE 0x1c849303u
#define V2_COMP_BASE 0x1c849304u
#define COMPRESSED_HDR_LEN 8

static void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static void put_be64(uint8_t *p, uint64_t v)
{
	put_be32(p, (uint32_t)(v >> 32));
	put_be32(p + 4, (uint32_t)v);
}

static uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static uint64_t get_be64(const uint8_t *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

/* hist_zigzag_put - ZigZag-LEB128 "64b9B" of v into p (>= 9 bytes); returns bytes written */
size_t hist_zigzag_put(uint8_t *p, int64_t v)
{
	uint64_t u = ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
	size_t n = 0;
	int k;

	for (k = 0; k < 8; k++) {
		if ((u >> 7) == 0) {
			p[n++] = (uint8_t)u;
			return n;
		}
		p[n++] = (uint8_t)((u & 0x7f) | 0x80);
		u >>= 7;
	}
	p[n++] = (uint8_t)u; /* 9th byte: the remaining 8 bits, no continuation flag */
	return n;
}

/* hist_zigzag_get - decode one value from p[0..len); returns bytes used or -EINVAL */
int hist_zigzag_get(const uint8_t *p, size_t len, int64_t *v)
{
	uint64_t u = 0;
	int k, n = -EINVAL;

	for (k = 0; k < 8 && (size_t)k < len; k++) {
		u |= (uint64_t)(p[k] & 0x7f) << (7 * k);
		if (!(p[k] & 0x80)) {
			n = k + 1;
			goto out;
		}
	}
	if (k == 8 && len > 8) {
		u |= (uint64_t)p[8] << 56;
		n = 9;
	}
out:
	if (n > 0)
		*v = (int64_t)((u >> 1) ^ (~(u & 1) + 1));
	return n;
}

/* encode_payload - counts[0 .. index(max)] as ZigZag-LEB128, zero runs as -run */
static size_t encode_payload(const struct js_hist *h, uint8_t *p, int limit)
{
	size_t n = 0;
	int i = 0;

	while (i < limit) {
		uint64_t c = h->counts[i++];
		int64_t zeros = 1;

		if (c) {
			n += hist_zigzag_put(p + n, (int64_t)c);
			continue;
		}
		while (i < limit && h->counts[i] == 0) {
			zeros++;
			i++;
		}
		n += hist_zigzag_put(p + n, -zeros);
	}
	return n;
}

/* hist_encode_v2 - uncompressed V2 header + ZigZag-LEB128 payload, malloc'd into *out */
int hist_encode_v2(const struct js_hist *h, uint8_t **out, size_t *len)
{
	const double ratio = 1.0;
	uint64_t ratio_bits;
	uint8_t *buf = NULL;
	size_t plen;
	int limit, i, err = -EINVAL;

	if (!h->counts)
		goto out;
	limit = hist_counts_index(h, h->total ? h->max : 0) + 1;
	if (limit > h->counts_len)
		limit = h->counts_len;
	err = -EOVERFLOW;
	for (i = 0; i < limit; i++)
		if (h->counts[i] > INT64_MAX)
			goto out;
	err = -ENOMEM;
	buf = malloc(JS_HDR_V2_HEADER_LEN + 9 * (size_t)limit);
	if (!buf)
		goto out;
	plen = encode_payload(h, buf + JS_HDR_V2_HEADER_LEN, limit);
	memcpy(&ratio_bits, &ratio, sizeof(ratio_bits));
	put_be32(buf, JS_HDR_V2_COOKIE);
	put_be32(buf + 4, (uint32_t)plen);
	put_be32(buf + 8, 0); /* normalizing index offset */
	put_be32(buf + 12, (uint32_t)h->sig);
	put_be64(buf + 16, (uint64_t)h->lowest);
	put_be64(buf + 24, (uint64_t)h->highest);
	put_be64(buf + 32, ratio_bits);
	*out = buf;
	*len = JS_HDR_V2_HEADER_LEN + plen;
	buf = NULL;
	err = 0;
out:
	free(buf);
	return err;
}

/* decode_payload - fill h->counts from a ZigZag-LEB128 payload */
static int decode_payload(struct js_hist *h, const uint8_t *p, size_t len)
{
	size_t pos = 0;
	int64_t v;
	int i = 0, n;

	while (pos < len) {
		n = hist_zigzag_get(p + pos, len - pos, &v);
		if (n < 0)
			return n;
		pos += (size_t)n;
		if (v < 0) {
			if (v == INT64_MIN || -v > (int64_t)(h->counts_len - i))
				return -EINVAL;
			i += (int)-v;
			continue;
		}
		if (i >= h->counts_len)
			return -EINVAL;
		h->counts[i++] = (uint64_t)v;
	}
	return 0;
}

/* rebuild_stats - total, min and max from the counts, as Java does after decoding */
static void rebuild_stats(struct js_hist *h)
{
	int i, max_i = -1, min_i = -1;

	h->total = 0;
	for (i = 0; i < h->counts_len; i++) {
		if (!h->counts[i])
			continue;
		h->total += h->counts[i];
		max_i = i;
		if (min_i < 0 && i != 0)
			min_i = i;
	}
	h->max = max_i >= 0 ? hist_highest_equivalent(h, hist_value_from_index(h, max_i)) : 0;
	h->min = min_i >= 0 ? hist_value_from_index(h, min_i) : INT64_MAX;
}

/* hist_decode_v2 - parse an uncompressed V2 buffer; initialises out with the decoded config */
int hist_decode_v2(const uint8_t *buf, size_t len, struct js_hist *out)
{
	uint32_t cookie, plen;
	int64_t lowest, highest;
	int32_t sig;
	int err = -EINVAL;

	memset(out, 0, sizeof(*out));
	if (len < JS_HDR_V2_HEADER_LEN)
		goto out;
	cookie = get_be32(buf);
	plen = get_be32(buf + 4);
	if ((cookie & COOKIE_BASE_MASK) != V2_ENC_BASE)
		goto out;
	err = -ENOTSUP;
	if (cookie != JS_HDR_V2_COOKIE || get_be32(buf + 8) != 0)
		goto out;
	err = -EINVAL;
	if (plen > INT32_MAX || plen > len - JS_HDR_V2_HEADER_LEN)
		goto out;
	sig = (int32_t)get_be32(buf + 12);
	lowest = (int64_t)get_be64(buf + 16);
	highest = (int64_t)get_be64(buf + 24);
	err = hist_init(out, lowest, highest, sig);
	if (err)
		goto out;
	err = decode_payload(out, buf + JS_HDR_V2_HEADER_LEN, plen);
	if (err)
		hist_free(out);
	else
		rebuild_stats(out);
out:
	return err;
}

/* hist_encode_compressed_b64 - "HISTF..." (V2 compressed, zlib level 0..9, base64), malloc'd */
int hist_encode_compressed_b64(const struct js_hist *h, int level, char **b64)
{
	uint8_t *raw = NULL, *dst = NULL;
	size_t raw_len;
	uLongf dlen;
	int err;

	if (level < Z_DEFAULT_COMPRESSION || level > Z_BEST_COMPRESSION)
		return -EINVAL;
	err = hist_encode_v2(h, &raw, &raw_len);
	if (err)
		goto out;
	dlen = compressBound(raw_len);
	err = -ENOMEM;
	dst = malloc(COMPRESSED_HDR_LEN + dlen);
	if (!dst)
		goto out;
	err = -EIO;
	if (compress2(dst + COMPRESSED_HDR_LEN, &dlen, raw, raw_len, level) != Z_OK)
		goto out;
	put_be32(dst, JS_HDR_V2_COMPRESSED_COOKIE);
	put_be32(dst + 4, (uint32_t)dlen);
	err = js_b64_encode(dst, COMPRESSED_HDR_LEN + dlen, b64);
out:
	free(raw);
	free(dst);
	return err;
}

/* inflate_exact - inflate into dst until exactly len bytes came out; 0 or -EINVAL */
static int inflate_exact(z_stream *zs, uint8_t *dst, size_t len, int want_end)
{
	int rc;

	zs->next_out = dst;
	zs->avail_out = (uInt)len;
	do {
		rc = inflate(zs, Z_NO_FLUSH);
	} while (rc == Z_OK && zs->avail_out > 0);
	if (zs->avail_out != 0)
		return -EINVAL;
	if (want_end && rc != Z_STREAM_END) {
		/* all bytes out; the stream must end right here */
		uint8_t extra;

		zs->next_out = &extra;
		zs->avail_out = 1;
		rc = inflate(zs, Z_NO_FLUSH);
		if (rc != Z_STREAM_END || zs->avail_out != 1)
			return -EINVAL;
	}
	return (rc == Z_OK || rc == Z_STREAM_END || rc == Z_BUF_ERROR) ? 0 : -EINVAL;
}

/* inflate_v2 - inflate a compressed V2 body (header first, then the announced payload) */
static int inflate_v2(const uint8_t *src, size_t len, uint8_t **out, size_t *out_len)
{
	uint8_t hdr[JS_HDR_V2_HEADER_LEN], *buf = NULL;
	z_stream zs = { 0 };
	uint32_t plen;
	int err = -EINVAL;

	if (inflateInit(&zs) != Z_OK)
		return -ENOMEM;
	zs.next_in = (Bytef *)src;
	zs.avail_in = (uInt)len;
	if (inflate_exact(&zs, hdr, sizeof(hdr), 0))
		goto out;
	plen = get_be32(hdr + 4);
	if ((get_be32(hdr) & COOKIE_BASE_MASK) != V2_ENC_BASE || plen > (1u << 28))
		goto out;
	err = -ENOMEM;
	buf = malloc(sizeof(hdr) + plen);
	if (!buf)
		goto out;
	memcpy(buf, hdr, sizeof(hdr));
	err = inflate_exact(&zs, buf + sizeof(hdr), plen, 1);
	if (err)
		goto out;
	*out = buf;
	*out_len = sizeof(hdr) + plen;
	buf = NULL;
out:
	inflateEnd(&zs);
	free(buf);
	return err;
}

/* hist_decode_compressed_b64 - decode "HISTF..."; initialises out with the decoded config */
int hist_decode_compressed_b64(const char *b64, struct js_hist *out)
{
	uint8_t *bin = NULL, *raw = NULL;
	size_t bin_len, raw_len;
	uint32_t cookie, clen;
	int err;

	memset(out, 0, sizeof(*out));
	err = js_b64_decode(b64, &bin, &bin_len);
	if (err)
		goto out;
	err = -EINVAL;
	if (bin_len < COMPRESSED_HDR_LEN)
		goto out;
	cookie = get_be32(bin);
	clen = get_be32(bin + 4);
	if ((cookie & COOKIE_BASE_MASK) != V2_COMP_BASE)
		goto out;
	err = -ENOTSUP;
	if (cookie != JS_HDR_V2_COMPRESSED_COOKIE)
		goto out;
	err = -EINVAL;
	if (clen > bin_len - COMPRESSED_HDR_LEN)
		goto out;
	err = inflate_v2(bin + COMPRESSED_HDR_LEN, clen, &raw, &raw_len);
	if (err)
		goto out;
	err = hist_decode_v2(raw, raw_len, out);
out:
	free(bin);
	free(raw);
	return err;
}

static const char b64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* js_b64_encode - RFC 4648 base64 (with '=' padding) of buf, malloc'd NUL-terminated string */
int js_b64_encode(const uint8_t *buf, size_t len, char **out)
{
	char *s = malloc((len + 2) / 3 * 4 + 1), *p = s;
	size_t i;

	if (!s)
		return -ENOMEM;
	for (i = 0; i + 2 < len; i += 3) {
		uint32_t w = (uint32_t)buf[i] << 16 | (uint32_t)buf[i + 1] << 8 | buf[i + 2];

		*p++ = b64_alphabet[w >> 18];
		*p++ = b64_alphabet[(w >> 12) & 63];
		*p++ = b64_alphabet[(w >> 6) & 63];
		*p++ = b64_alphabet[w & 63];
	}
	if (i < len) {
		uint32_t w = (uint32_t)buf[i] << 16 | (i + 1 < len ? (uint32_t)buf[i + 1] << 8 : 0);

		*p++ = b64_alphabet[w >> 18];
		*p++ = b64_alphabet[(w >> 12) & 63];
		*p++ = i + 1 < len ? b64_alphabet[(w >> 6) & 63] : '=';
		*p++ = '=';
	}
	*p = '\0';
	*out = s;
	return 0;
}

/* b64_value - 6-bit value of a base64 character, -1 if not in the alphabet */
static int b64_value(char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

/* b64_data_len - length of the base64 text without trailing whitespace and '=' padding */
static int b64_data_len(const char *s, size_t *n)
{
	size_t len = strlen(s), pad = 0;

	while (len && (s[len - 1] == '\n' || s[len - 1] == '\r' || s[len - 1] == ' ' ||
		       s[len - 1] == '\t'))
		len--;
	while (len && s[len - 1] == '=' && pad < 2) {
		len--;
		pad++;
	}
	if (len % 4 == 1 || (pad && (len + pad) % 4))
		return -EINVAL;
	*n = len;
	return 0;
}

/* js_b64_decode - decode RFC 4648 base64 (trailing whitespace allowed), malloc'd into *out */
int js_b64_decode(const char *s, uint8_t **out, size_t *len)
{
	uint8_t *buf = NULL;
	uint32_t acc = 0;
	size_t n, i, o = 0;
	int bits = 0, err;

	err = b64_data_len(s, &n);
	if (err)
		goto out;
	err = -ENOMEM;
	buf = malloc(n / 4 * 3 + 3);
	if (!buf)
		goto out;
	err = -EINVAL;
	for (i = 0; i < n; i++) {
		int v = b64_value(s[i]);

		if (v < 0)
			goto out;
		acc = acc << 6 | (uint32_t)v;
		bits += 6;
		if (bits >= 8) {
			bits -= 8;
			buf[o++] = (uint8_t)(acc >> bits);
		}
	}
	*out = buf;
	*len = o;
	buf = NULL;
	err = 0;
out:
	free(buf);
	return err;
}
