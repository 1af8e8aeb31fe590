#!/bin/bash
# soak.sh SECS [WARMUP_S] [MAX_GROWTH_KIB] - a long measurement with every output on and an
# IPI injector keeping the probes busy; jitterscope's VmRSS and VmHWM are sampled every 2 s
# and must not grow by more than MAX_GROWTH_KIB (default 1024) after WARMUP_S (default 10):
# memory is allocated at start and bounded after that. The outputs must be coherent at the
# end. `make soak` runs it for 600 s in the continuous mode (SOAK_CONTINUOUS=1: --duration 0
# ended by SIGTERM after SECS, with --listen scraped every 2 s, --prom-interval, a SIGHUP
# half-way and --gaps-max-size), and prints the RSS growth per hour (must be <= 1 % of
# the RSS); `make soak-short` runs 60 s of a fixed-length run.
# Environment: JS_BIN (binary), SOAK_CPU (measured CPU, default 1), SOAK_DIR (keep files),
# SOAK_INJECT=0 (no injector). Exit status: 0 ok, 1 failed, 77 skipped (not root).
set -u
secs=${1:?usage: soak.sh SECS [WARMUP_S] [MAX_GROWTH_KIB]}
warm=${2:-10}
max_kib=${3:-1024}
root=$(cd "$(dirname "$0")/.." && pwd)
JS=${JS_BIN:-$root/build/jitterscope}
INJ=$root/build/tools/jsinject
cpu=${SOAK_CPU:-1}
[ "$(id -u)" -eq 0 ] || { echo "skip: soak needs root"; exit 77; }
dir=${SOAK_DIR:-$(mktemp -d /tmp/jssoak.XXXXXX)}
mkdir -p "$dir"
ipid=""
cleanup() {
	[ -n "$ipid" ] && kill "$ipid" 2>/dev/null
	[ -n "${pid:-}" ] && kill "$pid" 2>/dev/null
	[ -z "${SOAK_DIR:-}" ] && rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

cont=${SOAK_CONTINUOUS:-0}
extra=()
if [ "$cont" = 1 ]; then
	lport=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	extra=(-d 0 --listen "127.0.0.1:$lport" --prom-interval 5s --gaps-max-size 64MiB)
else
	extra=(-d "$secs")
fi
"$JS" --cpu "$cpu" "${extra[@]}" -q --json "$dir/run.json" --gaps "$dir/gaps.csv" \
	--hlog "$dir/run.hlog" --hgrm "$dir/run.hgrm" --prom "$dir/run.prom" \
	--html "$dir/run.html" --trace "$dir/run.trace.json" --trace-max-events 1000 \
	--arrival-interval 1us,1ms --burst 4 >"$dir/report.txt" 2>"$dir/err.txt" &
pid=$!
if [ "${SOAK_INJECT:-1}" != 0 ]; then
	# the injector is part of the soak unless SOAK_INJECT=0 says otherwise: never silently
	[ -x "$INJ" ] || { echo "soak: $INJ missing (make all builds it)" >&2; kill $pid; exit 1; }
	sleep 1
	"$INJ" --mode ipi --cpu "$cpu" --period 2000 --duration "$secs" >"$dir/inj.txt" 2>&1 &
	ipid=$!
fi
echo "t_s,rss_kib,hwm_kib" >"$dir/rss.csv"
t0=$(date +%s)
while kill -0 "$pid" 2>/dev/null; do
	rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/"$pid"/status 2>/dev/null)
	hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/"$pid"/status 2>/dev/null)
	[ -n "$rss" ] && echo "$(( $(date +%s) - t0 )),$rss,$hwm" >>"$dir/rss.csv"
	if [ "$cont" = 1 ]; then
		el=$(( $(date +%s) - t0 ))
		taskset -c 0 python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=5).read()' \
			"http://127.0.0.1:$lport/metrics" 2>/dev/null || echo "scrape failed at $el s" >>"$dir/scrape.err"
		if [ -z "${hup:-}" ] && [ "$el" -ge $((secs / 2)) ]; then
			hup=1
			mv "$dir/gaps.csv" "$dir/gaps.csv.rotated"
			kill -HUP "$pid"
		fi
		[ "$el" -ge "$secs" ] && kill -TERM "$pid"
	fi
	sleep 2
done
wait "$pid"
rc=$?
[ -n "$ipid" ] && { kill "$ipid" 2>/dev/null; wait "$ipid" 2>/dev/null; ipid=""; }
pid=""
[ $rc -eq 0 ] || { echo "FAIL: soak run exited $rc: $(cat "$dir/err.txt")"; exit 1; }

[ ! -s "$dir/scrape.err" ] || { echo "FAIL: --listen: $(cat "$dir/scrape.err")"; exit 1; }
python3 - "$dir" "$warm" "$max_kib" "$secs" "$cont" <<'PY'
import csv, glob, json, os, sys
d, warm, max_kib, secs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
cont = sys.argv[5] == "1"
s = [(int(r["t_s"]), int(r["rss_kib"]), int(r["hwm_kib"]))
     for r in csv.DictReader(open(os.path.join(d, "rss.csv")))]
after = [x for x in s if x[0] >= warm]
assert len(after) >= 3, "too few samples after the warm-up: %d" % len(after)
base_rss, base_hwm = after[0][1], after[0][2]
grow_rss = max(x[1] for x in after) - base_rss
grow_hwm = max(x[2] for x in after) - base_hwm
r = json.load(open(os.path.join(d, "run.json")))
c = r["cpus"][0]
rows = sum(sum(1 for _ in open(f)) - 1 for f in glob.glob(os.path.join(d, "gaps.csv*")))
print("soak %.0f s: %d samples, RSS %d KiB at %d s, then +%d KiB (HWM +%d KiB); "
      "%d gaps, %d probe events (%d lost, %d evicted), %d dropped"
      % (secs, len(s), base_rss, after[0][0], grow_rss, grow_hwm, c["gap_count"],
         r["probes"]["events"], r["probes"]["lost"], r["probes"].get("evicted", 0),
         c["dropped"]))
span = after[-1][0] - after[0][0]
per_hour = grow_rss * 3600.0 / span if span else 0
print("soak: RSS growth %.0f KiB per hour (%.2f %% of %d KiB)%s"
      % (per_hour, 100.0 * per_hour / base_rss, base_rss,
         " in the continuous mode (-d 0, --listen scraped every 2 s, SIGHUP at %.0f s)"
         % (secs / 2) if cont else ""))
ok = True
if cont and per_hour > 0.01 * base_rss:
    print("FAIL: RSS grows %.0f KiB per hour, over 1 %% of %d KiB" % (per_hour, base_rss))
    ok = False
if grow_rss > max_kib or grow_hwm > max_kib:
    print("FAIL: memory grew by %d KiB RSS / %d KiB HWM after %.0f s (limit %d KiB)"
          % (grow_rss, grow_hwm, warm, max_kib))
    print("  samples (t, rss, hwm):", s)
    ok = False
if rows != c["gap_count"]:
    print("FAIL: gaps CSV has %d rows, JSON gap_count %d" % (rows, c["gap_count"]))
    ok = False
if not (secs * 0.98e9 < c["duration_ns"] < secs * (1.05e9 if not cont else 1.2e9)):
    print("FAIL: measured %.1f s of %.0f s" % (c["duration_ns"] / 1e9, secs))
    ok = False
sys.exit(0 if ok else 1)
PY
