#!/bin/bash
# schemas_live.sh - docs/schema/*.schema.json against fresh runs (root, CPU 1): a 1 s run with
# its spike files (--stacks), one stopped by SIGINT with --probe-cost, and one of -- CMD; each
# schema rejects a document that lost a key it requires (schemas.sh: the saved documents).
# cpu1: shared - its runs are validated against the schemas: what another run on CPU 1 adds is still a valid document (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
. "$ROOT/tests/lib/schemas_lib.bash"
need_root
need_cpu1

# a fresh run, with spike files
"$JS" --cpu 1 -d 1 -q --stacks --json "$TMP/run.json" --spike-dir "$TMP/spikes" --spike-threshold 1us \
	--spike-max 3 >/dev/null 2>"$TMP/err" || fail "the run exited $? ($(cat "$TMP/err"))"
out=$(validate run "$TMP/run.json") || fail "fresh run: $out"
spikes=("$TMP"/spikes/spike-*-cpu1.json)
[ -r "${spikes[0]}" ] || fail "no spike file in 1 s at a 1 us threshold"
out=$(validate spike "${spikes[@]}") || fail "spike files: $out"
echo "ok: a fresh run and its ${#spikes[@]} spike files valid: $out"
# a run that fills what a short quiet one leaves null or false: Ctrl-C (interrupted),
# --probe-cost (probes.cost)
# (stopped once it measures: a row in its gaps CSV, flushed every 0.5 s)
"$JS" --cpu 1 -d 10 -q --probe-cost --json "$TMP/int.json" --gaps "$TMP/int.csv" \
	>/dev/null 2>"$TMP/err" &
pid=$!
wait_measuring "$pid" "$TMP/int.csv" ||
	fail "the run to interrupt wrote no gap within 10 s ($(cat "$TMP/err"))"
kill -INT "$pid"
wait "$pid" || fail "the interrupted run exited $? ($(cat "$TMP/err"))"
python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))
assert r["interrupted"] and r["probes"]["cost"], (r["interrupted"], r["probes"]["cost"])' \
	"$TMP/int.json" || fail "the interrupted run is not marked so, or has no probes.cost"
out=$(validate run "$TMP/int.json") || fail "interrupted run with --probe-cost: $out"
echo "ok: a run stopped by SIGINT, with --probe-cost, valid: $out"
# a run of -- CMD (command, follow, threads filled), and its command read back by report
"$JS" -q --json "$TMP/cmd.json" -- sh -c 'sleep 0.3; exit 3' >/dev/null 2>"$TMP/err"
rc=$?
[ $rc -eq 3 ] || fail "the run of -- CMD exited $rc, not CMD's 3 ($(cat "$TMP/err"))"
"$JS" report "$TMP/cmd.json" --json "$TMP/cmd2.json" >/dev/null || fail "report of -- CMD: $?"
python3 -c 'import json, sys; a, b = (json.load(open(f))["command"] for f in sys.argv[1:])
assert a == b and a["exit_status"] == 3 and a["mode"] == "follow", (a, b)' \
	"$TMP/cmd.json" "$TMP/cmd2.json" || fail "the command is not read back as written"
out=$(validate run "$TMP/cmd.json" "$TMP/cmd2.json") || fail "run of -- CMD: $out"
echo "ok: a run of -- CMD and its report --json valid: $out"
exit 0
