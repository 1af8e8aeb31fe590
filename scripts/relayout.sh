#!/bin/bash
# relayout.sh - move src/ and include/ into folders by layer (docs/LAYERS.md, docs/DESIGN.md):
# one `git mv` for every file of the table below, headers beside their sources, include/
# keeping only what crosses a boundary (the public mark API, the event ABI shared with bpf/).
#
#   scripts/relayout.sh --check     every file of src/ and include/ is in the table (no move)
#   scripts/relayout.sh --dry-run   print the moves
#   scripts/relayout.sh             check, then move (git mv: the renames are staged), then
#                                   rewrite the old paths in the tracked text files that name
#                                   them (left unstaged)
#
# Then: `git commit` (the renames alone, so that --follow and blame follow them), then
# `git commit -a` (the paths the docs and tests name). The Makefile builds src/*.c and
# src/*/*.c with every header folder on the include path: no #include or Makefile edit.
#
# A file of src/ or include/ missing from the table, or a table entry whose file is gone,
# stops it before anything moves: add the file to the table (a new file from another branch
# goes to the folder of its layer; see docs/LAYERS.md).
# Exit: 0 done, 1 the table does not match the tree (or a move failed), 64 usage.
set -u
cd "$(dirname "$0")/.." || exit 1

mode=move
case "${1:-}" in
'') ;;
--check) mode=check ;;
--dry-run) mode=dry ;;
*)
	echo "usage: scripts/relayout.sh [--check|--dry-run]" >&2
	exit 64
	;;
esac

# old path                     new path
TABLE='
src/main.c                     src/main.c
src/cli.c                      src/cli.c
src/commands.c                 src/commands.c
include/js_params.h            src/js_params.h

src/pipeline.c                 src/measure/pipeline.c
include/js_pipeline.h          src/measure/js_pipeline.h
src/drain.c                    src/measure/drain.c
include/js_drain.h             src/measure/js_drain.h
src/preflight.c                src/measure/preflight.c
include/js_preflight.h         src/measure/js_preflight.h
src/sampler.c                  src/measure/sampler.c
include/js_sampler.h           src/measure/js_sampler.h
src/gapring.c                  src/measure/gapring.c
include/js_gapring.h           src/measure/js_gapring.h
src/sampler_hook.c             src/measure/sampler_hook.c
include/js_sampler_hook.h      src/measure/js_sampler_hook.h
src/vmexit.c                   src/measure/vmexit.c
include/js_vmexit.h            src/measure/js_vmexit.h
src/nap.c                      src/measure/nap.c
include/js_nap.h               src/measure/js_nap.h
src/probe_toggle.c             src/measure/probe_toggle.c
include/js_probe_toggle.h      src/measure/js_probe_toggle.h
src/threads.c                  src/measure/threads.c
src/marks.c                    src/measure/marks.c
include/js_marks.h             src/measure/js_marks.h
include/js_source.h            src/measure/js_source.h

src/probes.c                   src/probes/probes.c
include/js_probes.h            src/probes/js_probes.h
src/follow.c                   src/probes/follow.c
include/js_follow.h            src/probes/js_follow.h
src/evring.c                   src/probes/evring.c
include/js_evring.h            src/probes/js_evring.h
src/bpf_helpers.c              src/probes/bpf_helpers.c
include/js_bpf_helpers.h       src/probes/js_bpf_helpers.h
src/kbtf.c                     src/probes/kbtf.c
include/js_kbtf.h              src/probes/js_kbtf.h

src/correlate.c                src/attrib/correlate.c
include/js_correlate.h         src/attrib/js_correlate.h
src/corr_window.c              src/attrib/corr_window.c
src/account.c                  src/attrib/account.c
src/corr_priv.h                src/attrib/corr_priv.h

src/result.c                   src/model/result.c
include/js_result.h            src/model/js_result.h
include/js_model.h             src/model/js_model.h
src/run_cfg.c                  src/model/run_cfg.c
include/js_run_cfg.h           src/model/js_run_cfg.h
src/events.c                   src/model/event_names.c
include/js_event_names.h       src/model/js_event_names.h
src/causes.c                   src/model/causes.c
include/js_causes.h            src/model/js_causes.h
src/entry.c                    src/model/entry.c
include/js_entry.h             src/model/js_entry.h
src/hist.c                     src/model/hist.c
src/hdr_codec.c                src/model/hdr_codec.c
include/js_hist.h              src/model/js_hist.h
src/period.c                   src/model/period.c
include/js_period.h            src/model/js_period.h
src/intervals.c                src/model/intervals.c
include/js_intervals.h         src/model/js_intervals.h
src/arrival.c                  src/model/arrival.c
include/js_arrival.h           src/model/js_arrival.h
src/budget.c                   src/model/budget.c
src/budget_iv.c                src/model/budget_iv.c
include/js_budget.h            src/model/js_budget.h
src/threshold.c                src/model/threshold.c
include/js_threshold.h         src/model/js_threshold.h
src/spike.c                    src/model/spike.c
include/js_spike.h             src/model/js_spike.h

src/report/output.c            src/report/output.c
include/js_output.h            src/report/js_output.h
src/report/out_json.c          src/report/out_json.c
src/report/out_gaps.c          src/report/out_gaps.c
include/js_out_gaps.h          src/report/js_out_gaps.h
src/report/out_hlog.c          src/report/out_hlog.c
src/report/out_hgrm.c          src/report/out_hgrm.c
src/report/hlog.c              src/report/hlog.c
include/js_hlog.h              src/report/js_hlog.h
src/report/out_prom.c          src/report/out_prom.c
src/report/prom.c              src/report/prom.c
include/js_prom.h              src/report/js_prom.h
src/report/out_listen.c        src/report/out_listen.c
include/js_listen.h            src/report/js_listen.h
src/report/out_trace.c         src/report/out_trace.c
src/report/trace.c             src/report/trace.c
src/report/trace_priv.h        src/report/trace_priv.h
src/report/json_gap.c          src/report/json_gap.c
include/js_json_gap.h          src/report/js_json_gap.h
src/report/out_spike.c         src/report/out_spike.c
src/report/out_html.c          src/report/out_html.c
src/report/html_page.c         src/report/html_page.c
include/js_html.h              src/report/js_html.h
src/report/report_text.c       src/report/report_text.c
src/report/answer.c            src/report/answer.c
include/js_report.h            src/report/js_report.h
src/report/report_load.c       src/report/report_load.c
include/js_report_load.h       src/report/js_report_load.h
src/story.c                    src/report/story.c
include/js_story.h             src/report/js_story.h

src/diff.c                     src/diff/diff.c
include/js_diff.h              src/diff/js_diff.h
src/report/report_diff.c       src/diff/diff_report.c
src/report/diff_html.c         src/diff/diff_html.c
src/stats.c                    src/diff/stats.c
include/js_stats.h             src/diff/js_stats.h

src/audit/audit.c              src/audit/audit.c
src/audit/audit_cmdline.c      src/audit/audit_cmdline.c
src/audit/audit_irq.c          src/audit/audit_irq.c
src/audit/audit_kernel.c       src/audit/audit_kernel.c
src/audit/audit_memory.c       src/audit/audit_memory.c
src/audit/audit_power.c        src/audit/audit_power.c
src/audit/audit_priv.h         src/audit/audit_priv.h
src/audit/audit_report.c       src/audit/audit_report.c
src/audit/audit_plan.c         src/audit/audit_plan.c
src/audit/audit_waive.c        src/audit/audit_waive.c
src/audit/audit_run.c          src/audit/audit_run.c
src/audit/audit_snapshot.c     src/audit/audit_snapshot.c
src/audit/audit_tasks.c        src/audit/audit_tasks.c
src/audit/audit_xcheck.c       src/audit/audit_xcheck.c
include/js_audit.h             src/audit/js_audit.h

src/sysfs.c                    src/sys/sysfs.c
src/dma_latency.c              src/sys/dma_latency.c
include/js_dma_latency.h       src/sys/js_dma_latency.h
include/js_sysfs.h             src/sys/js_sysfs.h
src/cpus.c                     src/sys/cpus.c
include/js_cpus.h              src/sys/js_cpus.h
src/cpulist.c                  src/sys/cpulist.c
include/js_cpulist.h           src/sys/js_cpulist.h
src/tasks.c                    src/sys/tasks.c
include/js_tasks.h             src/sys/js_tasks.h
src/cgroup.c                   src/sys/cgroup.c
src/cgroup_name.c              src/sys/cgroup_name.c
include/js_cgroup.h            src/sys/js_cgroup.h
src/ksyms.c                    src/sys/ksyms.c
include/js_ksyms.h             src/sys/js_ksyms.h
src/smi.c                      src/sys/smi.c
include/js_smi.h               src/sys/js_smi.h
src/tsc.c                      src/sys/tsc.c
include/js_tsc.h               src/sys/js_tsc.h
src/clockcost.c                src/sys/clockcost.c
include/js_clockcost.h         src/sys/js_clockcost.h

src/util.c                     src/lib/util.c
include/js_util.h              src/lib/js_util.h
src/units.c                    src/lib/units.c
include/js_units.h             src/lib/js_units.h
src/json.c                     src/lib/json.c
include/js_json.h              src/lib/js_json.h
src/jsonparse.c                src/lib/jsonparse.c
include/js_jsonparse.h         src/lib/js_jsonparse.h
src/topn.c                     src/lib/topn.c
include/js_topn.h              src/lib/js_topn.h

src/measure/README.md          src/measure/README.md
src/probes/README.md           src/probes/README.md
src/attrib/README.md           src/attrib/README.md
src/model/README.md            src/model/README.md
src/report/README.md           src/report/README.md
src/diff/README.md             src/diff/README.md
src/audit/README.md            src/audit/README.md
src/sys/README.md              src/sys/README.md
src/lib/README.md              src/lib/README.md

include/jitterscope/mark.h     include/jitterscope/mark.h
include/js_events.h            include/js_events.h
include/js_follow_events.h     include/js_follow_events.h
'

# the table's rows (blank lines and spaces aside)
mapfile -t rows < <(printf '%s\n' "$TABLE" | awk 'NF == 2 { print $1 " " $2 }')
# files the table may name ahead of the change that creates them: absent is not an error
OPTIONAL=''

declare -A dest
bad=0
for r in "${rows[@]}"; do
	old=${r%% *} new=${r#* }
	if [ -n "${dest[$old]:-}" ]; then
		echo "relayout.sh: $old is in the table twice" >&2
		bad=1
	fi
	dest[$old]=$new
done
# every tracked file of src/ and include/ has a row
while IFS= read -r f; do
	if [ -z "${dest[$f]:-}" ]; then
		echo "relayout.sh: $f is not in the table: add it (scripts/relayout.sh, TABLE)" >&2
		bad=1
	fi
done < <(git ls-files src include)
# every row names a file of the tree (or one marked optional)
for old in "${!dest[@]}"; do
	if [ ! -e "$old" ] && [[ " $OPTIONAL " != *" $old "* ]]; then
		echo "relayout.sh: $old is in the table but not in the tree" >&2
		bad=1
	fi
done
# two sources or headers may not end with one name (objects are named by the file alone,
# headers are included by it)
dups=$(for old in "${!dest[@]}"; do
	[ -e "$old" ] && [[ $old == *.[ch] ]] && basename "${dest[$old]}"
done | sort | uniq -d)
if [ -n "$dups" ]; then
	echo "relayout.sh: two files would share a name: $dups" >&2
	bad=1
fi
if [ "$bad" != 0 ]; then
	echo "relayout.sh: the table does not match the tree; nothing moved" >&2
	exit 1
fi
if [ "$mode" = check ]; then
	echo "relayout.sh: every file of src/ and include/ is in the table"
	exit 0
fi

moved=()
for r in "${rows[@]}"; do
	old=${r%% *} new=${r#* }
	[ -e "$old" ] && [ "$old" != "$new" ] || continue
	if [ "$mode" = dry ]; then
		echo "git mv $old $new"
		continue
	fi
	mkdir -p "$(dirname "$new")" && git mv "$old" "$new" || {
		echo "relayout.sh: git mv $old $new failed" >&2
		exit 1
	}
	moved+=("$old $new")
done
[ "$mode" = dry ] && exit 0

# the old paths the docs, tests and scripts name ("src/pipeline.c", "include/js_tsc.h"),
# rewritten in the working tree only (not staged): CHANGELOG.md keeps its history as written
n=0
for m in "${moved[@]}"; do
	old=${m%% *} new=${m#* }
	while IFS= read -r f; do
		[ "$f" = CHANGELOG.md ] && continue
		sed -i "s#\\b${old//./\\.}\\b#$new#g" "$f" && n=$((n + 1))
	done < <(git grep -lI -F -e "$old" -- ':!CHANGELOG.md' ':!scripts/relayout.sh' ||
		true)
done
echo "relayout.sh: ${#moved[@]} files moved (staged: commit them alone), old paths" \
	"rewritten in $n places (unstaged: commit them next)"
