// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * audit_plan_boot.c - check --plan's kernel command line: how this machine boots (GRUB,
 * grubby, systemd-boot, or none of them: a VMM's direct boot), found under the sysfs root,
 * and only the steps of the methods found, each adding the plan's parameters to the line
 * that method holds, so that each gives the planned line (docs/CHECK.md, check --plan).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "audit_plan.h"
#include "js_util.h"

#define GRUB_DEFAULT "/etc/default/grub"
#define KERNEL_CMDLINE "/etc/kernel/cmdline"
#define BLS_ENTRIES "/boot/loader/entries"
/* what GRUB's linux line has before GRUB_CMDLINE_LINUX; what kernel-install drops from
 * the running line it falls back to */
#define GRUB_ADDS "BOOT_IMAGE root ro rw initrd"
#define LOADER_ADDS "BOOT_IMAGE initrd"

static const char *const grub_files[] = { GRUB_DEFAULT, "/boot/grub/grub.cfg",
					  "/boot/grub2/grub.cfg" };
static const char *const sdboot_files[] = { "/boot/efi/loader", "/efi/loader", KERNEL_CMDLINE };
/* root's PATH, where grubby is looked for */
static const char *const path_dirs[] = { "/usr/local/sbin", "/usr/local/bin", "/usr/sbin",
					 "/usr/bin",	    "/sbin",	      "/bin" };

/* the boot methods found: the path that told each (NULL: not found) */
struct boot {
	const char *grub, *grubby, *sdboot;
	char grubby_at[SYSFS_PATH_MAX];
};

static void append(char *buf, size_t len, const char *word)
{
	size_t n = strlen(buf);

	if (word[0])
		snprintf(buf + n, len - n, "%s%s", n ? " " : "", word);
}

/* key_in - w's key is the key of one of the words of list */
static bool key_in(const char *w, const char *list)
{
	char key[64], k2[64], x[320];
	const char *p = list;

	audit_param_key(w, key, sizeof(key));
	while (audit_next_word(&p, x, sizeof(x))) {
		audit_param_key(x, k2, sizeof(k2));
		if (!strcmp(key, k2))
			return true;
	}
	return false;
}

/* plan_line_merge - base with params (see audit_plan.h) */
void plan_line_merge(const char *base, const char *keys, const char *add, const char *drop,
		     char *out, size_t len, char *replaced, size_t rlen)
{
	char *cl = strdup(base), *save = NULL, init[PLAN_LINE] = "";
	bool kernel = true;

	out[0] = '\0';
	if (replaced)
		replaced[0] = '\0';
	for (char *t = cl ? strtok_r(cl, " \t\n", &save) : NULL; t;
	     t = strtok_r(NULL, " \t\n", &save)) {
		if (kernel && !strcmp(t, "--")) {
			kernel = false;
		} else if (!kernel) {
			append(init, sizeof(init), t);
		} else if (key_in(t, keys)) {
			if (replaced)
				append(replaced, rlen, t);
		} else if (!drop || !key_in(t, drop)) {
			append(out, len, t);
		}
	}
	free(cl);
	append(out, len, add);
	if (!kernel) {
		append(out, len, "--");
		append(out, len, init);
	}
}

/* found - the first of paths under the root, or NULL */
static const char *found(const char *const *paths, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (sysfs_exists(paths[i]))
			return paths[i];
	return NULL;
}

static void detect(struct boot *b)
{
	b->grub = found(grub_files, ARRAY_SIZE(grub_files));
	b->sdboot = found(sdboot_files, ARRAY_SIZE(sdboot_files));
	b->grubby = NULL;
	for (size_t i = 0; i < ARRAY_SIZE(path_dirs) && !b->grubby; i++) {
		audit_spath(b->grubby_at, sizeof(b->grubby_at), "%s/grubby", path_dirs[i]);
		if (sysfs_exists(b->grubby_at))
			b->grubby = b->grubby_at;
	}
	/* BLS entries without systemd-boot: GRUB reads them, grubby edits them */
	if (!b->grubby && !b->sdboot && sysfs_exists(BLS_ENTRIES))
		b->grubby = BLS_ENTRIES;
}

/*
 * grub_var - the value of the last "NAME=" line of text (a shell file), its quotes removed,
 * into val: 1, or 0 when there is none (val ""), -1 when it is not a plain list of words
 * (an expansion, a quote or a backslash in it: no line of the plan can rewrite it)
 */
static int grub_var(const char *text, const char *name, char *val, size_t len)
{
	size_t n = strlen(name);
	int ret = 0;

	val[0] = '\0';
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		const char *v = l + strspn(l, " \t"), *end;
		char q;

		if (strncmp(v, name, n) || v[n] != '=')
			continue;
		v += n + 1;
		q = *v == '"' || *v == '\'' ? *v++ : '\0';
		end = q ? strchr(v, q) : v + strcspn(v, " \t\n#");
		if (!end || (size_t)(end - v) >= len) {
			ret = -1;
			continue;
		}
		snprintf(val, len, "%.*s", (int)(end - v), v);
		ret = strpbrk(val, "$`\\'\"\n") ? -1 : 1;
	}
	return ret;
}

static void grub_steps(FILE *fp, const char *running, const char *todo)
{
	static char lin[PLAN_LINE], def[PLAN_LINE], out[PLAN_LINE], dropped[PLAN_LINE];
	const char *mk = sysfs_exists("/boot/grub2") ? "grub2-mkconfig -o /boot/grub2/grub.cfg" :
						       "grub-mkconfig -o /boot/grub/grub.cfg";
	char *text = NULL;
	int rl, rd;

	if (sysfs_read_file(GRUB_DEFAULT, &text, NULL)) {
		plan_line_merge(running, todo, todo, GRUB_ADDS, out, sizeof(out), NULL, 0);
		fprintf(fp,
			"# GRUB without " GRUB_DEFAULT ": in its grub.cfg, each entry's linux "
			"line, after the kernel and root=: %s\n",
			out);
		return;
	}
	rl = grub_var(text, "GRUB_CMDLINE_LINUX", lin, sizeof(lin));
	rd = grub_var(text, "GRUB_CMDLINE_LINUX_DEFAULT", def, sizeof(def));
	free(text);
	if (rl < 0 || rd < 0) {
		fprintf(fp,
			"# GRUB: " GRUB_DEFAULT
			"'s GRUB_CMDLINE_LINUX(_DEFAULT) is not a plain list of "
			"words: add %s to it by hand (each replacing the one of its name), then "
			"%s\n",
			todo, mk);
		return;
	}
	fprintf(fp,
		"# GRUB: " GRUB_DEFAULT "'s GRUB_CMDLINE_LINUX with the plan's parameters, set "
		"again at its end (the last one counts), then grub.cfg made anew (update-grub on "
		"Debian):\n");
	plan_line_merge(lin, todo, todo, NULL, out, sizeof(out), NULL, 0);
	fprintf(fp, "echo 'GRUB_CMDLINE_LINUX=\"%s\"' >> " GRUB_DEFAULT "\n", out);
	/* GRUB_CMDLINE_LINUX_DEFAULT comes after it on the linux line: its word of a key the
	 * plan sets would win */
	plan_line_merge(def, todo, "", NULL, out, sizeof(out), dropped, sizeof(dropped));
	if (dropped[0])
		fprintf(fp,
			"echo 'GRUB_CMDLINE_LINUX_DEFAULT=\"%s\"' >> " GRUB_DEFAULT
			"  # without %s, which the plan sets\n",
			out, dropped);
	fprintf(fp, "%s\n", mk);
}

static void grubby_steps(FILE *fp, const struct js_audit *a, const char *todo)
{
	fprintf(fp, "# grubby: every boot entry gets the parameters, each replacing the one of its "
		    "name\n");
	fprintf(fp, "grubby --update-kernel=ALL --args=\"%s\"\n", todo);
	if (a->f.cmdline_init[0])
		fprintf(fp,
			"# (init's arguments, -- %s, must stay last in each entry: grubby "
			"--info=ALL shows them)\n",
			a->f.cmdline_init);
}

/* sdboot_steps - /etc/kernel/cmdline (else the running line, which kernel-install falls
 * back to) with the plan's parameters, then this kernel's entry made anew from it */
static void sdboot_steps(FILE *fp, const char *running, const char *todo)
{
	static char out[PLAN_LINE];
	char *text = NULL;
	bool have = !sysfs_read_file(KERNEL_CMDLINE, &text, NULL);

	if (have)
		for (char *c = text; *c; c++)
			*c = *c == '\n' ? ' ' : *c;
	plan_line_merge(have ? text : running, todo, todo, have ? NULL : LOADER_ADDS, out,
			sizeof(out), NULL, 0);
	free(text);
	fprintf(fp,
		"# systemd-boot: kernel-install writes " KERNEL_CMDLINE " (%s) into the entries "
		"it makes: the plan's line there, then this kernel's entry made anew (Debian: "
		"/boot/vmlinuz-$(uname -r))\n",
		have ? "its line with the plan's parameters" : "none yet: the running line's");
	fprintf(fp, "cat > " KERNEL_CMDLINE " <<'EOF'\n%s\nEOF\n", out);
	fprintf(fp,
		"kernel-install add \"$(uname -r)\" \"/usr/lib/modules/$(uname -r)/vmlinuz\"\n");
}

/* plan_boot_steps - section 1's steps for the boot methods found (see audit_plan.h) */
void plan_boot_steps(FILE *fp, const struct js_audit *a, const char *todo, const char *planned)
{
	static char running[PLAN_LINE];
	struct boot b;

	detect(&b);
	js_scpy(running, sizeof(running), a->f.cmdline);
	if (a->f.cmdline_init[0]) {
		append(running, sizeof(running), "--");
		append(running, sizeof(running), a->f.cmdline_init);
	}
	if (!b.grub && !b.grubby && !b.sdboot) {
		fprintf(fp,
			"# boot method: none found (no " GRUB_DEFAULT ", /boot/grub/grub.cfg, "
			"/boot/grub2/grub.cfg, grubby on the PATH, " BLS_ENTRIES ", "
			"/boot/efi/loader, /efi/loader or " KERNEL_CMDLINE " under %s): a VMM's "
			"direct boot (Firecracker, QEMU -kernel)\n",
			a->sysroot[0] ? a->sysroot : "/");
		fprintf(fp,
			"# change the command line where the VM is defined, in the VMM's config "
			"(Firecracker's boot_args, QEMU's -append, libvirt's <cmdline>), to this "
			"whole line:\n");
		fprintf(fp, "# vmm cmdline: %s\n", planned);
		return;
	}
	fprintf(fp, "# boot method:");
	if (b.grub)
		fprintf(fp, " GRUB (found %s)%s", b.grub, b.grubby || b.sdboot ? "," : "");
	if (b.grubby)
		fprintf(fp, " grubby (found %s)%s", b.grubby, b.sdboot ? "," : "");
	if (b.sdboot)
		fprintf(fp, " systemd-boot (found %s)", b.sdboot);
	fprintf(fp, "%s\n",
		(!!b.grub + !!b.grubby + !!b.sdboot) > 1 ?
			": the steps of each give the planned line" :
			"");
	if (b.grubby)
		grubby_steps(fp, a, todo);
	if (b.grub)
		grub_steps(fp, running, todo);
	if (b.sdboot)
		sdboot_steps(fp, running, todo);
}
