#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
# check_plan.sh - `check --plan` applied to a copy of a badly tuned sysroot fixture (no root,
# no CPU 1): tests/lib/plan_apply.py does to the tree what each line of the plan does to a
# machine (the planned command line at boot, through the steps of each boot method the plan
# found, which must all give it; the sysctl.d file, the runtime echo lines, the irqbalance
# and tuned files); `check --sysroot` on the result must then pass every check the plan's
# "# covers:" line names, where before most of them did not. Also: one consistent CPU split
# (isolcpus = nohz_full = rcu_nocbs, irqaffinity = the rest); the boot method found from
# the copy's files (GRUB, grubby, systemd-boot, none: a VMM's line) and only its steps; the
# operator's clocksource=, tsc= and init arguments kept; no step for a waived check; KSM
# unmerged only where it runs; a "# risks:" line for each risky step printed, and only for
# those; no housekeeping CPU left: one line, exit 64. Exit 0 pass, 77 skip, else fail.
# cpu1: none - check --plan on fixture trees, measures nothing
. "$(dirname "$0")/../lib/lib.bash"
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

# risks_match PLAN - the "# risks:" block names the risk of each step the plan prints, and
# of no other step; prints what does not match
risks_match() {
	python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
lines = text.splitlines()
line = lambda p: next((l[len(p):] for l in lines if l.startswith(p)), "")
added = set(line("# planned: ").split()) - set(line("# running: ").split())
body = "\n".join(l for l in lines if not l.startswith("#"))
risks = "\n".join(l for l in lines if l.startswith("#   "))
steps = {
    "isolcpus=domain": any(w.startswith("isolcpus=") and "domain" in w for w in added),
    "nohz_full=": any(w.startswith("nohz_full=") for w in added),
    "tsc=reliable": "tsc=reliable" in added,
    "nmi_watchdog=0": "nmi_watchdog=0" in added or "kernel.nmi_watchdog = 0" in body,
    "transparent huge pages off": "transparent_hugepage=never" in added or
        re.search(r"^echo never > \S*transparent_hugepage/\S*enabled$", body, re.M) is not None,
    "KSM unmerge": "echo 2 > /sys/kernel/mm/ksm/run" in body,
    "kernel.sched_rt_runtime_us = -1": "kernel.sched_rt_runtime_us = -1" in body,
    "performance governor": re.search(r"^echo (performance|1 > \S*cpuidle/state\d+/disable)", body, re.M) is not None,
    "CPUAffinity=": "CPUAffinity=" in body,
}
if not re.search(r"^# risks: ", text, re.M):
    print("no '# risks:' line")
for name, printed in steps.items():
    listed = re.search(r"^#   " + re.escape(name), risks, re.M) is not None
    if listed != printed:
        print("%s: step %s, risk %s" % (name, "printed" if printed else "not printed",
                                       "listed" if listed else "not listed"))
PY
}

# boot_* ROOT - the copy's boot method (the running line: BOOT_IMAGE=/vmlinuz root=/dev/sda1
# ro console=ttyS0,115200 isolcpus=nohz,5 mitigations=off -- single)
boot_none() { :; }
boot_grub() { # Debian: GRUB alone; a key the plan sets in _DEFAULT, which comes last
	mkdir -p "$1/etc/default" "$1/boot/grub"
	printf '%s\n' 'GRUB_DEFAULT=0' 'GRUB_CMDLINE_LINUX="console=ttyS0,115200"' \
		'GRUB_CMDLINE_LINUX_DEFAULT="isolcpus=nohz,5 mitigations=off -- single"' >"$1/etc/default/grub"
}
boot_grubby() { # RHEL: grubby, BLS entries and GRUB 2
	mkdir -p "$1/usr/sbin" "$1/boot/loader/entries" "$1/boot/grub2" "$1/etc/default"
	: >"$1/usr/sbin/grubby"
	printf '%s\n' 'GRUB_CMDLINE_LINUX="console=ttyS0,115200 isolcpus=nohz,5 mitigations=off -- single"' \
		>"$1/etc/default/grub"
}
boot_sdboot() { # systemd-boot: its loader on the ESP, kernel-install's /etc/kernel/cmdline
	mkdir -p "$1/efi/loader/entries" "$1/etc/kernel"
	echo "root=/dev/sda1 ro console=ttyS0,115200 isolcpus=nohz,5 mitigations=off -- single" \
		>"$1/etc/kernel/cmdline"
}
# expect_boot PLAN METHOD - section 1 names METHOD and has only its steps
expect_boot() {
	local plan=$1 m=$2 line
	line=$(grep '^# boot method: ' "$plan")
	case $m in
	none) echo "$line" | grep -q "none found.*VMM's direct boot" || fail "$m: $line"
		grep -q '^# vmm cmdline: .* -- single$' "$plan" || fail "$m: no whole new line" ;;
	grub) [ "$line" = "# boot method: GRUB (found /etc/default/grub)" ] || fail "$m: $line"
		grep -q "^echo 'GRUB_CMDLINE_LINUX=\"console=ttyS0,115200 isolcpus=managed_irq,domain," "$plan" ||
			fail "$m: no GRUB_CMDLINE_LINUX line"
		grep -q "^echo 'GRUB_CMDLINE_LINUX_DEFAULT=\"mitigations=off -- single\"' >> /etc/default/grub  # without isolcpus=nohz,5" "$plan" ||
			fail "$m: _DEFAULT keeps the isolcpus= the plan replaces"
		grep -qx 'grub-mkconfig -o /boot/grub/grub.cfg' "$plan" || fail "$m: no grub-mkconfig" ;;
	grubby) [ "$line" = "# boot method: GRUB (found /etc/default/grub), grubby (found /usr/sbin/grubby): the steps of each give the planned line" ] ||
			fail "$m: $line"
		grep -qx 'grub2-mkconfig -o /boot/grub2/grub.cfg' "$plan" || fail "$m: no grub2-mkconfig" ;;
	sdboot) [ "$line" = "# boot method: systemd-boot (found /efi/loader)" ] || fail "$m: $line"
		grep -qx 'kernel-install add "$(uname -r)" "/usr/lib/modules/$(uname -r)/vmlinuz"' "$plan" ||
			fail "$m: no kernel-install" ;;
	esac
	[ "$(grep -c '^grubby ' "$plan")" -eq "$([ "$m" = grubby ] && echo 1 || echo 0)" ] || fail "$m: grubby lines"
	[ "$(grep -c '^echo .GRUB_CMDLINE_LINUX=' "$plan")" -eq "$(case $m in grub*) echo 1 ;; *) echo 0 ;; esac)" ] ||
		fail "$m: GRUB lines"
	[ "$(grep -c '^kernel-install ' "$plan")" -eq "$([ "$m" = sdboot ] && echo 1 || echo 0)" ] || fail "$m: kernel-install lines"
	[ "$(grep -c '^# vmm cmdline: ' "$plan")" -eq "$([ "$m" = none ] && echo 1 || echo 0)" ] || fail "$m: VMM lines"
	return 0
}

# scenario NAME CPUS BOOT [CHECK OPTION...] - plan, apply, audit again
scenario() {
	local name=$1 cpus=$2 bootm=$3
	shift 3
	local root=$TMP/$name plan=$TMP/$name.plan
	cp -a "$BADLY" "$root" || fail "cannot copy the fixture"
	"boot_$bootm" "$root"
	[ -z "${PREPARE:-}" ] || $PREPARE "$root"
	"$JS" check -q --sysroot "$root" --cpu "$cpus" "$@" --plan >"$plan" 2>"$TMP/err" ||
		fail "$name: --plan exit $?: $(cat "$TMP/err")"
	covers=$(sed -n 's/^# covers: //p' "$plan")
	[ -n "$covers" ] || fail "$name: no '# covers:' line"
	expect_boot "$plan" "$bootm"
	bad=$(risks_match "$plan")
	[ -z "$bad" ] || fail "$name: risks: $bad"

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
	# the operator's console= and init's arguments stay; what is replaced is named
	case " $planned " in *" console=ttyS0,115200 "*" -- single ") ;; *) fail "$name: the running console= or -- single was dropped: $planned" ;; esac
	grep -q '^# kept as the operator set them: .*init.s arguments -- single$' "$plan" || fail "$name: init's arguments not said kept"
	grep -q '^# replaces: isolcpus=nohz,5$' "$plan" || fail "$name: the replaced isolcpus=nohz,5 is not named"

	# apply it, audit again: every covered check passes (tasks.user may warn only about the
	# workload pinned to the CPU, app:800, which no setting should move)
	PYTHONPATH=$ROOT/tests/lib python3 -m plan_apply "$root" "$plan" >/dev/null || fail "$name: plan_apply failed"
	grep -q -- ' -- single$' "$root/proc/cmdline" || fail "$name: booted without init's arguments: $(cat "$root/proc/cmdline")"
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
	echo "check_plan: $name ($bootm): $nbad of $ntotal covered checks did not pass before, all pass after"
}

scenario cpu3 3 none
scenario fifo 2-3 grubby -P f:10
scenario grub 3 grub
scenario sdboot 3 sdboot
grep -q '^kernel.sched_rt_runtime_us = -1$' "$TMP/fifo.plan" || fail "a FIFO plan without sched_rt_runtime_us = -1"
grep -q 'sched_rt_runtime_us' "$TMP/cpu3.plan" && fail "a SCHED_OTHER plan changes sched_rt_runtime_us"
grep -q '^grubby --update-kernel=ALL --args="isolcpus=managed_irq,domain,2-3 ' "$TMP/fifo.plan" || fail "fifo: no grubby --args line"

# KSM runs here (ksm/run 1): unmerged, after a warning; off or absent: no line
grep -B1 -x 'echo 2 > /sys/kernel/mm/ksm/run' "$TMP/cpu3.plan" | grep -q '^# warning: echo 2 unmerges every page KSM merged' ||
	fail "KSM unmerged without the warning before it"
for ksm in 0 absent; do
	cp -a "$BADLY" "$TMP/ksm$ksm"
	if [ $ksm = absent ]; then rm -r "$TMP/ksm$ksm/sys/kernel/mm/ksm"; else echo 0 >"$TMP/ksm$ksm/sys/kernel/mm/ksm/run"; fi
	"$JS" check -q --sysroot "$TMP/ksm$ksm" --cpu 3 --plan >"$TMP/ksm.plan" || fail "ksm $ksm: --plan failed"
	grep -q -e '/ksm/' -e 'KSM' "$TMP/ksm.plan" && fail "KSM $ksm: $(grep -e /ksm/ -e KSM "$TMP/ksm.plan")"
done

# the operator's clock: a guest with an invariant TSC booted clocksource=kvm-clock
# tsc=unstable keeps both, and the plan says why it sets no tsc=reliable there; without
# them it sets tsc=reliable and clocksource=tsc, and names tsc=reliable's risk
invariant() { sed -i 's/ constant_tsc / constant_tsc nonstop_tsc /' "$1/proc/cpuinfo"; }
operator_clock() {
	invariant "$1"
	sed -i 's/ -- single/ clocksource=kvm-clock tsc=unstable -- single/' "$1/proc/cmdline"
}
PREPARE=invariant scenario invariant 3 none
grep -q '^# planned: .* tsc=reliable clocksource=tsc .*-- single$' "$TMP/invariant.plan" ||
	fail "invariant TSC: no tsc=reliable clocksource=tsc: $(grep '^# planned' "$TMP/invariant.plan")"
grep -q '^#   tsc=reliable: in a VM it disables the clocksource watchdog' "$TMP/invariant.plan" || fail "no tsc=reliable risk in a VM"
PREPARE=operator_clock scenario operator 3 none
planned=$(sed -n 's/^# planned: //p' "$TMP/operator.plan")
case " $planned " in *" clocksource=kvm-clock tsc=unstable "*" -- single ") ;; *) fail "operator's clock: $planned" ;; esac
case " $planned " in *" tsc=reliable "* | *" clocksource=tsc "*) fail "operator's clock overridden: $planned" ;; esac
grep -q '^# kept as the operator set them: clocksource=kvm-clock tsc=unstable; init.s arguments -- single$' "$TMP/operator.plan" ||
	fail "operator's clock: not said kept"
grep -q "^# no tsc=reliable over the operator's tsc=unstable: in a VM it would turn off the clocksource watchdog" "$TMP/operator.plan" ||
	fail "operator's clock: no comment why tsc=reliable is left out"
grep -qE '^# covers: .*clocksource' "$TMP/operator.plan" && fail "operator's clock: the plan claims clocksource checks"

# waived checks get no step, are not claimed, are named; the rest passes after the plan
scenario waived 3 none --waive ksm,thp.enabled,numa_balancing,irq.120
plan=$TMP/waived.plan
grep -E '/ksm/|transparent_hugepage=never|transparent_hugepage/enabled|hugepages-.*/enabled|numa_balancing = |/proc/irq/120/' "$plan" &&
	fail "steps for waived checks"
grep -qE '^# covers: .*( ksm | thp\.enabled | numa_balancing |irq\.\*| irq\.120)' "$plan" && fail "the plan claims waived checks"
grep -qx '# waived, so no step for them: irq.120 thp.enabled ksm numa_balancing' "$plan" ||
	fail "waived ids not named: $(grep '^# waived' "$plan")"
grep -qE '^#   (transparent huge pages|KSM)' "$plan" && fail "risks of steps not printed"
"$JS" check -q --sysroot "$TMP/waived" --cpu 3 --json "$TMP/w.json" >/dev/null 2>&1
verdicts "$TMP/w.json" "ksm thp.enabled numa_balancing" | grep -q ' pass ' && fail "a waived check was changed by the plan"

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
