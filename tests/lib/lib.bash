# lib.bash - shared helpers for the integration tests (sourced, not run).
# Each test: exit 0 pass, 77 skip, anything else fail. A test runs whole or skips whole: a
# skip prints one line "skip: WHAT IS MISSING" (scripts/run-tests.sh lists it) and exits 77.
set -u
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
JS=${JS_BIN:-$ROOT/build/jitterscope}   # make asan: the sanitized binary
TMP=$(mktemp -d /tmp/jstest.XXXXXX)
# the Python helpers import the one reader of the gaps CSV and the injector log
export PYTHONPATH=$ROOT/tests/lib${PYTHONPATH:+:$PYTHONPATH}
# at_exit CMD - run the shell line CMD when the test exits (in the order given): its own
# clean-up (stop what it started, unmount what it mounted). Then the noise gauge judges a
# failure (need_cpu1: a failure under noise exits 75 instead), and $TMP goes
AT_EXIT=()
at_exit() { AT_EXIT+=("$1"); }
GAUGE=
on_exit() {
	local rc=$? c
	for c in "${AT_EXIT[@]}"; do eval "$c"; done
	if [ -n "$GAUGE" ]; then
		if [ "$rc" -ne 0 ] && [ "$rc" -ne 77 ] && [ "$rc" -ne 75 ] && [ "$rc" -lt 128 ] &&
			python3 -m noise_gauge judge "$GAUGE"; then
			rc=75
		fi
		python3 -m noise_gauge stop "$GAUGE"
		rm -rf "$GAUGE"
	fi
	rm -rf "$TMP"
	exit "$rc"
}
trap on_exit EXIT

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "skip: $*"; exit 77; }
# free_port - a TCP port free on 127.0.0.1 now
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# required WHAT - a precondition of the suite (root, 2 CPUs, kernel BTF: need_root, need_cpu1,
# need_btf) is missing: skip, but fail under CI (CI=true, .ci/run), whose machine has them
# all. The skips CI allows (optional features: THP, cgroup v2, IRQ steering...) call skip
# directly; tests/skips-allowed.txt lists them (scripts/run-tests.sh fails the others)
required() {
	[ "${CI:-}" = true ] && fail "$1 (CI=true: every test must run here)"
	skip "$1"
}
need_root() { [ "$(id -u)" -eq 0 ] || required "needs root"; }
# tick_hz [timer-period] - the kernel's tick rate (CONFIG_HZ, else measured from jiffies:
# tests/lib/kernel_hz.py), or the period (us) of an injected timer that expires at least 4
# times a tick; status 1 with the reason on stderr when unknown. No test assumes HZ=250
tick_hz() { python3 -m kernel_hz "$@"; }
# (online CPUs, not this script's affinity: make check's lane runs its scripts on CPU 0)
# need_cpu1 - 2 CPUs; as root it starts the noise gauge of a test that measures CPU 1
# (tests/lib/noise_gauge.py: other tasks' time on CPU 1 by the kernel's trace, the host's
# steal by /proc/stat; docs/HACKING.md, "The retry")
need_cpu1() {
	[ "$(getconf _NPROCESSORS_ONLN)" -ge 2 ] || required "needs 2 CPUs"
	# a "# cpu1: shared" test (JS_CPU1_SHARED=1, scripts/run-tests.sh) runs beside others of
	# its kind and judges nothing their runs change: no gauge (it would see them)
	if [ -z "$GAUGE" ] && [ "$(id -u)" -eq 0 ] && [ "${JS_CPU1_SHARED:-}" != 1 ]; then
		GAUGE=$(mktemp -d /tmp/jsgauge.XXXXXX) || fail "no scratch directory for the gauge"
		python3 -m noise_gauge start "$GAUGE" $$ || { rm -rf "$GAUGE"; GAUGE=; }
	fi
}
# on_housekeeping - this script and all it starts from now on run on CPU 0, as a tuned box's
# shell does (jitterscope and jsinject still pin to CPU 1, which the cpuset allows): a script
# that polls while jitterscope measures must not land on CPU 1, where the SCHED_FIFO sampler
# leaves it the fair server's 5 % (its 30 polls of 0.1 s then outlast a 4 s run)
on_housekeeping() { taskset -pc 0 $$ >/dev/null || fail "cannot keep this script on CPU 0"; }

# missing PACKAGE WHAT [KIND] - WHAT (from PACKAGE, a KIND: "Debian package" unless given) is
# not here: skip; but under CI (CI=true) fail when scripts/install-deps.sh installs PACKAGE:
# a green CI must not hide a missing install step
missing() {
	local kind=${3:-Debian package}
	if [ "${CI:-}" = true ] && "$ROOT/scripts/install-deps.sh" --list | grep -qx "$1"; then
		fail "$2 ($kind $1): CI=true and scripts/install-deps.sh installs it"
	fi
	skip "$2 ($kind $1)"
}
# need_cmd CMD PACKAGE - CMD on the PATH (or executable at that path), else missing
need_cmd() { command -v "$1" >/dev/null 2>&1 || missing "$2" "no $1"; }
# need_file FILE PACKAGE - FILE readable, else missing
need_file() { [ -r "$1" ] || missing "$2" "no $1"; }
# need_tools TOOL... - the test-only programs tests/tools/TOOL.c that make builds into
# build/tools/, each as a variable: INJ (jsinject), APP (jsapp), else TOOL in capitals; fail
# when one is not built
need_tools() {
	local t v
	for t in "$@"; do
		case $t in
		jsinject) v=INJ ;;
		jsapp) v=APP ;;
		*) v=${t^^} ;;
		esac
		printf -v "$v" '%s' "$ROOT/build/tools/$t"
		[ -x "${!v}" ] || fail "no ${!v} (make builds it)"
	done
}
# need_npm PACKAGE FILE - FILE of the npm package PACKAGE in npm's global root (where
# install-deps.sh installs it) as NPM_FILE, else missing
need_npm() {
	local root
	root=$(npm root -g 2>/dev/null)
	NPM_FILE=$root/$1/$2
	[ -n "$root" ] && [ -r "$NPM_FILE" ] || missing "$1" "no $1/$2" "npm package"
}
# progs_left ID... - those of the BPF programs IDS still loaded, waiting up to 5 s for the
# rest (the kernel frees a program asynchronously after its last fd closes); empty: all gone
progs_left() {
	local bpftool left id
	bpftool=$(command -v bpftool || echo /usr/sbin/bpftool)
	for _ in $(seq 10); do
		left=""
		for id in "$@"; do
			"$bpftool" prog show id "$id" >/dev/null 2>&1 && left="$left $id"
		done
		[ -z "$left" ] && break
		sleep 0.5
	done
	echo "$left"
}
# prog_ids PID - the ids of the BPF programs PID holds (its program and link fds), one a line.
# grep, not sed: an fd closed between listing fdinfo/ and reading it is a read error, and
# GNU sed gives up on the remaining files at the first one (grep goes on)
prog_ids() {
	grep -h '^prog_id:' /proc/"$1"/fdinfo/* 2>/dev/null | sed 's/^prog_id:[[:space:]]*//'
}
# wait_attached PID [SECONDS] - until process PID (a jitterscope run) holds its BPF links
# and their count has stopped growing for 0.2 s (its probes attached), at most SECONDS (20);
# status 1 when it did not (it exited, or is still attaching)
wait_attached() {
	local n last=-1 same=0 end=$(($(date +%s) + ${2:-20}))
	while [ "$(date +%s)" -le $end ] && kill -0 "$1" 2>/dev/null; do
		n=$(find /proc/"$1"/fd -lname 'anon_inode:bpf_link' 2>/dev/null | wc -l)
		if [ "$n" -gt 0 ] && [ "$n" -eq "$last" ]; then
			same=$((same + 1))
			[ $same -ge 2 ] && return 0
		else
			same=0
		fi
		last=$n
		sleep 0.1
	done
	return 1
}
# attached PID - wait_attached PID (30 s), polled from CPU 0 (a test that counts the tasks
# on CPU 1 must not add its own), then 0.5 s more: the run's window is open; or fail
attached() {
	(taskset -pc 0 $BASHPID >/dev/null && wait_attached "$1" 30) ||
		fail "jitterscope (pid $1) did not attach its probes within 30 s"
	taskset -c 0 sleep 0.5
}
# wait_measuring PID CSV - until the run PID has written a row of its gaps CSV (flushed
# every 0.5 s): it measures, its probes attached; at most 10 s, status 1 when it did not
wait_measuring() {
	local rows
	for _ in $(seq 1 200); do
		rows=()
		mapfile -t -n 2 rows 2>/dev/null <"$2"
		[ ${#rows[@]} -ge 2 ] && return 0
		kill -0 "$1" 2>/dev/null || return 1
		sleep 0.05
	done
	return 1
}
# need_btf - kernel BTF, without which the probes cannot load (as root they must load)
need_btf() {
	[ -r /sys/kernel/btf/vmlinux ] ||
		required "no kernel BTF (/sys/kernel/btf/vmlinux): the probes cannot load"
}

# run_pipe SECONDS OUT [JITTERSCOPE OPTIONS...] - jsinject --mode pipe (a SCHED_FIFO reader
# on CPU 1 woken through a pipe every 10 ms by jswriter on CPU 0, spinning 400 us) for
# SECONDS + 2, and jitterscope on CPU 1 for SECONDS inside it (-T 150us --top 1000):
# OUT.json, OUT.csv (--gaps), OUT.txt, OUT.inj (attrib_waker.sh, attrib_stacks.sh)
run_pipe() {
	local d=$1 out=$2 inj
	shift 2
	need_tools jsinject
	"$INJ" --mode pipe --cpu 1 --helper-cpu 0 --duration $((d + 2)) \
		--period 10000 --spin 400 >"$out.inj" 2>&1 &
	inj=$!
	sleep 0.5
	"$JS" --cpu 1 -d "${d}s" -T 150us --top 1000 --json "$out.json" --gaps "$out.csv" "$@" \
		>"$out.txt" 2>&1 || { kill "$inj" 2>/dev/null; cat "$out.txt"; fail "jitterscope $*"; }
	# the run is over: the injector's last seconds would measure nothing (3: interrupted)
	kill -INT "$inj" 2>/dev/null
	wait "$inj"
	case $? in 0 | 3) ;; *) cat "$out.inj"; fail "jsinject --mode pipe" ;; esac
}

# json_check FILE PYTHON-EXPR... - every expression holds for the run FILE loaded as r
# (c = r["cpus"][0])
json_check() {
	local f=$1
	shift
	python3 - "$f" "$@" <<'PY' || fail "$f: $*"
import json, sys
r = json.load(open(sys.argv[1]))
c = r["cpus"][0]
for e in sys.argv[2:]:
    assert eval(e), "%s (probes %s, smi %s)" % (e, r["probes"], r["smi"])
PY
}

# need_chromium - CHROME set to Debian's chromium, else missing
need_chromium() {
	CHROME=$(command -v chromium || command -v chromium-browser)
	need_cmd "${CHROME:-chromium}" chromium
}
# chrome PAGE ARGS... - headless Chromium on the local file PAGE with a fresh profile,
# its log on stderr (a page's console messages show as CONSOLE lines)
chrome() {
	local page=$1
	shift
	timeout -k 5 90 "$CHROME" --headless --no-sandbox --disable-gpu \
		--disable-background-networking --disable-component-update --disable-sync \
		--no-first-run --user-data-dir="$(mktemp -d "$TMP/chr.XXXXXX")" \
		--enable-logging=stderr --v=0 "$@" "file://$page"
}
# render PAGE WIDTH HEIGHT - PAGE rendered by headless Chromium: its DOM after the scripts
# ran in $TMP/dom.html, a WIDTHxHEIGHT screenshot in PAGE.png; fails when Chromium fails or
# the page logs to the console
render() {
	chrome "$1" --dump-dom >"$TMP/dom.html" 2>"$TMP/chr1.err" ||
		fail "chromium --dump-dom exited $?"
	grep -q 'data-rendered="ok"' "$TMP/dom.html" ||
		fail "the page's script did not run to the end"
	chrome "$1" --screenshot="$1.png" --window-size="$2,$3" >/dev/null 2>"$TMP/chr2.err" ||
		fail "chromium --screenshot exited $?"
	if grep -h "CONSOLE" "$TMP/chr1.err" "$TMP/chr2.err"; then
		fail "console messages while rendering the page"
	fi
}
# painted PAGE WIDTH HEIGHT MIN_PIXELS MIN_COLOURS - PAGE's screenshot (render's PAGE.png)
# shows the legend's cause colours: the most used on at least MIN_PIXELS pixels, at least
# MIN_COLOURS of them (fewer when the legend has fewer); fails otherwise
painted() {
	local cols
	mapfile -t cols < <(legend_colours "$1")
	[ ${#cols[@]} -ge 1 ] || fail "no legend colours in the page"
	python3 "$ROOT/tests/tools/png_colours.py" "$1.png" "${cols[@]}" >"$TMP/px.json" ||
		fail "screenshot"
	python3 - "$TMP/px.json" "$2" "$3" "$4" "$5" <<'PY' || fail "the screenshot does not show the figures"
import json, sys
p = json.load(open(sys.argv[1]))
w, h, least, ncol = map(int, sys.argv[2:])
assert (p["width"], p["height"]) == (w, h), (p["width"], p["height"])
c = sorted(p["counts"].values(), reverse=True)
assert c[0] >= least, "dominant cause colour on %d pixels only: %s" % (c[0], p["counts"])
assert sum(v > 0 for v in c) >= min(ncol, len(c)), p["counts"]
print("ok: screenshot: %d non-white pixels, cause colours %s" % (p["non_white"], p["counts"]))
PY
}
# legend_colours PAGE - the colours of the page's cause legend, one per line
legend_colours() {
	grep -o 'data-cause="[a-z]*" title="[^"]*"><i style="background:#[0-9a-f]*' "$1" |
		sed 's/.*background://' | sort -u
}
