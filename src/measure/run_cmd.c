// SPDX-License-Identifier: GPL-2.0 OR BSD-3-Clause
/*
 * run_cmd.c - jitterscope -- CMD: the command as a gap source (js_source.h) that pushes no
 * gap of its own: it lets CMD run (spawn_release, js_spawn.h) at the window's first poll, so
 * that its whole life is measured, and ends the run when CMD exits; what it was and how it
 * ended go into the run (struct js_cmd_info). Whoever measures CMD (its threads followed,
 * threads.c, or the samplers on --cpu) does so as without it. The command owns the child.
 */
#include "js_source.h"
#include "js_spawn.h"
#include "js_util.h"

/* info_line - the command's arguments joined by spaces, cut to fit */
static void info_line(struct js_cmd_info *c, char *const *argv)
{
	size_t n = 0;

	for (size_t i = 0; argv[i] && n < sizeof(c->line) - 1; i++) {
		if (i)
			c->line[n++] = ' ';
		n += js_scpy(c->line + n, sizeof(c->line) - n, argv[i]);
	}
}

static int run_cmd_open(struct gap_source *s, struct js_pipe *pl)
{
	const struct spawn *child = s->ctx;
	const struct js_params *p = pipe_params(pl);
	struct js_cmd_info *c = &pipe_run(pl)->command;

	*c = (struct js_cmd_info){
		.on = true,
		.pid = child->pid,
		.followed = p->follow_cmd,
		.exit_status = -1,
	};
	info_line(c, p->run_argv);
	return 0;
}

/* exited - the child reaped: how it ended, and when that was seen */
static void exited(struct js_cmd_info *c, const struct spawn *child, uint64_t now_ns)
{
	c->exited = true;
	c->exit_status = spawn_exit_code(child);
	c->signal = spawn_signal(child);
	c->exit_ns = now_ns;
}

static bool run_cmd_poll(void *ctx, struct js_pipe *pl, uint64_t now_ns)
{
	struct spawn *child = ctx;
	struct js_cmd_info *c = &pipe_run(pl)->command;

	if (!spawn_released(child)) {
		spawn_release(child);
		c->start_ns = now_ns;
	}
	if (c->exited || !spawn_reap(child, false))
		return false;
	exited(c, child, now_ns);
	return true;
}

static void run_cmd_stop(void *ctx, struct js_pipe *pl, uint64_t end_ns)
{
	struct spawn *child = ctx;
	struct js_cmd_info *c = &pipe_run(pl)->command;

	if (c->exited || !spawn_released(child))
		return;
	/* its last thread's exit (the threads' source) may end the run a moment before it
	 * is a zombie: waited for then; else it still runs (the run ended otherwise) */
	if (spawn_reap(child, pipe_run(pl)->follow.exited))
		exited(c, child, end_ns);
}

static void run_cmd_destroy(void *ctx)
{
	(void)ctx; /* the command's */
}

void run_cmd_source(struct gap_source *s, struct spawn *child)
{
	*s = (struct gap_source){ .name = "command",
				  .ctx = child,
				  .open = run_cmd_open,
				  .poll = run_cmd_poll,
				  .stop = run_cmd_stop,
				  .destroy = run_cmd_destroy };
}
