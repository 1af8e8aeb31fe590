// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * cpu_arm64.c - the arm64 CPU's facts (js_tsc.h tsc_caps_arch). /proc/cpuinfo names no model
 * on arm64, only the implementer and part numbers (MIDR_EL1), which are named here for the
 * server cores users tune (Graviton's Neoverse, Ampere). The generic timer counts at a fixed
 * rate in every power state (the architecture requires it): it is always invariant. A guest
 * is told by /sys/hypervisor, the device tree or the firmware's DMI names (js_guest.h):
 * arm64 has no CPUID hypervisor bit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "js_guest.h"
#include "js_tsc.h"
#include "js_util.h"

struct part {
	unsigned impl, part;
	const char *name;
};

static const struct part parts[] = {
	{ 0x41, 0xd03, "Cortex-A53" },	{ 0x41, 0xd07, "Cortex-A57" },
	{ 0x41, 0xd08, "Cortex-A72" },	{ 0x41, 0xd0b, "Cortex-A76" },
	{ 0x41, 0xd0c, "Neoverse-N1" }, { 0x41, 0xd40, "Neoverse-V1" },
	{ 0x41, 0xd49, "Neoverse-N2" }, { 0x41, 0xd4f, "Neoverse-V2" },
	{ 0x41, 0xd8e, "Neoverse-N3" }, { 0x41, 0xd84, "Neoverse-V3" },
	{ 0xc0, 0xac3, "AmpereOne" },	{ 0x48, 0xd01, "Kunpeng-920" },
	{ 0x46, 0x001, "A64FX" },	{ 0x4e, 0x004, "Carmel" },
};

/* implementer 0 is "reserved for software use": an emulator, named by its part. QEMU's
 * -cpu max under TCG says part 'Q' (under KVM, -cpu max is the host's CPU) */
static const struct {
	unsigned part;
	const char *vendor, *name;
} soft[] = { { 0x051, "QEMU", "max (TCG)" } };

static const struct {
	unsigned impl;
	const char *name;
} impls[] = {
	{ 0x41, "ARM" },      { 0x42, "Broadcom" },  { 0x43, "Cavium" },
	{ 0x46, "Fujitsu" },  { 0x48, "HiSilicon" }, { 0x4e, "NVIDIA" },
	{ 0x51, "Qualcomm" }, { 0x61, "Apple" },     { 0xc0, "Ampere" },
};

/* field - the hex value of the first "KEY\t: 0x..." line of cpuinfo; -1 if none */
static long field(const char *cpuinfo, const char *key)
{
	const char *p = cpuinfo ? strstr(cpuinfo, key) : NULL;

	p = p ? strchr(p, ':') : NULL;
	return p ? strtol(p + 1, NULL, 0) : -1;
}

/* arm64_cpu_name - "ARM Neoverse-N1" (or "ARM part 0xd0c", "QEMU max (TCG)") from
 * implementer and part into model and vendor; pure */
void arm64_cpu_name(const char *cpuinfo, char *model, size_t mlen, char *vendor, size_t vlen)
{
	long impl = field(cpuinfo, "CPU implementer"), part = field(cpuinfo, "CPU part");
	const char *in = NULL, *pn = NULL;
	char iv[24];

	if (impl < 0)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(impls); i++)
		if (impls[i].impl == (unsigned)impl)
			in = impls[i].name;
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++)
		if (parts[i].impl == (unsigned)impl && parts[i].part == (unsigned)part)
			pn = parts[i].name;
	for (size_t i = 0; impl == 0 && i < ARRAY_SIZE(soft); i++)
		if (soft[i].part == (unsigned)part) {
			in = soft[i].vendor;
			pn = soft[i].name;
		}
	if (!in) {
		snprintf(iv, sizeof(iv), "0x%02lx", impl);
		in = iv;
	}
	js_scpy(vendor, vlen, in);
	if (pn)
		snprintf(model, mlen, "%s %s", in, pn);
	else
		snprintf(model, mlen, "%s part 0x%03lx", in, part < 0 ? 0 : part);
}

void tsc_caps_arch(struct tsc_caps *c, const char *cpuinfo)
{
	char why[128];

	c->constant_tsc = c->nonstop_tsc = true; /* the generic timer: architectural */
	arm64_cpu_name(cpuinfo, c->model, sizeof(c->model), c->vendor, sizeof(c->vendor));
	c->hypervisor = c->hypervisor || sys_guest(why, sizeof(why));
}
