/* SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause */
/* audit_plan.h - what the check --plan files share (audit_plan*.c; not public). */
#ifndef AUDIT_PLAN_H
#define AUDIT_PLAN_H

#include <stdio.h>

#include "audit_priv.h"

#define PLAN_LINE 4096

/* the steps with a cost beyond isolation: each printed one has a "# risks:" line */
enum plan_risk {
	PLAN_RISK_DOMAIN = 1u << 0,   /* isolcpus=domain */
	PLAN_RISK_NOHZ = 1u << 1,     /* nohz_full= */
	PLAN_RISK_TSC = 1u << 2,      /* tsc=reliable */
	PLAN_RISK_NMI = 1u << 3,      /* nmi_watchdog=0, kernel.nmi_watchdog = 0 */
	PLAN_RISK_THP = 1u << 4,      /* transparent huge pages never */
	PLAN_RISK_KSM = 1u << 5,      /* echo 2 > ksm/run: unmerge */
	PLAN_RISK_RT = 1u << 6,	      /* kernel.sched_rt_runtime_us = -1 */
	PLAN_RISK_POWER = 1u << 7,    /* the performance governor, C-states disabled */
	PLAN_RISK_AFFINITY = 1u << 8, /* systemd CPUAffinity= */
};

/*
 * plan_line_merge - the command line base changed: base's words before a "--" but those
 * of a key of keys or of drop (what a boot loader adds itself; NULL: none), then add, then
 * base's "-- ..." (init's arguments) as it is. The words of a key of keys into replaced
 * (NULL: not wanted). Keys compare as the kernel's do ('-' as '_'); words are space
 * separated. plan_line_merge(line, todo, todo, ...): line with the parameters todo sets.
 */
void plan_line_merge(const char *base, const char *keys, const char *add, const char *drop,
		     char *out, size_t len, char *replaced, size_t rlen);

/*
 * plan_boot_steps - section 1's steps after its comments: the boot methods found under the
 * sysfs root (GRUB: /etc/default/grub, /boot/grub{,2}/grub.cfg; grubby: on root's PATH,
 * or BLS entries in /boot/loader/entries without systemd-boot; systemd-boot: /boot/efi/
 * loader, /efi/loader, /etc/kernel/cmdline), named on a "# boot method:" line with the
 * file that told, and for each the lines that add todo (the parameters not in force) to
 * the command line it holds: the same planned line from each. None found: a VMM's direct
 * boot, whose command line is changed where the VM is defined: the whole new line
 * (running, the kernel's and init's parts, is a->f.cmdline with a->f.cmdline_init).
 */
void plan_boot_steps(FILE *fp, const struct js_audit *a, const char *todo, const char *planned);

/*
 * plan_risks - the "# risks:" block: one line for each step of risks (enum plan_risk) the
 * plan prints, "none" when it prints none; iso and hk: the isolated and housekeeping
 * lists, nocbs: where rcu_nocbs= stands ("set by this plan", ...)
 */
void plan_risks(FILE *fp, const struct js_audit *a, unsigned risks, const char *iso, const char *hk,
		const char *nocbs);

#endif /* AUDIT_PLAN_H */
