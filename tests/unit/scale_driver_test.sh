#!/bin/bash
# scale_driver_test.sh - bench/jsscale.c, the scale benchmark's driver: every gap the simulated
# CPUs make is attributed (as many as the rate and the timed seconds give, none lost, each
# gap's events found in it), the memory it states per CPU is what js_scale.h adds up, CPUs
# enough for three drains' worth at a high rate overload the base nap, the same CPUs on 3 drain threads attribute
# the same gaps and events, and a bad argument exits 64 with one line.
. "$(dirname "$0")/../lib/lib.bash"
need_cmd python3 python3
S="$ROOT/build/bench/jsscale"
D="$ROOT/bench/scale-durations.txt"
[ -x "$S" ] || fail "$S missing: make build/bench/jsscale"

out=$("$S" --cpus 3 --rate 2000 --seconds 1 --durations "$D") || fail "jsscale exited $?"
python3 - "$out" <<'PY' || fail "jsscale's figures: $out"
import json, sys
d = json.loads(sys.argv[1])
# the timed second plus the warm-up's last gaps still pending: 3 CPUs x 2000 gaps/s
assert 3 * 2000 <= d['gaps'] <= 3 * 2000 * 1.05, d['gaps']
assert d['lost_gaps'] == 0 and d['lost_events'] == 0 and d['evicted'] == 0
assert d['events_in_gaps'] == d['events'], 'every event is inside its gap'
assert d['hk_ns'] > 0 and d['hk_ns_per_gap'] > 0 and d['within_budget'] is True
# stated: the two rings and the drain's window and lane, which the heap holds too
drain = d['stated_per_cpu'] - d['gap_ring_per_cpu'] - d['probe_ring_per_cpu']
assert 0 < drain <= d['heap_per_cpu'], (drain, d['heap_per_cpu'])
assert d['gap_ring_per_cpu'] == 65536 * 16 and d['probe_ring_per_cpu'] == 2 << 20
assert d['heap_per_cpu'] > 0
PY
# the same CPUs drained by 3 threads (--drain-threads' split: one CPU each): the same gaps
# and events attributed, each gap's events found in it
one=$("$S" --cpus 3 --rate 2000 --seconds 1 --seed 7 --durations "$D") || fail "jsscale exited $?"
three=$("$S" --cpus 3 --rate 2000 --seconds 1 --seed 7 --threads 3 --durations "$D") ||
	fail "jsscale --threads 3 exited $?"
python3 - "$one" "$three" <<'PY' || fail "jsscale on 3 threads: $three (1 thread: $one)"
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert a['threads'] == 1 and b['threads'] == 3
for k in ('gaps', 'events', 'events_in_gaps', 'lost_gaps', 'lost_events', 'evicted'):
    assert a[k] == b[k], (k, a[k], b[k])
assert b['events_in_gaps'] == b['events'] and b['hk_ns_per_gap'] > 0
PY
# CPUs at 128k gaps/s each that make three times what one thread drains in the nap, by the
# cost a gap of the first run (more CPUs only cost more a gap): a drain longer than the nap,
# nothing lost, said out of budget. A fixed count (32 CPUs at 64k/s: twice the drain, when a
# gap cost 1 us) came within the nap once the drain went to 0.45 us a gap, 1 run in 5 here.
per=$(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["hk_ns_per_gap"])' "$one")
n=$(python3 -c 'import math,sys; print(min(256, max(8, math.ceil(3 * 10e6 / (1280 * float(sys.argv[1]))))))' "$per")
out=$("$S" --cpus "$n" --rate 128000 --seconds 0.1 --durations "$D") || fail "jsscale exited $?"
python3 - "$out" <<'PY' || fail "$n CPUs at 128k gaps/s (3 drains' worth at $per ns a gap) said within the nap: $out"
import json, sys
d = json.loads(sys.argv[1])
assert d["lost_gaps"] == 0 and d["lost_events"] == 0, d
assert d["drain_max_ns"] > d["nap_ns"] and d["within_budget"] is False, d
PY
echo "ok: $n CPUs at 128k gaps/s: a drain of $(python3 -c 'import json,sys; print(json.loads(sys.argv[1])["drain_max_ns"] // 1000)' "$out") us against the 10 ms nap, said out of budget"

T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
printf '# a comment\n1200\nfast\n' >"$T/bad"
for bad in "--cpus 0 --rate 10" "--cpus 2" "--cpus 2 --rate x" "--cpus 2 --rate 10 extra" \
	"--cpus 2 --rate 10 --durations /nonexistent" "--cpus 2 --rate 10 --durations $T/bad" \
	"--cpus 2 --rate 10 --threads 0" "--cpus 2 --rate 10 --threads 65"; do
	# shellcheck disable=SC2086
	err=$("$S" $bad 2>&1 >/dev/null)
	rc=$?
	[ "$rc" = 64 ] || fail "jsscale $bad: exit $rc, want 64"
	[ "$(printf '%s\n' "$err" | wc -l)" = 1 ] || fail "jsscale $bad: not one line: $err"
done
echo "ok: jsscale attributes every gap, states its memory, exits 64 on bad input"
