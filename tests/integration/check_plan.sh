#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# check_plan.sh - `check --plan` applied to a copy of a badly tuned sysroot fixture (no root,
# no CPU 1): tests/lib/plan_apply.py does to the tree what each line of the plan does to a
# machine (the planned command line at boot, the sysctl.d file, the runtime echo lines, the
# irqbalance and tuned files); `check --sysroot` on the result must then pass every check
# the plan's "# covers:" line names, where before most of them did not. Also: one
# consistent CPU split (isolcpus = nohz_full = rcu_nocbs, irqaffinity = the rest), the GRUB
# line without what the boot loader adds, and no housekeeping CPU left: one line, exit 64.
# Exit 0 pass, 77 skip, else fail.
# cpu1: none - check --plan on fixture trees, measures nothing
. "$(dirname "$0")/lib.bash"
BADLY=$ROOT/tests/data/sysroot/badly-tuned
[ -x "$JS" ] || fail "no $JS"

# verdicts JSON COVERS - "id cpu verdict observed" of every check a covers pattern names
verdicts() {
	python3 - "$1" "$2" <<'PY'
import fnmatch, json, sys
covers = sys.argv[2].split()
for c in json.load(open(sys.argv[1]))["audit"]["checks"]:
    if any(fnmatch.fnmatchcase(c["id"], p) for p in covers):
        print(c["id"], c["cpu"], c["verdict"], c["observed"])
PY
}

# scenario NAME CPUS [CHECK OPTION...] - plan, apply, audit again
scenario() {
	local name=$1 cpus=$2
	shift 2
	local root=$TMP/$name plan=$TMP/$name.plan
	cp -a "$BADLY" "$root" || fail "cannot copy the fixture"
	"$JS" check -q --sysroot "$root" --cpu "$cpus" "$@" --plan >"$plan" 2>"$TMP/err" ||
		fail "$name: --plan exit $?: $(cat "$TMP/err")"
	covers=$(sed -n 's/^# covers: //p' "$plan")
	[ -n "$covers" ] || fail "$name: no '# covers:' line"

	# before: most covered checks do not pass (else this test could not fail)
	"$JS" check -q --sysroot "$root" --cpu "$cpus" "$@" --json "$TMP/before.json" >/dev/null 2>&1
	verdicts "$TMP/before.json" "$covers" >"$TMP/before"
	nbad=$(awk '$3 != "pass"' "$TMP/before" | wc -l)
	ntotal=$(wc -l <"$TMP/before")
	[ "$nbad" -ge 25 ] || fail "$name: only $nbad of $ntotal covered checks fail before the plan"

	# the split is one: isolcpus = nohz_full = rcu_nocbs; irqaffinity the other CPUs
	planned=$(sed -n 's/^# planned: //p' "$plan")
	iso=$(echo "$planned" | tr ' ' '\n' | sed -n 's/^isolcpus=managed_irq,domain,//p')
	[ -n "$iso" ] || fail "$name: no isolcpus=managed_irq,domain,LIST in: $planned"
	for k in nohz_full rcu_nocbs; do
		echo "$planned" | tr ' ' '\n' | grep -qx "$k=$iso" || fail "$name: $k is not $iso"
	done
	grep -qx "kernel.watchdog_cpumask = $(echo "$planned" | tr ' ' '\n' | sed -n 's/^irqaffinity=//p')" "$plan" ||
		fail "$name: watchdog_cpumask and irqaffinity differ"
	[ "$(grep -c '^grubby --update-kernel=ALL --args="' "$plan")" -eq 1 ] || fail "$name: no grubby line"
	grub=$(sed -n 's/^# GRUB_CMDLINE_LINUX="\(.*\)"$/\1/p' "$plan")
	[ -n "$grub" ] || fail "$name: no GRUB_CMDLINE_LINUX line"
	case " $grub " in *" BOOT_IMAGE="* | *" root="* | *" ro "*) fail "$name: GRUB line has boot loader words: $grub" ;; esac
	echo "$grub" | grep -q "console=ttyS0,115200" || fail "$name: the running console= was dropped"
	grep -q '^# replaces: isolcpus=nohz,5$' "$plan" || fail "$name: the replaced isolcpus=nohz,5 is not named"

	# apply it, audit again: every covered check passes (tasks.user may warn only about the
	# workload pinned to the CPU, app:800, which no setting should move)
	PYTHONPATH=$ROOT/tests/lib python3 -m plan_apply "$root" "$plan" >/dev/null || fail "$name: plan_apply failed"
	"$JS" check -q --sysroot "$root" --cpu "$cpus" "$@" --json "$TMP/after.json" >/dev/null 2>&1
	verdicts "$TMP/after.json" "$covers" >"$TMP/after"
	# (a check this tree cannot answer, skipped before and after, has nothing to apply: the
	# fixture has no cpufreq or machinecheck files for CPU 2)
	awk 'NR == FNR { if ($3 == "skip") skipped[$1 " " $2] = 1; next }
	     $3 != "pass" && !($1 == "tasks.user" && $3 == "warn" && $4 == "0") &&
	     !($3 == "skip" && ($1 " " $2) in skipped)' "$TMP/before" "$TMP/after" >"$TMP/left"
	[ -s "$TMP/left" ] && fail "$name: covered checks that do not pass after the plan: $(cat "$TMP/left")"
	# the same checks ran (but irq.N: one per IRQ on the CPU, and none is left there)
	missing=$(comm -23 <(awk '$1 !~ /^irq\.[0-9]/ {print $1, $2}' "$TMP/before" | sort -u) \
		<(awk '{print $1, $2}' "$TMP/after" | sort -u))
	[ -z "$missing" ] || fail "$name: covered checks went missing: $missing"
	echo "check_plan: $name: $nbad of $ntotal covered checks did not pass before, all pass after"
}

scenario cpu3 3
scenario fifo 2-3 -P f:10
grep -q '^kernel.sched_rt_runtime_us = -1$' "$TMP/fifo.plan" || fail "a FIFO plan without sched_rt_runtime_us = -1"
grep -q 'sched_rt_runtime_us' "$TMP/cpu3.plan" && fail "a SCHED_OTHER plan changes sched_rt_runtime_us"

# the kernel-managed nvme0q1 (requested affinity: CPU 3 alone) is not claimed: it stays
grep -q '^# not covered: irq.affinity irq.130: kernel-managed' "$TMP/cpu3.plan" ||
	fail "the kernel-managed irq.130 is not named as not covered"
grep -qE '^# covers: .* irq\.(130|\*) ' "$TMP/cpu3.plan" && fail "the plan claims irq.130"

# a well tuned box: the plan keeps what is there (quiet, the isolated CPUs 2-7), and the
# tree still passes every check after it
TUNED=$ROOT/tests/data/sysroot/tuned
cp -a "$TUNED" "$TMP/tuned" || fail "cannot copy the tuned fixture"
"$JS" check -q --sysroot "$TMP/tuned" --cpu 3 --plan >"$TMP/tuned.plan" || fail "tuned: --plan failed"
grep -q '^# planned: .* quiet .*isolcpus=managed_irq,domain,2-7 nohz_full=2-7 ' "$TMP/tuned.plan" ||
	fail "tuned: the plan drops quiet or the isolated CPUs 2-7: $(grep '^# planned' "$TMP/tuned.plan")"
PYTHONPATH=$ROOT/tests/lib python3 -m plan_apply "$TMP/tuned" "$TMP/tuned.plan" >/dev/null || fail "tuned: plan_apply failed"
"$JS" check -q --sysroot "$TMP/tuned" --cpu 3 >"$TMP/tuned.out" 2>&1 || fail "tuned: no longer passes after its plan: $(grep -E '^(FAIL|WARN)' "$TMP/tuned.out")"

# no housekeeping CPU left: refused, one line
"$JS" check -q --sysroot "$BADLY" --cpu 0-7 --plan >"$TMP/o" 2>"$TMP/e"
rc=$?
[ $rc -eq 64 ] || fail "--plan for every CPU: exit $rc, not 64"
[ "$(wc -l <"$TMP/e")" -eq 1 ] && [ ! -s "$TMP/o" ] || fail "--plan for every CPU: $(cat "$TMP/e" "$TMP/o")"
exit 0
