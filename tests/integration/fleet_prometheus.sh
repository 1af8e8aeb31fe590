#!/bin/bash
# fleet_prometheus.sh - the fleet path with the real components (root, about 20 s):
#  (a) contrib/jitterscope.service's command line (the continuous mode: --duration 0,
#      --prom-interval 1s, --listen on a free port, the flight recorder's --spike-threshold
#      with its --spike-dir beside the textfile) runs on CPU 1 with exactly the unit's
#      capabilities (root without any
#      other: setpriv), writing --prom into a textfile directory, plus --json, --hlog and a
#      --budget for the comparisons: the probes load, kernel functions have names
#      (CAP_SYSLOG), no capability is missing;
#  (b) a real node_exporter (Debian prometheus-node-exporter) serves that directory,
#      textfile collector only; (c) a real Prometheus (Debian prometheus) scrapes it and
#      jitterscope's --listen every second, contrib/prometheus-rules.yml loaded; the servers
#      on 127.0.0.1, free ports, pinned to CPU 0, stopped by the test (trap, also on
#      failure); both exports move on while it measures; then SIGTERM as systemd stops it;
#  (d) over Prometheus's HTTP API: the final textfile's scraped _count is the JSON's
#      gap_count, --listen's last one at most that; histogram_quantile(0.5, 0.99, 0.999)
#      over the textfile's buckets is in the bucket of the JSON's percentile (the next one
#      only within the 0.1 % of its 3-digit slot), over --listen's within one bucket; the
#      budget violations, counted per --budget-interval (1 s), are exported by both; every
#      Grafana dashboard expression, every rule and every docs/FLEET.md query evaluates without
#      error (dashboard and FLEET.md ones with data), every metric they name has series,
#      the dashboard's variables find values, every rule is loaded and healthy;
#  (e) docs/FLEET.md's .hlog merge: two copies of the run's log through HistogramLogProcessor
#      add up to twice its gap count with the same max (skipped without Java; a failure
#      under CI=true, as scripts/install-deps.sh installs it).
# Skips without the servers (a failure under CI=true: scripts/install-deps.sh installs them).
# cpu1: shared - Prometheus and node_exporter scrape what the run exposes: judged against the run's own files (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_cmd prometheus prometheus
need_cmd promtool prometheus
need_cmd prometheus-node-exporter prometheus-node-exporter
need_cmd setpriv util-linux
python3 -c 'import yaml' 2>/dev/null || missing python3-yaml "no python3 yaml module"
LIB=$ROOT/tests/lib/fleet_lib.py
note() { echo "fleet_prometheus: $*"; }

NE_PID='' PROM_PID=''
# stop_servers - both servers stopped and waited for (the EXIT trap, also on failure)
stop_servers() {
	local p
	for p in $NE_PID $PROM_PID; do
		kill -TERM "$p" 2>/dev/null
	done
	for p in $NE_PID $PROM_PID; do
		for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
		kill -KILL "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	NE_PID='' PROM_PID=''
}
run=''
at_exit '[ -n "$run" ] && kill -TERM "$run" 2>/dev/null; stop_servers'

# the servers and the --listen address on free local ports
# (three free at once, so three different ones: one python, as lib.bash's free_port)
read -r NE_PORT PROM_PORT JS_PORT < <(python3 -c 'import socket
s = [socket.socket() for _ in range(3)]
for x in s:
    x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
[ -n "$JS_PORT" ] || fail "no free local ports"
# get URL - the body, or nothing
get() { python3 -c 'import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=5).read().decode())' "$1" 2>/dev/null; }

# (a) the unit's command, the unit's capabilities, until SIGTERM
TXT=$TMP/textfile J=$TMP/run.json H=$TMP/run.hlog
mkdir -p "$TXT"
mapfile -t argv < <(python3 "$LIB" unit-argv "$ROOT" "$JS" 1 0 "$TXT/jitterscope.prom" \
	"127.0.0.1:$JS_PORT") || fail "cannot read contrib/jitterscope.service"
caps=$(python3 "$LIB" unit-caps "$ROOT") || fail "cannot read the unit's capabilities"
setpriv --bounding-set="-all,$caps" --inh-caps=-all --no-new-privs \
	"${argv[@]}" --json "$J" --hlog "$H" --budget 'max=1us,gaps=1000000000' \
	--budget-interval 1s \
	>"$TMP/out.txt" 2>"$TMP/err.txt" &
run=$!

# (b), (c): node_exporter on the textfile directory, Prometheus scraping it and --listen
taskset -c 0 prometheus-node-exporter --web.listen-address="127.0.0.1:$NE_PORT" \
	--collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$TXT" >"$TMP/node_exporter.log" 2>&1 &
NE_PID=$!
printf '%s\n' 'global:' '  scrape_interval: 1s' '  evaluation_interval: 1s' 'rule_files:' \
	"  - $ROOT/contrib/prometheus-rules.yml" 'scrape_configs:' '  - job_name: node' \
	'    static_configs:' "      - targets: ['127.0.0.1:$NE_PORT']" \
	'  - job_name: jitterscope' '    static_configs:' \
	"      - targets: ['127.0.0.1:$JS_PORT']" >"$TMP/prometheus.yml"
taskset -c 0 prometheus --config.file="$TMP/prometheus.yml" --storage.tsdb.path="$TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PROM_PORT" --log.level=warn >"$TMP/prometheus.log" 2>&1 &
PROM_PID=$!
URL=http://127.0.0.1:$PROM_PORT
# both jobs scraped (Prometheus applies its targets some 5 s after it starts)
python3 "$LIB" await "$URL" up "the unit's command=$run" "prometheus=$PROM_PID" || {
	cat "$TMP/err.txt" "$TMP/prometheus.log" "$TMP/node_exporter.log" >&2
	fail "Prometheus does not scrape --listen 127.0.0.1:$JS_PORT and node_exporter (above)"
}
# scrapes (every second) while it measures: both exports move on, and Prometheus's scrapes
# of --listen reach the 5 budget intervals (1 s each) that (d) wants
python3 "$LIB" await "$URL" moving "http://127.0.0.1:$JS_PORT/metrics" \
	"http://127.0.0.1:$NE_PORT/metrics" 5 >"$TMP/moving" ||
	fail "while measuring: $(cat "$TMP/moving")"
read -r d1 d2 t1 t2 <"$TMP/moving"
python3 -c 'import sys; a, b, c, d = map(float, sys.argv[1:]); assert 0 < a < b and 0 < c < d' \
	"${d1:-0}" "${d2:-0}" "${t1:-0}" "${t2:-0}" ||
	fail "the run's duration does not grow: --listen '$d1' then '$d2', textfile '$t1' then '$t2'"
note "while measuring: --listen on 127.0.0.1:$JS_PORT said $d1 s then $d2 s, the textfile" \
	"(rewritten every second) $t1 s then $t2 s"
# then SIGTERM, as systemd stops it
kill -TERM $run
wait $run
rc=$?
run=''
# the budget max=1us is exceeded by any gap: 2; a run that failed: 1
[ $rc -eq 2 ] || fail "the unit's command exited $rc, want 2 (budget) ($(cat "$TMP/err.txt"))"
! grep -qi "missing\|capabilit\|not root" "$TMP/err.txt" ||
	fail "with the unit's capabilities ($caps): $(cat "$TMP/err.txt")"
[ -s "$TXT/jitterscope.prom" ] || fail "no textfile written"
[ ! -e "$TXT/jitterscope.prom.tmp" ] || fail "jitterscope.prom.tmp left behind"
! get "http://127.0.0.1:$JS_PORT/healthz" | grep -q . || fail "--listen answers after the exit"
python3 - "$J" <<'PY' || fail "the run with the unit's capabilities (above)"
import json, re, sys
r = json.load(open(sys.argv[1]))
c = r["cpus"][0]
assert r["probes"]["enabled"], "probes off: %s" % r["probes"]["why_disabled"]
assert c["gap_count"] > 0, "no gaps while measuring"
fns = [s["detail"] for s in c["sources"] if s["cause"] in ("hrtimer", "work")]
hexes = [d for d in fns if re.search(r"0x[0-9a-f]{8,}", d)]
assert not hexes, "kernel functions without names (CAP_SYSLOG?): %s" % hexes
print("fleet_prometheus: the unit's command with %s: probes on, %d gaps, %d kernel "
      "function sources named" % ("its capabilities", c["gap_count"], len(fns)))
PY
note "$(grep -vc '^#' "$TXT/jitterscope.prom") samples in the textfile," \
	"$(grep -v '^#' "$TXT/jitterscope.prom" | grep -c 'cpu="1"') of them per CPU"
get "http://127.0.0.1:$NE_PORT/metrics" >"$TMP/ne.metrics"
grep -q '^jitterscope_node_info' "$TMP/ne.metrics" ||
	{ cat "$TMP/node_exporter.log" >&2; fail "node_exporter does not serve the textfile"; }
grep -q '^node_textfile_scrape_error 0' "$TMP/ne.metrics" ||
	fail "node_exporter's textfile collector reports an error: $(grep textfile "$TMP/ne.metrics")"
# the final textfile scraped, the rules evaluated
python3 "$LIB" await "$URL" final "$J" || fail "Prometheus after the run (above)"
note "node_exporter on 127.0.0.1:$NE_PORT, Prometheus on 127.0.0.1:$PROM_PORT: scraped"

# (d) the numbers and every expression
# the final textfile (job node): the JSON's count exactly; --listen's last scrape before the
# end (job jitterscope, stale since: last_over_time): at most the JSON's count
sel='jitterscope_gap_duration_seconds_bucket{job="node",cpu="1"}'
lsel='last_over_time(jitterscope_gap_duration_seconds_bucket{job="jitterscope",cpu="1"}[1m])'
python3 "$LIB" quantile "$URL" 0.5,0.99,0.999 "$sel" "$J" exact ||
	fail "histogram_quantile(0.5, 0.99, 0.999) of the textfile (above)"
python3 "$LIB" quantile "$URL" 0.5,0.99,0.999 "$lsel" "$J" le ||
	fail "histogram_quantile(0.5, 0.99, 0.999) of --listen (above)"
# a --duration 0 run checks its limits per --budget-interval: max=1us is exceeded in every one
v=$(get "$URL/api/v1/query?query=last_over_time(jitterscope_budget_violations_total%5B1m%5D)" |
	python3 -c '
import json, sys
r = json.load(sys.stdin)["data"]["result"]
v = {}
for x in r:
    v.setdefault(x["metric"]["limit"], []).append(int(float(x["value"][1])))
ok = len(r) == 4 and v["gaps=1000000000"] == [0, 0] and min(v["max=1us"]) >= 5
print(("ok " if ok else "bad ") + " ".join("%s=%s" % kv for kv in sorted(v.items())))')
[ "${v%% *}" = ok ] || fail "budget violations in Prometheus: '$v'"
note "budget violations (textfile, --listen): ${v#ok }"
python3 "$LIB" live "$ROOT" "$URL" || fail "expressions against Prometheus (above)"

# (e) stop both servers; they are gone and their ports closed
stop_servers
for p in $NE_PORT $PROM_PORT $JS_PORT; do
	! get "http://127.0.0.1:$p/metrics" | grep -q . || fail "port $p still answers"
done
note "both servers stopped"

# the .hlog merge of docs/FLEET.md
JAR=/usr/share/java/hdrhistogram.jar
if command -v java >/dev/null 2>&1 && [ -r "$JAR" ]; then
	cat "$H" "$H" | java -cp "$JAR" org.HdrHistogram.HistogramLogProcessor \
		-outputValueUnitRatio 1 -o "$TMP/fleet" >/dev/null 2>"$TMP/hlp.err" ||
		fail "HistogramLogProcessor: $(cat "$TMP/hlp.err")"
	got=$(sed -n 's/^#\[Max *= *\([0-9.]*\), Total count *= *\([0-9]*\)\]/\1 \2/p' \
		"$TMP/fleet.hgrm")
	want=$(python3 -c 'import json, sys
c = json.load(open(sys.argv[1]))["cpus"][0]
print("%d.000 %d" % (c["max_ns"], 2 * c["gap_count"]))' "$J")
	[ "$got" = "$want" ] || fail ".hlog merged twice: max and count '$got', want '$want'"
	note ".hlog merge: two copies add up to $want (max ns, count)"
else
	why="no java or $JAR (Debian default-jre-headless, libhdrhistogram-java)"
	if [ "${CI:-}" = true ] &&
		"$ROOT/scripts/install-deps.sh" --list | grep -qx 'default-jre-headless\|libhdrhistogram-java'; then
		fail "$why: CI=true and scripts/install-deps.sh installs them"
	fi
	echo "skip hlog merge: $why"
fi
note "PASS"
exit 0
