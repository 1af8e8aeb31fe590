#!/bin/bash
# robust_degraded_kernel.sh - missing kernel and CPU features: jitterscope says what is
# missing and still measures (exit 0), or refuses in one line where it cannot:
#   - no kernel BTF: sampler only, with a notice and probes.why_disabled
#   - no msr PMU and no msr driver: SMI not countable, said in the report and the JSON
# Each is simulated in a private mount namespace by mounting over /sys/kernel/btf/vmlinux,
# the msr PMU directory and /dev/cpu (nothing outside this test's processes sees it; it ends
# with them); what this machine lacks already is left as it is. A CPU without rdtscp:
# measure_clock.sh.
# Skips without mount namespaces. Privileges: robust_degraded.sh.
# cpu1: shared - it judges what a run says and does without BTF or an SMI counter, not what it measures (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_root
need_cpu1
need_cmd unshare util-linux
unshare -m --propagation private true 2>/dev/null ||
	skip "no private mount namespace (unshare -m): cannot hide BTF and the msr PMU"
O=$TMP
BTF=/sys/kernel/btf/vmlinux
MSR=/sys/bus/event_source/devices/msr

# hidden 'MOUNT-COMMANDS' CMD... - run CMD in a private mount namespace after MOUNT-COMMANDS
hidden() {
	local m=$1
	shift
	unshare -m --propagation private sh -c "$m"' && exec "$@"' sh "$@"
}

# no BTF: sampler-only with a notice
hidden "[ ! -e $BTF ] || mount --bind /dev/null $BTF" \
	"$JS" --cpu 1 -d 0.3 --json "$O/b.json" --gaps "$O/b.csv" >"$TMP/b.txt" 2>"$TMP/b.err" ||
	fail "run without BTF failed: $(cat "$TMP/b.err")"
grep -q 'eBPF probes unavailable (no kernel BTF' "$TMP/b.err" ||
	fail "no notice without BTF: $(cat "$TMP/b.err")"
json_check "$O/b.json" 'not r["probes"]["enabled"]' '"BTF" in r["probes"]["why_disabled"]' \
	'c["gap_count"] == len(open(sys.argv[1].replace("b.json", "b.csv")).read().splitlines()) - 1' \
	'c["duration_ns"] > 0.2e9'
echo "ok: no kernel BTF: measured without attribution, said why"

# no msr PMU (and no msr driver): SMIs not countable, said in the report and the JSON
hidden "{ [ ! -d $MSR ] || mount -t tmpfs none $MSR; } &&
	{ [ ! -d /dev/cpu ] || mount -t tmpfs none /dev/cpu; }" \
	"$JS" --cpu 1 -d 0.3 --no-probes --json "$O/m.json" >"$TMP/m.txt" 2>&1 ||
	fail "run without the msr PMU failed: $(cat "$TMP/m.txt")"
grep -q 'SMI: not countable.*no msr PMU' "$TMP/m.txt" ||
	fail "report without the msr PMU: $(grep SMI "$TMP/m.txt")"
json_check "$O/m.json" 'not r["smi"]["countable"]' '"msr PMU" in r["smi"]["why_not"]'
echo "ok: no msr PMU: SMIs not countable, said why"

exit 0
