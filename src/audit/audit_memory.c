// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/* audit_memory.c - THP, huge pages, KSM, NUMA balancing, swap and vm sysctls. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "audit_priv.h"

#define THP "/sys/kernel/mm/transparent_hugepage"

/* mthp_always - per-size mTHP controls set to always (or inherit while the top is always) */
static int mthp_always(const char *top, char *buf, size_t len)
{
	char p[160], v[24];
	struct sysfs_dir d;
	size_t pos = 0;
	int n = 0;

	buf[0] = '\0';
	if (sysfs_list_dir(THP, &d))
		return 0;
	for (size_t i = 0; i < d.n; i++) {
		if (strncmp(d.names[i], "hugepages-", 10))
			continue;
		if (sysfs_read_choice(audit_spath(p, sizeof(p), THP "/%s/enabled", d.names[i]), v,
				      sizeof(v)))
			continue;
		if (strcmp(v, "always") && !(!strcmp(v, "inherit") && !strcmp(top, "always")))
			continue;
		n++;
		if (pos < len)
			pos += snprintf(buf + pos, len - pos, "%s%s", pos ? "," : "",
					d.names[i] + 10);
	}
	sysfs_dir_free(&d);
	return n;
}

static void check_thp_enabled(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "thp.enabled", -1, SEV_HIGH, THP "/enabled");
	char *v = a->f.thp_enabled, sizes[96];
	int ret = sysfs_read_choice(THP "/enabled", v, sizeof(a->f.thp_enabled));
	int n;

	audit_ck_exp(c, "never (or madvise with no MADV_HUGEPAGE in the application)");
	if (ret) {
		audit_ck_skip_err(c, THP "/enabled", ret);
		v[0] = '\0';
		return;
	}
	n = mthp_always(v, sizes, sizeof(sizes));
	audit_ck_obs(c, "%s", v);
	if (n)
		audit_ck_obs_append(c, "mTHP always for %s", sizes);
	if (!strcmp(v, "always") || n) {
		audit_ck_deviate(c);
		audit_ck_hint(c, "echo never > " THP "/enabled%s",
			      audit_param_in_force(a, "transparent_hugepage=never") ?
				      " (transparent_hugepage=never is set: it was changed since "
				      "boot, or an mTHP size is always)" :
				      " (or boot with transparent_hugepage=never)");
	} else if (!strcmp(v, "madvise")) {
		/* only an application that asks for huge pages gets them: a low, conditional risk */
		c->severity = SEV_LOW;
		c->verdict = AUDIT_WARN;
		audit_ck_hint(c, "fine unless the application madvise()s MADV_HUGEPAGE; "
				 "echo never > " THP "/enabled rules that out");
	}
}

static void check_thp_defrag(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "thp.defrag", -1, SEV_MED, THP "/defrag");
	char *v = a->f.thp_defrag;
	int ret = sysfs_read_choice(THP "/defrag", v, sizeof(a->f.thp_defrag));

	audit_ck_exp(c, "never or madvise (no direct compaction in page faults)");
	if (ret) {
		audit_ck_skip_err(c, THP "/defrag", ret);
		v[0] = '\0';
		return;
	}
	audit_ck_obs(c, "%s", v);
	if (!strcmp(a->f.thp_enabled, "never")) {
		audit_ck_obs_append(c, "THP disabled");
		return;
	}
	if (!strcmp(v, "always")) {
		audit_ck_deviate(c);
		audit_ck_hint(c, "echo madvise > " THP "/defrag");
	} else if (strcmp(v, "never") && strcmp(v, "madvise")) {
		c->verdict = AUDIT_WARN; /* defer: background kcompactd, not in the fault */
		audit_ck_hint(c, "echo madvise > " THP "/defrag");
	}
}

static void check_khugepaged(struct js_audit *a)
{
	const char *path = THP "/khugepaged/defrag";
	struct audit_check *c = audit_add(a, "thp.khugepaged_defrag", -1, SEV_MED, path);
	int ret = sysfs_read_int(path, &a->f.khugepaged_defrag);

	audit_ck_exp(c, "0");
	if (ret) {
		a->f.khugepaged_defrag = -1;
		audit_ck_skip_err(c, path, ret);
		return;
	}
	audit_ck_obs(c, "%d", a->f.khugepaged_defrag);
	if (!a->f.khugepaged_defrag)
		return;
	if (!strcmp(a->f.thp_enabled, "never")) {
		audit_ck_obs_append(c, "THP disabled: khugepaged idle");
		return;
	}
	if (!strcmp(a->f.thp_enabled, "madvise"))
		c->verdict = AUDIT_WARN; /* collapses only MADV_HUGEPAGE regions */
	else
		audit_ck_deviate(c);
	audit_ck_hint(c, "echo 0 > %s (khugepaged collapses cause TLB-shootdown IPIs)", path);
}

/* cpu_node - NUMA node of cpu from nodeX/cpulist; -1 if there is no node sysfs */
static int cpu_node(int cpu)
{
	struct sysfs_dir d;
	struct js_cpuset s;
	char p[96];
	int node = -1;

	if (sysfs_list_dir("/sys/devices/system/node", &d))
		return -1;
	for (size_t i = 0; i < d.n && node < 0; i++) {
		if (strncmp(d.names[i], "node", 4) || audit_lead_int(d.names[i] + 4) < 0)
			continue;
		audit_spath(p, sizeof(p), "/sys/devices/system/node/%s/cpulist", d.names[i]);
		if (!sysfs_read_cpulist(p, &s) && cpuset_isset(&s, cpu))
			node = audit_lead_int(d.names[i] + 4);
	}
	sysfs_dir_free(&d);
	return node;
}

/* node_pages - reserved and free huge pages of node (all sizes); text into buf */
static int node_pages(int node, uint64_t *total, uint64_t *freep, char *buf, size_t len)
{
	char dir[96], p[192];
	struct sysfs_dir d;
	size_t pos = 0;
	int ret;

	*total = *freep = 0;
	buf[0] = '\0';
	audit_spath(dir, sizeof(dir), "/sys/devices/system/node/node%d/hugepages", node);
	ret = sysfs_list_dir(dir, &d);
	if (ret)
		return ret;
	for (size_t i = 0; i < d.n; i++) {
		uint64_t nr = 0, fr = 0;

		if (sysfs_read_u64(audit_spath(p, sizeof(p), "%s/%s/nr_hugepages", dir, d.names[i]),
				   &nr))
			continue;
		sysfs_read_u64(audit_spath(p, sizeof(p), "%s/%s/free_hugepages", dir, d.names[i]),
			       &fr);
		*total += nr;
		*freep += fr;
		if (nr && pos < len)
			pos += snprintf(buf + pos, len - pos, "%s%s %llu/%llu free",
					pos ? ", " : "", d.names[i] + 10, (unsigned long long)fr,
					(unsigned long long)nr);
	}
	sysfs_dir_free(&d);
	return 0;
}

/* meminfo_u64 - "Key: value" of /proc/meminfo */
static int meminfo_u64(const char *text, const char *key, uint64_t *v)
{
	const char *p = strstr(text, key);

	if (!p)
		return -ENOENT;
	p += strlen(key);
	p += strspn(p, " \t");
	*v = strtoull(p, NULL, 10);
	return 0;
}

/* other_nodes_pages - huge pages reserved on nodes other than node */
static uint64_t other_nodes_pages(int node)
{
	struct sysfs_dir d;
	uint64_t sum = 0, t, f;
	char buf[8];

	if (sysfs_list_dir("/sys/devices/system/node", &d))
		return 0;
	for (size_t i = 0; i < d.n; i++) {
		int n = strncmp(d.names[i], "node", 4) ? -1 : audit_lead_int(d.names[i] + 4);

		if (n >= 0 && n != node && !node_pages(n, &t, &f, buf, sizeof(buf)))
			sum += t;
	}
	sysfs_dir_free(&d);
	return sum;
}

static void check_hugepages_meminfo(struct audit_check *c)
{
	uint64_t total = 0, fr = 0;
	char *text = NULL;
	int ret = sysfs_read_file("/proc/meminfo", &text, NULL);

	audit_ck_src(c, "/proc/meminfo");
	if (ret || meminfo_u64(text, "HugePages_Total:", &total) ||
	    meminfo_u64(text, "HugePages_Free:", &fr)) {
		audit_ck_skip(c, "no node sysfs and no HugePages_* in /proc/meminfo", "");
		free(text);
		return;
	}
	free(text);
	audit_ck_obs(c, "no NUMA sysfs; %llu/%llu default-size huge pages free",
		     (unsigned long long)fr, (unsigned long long)total);
	if (!fr) {
		c->verdict = AUDIT_WARN;
		audit_ck_hint(c,
			      "reserve huge pages if the application uses them (vm.nr_hugepages)");
	}
}

static void check_hugepages(struct js_audit *a, size_t i)
{
	int cpu = a->cpus[i], node = cpu_node(cpu), ret;
	struct audit_check *c =
		audit_add(a, "hugepages", cpu, SEV_MED,
			  "/sys/devices/system/node/nodeX/hugepages/*/{nr,free}_hugepages");
	uint64_t total, fr, other;
	char buf[160];

	audit_ck_exp(c, "free huge pages on CPU %d's NUMA node", cpu);
	a->cpu[i].node = node;
	if (node < 0) {
		check_hugepages_meminfo(c);
		return;
	}
	ret = node_pages(node, &total, &fr, buf, sizeof(buf));
	if (ret) {
		audit_ck_skip_err(c, "/sys/devices/system/node/nodeN/hugepages", ret);
		return;
	}
	other = other_nodes_pages(node);
	audit_ck_obs(c, "node %d: %s", node, total ? buf : "none reserved");
	if (other)
		audit_ck_obs_append(c, "%llu reserved on other nodes", (unsigned long long)other);
	if (fr)
		return;
	if (!total && other) {
		audit_ck_deviate(c);
		audit_ck_hint(
			c,
			"reserve on node %d: echo N > /sys/devices/system/node/node%d/hugepages/hugepages-2048kB/nr_hugepages",
			node, node);
		return;
	}
	c->verdict = AUDIT_WARN; /* only matters if the application uses huge pages */
	audit_ck_hint(
		c,
		total ? "all huge pages on node %d are in use" :
			"reserve huge pages on node %d if the application uses them (hugepages= at boot)",
		node);
}

/* check_knob - an integer knob whose good value is `good` (missing file: skip) */
static struct audit_check *check_knob(struct js_audit *a, const char *id, const char *path,
				      enum audit_severity sev, int good, int *out, const char *hint)
{
	struct audit_check *c = audit_add(a, id, -1, sev, path);
	int v, ret = sysfs_read_int(path, &v);

	audit_ck_exp(c, "%d", good);
	if (ret) {
		if (ret == -ENOENT)
			audit_ck_skip(c, "not present: kernel built without this feature", "");
		else
			audit_ck_skip_err(c, path, ret);
		return NULL;
	}
	if (out)
		*out = v;
	audit_ck_obs(c, "%d", v);
	if (v != good) {
		audit_ck_deviate(c);
		audit_ck_hint(c, "%s", hint);
	}
	return c;
}

static void check_ksm(struct js_audit *a)
{
	struct audit_check *c = check_knob(a, "ksm", "/sys/kernel/mm/ksm/run", SEV_MED, 0,
					   &a->f.ksm_run,
					   "echo 2 > /sys/kernel/mm/ksm/run (unmerge), then 0");

	if (c && a->f.ksm_run == 2) {
		audit_ck_obs_append(c, "unmerging");
		c->verdict = AUDIT_WARN;
	}
}

static void check_swap(struct js_audit *a)
{
	struct audit_check *c = audit_add(a, "swap", -1, SEV_MED, "/proc/swaps, vm.swappiness");
	char *text = NULL;
	int ret = sysfs_read_file("/proc/swaps", &text, NULL), n = 0;

	audit_ck_exp(c, "no swap, or swappiness <= 10 and the workload mlock()ed");
	sysfs_read_int("/proc/sys/vm/swappiness", &a->f.swappiness);
	if (!ret && strncmp(text, "Filename", 8))
		ret = -EINVAL; /* not the /proc/swaps header */
	if (ret) {
		free(text);
		audit_ck_skip_err(c, "/proc/swaps", ret);
		return;
	}
	for (char *l = strchr(text, '\n'); l && l[1]; l = strchr(l + 1, '\n'))
		n++;
	free(text);
	a->f.swap_devices = n;
	audit_ck_obs(c, "%d swap device%s", n, n == 1 ? "" : "s");
	if (a->f.swappiness >= 0)
		audit_ck_obs_append(c, "swappiness %d", a->f.swappiness);
	if (!n)
		return;
	if (a->f.swappiness > 10) {
		audit_ck_deviate(c);
	} else {
		c->verdict = AUDIT_WARN;
	}
	audit_ck_hint(c,
		      "swapoff -a, or sysctl vm.swappiness=10 and mlockall() in the application");
}

static void check_stat_interval(struct js_audit *a)
{
	const char *path = "/proc/sys/vm/stat_interval";
	struct audit_check *c = audit_add(a, "vm.stat_interval", -1, SEV_MED, path);
	int ret = sysfs_read_int(path, &a->f.stat_interval);

	audit_ck_exp(c, ">= 10 (seconds)");
	if (ret) {
		a->f.stat_interval = -1;
		audit_ck_skip_err(c, path, ret);
		return;
	}
	audit_ck_obs(c, "%d", a->f.stat_interval);
	if (a->f.stat_interval < 10) {
		audit_ck_deviate(c);
		audit_ck_hint(
			c, "sysctl vm.stat_interval=10 (vmstat_update kworker runs on each CPU)");
	}
}

/* audit_checks_memory - THP, huge pages, KSM, NUMA balancing, swap, vm sysctls */
void audit_checks_memory(struct js_audit *a)
{
	check_thp_enabled(a);
	check_thp_defrag(a);
	check_khugepaged(a);
	for (size_t i = 0; i < a->ncpus; i++)
		check_hugepages(a, i);
	check_ksm(a);
	check_knob(a, "numa_balancing", "/proc/sys/kernel/numa_balancing", SEV_MED, 0,
		   &a->f.numa_balancing, "sysctl kernel.numa_balancing=0");
	check_swap(a);
	check_knob(a, "vm.zone_reclaim_mode", "/proc/sys/vm/zone_reclaim_mode", SEV_LOW, 0, NULL,
		   "sysctl vm.zone_reclaim_mode=0");
	check_knob(a, "vm.compaction_proactiveness", "/proc/sys/vm/compaction_proactiveness",
		   SEV_LOW, 0, NULL, "sysctl vm.compaction_proactiveness=0");
	check_stat_interval(a);
}
