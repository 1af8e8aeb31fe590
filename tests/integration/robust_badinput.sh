#!/bin/bash
# robust_badinput.sh - every kind of bad input is refused before anything is measured:
# the documented exit code (64 usage, 1 runtime), exactly one line on stderr naming the
# problem, nothing on stdout, and a quick exit. Then a write error at the end of a run
# (/dev/full) exits 1 with one line. See docs/ROBUSTNESS.md for the table.
# Root or not: the read-only file system is a tmpfs that root mounts, or that anyone else
# mounts in a user and mount namespace; without either those cases are counted as skipped,
# as is the cpuset case without root or a cpuset controller.
# cpu1: shared - bad input is refused before anything is measured; the one run it measures fails its write (scripts/run-tests.sh runs it beside others of its kind, no noise gauge)
. "$(dirname "$0")/../lib/lib.bash"
need_cpu1

# an offline CPU number (below the 1024 the tool handles) and all the online CPUs
read -r offline all_online < <(python3 - <<'PY'
s = open("/sys/devices/system/cpu/online").read().strip()
on = set()
for part in s.split(","):
    a, _, b = part.partition("-")
    on.update(range(int(a), int(b or a) + 1))
off = next(c for c in range(1024) if c not in on)
print(off, ",".join(map(str, sorted(on))))
PY
)
[ -n "$offline" ] && [ -n "$all_online" ] || fail "cannot read the online CPUs"
mkdir -p "$TMP/dir" "$TMP/ro"
# ro_run: how to run jitterscope with a read-only file system on $TMP/ro
ro_run=() ro_skip=""
if [ "$(id -u)" -eq 0 ]; then
	if mount -t tmpfs -o ro,size=64k jsro "$TMP/ro" 2>/dev/null; then
		ro_run=("$JS")
		at_exit 'umount "$TMP/ro" 2>/dev/null'
	else
		ro_skip="mounting a read-only tmpfs failed"
	fi
elif unshare -Urm true 2>/dev/null; then
	# the run is refused at its output check, before its namespace root could matter
	ro_run=(unshare -Urm sh -c 'mount -t tmpfs -o ro,size=64k jsro "$0" && exec "$@"'
		"$TMP/ro" "$JS")
else
	ro_skip="a read-only file system needs root or a user namespace (unshare -Urm)"
fi

n=0 bad=0 skipped=0
# check CODE REGEX ARGS... - run jitterscope ARGS (ARGS may start with a wrapper: taskset,
# unshare)
check() {
	local want=$1 re=$2
	shift 2
	local cmd=("$@")
	case ${cmd[0]} in taskset|unshare|sh|"$JS") ;; *) cmd=("$JS" "${cmd[@]}") ;; esac
	# (bash's own clock, lines and regex: some 150 cases, a few forks fewer each)
	local start ms rc lines
	start=${EPOCHREALTIME//[!0-9]/}
	timeout 20 "${cmd[@]}" >"$TMP/out" 2>"$TMP/err" </dev/null
	rc=$?
	ms=$(( (${EPOCHREALTIME//[!0-9]/} - start) / 1000 ))
	# the lines of stderr, each with its newline (one without: not a line, as wc -l counts)
	mapfile lines <"$TMP/err"
	[ ${#lines[@]} -gt 0 ] && [ "${lines[-1]: -1}" != $'\n' ] && unset 'lines[-1]'
	n=$((n + 1))
	local why=""
	[ "$rc" -eq "$want" ] || why="exit $rc, want $want"
	[ -z "$why" ] && [ ${#lines[@]} -ne 1 ] && why="${#lines[@]} lines on stderr, want 1"
	[ -z "$why" ] && ! [[ ${lines[0]%$'\n'} =~ $re ]] && why="message does not match /$re/"
	[ -z "$why" ] && [[ ${lines[0]} != jitterscope* ]] && why="message without the program name"
	[ -z "$why" ] && [ -s "$TMP/out" ] && why="output on stdout"
	[ -z "$why" ] && [ $ms -gt 2000 ] &&
		why="took $ms ms: checks must come before measuring"
	if [ -n "$why" ]; then
		bad=$((bad + 1))
		echo "FAIL: jitterscope ${*}: $why"
		sed 's/^/    stderr: /' "$TMP/err" | head -5
	fi
}

# CPUs
check 64 'out of range'            --cpu 4096 -d 1
check 64 'out of range'            --cpu 1024 -d 1
check 64 "CPU $offline is not online" --cpu "$offline" -d 1
# a CPU outside jitterscope's cpuset (not its affinity: a tuned box's shell is narrowed to
# the housekeeping CPUs, and jitterscope still measures the isolated ones), in a cpuset of
# CPU 0 made for the test: cgroup v1's cpuset hierarchy, or v2 with its cpuset controller
cs=""
cs_v1=$(awk '$3 == "cgroup" && $4 ~ /(^|,)cpuset(,|$)/ { print $2; exit }' /proc/mounts)
cs_v2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ "$(id -u)" -eq 0 ] && [ -n "$cs_v1" ] && mkdir "$cs_v1/jstest.$$" 2>/dev/null; then
	cs=$cs_v1/jstest.$$
	echo 0 >"$cs/cpuset.cpus" && echo 0 >"$cs/cpuset.mems" && cs_procs=$cs/tasks
elif [ "$(id -u)" -eq 0 ] && [ -n "$cs_v2" ] && grep -qw cpuset "$cs_v2/cgroup.controllers" &&
	echo +cpuset >"$cs_v2/cgroup.subtree_control" 2>/dev/null &&
	mkdir "$cs_v2/jstest.$$" 2>/dev/null; then
	cs=$cs_v2/jstest.$$
	echo 0 >"$cs/cpuset.cpus" && cs_procs=$cs/cgroup.procs
fi
if [ -n "$cs" ] && [ "$(cat "$cs/cpuset.cpus" 2>/dev/null)" = 0 ]; then
	check 64 'CPU 1 is not in this process.s cpuset' \
		sh -c 'echo $$ >"$0" && exec "$@"' "$cs_procs" "$JS" --cpu 1 -d 1
else
	skipped=$((skipped + 1))
	ro_skip="${ro_skip:+$ro_skip; }a cpuset of CPU 0 needs root and a cpuset controller"
fi
[ -n "$cs" ] && rmdir "$cs" 2>/dev/null
check 64 'empty'                   --cpu '' -d 1
check 64 'invalid CPU list'        --cpu 1, -d 1
check 64 'invalid CPU list'        --cpu 3-1 -d 1
check 64 'invalid CPU list'        --cpu a -d 1
check 64 'invalid CPU list'        --cpu=-1 -d 1
check 64 'invalid CPU list'        --cpu '1 2' -d 1
check 64 'no housekeeping CPU left' --cpu "$all_online" -d 1
check 64 'both measured and housekeeping' --cpu 1 -H 1 -d 1
check 64 'housekeeping CPU .* not online' --cpu 1 -H "$offline" -d 1
check 64 'invalid CPU list'        -H x -d 1
check 64 'out of range'            check --cpu 4096
# durations
check 64 'invalid duration'        -d -1
check 64 'invalid duration'        -d -5s
check 64 'out of range'            -d 99999999999999999999
check 64 'out of range'            -d 1000000000d
check 64 'out of range'            -d 0.0000000001
check 64 'invalid duration'        -d 5x
check 64 'invalid duration'        -d 5mm
check 64 'invalid duration'        -d 1e3
check 64 'invalid duration'        -d ''
check 64 'invalid warm-up'         --warm-up x
check 64 'invalid --hlog-interval' --hlog-interval 10us
# thresholds
check 64 'must be > 0'             -T 0
check 64 'invalid threshold'       -T -1
check 64 'invalid threshold'       -T 1q
check 64 'out of range'            -T 0.1ns
check 64 'shorter than the duration' -d 1 -T 2s
check 64 'shorter than the duration' -d 1 -T 1s
# other values
check 64 'invalid priority'        -P f:0
check 64 'invalid priority'        -P fifo
check 64 'invalid --top'           -n 1001
check 64 'invalid --ring-size'     --ring-size 1000
check 64 'invalid --drain-threads' --drain-threads 0
check 64 'invalid --drain-threads' --drain-threads 65
check 64 'sets up the spinner'     --drain-threads 2 --pid 1
check 64 'invalid --arrival-interval' --arrival-interval x
check 64 'invalid --budget'        --budget max=abc
check 64 'invalid --trace-max-events' --trace-max-events 5
check 64 'invalid --deepest-idle-state' --deepest-idle-state -1
check 64 'invalid --deepest-idle-state' --deepest-idle-state C1
check 64 'invalid --deepest-idle-state' --deepest-idle-state 1001
check 64 'not an option of check'  check --deepest-idle-state 0
check 64 'invalid --gaps-max-size'  --gaps "$TMP/g" --gaps-max-size 1KiB
check 64 'invalid --gaps-max-size'  --gaps "$TMP/g" --gaps-max-size 5q
check 64 'needs --gaps FILE'       --gaps-max-size 1MiB
check 64 'invalid --gaps-max-files' --gaps "$TMP/g" --gaps-max-size 1MiB --gaps-max-files 0
check 64 'invalid --gaps-max-files' --gaps "$TMP/g" --gaps-max-size 1MiB --gaps-max-files 10001
check 64 'needs --gaps-max-size'   --gaps "$TMP/g" --gaps-max-files 3
check 64 'invalid --prom-interval' --prom "$TMP/m" --prom-interval 0
check 64 'invalid --prom-interval' --prom "$TMP/m" --prom-interval x
check 64 'needs --prom FILE'       --prom - --prom-interval 15s
check 64 'invalid --listen'        --listen 9464
check 64 'invalid --listen'        --listen localhost:9464
check 64 'invalid --listen'        --listen 127.0.0.1:70000
check 64 'invalid --listen'        --listen '[::1]9464'
check 64 '^jitterscope check: --listen is not an option of check .it is for a measurement.$' check --listen 127.0.0.1:9464
# --pid, --tid, --marks: no spinner runs
check 64 'no such process'         --pid 999999999 -d 1
check 64 "invalid --pid 'abc'"     --pid abc -d 1
check 64 'one or the other'        --pid 1 --tid 1 -d 1
check 64 'marks needs --pid'       --marks "$TMP/m.csv" -d 1
check 64 'need the eBPF probes'    --pid 1 --no-probes -d 1
check 64 'follow-syscalls needs --pid or --tid' --follow-syscalls -d 1
check 64 'not with --no-probes'    --probe-toggle "$TMP/t.csv" --no-probes -d 1
check 64 "invalid --probe-toggle ''" --probe-toggle '' -d 1
check 64 'warm-up sets up the spinner' --pid 1 --warm-up 1s -d 1
check 64 'threshold auto sets up the spinner' --pid 1 -T auto -d 1
# --event: its syntax (cli.c), then a tracepoint this kernel lacks (tracefs, which root reads)
check 64 "invalid --event 'timer'" --event timer -d 1
check 64 'given twice'             --event timer:hrtimer_start --event timer:hrtimer_start -d 1
check 64 'not with --no-probes'    --event timer:hrtimer_start --no-probes -d 1
# (where tracefs is not mounted, as on a fresh machine, these runs mount it in a mount
# namespace of their own: the rest of the machine sees nothing)
tfs=()
if ! [ -d /sys/kernel/tracing/events ] && ! [ -d /sys/kernel/debug/tracing/events ]; then
	tfs=(unshare -m sh -c 'mount -t tracefs nodev /sys/kernel/tracing && exec "$0" "$@"' "$JS")
fi
if [ "$(id -u)" -eq 0 ]; then
	check 64 'nosuch_js:nosuch: no such tracepoint' "${tfs[@]}" --event nosuch_js:nosuch -d 1
	check 64 'timer:nosuch_js: no such tracepoint' "${tfs[@]}" \
		--event timer:hrtimer_expire_entry,timer:nosuch_js -d 1
	check 64 "syscalls events are ftrace's" "${tfs[@]}" --event syscalls:sys_enter_read -d 1
else
	skipped=$((skipped + 3))
	ro_skip="${ro_skip:+$ro_skip; }--event's missing tracepoints need root (tracefs)"
fi
# -- CMD: refused before CMD starts (64); CMD that cannot be run: 127 or 126, as a shell
check 64 'needs a command to run: -- CMD' --
check 64 'no --duration'            -d 5 -- true
check 64 'not with --pid or --tid'  --pid 1 -- true
check 64 'budget-interval is for --duration 0' --budget max=1ms --budget-interval 5s -- true
check 64 'need the eBPF probes'     --no-probes -- true
check 64 "invalid --top 'x'"        -n x -- touch "$TMP/started"
n=$((n + 1))
[ ! -e "$TMP/started" ] || { bad=$((bad + 1)); echo "FAIL: a refused command line started CMD"; }
check 127 'nosuchcmd_js: command not found' -- nosuchcmd_js
touch "$TMP/notexec"
check 126 "notexec: Permission denied" -- "$TMP/notexec"
check 126 'dir: Is a directory'     -- "$TMP/dir"
check 64 'invalid --spike-threshold' --spike-threshold 5xs --spike-dir "$TMP/dir"
check 64 'must be > 0'             --spike-threshold 0 --spike-dir "$TMP/dir"
check 64 'invalid --spike-max'     --spike-max 0
check 64 'invalid --spike-max'     --spike-max 10/h
check 64 'invalid --spike-max'     --spike-max 1001
check 64 'invalid --spike-per-source' --spike-per-source 0
check 64 'invalid --spike-per-source' --spike-per-source 3/h
check 64 'invalid --spike-per-source' --spike-per-source 1001
check 64 'invalid --spike-per-source' --spike-per-source -1
check 64 'invalid --spike-dir-max' --spike-dir-max 5q
check 64 'invalid --spike-dir-max' --spike-dir-max -1MiB
check 64 'go together'             --spike-dir "$TMP/dir"
check 64 'go together'             --spike-threshold 1ms
check 64 'on-spike needs --spike-dir' --on-spike true
check 64 'invalid --on-spike'       --on-spike "" --spike-threshold 1ms --spike-dir "$TMP/dir"
check 64 'invalid --on-spike-timeout' --on-spike-timeout 0 --on-spike true --spike-threshold 1ms --spike-dir "$TMP/dir"
check 64 'invalid --on-spike-timeout' --on-spike-timeout 2x --on-spike true --spike-threshold 1ms --spike-dir "$TMP/dir"
check 64 'invalid --on-end'         --on-end ""
check 64 'invalid --on-end-timeout' --on-end-timeout 0 --on-end true
# conflicting options, unknown options, stray arguments
check 64 'two outputs write to'    --json "$TMP/a" --gaps "$TMP/a"
check 64 'two outputs write to'    --json - --prom -
check 64 'needs --arrival-interval' --burst 5
check 64 'jitterscope: --sysroot is not an option of a measurement .it is for check.' --sysroot /tmp -d 1
check 64 'unrecognized option'     --bogus
check 64 'requires an argument'    --cpu
check 64 'unexpected argument'     stray
check 64 'needs one JSON file'     report
check 64 'needs two JSON files'    diff a.json
# output files: every option, checked before measuring (exit 1, a runtime error)
for opt in json gaps hlog hgrm trace prom html probe-toggle; do
	check 1 "cannot write .*No such file or directory" --cpu 1 -d 1 --$opt /nonexistent/dir/x
	check 1 "cannot write .*Is a directory"           --cpu 1 -d 1 --$opt "$TMP/dir"
	if [ -n "$ro_skip" ]; then
		skipped=$((skipped + 1))
	else
		check 1 "cannot write .*Read-only file system" "${ro_run[@]}" --cpu 1 -d 1 \
			--$opt "$TMP/ro/x"
	fi
done
check 1 "cannot write .*No such file or directory" check --cpu 1 --json /nonexistent/x
# an address in use, one not on this machine: refused before measuring (exit 1)
busy=$(free_port)
python3 -c 'import socket, sys, time; s = socket.socket(); s.bind(("127.0.0.1", int(sys.argv[1]))); s.listen(1); time.sleep(30)' "$busy" &
holder=$!
# the holder listens before jitterscope tries (python's start is slow on a loaded machine)
for _ in $(seq 1 100); do
	ss -Hltn "sport = :$busy" 2>/dev/null | grep -q . && break
	sleep 0.05
done
check 1 "cannot listen on 127.0.0.1:$busy: Address already in use" --cpu 1 -d 1 --listen "127.0.0.1:$busy"
kill $holder 2>/dev/null
wait $holder 2>/dev/null
check 1 "cannot listen on 192.0.2.1:9464: Cannot assign requested address" --cpu 1 -d 1 --listen 192.0.2.1:9464
# the flight recorder's directory: made when missing, refused when it cannot be
check 1 "cannot write --spike-dir .*No such file or directory" --cpu 1 -d 1 \
	--spike-threshold 1ms --spike-dir /nonexistent/dir/x
touch "$TMP/file"
check 1 "cannot write --spike-dir directory .*Not a directory" --cpu 1 -d 1 \
	--spike-threshold 1ms --spike-dir "$TMP/file"

# --help, --usage and --version: exit 0, stdout only
for a in --help --usage --version -V; do
	"$JS" $a >"$TMP/out" 2>"$TMP/err"; rc=$?
	n=$((n + 1))
	if [ $rc -ne 0 ] || [ -s "$TMP/err" ] || [ ! -s "$TMP/out" ]; then
		bad=$((bad + 1)); echo "FAIL: jitterscope $a: exit $rc, stderr $(wc -l <"$TMP/err") lines"
	fi
done

# a write error that only shows at the end (a full disk): one line naming the file, exit 1,
# nothing lost silently; the other outputs are still complete. Not root: the privilege
# warning comes first (a run that is not refused warns).
[ -w /dev/full ] || fail "/dev/full is not writable"
"$JS" --cpu 1 -d 0.3 --no-probes -q --json /dev/full --gaps "$TMP/g.csv" \
	>/dev/null 2>"$TMP/err"; rc=$?
n=$((n + 1))
if [ $rc -ne 1 ] ||
   ! grep -qx "jitterscope: cannot write --json file '/dev/full': No space left on device" \
	"$TMP/err" || [ "$(grep -vc '^jitterscope: warning: ' "$TMP/err")" -ne 1 ] ||
   [ ! -s "$TMP/g.csv" ]; then
	bad=$((bad + 1)); echo "FAIL: --json /dev/full: exit $rc: $(cat "$TMP/err")"
fi

# the same for the audit's JSON (it used to be dropped silently, exit 2 from the audit)
"$JS" check --cpu 1 --json /dev/full >/dev/null 2>"$TMP/err"; rc=$?
n=$((n + 1))
if [ $rc -ne 1 ] || [ "$(wc -l <"$TMP/err")" -ne 1 ] ||
   ! grep -qx "jitterscope: cannot write --json file '/dev/full': No space left on device" \
	"$TMP/err"; then
	bad=$((bad + 1)); echo "FAIL: check --json /dev/full: exit $rc: $(cat "$TMP/err")"
fi

[ $bad -eq 0 ] || fail "$bad of $n bad-input cases wrong"
if [ $skipped -gt 0 ]; then
	echo "skip: $skipped of $((n + skipped)) cases need root: $ro_skip"
	echo "ok: $n of $((n + skipped)) bad-input cases: right exit code, one line, before measuring"
else
	echo "ok: $n bad-input cases: right exit code, one line, before measuring"
fi
exit 0
