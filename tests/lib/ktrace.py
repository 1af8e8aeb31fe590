# SPDX-License-Identifier: GPL-2.0
"""ktrace.py - the kernel's own trace for the tests: a private tracefs instance (its own
buffer, CPU mask and events; nothing else on the machine sees it) and the parser of its text.

  Instance(name, cpus, events).start() ... .read() -> (text, overrun) ... .remove()
  parse_trace(text) -> [(start_ns, end_ns, event)]: tasks' runs, IRQs, timers, softirqs
  current(text, event) -> [(ns, pid, fields)]: the task each of event's lines interrupted

The trace clock is CLOCK_MONOTONIC ("mono"), jitterscope's and jsinject's time base. An
instance is named NAME.PID (PID: the process it belongs to); one whose process is gone (a
test killed by SIGKILL) would trace for ever, and is removed by the next start().
"""
import os
import re

TRACEFS = "/sys/kernel/tracing"
TRACE_RE = re.compile(r"\s(\d+)\.(\d{6}): (\w+): (.*)$", re.M)
NEXT_RE = re.compile(r"==> next_comm=(.*) next_pid=(\d+) next_prio=")
LINE_RE = re.compile(r"^\s*(.*)-(\d+)\s+\[\d+\]\s.*?\s(\d+)\.(\d{6}): (\w+): (.*)$", re.M)
FORK_RE = re.compile(r"comm=.* pid=(\d+) child_comm=.* child_pid=(\d+)")
# x86's IPI vectors (irq_vectors), for a witness that asks for them: parse_trace names each
# handler's run ipi:NAME
IPI_ENTRIES = ("call_function_entry", "call_function_single_entry", "reschedule_entry",
               "irq_work_entry")
IPI_EVENTS = tuple("irq_vectors/" + e[:-len("entry")] + x for e in IPI_ENTRIES
                   for x in ("entry", "exit"))


class Instance:
    """a private tracefs instance of @events on @cpus (a set of CPU numbers; None: all),
    owned by process @owner (default: this one); @optional: events traced where the kernel
    has them (IPI_EVENTS: x86's alone)"""

    def __init__(self, name, cpus, events, owner=None, buffer_kb=8192, optional=()):
        self.owner = owner or os.getpid()
        self.dir = os.path.join(TRACEFS, "instances", "%s.%d" % (name, self.owner))
        self.prefix = name + "."
        self.cpus, self.events, self.buffer_kb = cpus, events, buffer_kb
        self.optional = optional

    def _w(self, name, val):
        with open(os.path.join(self.dir, name), "w") as f:
            f.write(val)

    def start(self):
        """create and switch on; OSError when tracefs cannot give it (then nothing is left)"""
        base = os.path.dirname(self.dir)
        for name in os.listdir(base) if os.path.isdir(base) else []:
            pid = name.rpartition(".")[2]
            if name.startswith(self.prefix) and pid.isdigit() and \
                    not os.path.exists("/proc/" + pid):
                try:
                    os.rmdir(os.path.join(base, name))
                except OSError:
                    pass
        os.mkdir(self.dir)
        try:
            self._w("trace_clock", "mono")
            if self.cpus is not None:
                self._w("tracing_cpumask", "%x" % sum(1 << c for c in self.cpus))
            self._w("buffer_size_kb", str(self.buffer_kb))
            for ev in self.events:
                self._w("events/%s/enable" % ev, "1")
            for ev in self.optional:
                if os.path.exists(os.path.join(self.dir, "events", ev)):
                    self._w("events/%s/enable" % ev, "1")
            self._w("tracing_on", "1")
        except OSError:
            self.remove()
            raise

    def read(self):
        """stop; (the trace's text, the events lost to a full buffer on the CPUs traced)"""
        self._w("tracing_on", "0")
        lost = 0
        cpus = self.cpus if self.cpus is not None else range(os.cpu_count() or 1)
        for c in cpus:
            try:
                with open(os.path.join(self.dir, "per_cpu", "cpu%d" % c, "stats")) as f:
                    st = dict(l.split(":", 1) for l in f.read().splitlines() if ":" in l)
                lost += int(st.get("overrun", "0").strip() or 0)
            except OSError:
                pass
        with open(os.path.join(self.dir, "trace")) as f:
            return f.read(), lost

    def remove(self):
        try:
            os.rmdir(self.dir)
        except OSError:
            pass


def fields(body):
    """a trace line's body -> {field: value} (its NAME=VALUE words)"""
    return dict(x.split("=", 1) for x in body.split() if "=" in x)


def parse_trace(text):
    """
    a tracefs `trace` of task switches, hard IRQs, the local timer, hrtimer callbacks and
    softirqs -> [(start_ns, end_ns, event)]: `task:COMM:PID` for each task's run (not idle),
    `irq:N:NAME`, `local_timer`, `hrtimer:FUNCTION` (inside a local_timer), `softirq:NAME`,
    and `ipi:NAME` for x86's IPI vectors where the trace holds them (IPI_EVENTS: a witness
    asks for them; WITNESS_EVENTS leaves them out). On arm64 (no irq_vectors) the local timer
    is the hard IRQ arch_timer, named local_timer too, and the IPIs are hard IRQs named IPI,
    left out
    """
    out, opened, task = [], {}, None
    for m in TRACE_RE.finditer(text):
        t = int(m.group(1)) * 10 ** 9 + int(m.group(2)) * 1000
        ev, body = m.group(3), m.group(4)
        if ev == "sched_switch":
            n = NEXT_RE.search(body)
            if task:
                out.append((task[0], t, task[1]))
            task = (t, "task:%s:%s" % n.group(1, 2)) if n and n.group(2) != "0" else None
            continue
        kv = fields(body)
        if ev == "irq_handler_entry" and kv.get("name") == "IPI":
            continue  # arm64's IPIs are hard IRQs: left out, as x86's IPI vectors are
        elif ev in ("irq_handler_entry", "local_timer_entry", "softirq_entry",
                    "hrtimer_expire_entry") or ev in IPI_ENTRIES:
            key = ev + kv.get("irq", kv.get("vec", kv.get("hrtimer", "")))
            name = {"irq_handler_entry": "irq:%s:%s" % (kv.get("irq"), kv.get("name")),
                    "local_timer_entry": "local_timer",
                    "hrtimer_expire_entry": "hrtimer:%s" % kv.get("function", "?").split("/")[0],
                    "softirq_entry": "softirq:%s" % kv.get("[action", "").rstrip("]")}.get(
                        ev, "ipi:" + ev[:-len("_entry")])
            if ev == "irq_handler_entry" and kv.get("name") == "arch_timer":
                name = "local_timer"  # arm64's local timer: the generic timer's hard IRQ
            opened[key] = (t, name)
        else:
            key = ev.replace("_exit", "_entry") + kv.get("irq", kv.get("vec",
                                                                        kv.get("hrtimer", "")))
            if key in opened:
                st, name = opened.pop(key)
                out.append((st, t, name))
    return out


def current(text, event):
    """a trace's lines of @event -> [(ns, pid, {field: value})]: pid is the task current when
    it fired (its line's TASK-PID; 0: the CPU was idle)"""
    return [(int(m.group(3)) * 10 ** 9 + int(m.group(4)) * 1000, int(m.group(2)),
             fields(m.group(6)))
            for m in LINE_RE.finditer(text) if m.group(5) == event]


def forks(text):
    """a trace of sched_process_fork -> [(parent_pid, child_pid)] (threads included)"""
    return [(int(m.group(1)), int(m.group(2))) for m in FORK_RE.finditer(text)]
