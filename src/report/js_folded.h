/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/*
 * js_folded.h - --folded: the run's lost time as Brendan Gregg's folded stacks, one line per
 * stack and its weight in ns, for a flame graph (flamegraph.pl, speedscope, inferno).
 * docs/OUTPUTS.md, "--folded".
 *
 *   cpu1;task;kworker/1:2:123_vmstat_update 41000
 *   cpu1;task;jsinject:812;do_syscall_64;__x64_sys_nanosleep;...;schedule 2000000
 *   app/4242;irq;virtio1-req.0:36 3100
 *
 * Per result (cpuN, markN, comm/tid of a followed thread): a line per source of its cause
 * table weighted by its time lost, so that the lines of a class add up to the class's time
 * lost in the report. With --stacks, the primary part of each worst gap that has a kernel
 * stack (its task's where it left the CPU, else its waker's under "[woken by WHO]") gets a
 * line of its own with those frames (outermost first, offsets left out), its time taken out
 * of its source's line. No user frames: the probes take kernel stacks only.
 */
#ifndef JS_FOLDED_H
#define JS_FOLDED_H

#include <stddef.h>
#include <stdio.h>

struct js_run;

/* folded_frame - name as one frame: every ';' made ':' and every blank or control character
 * '_' (the format's separators); like snprintf */
int folded_frame(char *buf, size_t len, const char *name);

/* folded_write - the run's folded stacks into fp, lines sorted, equal stacks merged; 0,
 * -ENOMEM or fp's first write error */
int folded_write(FILE *fp, const struct js_run *run);

#endif /* JS_FOLDED_H */
