// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* test_cli.c - option parsing: defaults, every accepted form, every bad value rejected. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sched.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "js_listen.h"
#include "fixtures.h"
#include "js_params.h"

static struct js_params p;

/* parse - cli_parse of the NULL-terminated arguments into p */
#define parse(...) fx_parse(&p, __VA_ARGS__)

/** Defaults: 10 s, 1 us, SCHED_OTHER, top 10, CPUs chosen later. */
static void test_defaults(void **st)
{
	(void)st;
	assert_int_equal(parse(NULL), 0);
	assert_int_equal(p.cmd, JS_CMD_MEASURE);
	assert_true(p.cfg.duration_ns == 10000000000ull);
	assert_true(p.cfg.threshold_ns == 1000);
	assert_int_equal(p.cfg.policy, SCHED_OTHER);
	assert_int_equal(p.cfg.top, 10);
	assert_int_equal(p.cfg.ncpus, 0);
	assert_false(p.cfg.no_probes);
	assert_false(p.probe_cost); /* bpf_stats would slow every traced interruption */
	assert_int_equal(p.cfg.by, JS_BY_SOURCE);
	assert_int_equal(p.cfg.clock, TSC_CLOCK_AUTO); /* the CPU decides, at start */
}

/** --clock names the TSC read; --lfence is --clock lfence; anything else is refused. */
static void test_clock(void **st)
{
	(void)st;
	assert_int_equal(parse("--clock", "rdtscp", NULL), 0);
	assert_int_equal(p.cfg.clock, TSC_CLOCK_RDTSCP);
	assert_int_equal(parse("--clock", "lfence", NULL), 0);
	assert_int_equal(p.cfg.clock, TSC_CLOCK_LFENCE);
	assert_int_equal(parse("--clock=auto", NULL), 0);
	assert_int_equal(p.cfg.clock, TSC_CLOCK_AUTO);
	assert_int_equal(parse("--lfence", NULL), 0);
	assert_int_equal(p.cfg.clock, TSC_CLOCK_LFENCE);
	assert_int_not_equal(parse("--clock", "rdtsc", NULL), 0);
	assert_int_not_equal(parse("--clock", "", NULL), 0);
	/* the TSC is read in every mode (the calibration): --pid takes it too */
	assert_int_equal(parse("--pid", "1", "--clock", "lfence", NULL), 0);
}

/** CPU lists in rtla syntax, under every alias. */
static void test_cpus(void **st)
{
	(void)st;
	assert_int_equal(parse("--cpu", "3", NULL), 0);
	assert_int_equal(p.cfg.ncpus, 1);
	assert_int_equal(p.cfg.cpus[0], 3);
	assert_int_equal(parse("-c", "1,3-5", NULL), 0);
	assert_int_equal(p.cfg.ncpus, 4);
	assert_int_equal(p.cfg.cpus[0], 1);
	assert_int_equal(p.cfg.cpus[3], 5);
	assert_int_equal(parse("--cpus=2", "-H", "0", NULL), 0);
	assert_int_equal(p.cfg.cpus[0], 2);
	assert_int_equal(p.cfg.nhk, 1);
	assert_int_equal(p.cfg.hk[0], 0);
	assert_false(p.cpus_isolated);
	/* "isolated": the isolated CPUs, chosen before measuring (cpus_default); the last
	 * --cpu counts */
	assert_int_equal(parse("--cpu", "isolated", NULL), 0);
	assert_true(p.cpus_isolated);
	assert_int_equal(p.cfg.ncpus, 0);
	assert_int_equal(parse("--cpu", "isolated", "-c", "3", NULL), 0);
	assert_false(p.cpus_isolated);
	assert_int_equal(p.cfg.ncpus, 1);
	assert_int_equal(parse("-c", "3", "--cpus=isolated", NULL), 0);
	assert_true(p.cpus_isolated);
	assert_int_equal(p.cfg.ncpus, 0);
	assert_int_equal(parse("check", "--cpu", "isolated", NULL), 0);
	assert_true(p.cpus_isolated);
	/* the CPUs whose events explain the marks */
	assert_int_equal(parse("--marks", "/dev/null", "--cpu", "isolated", NULL), 0);
}

/** Malformed CPU lists are usage errors. */
static void test_bad_cpus(void **st)
{
	const char *bad[] = { "", "a", "1,", "3-1", "1-", "-1", "1,,2", "99999", "1 2", "1x" };

	(void)st;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(parse("--cpu", bad[i], NULL), 0);
	assert_int_not_equal(parse("-H", "x", NULL), 0);
	assert_int_not_equal(parse("-H", "isolated", NULL), 0); /* measured CPUs only */
	assert_int_not_equal(parse("--cpu", "Isolated", NULL), 0);
	/* a CPU cannot be both measured and housekeeping */
	assert_int_not_equal(parse("-c", "1", "-H", "0-1", NULL), 0);
}

/** --follow-syscalls: with --pid or --tid only (a usage error without); off by default */
static void test_follow_syscalls(void **st)
{
	(void)st;
	assert_int_equal(parse("--pid", "1", NULL), 0);
	assert_false(p.follow_syscalls);
	assert_int_equal(parse("--pid", "1", "--follow-syscalls", NULL), 0);
	assert_true(p.follow_syscalls);
	assert_int_equal(parse("--tid", "1", "--follow-syscalls", NULL), 0);
	assert_true(p.follow_syscalls);
	assert_int_equal(parse("--follow-syscalls", NULL), -EINVAL);
	assert_int_equal(parse("--cpu", "1", "--follow-syscalls", NULL), -EINVAL);
}

/** -- CMD: the rest of the line is the command (its options its own); followed without
 * --cpu, beside the spinner with it; no duration, no --pid/--tid, no --budget-interval */
static void test_run_cmd(void **st)
{
	(void)st;
	assert_int_equal(parse("-q", "--", "./bench", "-d", "3", "--", "x", NULL), 0);
	assert_non_null(p.run_argv);
	assert_string_equal(p.run_argv[0], "./bench");
	assert_string_equal(p.run_argv[1], "-d");
	assert_string_equal(p.run_argv[4], "x");
	assert_null(p.run_argv[5]);
	assert_true(p.quiet);
	assert_true(p.follow_cmd);
	assert_false(params_spinner(&p));
	assert_int_equal(p.cfg.duration_ns, 0);
	assert_int_equal(parse("--cpu", "3", "--", "sleep", "1", NULL), 0);
	assert_false(p.follow_cmd);
	assert_true(params_spinner(&p));
	assert_int_equal(parse("--follow-syscalls", "--", "true", NULL), 0);
	assert_int_equal(parse("--budget", "max=1ms", "--", "true", NULL), 0);
	assert_false(params_budget_intervals(&p));
	assert_int_equal(parse("--", NULL), -EINVAL);
	assert_int_equal(parse("-d", "5", "--", "true", NULL), -EINVAL);
	assert_int_equal(parse("--pid", "1", "--", "true", NULL), -EINVAL);
	assert_int_equal(parse("--no-probes", "--", "true", NULL), -EINVAL);
	assert_int_equal(parse("--budget", "max=1ms", "--budget-interval", "5s", "--", "true",
			       NULL),
			 -EINVAL);
	assert_int_equal(parse("true", NULL), -EINVAL); /* the command comes after -- */
	assert_int_equal(parse("--cpu", "3", "--no-probes", "--", "true", NULL), 0);
}

/** Durations: bare seconds, s/m/h/d/ms suffixes, 0 = until Ctrl-C. */
static void test_durations(void **st)
{
	(void)st;
	assert_int_equal(parse("-d", "60", NULL), 0);
	assert_true(p.cfg.duration_ns == 60000000000ull);
	assert_int_equal(parse("--duration", "60s", NULL), 0);
	assert_true(p.cfg.duration_ns == 60000000000ull);
	assert_int_equal(parse("-d", "5m", NULL), 0);
	assert_true(p.cfg.duration_ns == 300000000000ull);
	assert_int_equal(parse("-d", "1h", NULL), 0);
	assert_true(p.cfg.duration_ns == 3600000000000ull);
	assert_int_equal(parse("-d", "2d", NULL), 0);
	assert_true(p.cfg.duration_ns == 172800000000000ull);
	assert_int_equal(parse("-d", "1500ms", NULL), 0);
	assert_true(p.cfg.duration_ns == 1500000000ull);
	assert_int_equal(parse("-d", "0", NULL), 0);
	assert_true(p.cfg.duration_ns == 0);
	assert_int_equal(parse("-d", "2.5", NULL), 0);
	assert_true(p.cfg.duration_ns == 2500000000ull);
}

/** Negative, overflowing, suffix-less junk and empty durations are refused. */
static void test_bad_durations(void **st)
{
	const char *bad[] = { "",
			      "-1",
			      "-5s",
			      "abc",
			      "10x",
			      "5mm",
			      "1e3",
			      "s",
			      " 5",
			      "99999999999999999999",
			      "1000000000d",
			      "5 s",
			      "+5" };

	(void)st;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(parse("-d", bad[i], NULL), 0);
}

/** Thresholds: bare = us, ns/us/ms/s, sub-us allowed; 0, negative, >= duration refused. */
static void test_thresholds(void **st)
{
	(void)st;
	assert_int_equal(parse("-T", "5", NULL), 0);
	assert_true(p.cfg.threshold_ns == 5000);
	assert_int_equal(parse("-T", "500ns", NULL), 0);
	assert_true(p.cfg.threshold_ns == 500);
	assert_int_equal(parse("-T", "0.5", NULL), 0);
	assert_true(p.cfg.threshold_ns == 500);
	assert_int_equal(parse("--threshold", "2ms", NULL), 0);
	assert_true(p.cfg.threshold_ns == 2000000);
	assert_int_not_equal(parse("-T", "0", NULL), 0);
	assert_int_not_equal(parse("-T", "-1", NULL), 0);
	assert_int_not_equal(parse("-T", "1q", NULL), 0);
	assert_int_not_equal(parse("-T", "", NULL), 0);
	assert_int_not_equal(parse("-d", "1", "-T", "2s", NULL), 0);
	assert_int_not_equal(parse("-d", "1", "-T", "1s", NULL), 0);
	/* until Ctrl-C: any threshold */
	assert_int_equal(parse("-d", "0", "-T", "2s", NULL), 0);
	/* auto: calibrated later; the last -T counts; no other word */
	assert_int_equal(parse("-T", "auto", NULL), 0);
	assert_true(p.cfg.threshold_auto && p.cfg.threshold_ns == 0);
	assert_int_equal(parse("-T", "auto", "-T", "3us", NULL), 0);
	assert_true(!p.cfg.threshold_auto && p.cfg.threshold_ns == 3000);
	assert_int_equal(parse("-T", "3us", "--threshold", "auto", NULL), 0);
	assert_true(p.cfg.threshold_auto);
	assert_int_equal(parse("-d", "1ms", "-T", "auto", NULL), 0);
	assert_int_not_equal(parse("-T", "Auto", NULL), 0);
	assert_int_not_equal(parse("-T", "autos", NULL), 0);
	assert_int_equal(parse("-T", "1us", NULL), 0);
	assert_false(p.cfg.threshold_auto);
}

/** -P in rtla's syntax; FIFO/RR need 1..99, other needs 0. */
static void test_priority(void **st)
{
	(void)st;
	assert_int_equal(parse("-P", "f:95", NULL), 0);
	assert_int_equal(p.cfg.policy, SCHED_FIFO);
	assert_int_equal(p.cfg.priority, 95);
	assert_int_equal(parse("-P", "r:1", NULL), 0);
	assert_int_equal(p.cfg.policy, SCHED_RR);
	assert_int_equal(parse("-P", "o:0", NULL), 0);
	assert_int_equal(p.cfg.policy, SCHED_OTHER);
	assert_int_equal(parse("-P", "o", NULL), 0);
	const char *bad[] = { "f:0", "f:100", "x:5", "f", "f:", "f:5x", "o:3", "", "fifo" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(parse("-P", bad[i], NULL), 0);
}

/** Other options, and unknown options / stray arguments. */
static void test_misc(void **st)
{
	(void)st;
	assert_int_equal(parse("--json", "-", "--gaps", "g.csv", "-n", "20", "--no-probes", "-q",
			       "--warm-up", "2", NULL),
			 0);
	assert_string_equal(p.json_path, "-");
	assert_string_equal(p.gaps_path, "g.csv");
	assert_int_equal(p.cfg.top, 20);
	assert_true(p.cfg.no_probes);
	assert_true(p.quiet);
	assert_true(p.cfg.warmup_ns == 2000000000ull);
	assert_int_equal(parse("--probe-cost", NULL), 0);
	assert_true(p.probe_cost);
	assert_false(p.no_waker);
	assert_int_equal(parse("--no-waker", NULL), 0);
	assert_true(p.no_waker);
	assert_int_not_equal(parse("--no-waker", "--no-probes", NULL), 0);
	assert_int_not_equal(parse("check", "--no-waker", NULL), 0);
	assert_int_not_equal(parse("report", "a.json", "--no-waker", NULL), 0);
	assert_false(p.stacks);
	assert_int_equal(parse("--stacks", NULL), 0);
	assert_true(p.stacks);
	assert_int_equal(parse("--stacks", "--no-waker", NULL), 0); /* the preemptor's alone */
	assert_true(p.stacks && p.no_waker);
	assert_int_not_equal(parse("--stacks", "--no-probes", NULL), 0);
	assert_int_not_equal(parse("check", "--stacks", NULL), 0);
	assert_int_not_equal(parse("--json", "-", "--gaps", "-", NULL), 0);
	assert_int_not_equal(parse("-n", "1001", NULL), 0);
	assert_int_not_equal(parse("-n", "-1", NULL), 0);
	assert_int_not_equal(parse("--ring-size", "1000", NULL), 0);
	assert_int_equal(parse("--ring-size", "4096", NULL), 0);
	assert_int_not_equal(parse("--bogus", NULL), 0);
	assert_int_not_equal(parse("stray", NULL), 0);
	assert_int_not_equal(parse("--warm-up", "x", NULL), 0);
}

/** --btf FILE: a path for a measurement's probes; empty, with --no-probes or another command
 * refused (whether FILE holds BTF is checked before measuring: preflight_btf). */
static void test_btf(void **st)
{
	(void)st;
	assert_int_equal(parse(NULL), 0);
	assert_null(p.btf_path);
	assert_int_equal(parse("--btf", "/boot/vmlinux.btf", "-c", "1", NULL), 0);
	assert_string_equal(p.btf_path, "/boot/vmlinux.btf");
	assert_int_equal(parse("--btf=x.btf", "--pid", "1", NULL), 0);
	assert_string_equal(p.btf_path, "x.btf");
	assert_int_not_equal(parse("--btf", "", NULL), 0);
	assert_int_not_equal(parse("--btf", "x.btf", "--no-probes", NULL), 0);
	assert_int_not_equal(parse("check", "--btf", "x.btf", NULL), 0);
	assert_int_not_equal(parse("report", "a.json", "--btf", "x.btf", NULL), 0);
	assert_int_not_equal(parse("diff", "a.json", "b.json", "--btf", "x.btf", NULL), 0);
}

/** --probes full|lean: the probe set (default full); another word, with --no-probes or
 * another command refused; the run's JSON names it */
static void test_probe_set(void **st)
{
	(void)st;
	assert_int_equal(parse(NULL), 0);
	assert_false(p.cfg.probes_lean);
	assert_int_equal(parse("--probes", "lean", "-c", "1", NULL), 0);
	assert_true(p.cfg.probes_lean);
	assert_int_equal(parse("--probes=full", NULL), 0);
	assert_false(p.cfg.probes_lean);
	assert_int_equal(parse("--probes", "lean", "--pid", "1", NULL), 0);
	assert_true(p.cfg.probes_lean);
	assert_int_not_equal(parse("--probes", "thin", NULL), 0);
	assert_int_not_equal(parse("--probes", "", NULL), 0);
	assert_int_not_equal(parse("--probes", "lean", "--no-probes", NULL), 0);
	assert_int_not_equal(parse("--probes", "full", "--no-probes", NULL), 0);
	assert_int_not_equal(parse("check", "--probes", "lean", NULL), 0);
	assert_int_not_equal(parse("report", "a.json", "--probes", "lean", NULL), 0);
	assert_string_equal(probe_set_name(false), "full");
	assert_string_equal(probe_set_name(true), "lean");
	assert_int_equal(probe_set_from_name("lean"), 1);
	assert_int_equal(probe_set_from_name("full"), 0);
	assert_int_equal(probe_set_from_name("LEAN"), -1);
	assert_null(probe_set_leaves_out(false));
	assert_non_null(strstr(probe_set_leaves_out(true), "hrtimer callback"));
}

/** --event SUBSYS:NAME[,SUBSYS:NAME]: a point, or a pair (the first opens, the second
 * closes); repeatable up to 8, none twice; bad syntax, --no-probes and the other commands
 * refused; the tracepoint's NAME is what the probes attach to. Whether it exists is
 * preflight's (robust_badinput.sh). */
static void test_event(void **st)
{
	static const char *const bad[] = { "",		"timer",     ":hrtimer_start", "timer:",
					   "timer:a b", "timer/x:y", "../x:y",	       "timer:a,",
					   "timer:a,b", "a:b,a:b",   "a:b,c:d,e:f" };
	char many[9][16];

	(void)st;
	assert_int_equal(parse(NULL), 0);
	assert_int_equal(p.cfg.nevents, 0);
	assert_int_equal(parse("--event", "timer:hrtimer_start", NULL), 0);
	assert_int_equal(p.cfg.nevents, 1);
	assert_string_equal(p.cfg.events[0].open, "timer:hrtimer_start");
	assert_string_equal(p.cfg.events[0].close, "");
	assert_string_equal(user_event_tp(p.cfg.events[0].open), "hrtimer_start");
	assert_int_equal(parse("--event", "timer:hrtimer_start",
			       "--event=timer:hrtimer_expire_entry,"
			       "timer:hrtimer_expire_exit",
			       "--probes", "lean", NULL),
			 0);
	assert_int_equal(p.cfg.nevents, 2);
	assert_string_equal(p.cfg.events[1].open, "timer:hrtimer_expire_entry");
	assert_string_equal(p.cfg.events[1].close, "timer:hrtimer_expire_exit");
	assert_int_equal(user_event_find(p.cfg.events, 2, "timer:hrtimer_expire_entry"), 1);
	assert_int_equal(user_event_find(p.cfg.events, 2, "timer:hrtimer_expire_exit"), -1);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		assert_int_not_equal(parse("--event", bad[i], NULL), 0);
	/* the longest "SUBSYS:NAME" is a part's detail less its NUL */
	char longest[JS_USER_EVENT_LEN + 1];

	memset(longest, 'a', sizeof(longest) - 1);
	longest[1] = ':';
	longest[JS_USER_EVENT_LEN - 1] = '\0';
	assert_int_equal(parse("--event", longest, NULL), 0);
	longest[JS_USER_EVENT_LEN - 1] = 'a';
	longest[JS_USER_EVENT_LEN] = '\0';
	assert_int_not_equal(parse("--event", longest, NULL), 0);
	assert_int_not_equal(parse("--event", "a:b", "--event", "a:b,a:c", NULL), 0); /* twice */
	for (int i = 0; i < 9; i++)
		snprintf(many[i], sizeof(many[i]), "sub:ev%d", i);
	assert_int_equal(parse("--event", many[0], "--event", many[1], "--event", many[2],
			       "--event", many[3], "--event", many[4], "--event", many[5],
			       "--event", many[6], "--event", many[7], NULL),
			 0);
	assert_int_equal(p.cfg.nevents, JS_USER_EVENTS_MAX);
	assert_int_not_equal(parse("--event", many[0], "--event", many[1], "--event", many[2],
				   "--event", many[3], "--event", many[4], "--event", many[5],
				   "--event", many[6], "--event", many[7], "--event", many[8],
				   NULL),
			     0);
	assert_int_not_equal(parse("--event", "timer:hrtimer_start", "--no-probes", NULL), 0);
	assert_int_not_equal(parse("check", "--event", "timer:hrtimer_start", NULL), 0);
	assert_int_not_equal(parse("report", "a.json", "--event", "timer:hrtimer_start", NULL), 0);
}

/** The continuous mode's options: values, what each needs, and --listen's addresses. */
static void test_continuous(void **st)
{
	static const char *const good[] = { "127.0.0.1:9464", "0.0.0.0:1", "[::1]:65535",
					    "[::]:9464" };
	static const char *const bad[] = { "9464",
					   "localhost:9464",
					   "127.0.0.1:0",
					   "127.0.0.1:65536",
					   "127.0.0.1:",
					   ":9464",
					   "::1:9464",
					   "[::1]9464",
					   "[::1]:x",
					   "127.0.0.1:94640",
					   "1.2.3:80",
					   "127.0.0.1:+80",
					   "" };
	struct sockaddr_storage sa;
	char err[160];

	(void)st;
	assert_int_equal(parse("-d", "0", "--gaps", "g.csv", "--gaps-max-size", "100MiB", "--prom",
			       "m.prom", "--prom-interval", "15s", "--listen", "127.0.0.1:9464",
			       NULL),
			 0);
	assert_true(p.gaps_max_bytes == 100ull << 20);
	assert_true(p.prom_interval_ns == 15000000000ull);
	assert_string_equal(p.listen, "127.0.0.1:9464");
	assert_int_equal(parse("--gaps", "g.csv", "--gaps-max-size", "65536", NULL), 0);
	assert_true(p.gaps_max_bytes == 65536);
	assert_int_not_equal(parse("--gaps", "g.csv", "--gaps-max-size", "1KiB", NULL), 0);
	assert_int_not_equal(parse("--gaps", "g.csv", "--gaps-max-size", "1x", NULL), 0);
	assert_int_not_equal(parse("--gaps-max-size", "1MiB", NULL), 0); /* no --gaps */
	assert_int_not_equal(parse("--gaps", "-", "--gaps-max-size", "1MiB", NULL), 0);
	assert_int_equal(parse("--gaps", "g.csv", "--gaps-max-size", "1MiB", "--gaps-max-files",
			       "24", NULL),
			 0);
	assert_int_equal(p.gaps_max_files, 24);
	assert_int_not_equal(parse("--gaps", "g.csv", "--gaps-max-files", "24", NULL), 0);
	assert_int_not_equal(parse("--gaps", "g.csv", "--gaps-max-size", "1MiB", "--gaps-max-files",
				   "0", NULL),
			     0);
	assert_int_not_equal(parse("--prom-interval", "15s", NULL), 0); /* no --prom */
	assert_int_not_equal(parse("--prom", "-", "--prom-interval", "15s", NULL), 0);
	assert_int_not_equal(parse("--prom", "m", "--prom-interval", "10ms", NULL), 0);
	assert_int_not_equal(parse("--prom", "m", "--prom-interval", "2d", NULL), 0);
	assert_int_not_equal(parse("check", "--listen", "127.0.0.1:9464", NULL), 0);
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		assert_int_equal(listen_parse(good[i], &sa, err, sizeof(err)), 0);
		assert_int_equal(sa.ss_family, good[i][0] == '[' ? AF_INET6 : AF_INET);
	}
	assert_int_equal(ntohs(((struct sockaddr_in *)&sa)->sin_port), 9464);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		assert_int_not_equal(listen_parse(bad[i], NULL, err, sizeof(err)), 0);
		assert_true(err[0]);
		assert_int_not_equal(parse("--listen", bad[i], NULL), 0);
	}
}

/** Subcommands and their arguments. */
static void test_subcommands(void **st)
{
	(void)st;
	assert_int_equal(parse("check", "--cpu", "1", NULL), 0);
	assert_int_equal(p.cmd, JS_CMD_CHECK);
	assert_int_equal(p.cfg.cpus[0], 1);
	assert_int_equal(parse("check", "--sysroot", "/tmp/x", NULL), 0);
	assert_string_equal(p.sysroot, "/tmp/x");
	assert_int_equal(parse("report", "a.json", NULL), 0);
	assert_int_equal(p.cmd, JS_CMD_REPORT);
	assert_string_equal(p.inputs[0], "a.json");
	assert_int_equal(parse("report", "a.json", "--by", "cgroup", NULL), 0);
	assert_int_equal(p.cfg.by, JS_BY_CGROUP);
	assert_int_equal(parse("--by", "source", NULL), 0);
	assert_int_equal(p.cfg.by, JS_BY_SOURCE);
	assert_int_not_equal(parse("--by", "unit", NULL), 0);
	assert_int_not_equal(parse("--by", "", NULL), 0);
	assert_int_not_equal(parse("report", NULL), 0);
	assert_int_equal(parse("diff", "a.json", "b.json", NULL), 0);
	assert_int_equal(p.cmd, JS_CMD_DIFF);
	assert_int_not_equal(parse("diff", "a.json", NULL), 0);
	assert_int_not_equal(parse("diff", "a", "b", "c", NULL), 0);
}

/** diff's options: --alpha, --min-change, --fail-on, their defaults, bad values, and
 * nowhere but after diff. */
static void test_diff_options(void **st)
{
	static const char *const bad_alpha[] = { "0",	  "0.5", "1",  "-0.01", "x",
						 "0.01x", "",	 "1%", "nan" };
	static const char *const bad_change[] = { "-1", "1001", "x", "10%%", "%", "" };

	(void)st;
	assert_int_equal(parse("diff", "a", "b", NULL), 0);
	assert_true(p.alpha == 0.01 && p.min_change_pct == 10 && !p.fail_on_worse);
	assert_int_equal(parse("diff", "a", "b", "--alpha", "0.001", "--min-change", "25%",
			       "--fail-on", "worse", NULL),
			 0);
	assert_true(p.alpha == 0.001 && p.min_change_pct == 25 && p.fail_on_worse);
	assert_int_equal(parse("diff", "--min-change", "0", "a", "b", NULL), 0);
	assert_true(p.min_change_pct == 0);
	assert_int_equal(parse("diff", "a", "b", "--min-change", "7.5", NULL), 0);
	assert_true(p.min_change_pct == 7.5);
	for (size_t i = 0; i < sizeof(bad_alpha) / sizeof(bad_alpha[0]); i++)
		assert_int_not_equal(parse("diff", "a", "b", "--alpha", bad_alpha[i], NULL), 0);
	for (size_t i = 0; i < sizeof(bad_change) / sizeof(bad_change[0]); i++)
		assert_int_not_equal(parse("diff", "a", "b", "--min-change", bad_change[i], NULL),
				     0);
	assert_int_not_equal(parse("diff", "a", "b", "--fail-on", "better", NULL), 0);
	assert_int_not_equal(parse("diff", "a", "b", "--fail-on", "", NULL), 0);
	assert_int_not_equal(parse("--fail-on", "worse", NULL), 0);
	assert_int_not_equal(parse("report", "a", "--alpha", "0.05", NULL), 0);
	assert_int_not_equal(parse("check", "--min-change", "5", NULL), 0);
}

/* refused - ARGS... (after the command word) fail to parse, with one line on stderr that
 * names opt and "not an option of" what (read back through a temporary stderr) */
static void refused(const char *what, const char *opt, const char *a, const char *b, const char *c,
		    const char *d)
{
	char line[512] = "", want[128];
	FILE *tmp = tmpfile(), *saved = stderr;

	assert_non_null(tmp);
	stderr = tmp;
	assert_int_not_equal(parse(a, b, c, d, NULL), 0);
	stderr = saved;
	rewind(tmp);
	assert_non_null(fgets(line, sizeof(line), tmp));
	snprintf(want, sizeof(want), "%s is not an option of %s", opt, what);
	if (!strstr(line, want))
		fail_msg("'%s' says '%s', not '%s'", a, line, want);
	assert_null(fgets(line + strlen(line), 64, tmp)); /* one line */
	fclose(tmp);
}

/** The option table: each command refuses, by name, every option it does not take;
 * takes the ones it does; -h works everywhere. */
static void test_option_table(void **st)
{
	(void)st;
	refused("check", "--html", "check", "--html", "x.html", NULL);
	refused("check", "--pid", "check", "--pid", "1", NULL);
	refused("check", "--budget", "check", "--budget", "max=1us", NULL);
	refused("check", "--duration", "check", "-d", "5", NULL);
	refused("check", "--no-progress", "check", "--no-progress", NULL, NULL);
	refused("diff", "--by", "diff", "a", "b", "--by=cgroup");
	refused("diff", "--top", "diff", "a", "b", "-n1");
	refused("diff", "--budget", "diff", "a", "b", "--budget=max=1us");
	refused("report", "--fail-on", "report", "a", "--fail-on", "worse");
	refused("report", "--cpu", "report", "a", "--cpu", "1");
	refused("report", "--listen", "report", "a", "--listen", "127.0.0.1:9464");
	refused("report", "--gaps", "report", "a", "--gaps", "g.csv"); /* with the reason: */
	refused("report", "--trace", "report", "a", "--trace", "t.json");
	refused("report", "--hlog", "report", "a", "--hlog", "h.hlog");
	refused("report", "--spike-dir", "report", "a", "--spike-dir", "d");
	refused("a measurement", "--sysroot", "--sysroot", "/tmp", NULL, NULL);
	refused("a measurement", "--alpha", "--alpha", "0.05", NULL, NULL);
	/* what each takes */
	assert_int_equal(parse("report", "a", "--html", "x.html", "--prom", "m.prom", "--hgrm",
			       "h.hgrm", "--json", "r.json", "-n", "3", "--by", "cgroup",
			       "--budget", "max=1us", "-q", NULL),
			 0);
	assert_true(p.top_given && p.cfg.top == 3 && p.budget.n == 1);
	assert_string_equal(p.html_path, "x.html");
	assert_int_equal(parse("report", "a", NULL), 0);
	assert_false(p.top_given);
	assert_int_equal(parse("check", "--cpu", "1", "--json", "-", "-v", "--sysroot", "/", NULL),
			 0);
	assert_int_equal(parse("diff", "a", "b", "--json", "d.json", "--html", "d.html", NULL), 0);
	/* help everywhere, short or long: nothing to run (the help text into /dev/null) */
	FILE *out = stdout;

	stdout = fopen("/dev/null", "w");
	assert_non_null(stdout);
	assert_int_equal(parse("-h", NULL), 0);
	assert_true(p.help);
	for (int c = 0; c < 3; c++) {
		static const char *const cmds[] = { "check", "report", "diff" };

		assert_int_equal(parse(cmds[c], "-h", NULL), 0);
		assert_true(p.help);
		assert_int_equal(parse(cmds[c], "--help", NULL), 0);
		assert_true(p.help);
	}
	fclose(stdout);
	stdout = out;
}

/** --help of a command lists its options only, under the right headings. */
static void test_help_per_command(void **st)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len), *saved = stdout;

	(void)st;
	assert_non_null(mem);
	stdout = mem;
	assert_int_equal(parse("check", "--help", NULL), 0);
	stdout = saved;
	fclose(mem);
	assert_non_null(strstr(buf, "--sysroot"));
	assert_non_null(strstr(buf, "--cpu"));
	assert_non_null(strstr(buf, "What to audit:"));
	assert_null(strstr(buf, "--html"));
	assert_null(strstr(buf, "--duration"));
	assert_null(strstr(buf, "What to measure:"));
	assert_null(strstr(buf, "Your application"));
	free(buf);

	mem = open_memstream(&buf, &len);
	stdout = mem;
	assert_int_equal(parse("--help", NULL), 0);
	stdout = saved;
	fclose(mem);
	/* each heading is followed by an option of its own group, not by the next heading */
	char *m = strstr(buf, "What to measure:"), *a = strstr(buf, "Your application");
	assert_non_null(m);
	assert_non_null(a);
	assert_true(a > strstr(m, "--duration") && a > strstr(m, "--cpu"));
	assert_non_null(strstr(a, "--pid"));
	assert_true(strstr(a, "--pid") < strstr(a, "Output:"));
	assert_non_null(strstr(buf, "diff --fail-on"));
	assert_null(strstr(buf, "--sysroot"));
	assert_null(strstr(buf, "--alpha"));
	free(buf);
}

/** --arrival-interval and --burst. */
static void test_arrivals(void **st)
{
	(void)st;
	assert_int_equal(parse("--arrival-interval", "1us,10us,100us", "--burst", "500", NULL), 0);
	assert_int_equal(p.cfg.narrivals, 3);
	assert_true(p.cfg.arrival_ns[1] == 10000);
	assert_true(p.cfg.burst == 500);
	assert_int_not_equal(parse("--arrival-interval", "x", NULL), 0);
	assert_int_not_equal(parse("--burst", "5", NULL), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defaults),
		cmocka_unit_test(test_clock),
		cmocka_unit_test(test_cpus),
		cmocka_unit_test(test_bad_cpus),
		cmocka_unit_test(test_follow_syscalls),
		cmocka_unit_test(test_run_cmd),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_bad_durations),
		cmocka_unit_test(test_thresholds),
		cmocka_unit_test(test_priority),
		cmocka_unit_test(test_misc),
		cmocka_unit_test(test_continuous),
		cmocka_unit_test(test_subcommands),
		cmocka_unit_test(test_arrivals),
		cmocka_unit_test(test_diff_options),
		cmocka_unit_test(test_btf),
		cmocka_unit_test(test_probe_set),
		cmocka_unit_test(test_event),
		cmocka_unit_test(test_option_table),
		cmocka_unit_test(test_help_per_command),
	};

	/* argp prints one line per rejected value on stderr: that is expected */
	return cmocka_run_group_tests_name("cli", tests, NULL, NULL);
}
