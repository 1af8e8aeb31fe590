// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * test_hlog.c - .hlog header/interval lines, Java-style number formatting, and the .hgrm
 * table compared numerically with the reference model's output (tests/data/hdr/NAME.hgrm,
 * produced by tests/data/hdr/gen_expected.py from ../shared/tools/hdr_ref.py).
 *
 * With JS_HLOG_OUT=PATH set, also writes a sample log to PATH plus our own .hgrm of it
 * (PATH.untagged.hgrm, PATH.cpu3.hgrm) and key figures (PATH.expect) for
 * tests/integration/hdr_interop.sh, which checks them with Java's HistogramLogProcessor.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "js_hlog.h"

#define M64_GOLDEN 0x9E3779B97F4A7C15ULL
#define START_EPOCH 1764438863.123

/* memstream helpers: text written by fn into a malloc'd string */
struct mem {
	char *buf;
	size_t len;
	FILE *fp;
};

static void mem_open(struct mem *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	assert_non_null(m->fp);
}

static void mem_close(struct mem *m)
{
	assert_int_equal(fclose(m->fp), 0);
	m->fp = NULL;
}

static void golden_a(struct js_hist *h)
{
	assert_int_equal(hist_init(h, 1, JS_HIST_HIGHEST_NS, 3), 0);
	hist_record(h, 1);
	hist_record_n(h, 100, 2);
	hist_record(h, 1000000);
}

/* dataset_b - must match gen_expected.py's dataset_b() */
static void dataset_b(struct js_hist *h)
{
	uint64_t i;

	assert_int_equal(hist_init(h, 1, JS_HIST_HIGHEST_NS, 3), 0);
	for (i = 0; i < 20000; i++) {
		uint64_t x = (i + 1) * M64_GOLDEN;
		int bits = 1 + (int)(i % 32);

		hist_record(h, (int64_t)(1 + ((x >> 20) % (1ULL << bits))));
	}
	hist_record_n(h, 12000, 700);
	hist_record_n(h, 1000000, 300);
	hist_record_n(h, JS_HIST_HIGHEST_NS, 3);
}

struct fixed_case {
	double v;
	int prec;
	const char *java; /* String.format(Locale.US, "%.<prec>f", v) on OpenJDK 17 */
};

/** Check Java-compatible fixed formatting (HALF_UP on the shortest repr), incl. ties. */
static void test_java_fixed(void **state)
{
	static const struct fixed_case cases[] = {
		{ 0.9997802734375, 12, "0.999780273438" }, /* glibc: ...437 */
		{ 0.15, 1, "0.2" },
		{ 1.0005, 3, "1.001" },
		{ 0.0025, 3, "0.003" },
		{ 0.0015, 3, "0.002" },
		{ 2.675, 2, "2.68" },
		{ 1e-5, 3, "0.000" },
		{ 0.0006, 3, "0.001" },
		{ 0.0004, 3, "0.000" },
		{ 999.9996, 3, "1000.000" },
		{ 0.5, 0, "1" },
		{ 1.5, 0, "2" },
		{ 2.5, 0, "3" },
		{ -0.0, 3, "-0.000" },
		{ -0.0004, 3, "-0.000" },
		{ 123456789.0125, 3, "123456789.013" },
		{ 1e22, 2, "10000000000000000000000.00" },
		{ 9.995, 2, "10.00" },
		{ 0.045, 2, "0.05" },
		{ 5e-324, 3, "0.000" },
		{ 2.0e-3, 3, "0.002" },
		{ 4.35, 1, "4.4" },
		{ 0.3, 17, "0.30000000000000000" },
		{ 0.0, 0, "0" },
		{ 3601330077695.0, 3, "3601330077695.000" },
		{ -12.5, 0, "-13" },
		{ 1.0 / 3.0, 12, "0.333333333333" },
		{ 99.99, 2, "99.99" },
	};
	char buf[128];
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		assert_string_equal(js_fmt_java_fixed(buf, sizeof(buf), cases[i].v, cases[i].prec),
				    cases[i].java);
}

/** Check the header against HistogramLogWriter 1.3's exact output (OpenJDK 17, 2.1.11). */
static void test_header_exact(void **state)
{
	static const char want[] =
		"#[Logged with jitterscope 0.1.0]\n#[Histogram log format version 1.3]\n"
		"#[StartTime: 1764438863.123 (seconds since epoch), Sat Nov 29 17:54:23 UTC 2025]\n"
		"#[BaseTime: 1764438863.123 (seconds since epoch)]\n"
		"\"StartTimestamp\",\"Interval_Length\",\"Interval_Max\","
		"\"Interval_Compressed_Histogram\"\n";
	struct mem m;

	(void)state;
	mem_open(&m);
	assert_int_equal(hlog_write_header(m.fp, START_EPOCH, "Logged with jitterscope 0.1.0"), 0);
	mem_close(&m);
	assert_string_equal(m.buf, want);
	free(m.buf);
	mem_open(&m);
	assert_int_equal(hlog_write_header(m.fp, START_EPOCH, NULL), 0); /* no comment */
	mem_close(&m);
	assert_string_equal(m.buf, want + strlen("#[Logged with jitterscope 0.1.0]\n"));
	free(m.buf);
	mem_open(&m);
	assert_int_equal(hlog_write_header(m.fp, NAN, NULL), -EINVAL);
	mem_close(&m);
	assert_int_equal(m.len, 0);
	free(m.buf);
}

/** Check every '#' header line stays <= 126 chars and one line, whatever the comment. */
static void test_header_line_length(void **state)
{
	char comment[600], *line, *save;
	struct mem m;
	int i, lines = 0;

	(void)state;
	for (i = 0; i < 599; i++)
		comment[i] = (char)('a' + i % 26);
	comment[599] = '\0';
	comment[10] = '\n';
	comment[20] = '\r';
	mem_open(&m);
	assert_int_equal(hlog_write_header(m.fp, 4102444800.999, comment), 0); /* year 2100 */
	mem_close(&m);
	for (line = strtok_r(m.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		lines++;
		assert_true(strlen(line) <= JS_HLOG_MAX_HEADER_LINE);
		assert_null(strchr(line, '\r'));
		if (line[0] == '#')
			assert_int_equal(line[strlen(line) - 1], ']');
	}
	assert_int_equal(lines, 5);
	free(m.buf);
}

/** Check interval lines: format, tags, Java rounding, max in ms, and that HISTF decodes back. */
static void test_interval_lines(void **state)
{
	struct js_hist h, d;
	struct mem m;
	char *l2;

	(void)state;
	golden_a(&h);
	mem_open(&m);
	assert_int_equal(hlog_write_interval(m.fp, NULL, 0.0, 1.0, &h), 0);
	assert_int_equal(hlog_write_interval(m.fp, "cpu3", 12345.6785, 0.5, &h), 0);
	assert_int_equal(hlog_write_interval(m.fp, "a,b", 0.0, 1.0, &h), -EINVAL);
	assert_int_equal(hlog_write_interval(m.fp, "a b", 0.0, 1.0, &h), -EINVAL);
	assert_int_equal(hlog_write_interval(m.fp, "a\n", 0.0, 1.0, &h), -EINVAL);
	assert_int_equal(hlog_write_interval(m.fp, "", 0.0, 1.0, &h), -EINVAL);
	mem_close(&m);
	assert_memory_equal(m.buf, "0.000,1.000,1.000,HISTF", 23);
	l2 = strchr(m.buf, '\n') + 1;
	assert_memory_equal(l2, "Tag=cpu3,12345.679,0.500,1.000,HISTF", 36); /* Java HALF_UP */
	assert_null(strchr(strchr(l2, '\n') + 1, '\n')); /* refused tags wrote nothing */
	assert_int_equal(strchr(l2, '\n')[1], '\0');
	*strchr(l2, '\n') = '\0';
	assert_int_equal(hist_decode_compressed_b64(strrchr(l2, ',') + 1, &d), 0);
	assert_memory_equal(d.counts, h.counts, (size_t)h.counts_len * sizeof(*h.counts));
	hist_free(&d);
	free(m.buf);
	hist_free(&h);
}

/* read a whole file from tests/data/hdr (or $JS_HDR_DATA) */
static char *read_data(const char *name)
{
	const char *dir = getenv("JS_HDR_DATA") ? getenv("JS_HDR_DATA") : "tests/data/hdr";
	char path[512], *buf;
	FILE *fp;
	long n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "r");
	if (!fp)
		print_error("cannot open %s (run from the repository root or set JS_HDR_DATA)\n",
			    path);
	assert_non_null(fp);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	rewind(fp);
	buf = calloc(1, (size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	return buf;
}

static void assert_close(double got, double want, double tol, int line_no, const char *what)
{
	if (fabs(got - want) > tol) {
		print_error("line %d %s: got %.15g want %.15g (tol %g)\n", line_no, what, got, want,
			    tol);
		fail();
	}
}

/* compare one .hgrm line numerically (printf tie rounding differs: docs/DESIGN.md) */
static void compare_hgrm_line(const char *got, const char *want, int n, double vtol)
{
	double g[4], w[4];
	unsigned long long gc, wc;
	int gn, wn;

	if (want[0] == '#' || want[0] == '\0' || strstr(want, "Percentile")) {
		gn = sscanf(got, "#[%*[^=]= %lf, %*[^=]= %lf]", &g[0], &g[1]);
		wn = sscanf(want, "#[%*[^=]= %lf, %*[^=]= %lf]", &w[0], &w[1]);
		if (wn == 2 && strncmp(want, "#[Mean", 6) == 0) {
			assert_int_equal(gn, 2);
			assert_close(g[0], w[0], vtol, n, "mean");
			assert_close(g[1], w[1], vtol, n, "stddev");
			return;
		}
		assert_string_equal(got, want); /* header, blank, Max/Total, Buckets */
		return;
	}
	gn = sscanf(got, "%lf %lf %llu %lf", &g[0], &g[1], &gc, &g[3]);
	wn = sscanf(want, "%lf %lf %llu %lf", &w[0], &w[1], &wc, &w[3]);
	assert_int_equal(gn, wn);
	assert_true(wn >= 3);
	assert_close(g[0], w[0], vtol, n, "value");
	assert_close(g[1], w[1], 1e-12 + 1e-15, n, "percentile");
	assert_int_equal(gc, wc);
	if (wn == 4)
		assert_close(g[3], w[3], 0.01 + 1e-9, n, "1/(1-p)");
	/* same column layout */
	assert_int_equal(strlen(got), strlen(want));
}

static void check_hgrm(const struct js_hist *h, double ratio, int ticks, const char *file)
{
	char *want = read_data(file), *wl, *gl, *ws, *gs;
	struct mem m;
	int n = 0;

	mem_open(&m);
	assert_int_equal(hgrm_write(m.fp, h, ratio, ticks), 0);
	mem_close(&m);
	assert_int_equal(m.buf[m.len - 1], '\n');
	wl = strtok_r(want, "\n", &ws);
	gl = strtok_r(m.buf, "\n", &gs);
	while (wl && gl) {
		compare_hgrm_line(gl, wl, ++n, pow(10, -h->sig) + 1e-9);
		wl = strtok_r(NULL, "\n", &ws);
		gl = strtok_r(NULL, "\n", &gs);
	}
	assert_null(wl);
	assert_null(gl);
	assert_true(n > 10);
	free(want);
	free(m.buf);
}

/** Check .hgrm output against hdr_ref.py's hgrm() for golden A and a 21 003-value data set. */
static void test_hgrm_vs_reference(void **state)
{
	struct js_hist a, b;

	(void)state;
	golden_a(&a);
	dataset_b(&b);
	assert_int_equal(b.total, 21003);
	check_hgrm(&a, 1.0, 5, "golden_a_r1_t5.hgrm");
	check_hgrm(&a, 1e6, 5, "golden_a_r1e6_t5.hgrm");
	check_hgrm(&b, 1.0, 5, "dataset_b_r1_t5.hgrm");
	check_hgrm(&b, 1e3, 10, "dataset_b_r1e3_t10.hgrm");
	hist_free(&a);
	hist_free(&b);
}

/** Check the empty-histogram .hgrm (Java prints only header and footer) and bad arguments. */
static void test_hgrm_empty_and_args(void **state)
{
	static const char want[] = "       Value     Percentile TotalCount 1/(1-Percentile)\n\n"
				   "#[Mean    =        0.000, StdDeviation   =        0.000]\n"
				   "#[Max     =        0.000, Total count    =            0]\n"
				   "#[Buckets =           32, SubBuckets     =         2048]\n";
	struct js_hist h, z;
	struct mem m;

	(void)state;
	assert_int_equal(hist_init(&h, 1, JS_HIST_HIGHEST_NS, 3), 0);
	mem_open(&m);
	assert_int_equal(hgrm_write(m.fp, &h, 1.0, 5), 0);
	assert_int_equal(hgrm_write(m.fp, &h, 0.0, 5), -EINVAL);
	assert_int_equal(hgrm_write(m.fp, &h, 1.0, 0), -EINVAL);
	memset(&z, 0, sizeof(z));
	assert_int_equal(hgrm_write(m.fp, &z, 1.0, 5), -EINVAL);
	mem_close(&m);
	assert_string_equal(m.buf, want);
	free(m.buf);
	hist_free(&h);
}

/* sample log content: 5 untagged intervals, 3 tagged cpu3, deterministic values */
static void sample_interval(struct js_hist *h, int k, int tagged)
{
	uint64_t x = (uint64_t)(k + 1) * 1000003 + (uint64_t)tagged * 77;
	int j, n = 1000 * (k + 1) + (tagged ? 333 : 0);

	hist_reset(h);
	for (j = 0; j < n; j++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		hist_record(h, (int64_t)(1 + (x >> 24) % (1ULL << (1 + j % (tagged ? 24 : 30)))));
	}
	if (!tagged && k == 2)
		hist_record(h, 5000000000000LL); /* > 1 h: clamped to highest */
	if (tagged)
		hist_record_n(h, 20000 + k, 50);
}

static void write_expect(FILE *fp, const char *name, const struct js_hist *h)
{
	fprintf(fp, "%s total=%llu max=%lld p50=%lld p90=%lld p99=%lld\n", name,
		(unsigned long long)h->total, (long long)hist_max(h),
		(long long)hist_value_at_percentile(h, 50.0),
		(long long)hist_value_at_percentile(h, 90.0),
		(long long)hist_value_at_percentile(h, 99.0));
}

/* write_sample - the sample .hlog into fp, the per-tag sums into all/cpu3 */
static void write_sample(FILE *fp, struct js_hist *all, struct js_hist *cpu3)
{
	struct js_hist h;
	int k;

	assert_int_equal(hist_init(&h, 1, JS_HIST_HIGHEST_NS, 3), 0);
	assert_int_equal(hlog_write_header(fp, START_EPOCH, "Logged with test_hlog"), 0);
	for (k = 0; k < 5; k++) {
		sample_interval(&h, k, 0);
		assert_int_equal(hlog_write_interval(fp, NULL, k * 1.0, 1.0, &h), 0);
		assert_int_equal(hist_add(all, &h), 0);
		if (k < 3) {
			sample_interval(&h, k, 1);
			assert_int_equal(hlog_write_interval(fp, "cpu3", k * 1.0, 1.0, &h), 0);
			assert_int_equal(hist_add(cpu3, &h), 0);
		}
	}
	hist_free(&h);
}

static void write_file(const char *base, const char *suffix, const struct js_hist *h)
{
	char path[4096];
	FILE *fp;

	snprintf(path, sizeof(path), "%s%s", base, suffix);
	fp = fopen(path, "w");
	assert_non_null(fp);
	assert_int_equal(hgrm_write(fp, h, 1.0, 5), 0);
	assert_int_equal(fclose(fp), 0);
}

/* parse_back - decode every interval line of text and add it to all/cpu3 by tag */
static void parse_back(char *text, struct js_hist *all, struct js_hist *cpu3, int *intervals)
{
	char *line, *save;
	struct js_hist d;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || line[0] == '"')
			continue;
		assert_int_equal(hist_decode_compressed_b64(strrchr(line, ',') + 1, &d), 0);
		assert_int_equal(hist_add(strncmp(line, "Tag=cpu3,", 9) ? all : cpu3, &d), 0);
		hist_free(&d);
		(*intervals)++;
	}
}

/** Check the sample log parses back to the same sums; write it out for the interop script. */
static void test_sample_log(void **state)
{
	struct js_hist all, cpu3, all2, cpu32;
	const char *out = getenv("JS_HLOG_OUT");
	struct mem m;
	int intervals = 0;

	(void)state;
	assert_int_equal(hist_init(&all, 1, JS_HIST_HIGHEST_NS, 3), 0);
	assert_int_equal(hist_init(&cpu3, 1, JS_HIST_HIGHEST_NS, 3), 0);
	assert_int_equal(hist_init(&all2, 1, JS_HIST_HIGHEST_NS, 3), 0);
	assert_int_equal(hist_init(&cpu32, 1, JS_HIST_HIGHEST_NS, 3), 0);
	mem_open(&m);
	write_sample(m.fp, &all, &cpu3);
	mem_close(&m);
	if (out) {
		char path[4096];
		FILE *fp;

		fp = fopen(out, "w");
		assert_non_null(fp);
		assert_int_equal(fwrite(m.buf, 1, m.len, fp), m.len);
		assert_int_equal(fclose(fp), 0);
		write_file(out, ".untagged.hgrm", &all);
		write_file(out, ".cpu3.hgrm", &cpu3);
		snprintf(path, sizeof(path), "%s.expect", out);
		fp = fopen(path, "w");
		assert_non_null(fp);
		write_expect(fp, "untagged", &all);
		write_expect(fp, "cpu3", &cpu3);
		assert_int_equal(fclose(fp), 0);
	}
	parse_back(m.buf, &all2, &cpu32, &intervals);
	assert_int_equal(intervals, 8);
	assert_int_equal(all.overflow, 1);
	assert_int_equal(hist_max(&all2), hist_max(&all));
	assert_memory_equal(all.counts, all2.counts, (size_t)all.counts_len * 8);
	assert_memory_equal(cpu3.counts, cpu32.counts, (size_t)cpu3.counts_len * 8);
	free(m.buf);
	hist_free(&all);
	hist_free(&cpu3);
	hist_free(&all2);
	hist_free(&cpu32);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_java_fixed),
		cmocka_unit_test(test_header_exact),
		cmocka_unit_test(test_header_line_length),
		cmocka_unit_test(test_interval_lines),
		cmocka_unit_test(test_hgrm_vs_reference),
		cmocka_unit_test(test_hgrm_empty_and_args),
		cmocka_unit_test(test_sample_log),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
