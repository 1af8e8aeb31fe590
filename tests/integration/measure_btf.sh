#!/bin/bash
# measure_btf.sh - --btf FILE, for a kernel that exposes no BTF of its own: this kernel's BTF
# copied to a file, then /sys/kernel/btf/vmlinux hidden in a private mount namespace (as
# robust_degraded_kernel.sh does; nothing outside this test's processes sees it):
#   - the probes load as raw tracepoints (one notice line says so and why) and attribute: the
#     tick (in a quarter of its HZ gaps a second at least: tick_hz) and its hrtimer callback
#     named, and a task that sleeps and wakes on CPU 1;
#   - --pid follows an application there too (bpf/follow.bpf.c's raw build);
#   - without --btf the run says there is no kernel BTF and that --btf FILE can stand in;
#   - bad input is refused before measuring, one line, exit 64: a missing file, a file that
#     holds no BTF, --btf with --no-probes.
# Root only; skips without kernel BTF to copy or mount namespaces. About 8 s.
# noise gauge: lib.bash's need_cpu1 (tests/lib/noise_gauge.py: other tasks on CPU 1 by the kernel's trace, the host's steal by /proc/stat)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_btf
need_cmd unshare util-linux
unshare -m --propagation private true 2>/dev/null ||
	skip "no private mount namespace (unshare -m): cannot hide the kernel's BTF"
SYS=/sys/kernel/btf/vmlinux
BTF=$TMP/vmlinux.btf
cp "$SYS" "$BTF" || fail "cannot copy $SYS"
HZ=$(tick_hz) || fail "the kernel's tick rate is unknown"

# hidden CMD... - CMD in a private mount namespace where the kernel exposes no BTF
hidden() {
	unshare -m --propagation private sh -c "mount --bind /dev/null $SYS"' && exec "$@"' sh "$@"
}

# the spinner, a task sleeping and waking on CPU 1 meanwhile (its name must be read)
hidden "$JS" --cpu 1 -d 2 --btf "$BTF" --json "$TMP/r.json" >"$TMP/r.txt" 2>"$TMP/r.err" &
js=$!
sleep 0.8
taskset -c 1 sh -c 'for i in $(seq 20); do sleep 0.02; done'
wait $js || fail "run with --btf failed: $(cat "$TMP/r.err")"
grep -qx "jitterscope: eBPF probes as raw tracepoints (the kernel's types from --btf $BTF): the same events, each field read with a helper call" \
	"$TMP/r.err" || fail "no notice of the raw tracepoints: $(cat "$TMP/r.err")"
json_check "$TMP/r.json" 'r["probes"]["enabled"]' 'r["probes"]["why_disabled"] is None' \
	'r["probes"]["events"] > 0 and r["probes"]["lost"] == 0' \
	"[s for s in c['sources'] if s['cause'] == 'timer' and s['detail'] == 'local_timer' and
	  s['gaps'] >= $HZ / 4 * c['duration_ns'] / 1e9]" \
	"[s for s in c['sources'] if s['detail'].startswith('hrtimer tick_')]" \
	"[s for s in c['sources'] if s['cause'] == 'task' and s['detail'].startswith('sleep:')]" \
	"all(s['detail'].split(':')[0] for s in c['sources'] if s['cause'] == 'irq')"
python3 - "$TMP/r.json" "$HZ" <<'PY'
import json, sys
c = json.load(open(sys.argv[1]))["cpus"][0]
s = {x["cause"] + " " + x["detail"]: x["gaps"] for x in c["sources"]}
print("ok: hidden kernel BTF, --btf: %.1f s, HZ %s: %d tick gaps named, %s; IRQs %s" % (
    c["duration_ns"] / 1e9, sys.argv[2], s.get("timer local_timer", 0),
    ", ".join("%s %d" % (k[8:], v) for k, v in s.items() if k.startswith("hrtimer hrtimer tick_")),
    ", ".join(k[4:] for k in s if k.startswith("irq ")) or "none on CPU 1 this time"))
PY

# --pid: an application on CPU 1, preempted by a task that sleeps and wakes there
"$ROOT/build/tools/jsapp" --cpu 1 --duration 3 --ready "$TMP/ready" >/dev/null &
app=$!
for _ in $(seq 50); do [ -e "$TMP/ready" ] && break; sleep 0.05; done
taskset -c 1 sh -c 'for i in $(seq 60); do sleep 0.01; done' &
hidden "$JS" --pid $app -d 1.5 --btf "$BTF" --json "$TMP/p.json" >/dev/null 2>"$TMP/p.err" ||
	fail "--pid with --btf failed: $(cat "$TMP/p.err")"
kill $app 2>/dev/null # the application's --duration only bounds it
wait
python3 - "$TMP/p.json" <<'PY' || fail "--pid with --btf: the application's gaps not seen"
import json, sys
r = json.load(open(sys.argv[1]))
t = r["threads"][0]["thread_stats"]
assert r["probes"]["enabled"] and t["preempted"] + t["interrupted"] > 0, (r["probes"], t)
print("ok: --pid with --btf: preempted %d, interrupted %d times" % (t["preempted"], t["interrupted"]))
PY

# without --btf: no attribution, and the hint
hidden "$JS" --cpu 1 -d 0.3 --json "$TMP/n.json" >/dev/null 2>"$TMP/n.err" ||
	fail "run without kernel BTF failed: $(cat "$TMP/n.err")"
grep -q 'eBPF probes unavailable (no kernel BTF (/sys/kernel/btf/vmlinux): none found; a BTF file for this kernel can stand in: --btf FILE)' \
	"$TMP/n.err" || fail "no kernel BTF: $(cat "$TMP/n.err")"
json_check "$TMP/n.json" 'not r["probes"]["enabled"]'
echo "ok: hidden kernel BTF, no --btf: sampler only, --btf FILE suggested"

# refused before measuring: one line, exit 64
printf 'not BTF\n' >"$TMP/junk"
refused() {
	local want=$1 rc
	shift
	"$JS" --cpu 1 -d 0.3 "$@" >"$TMP/x.out" 2>"$TMP/x.err"
	rc=$?
	[ $rc -eq 64 ] || fail "$*: exit $rc (want 64): $(cat "$TMP/x.err")"
	[ "$(wc -l <"$TMP/x.err")" -eq 1 ] && grep -qF -- "$want" "$TMP/x.err" ||
		fail "$*: not one line saying '$want': $(cat "$TMP/x.err")"
	[ ! -s "$TMP/x.out" ] || fail "$*: measured anyway"
	echo "ok: $* -> exit 64: $(cat "$TMP/x.err")"
}
refused "--btf '$TMP/none.btf': no BTF read from it: No such file or directory" --btf "$TMP/none.btf"
refused "--btf '$TMP/junk': no BTF read from it: neither raw BTF nor an ELF file" --btf "$TMP/junk"
refused "--btf gives a measurement's eBPF probes their types: not with --no-probes" \
	--btf "$BTF" --no-probes
exit 0
