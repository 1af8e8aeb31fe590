"""bench/lib/bench.py - Bench: the runs of one invocation, each kind of run started, measured again
when other work ran during it, saved (--save) and replayed (--replay)"""

import json
import os
import pickle
import subprocess
import sys
import tempfile
import time

from lib.common import (APP, INJ_SHORT_S, JS, LOOP, MARKFEED, OSLAT, POLL_S, REDIS_BENCH,
                        REDIS_SERVER, RETRIES, STATS_SKIP_S, log, mono)
from lib.procfs import Hogs, bpf_prog_ids, foreign_procs, proc_scan, wait_quiet
from lib.runner import (Injector, Injectors, PauseToggler, ProgStats, Run, child_setup, parse_kv,
                        spawn_watch)
from lib.analysis import load_gap_causes, load_gaps, load_sent, load_toggles


def redis_place(ncpu, cpu, shared=False):
    """redis_place - where a redis run's load and jitterscope go, with the server on cpu of
    ncpu: (the client's CPUs, the command before jitterscope's, jitterscope's own options).
    In production the clients are elsewhere on the network and the tool's drain has a
    housekeeping CPU the load does not use; the bench keeps that: with three CPUs or more the
    first CPU not the server's is jitterscope's alone (-H) and the client takes the rest; with
    two there is none, and jitterscope takes the server's CPU at idle priority (chrt -i 0,
    -H cpu: only the time the server leaves idle, the load's CPU left to the load).
    shared: jitterscope as a user starts it, unpinned at the default priority (on two CPUs it
    then shares the load's: reported beside, docs/OBSERVER.md); the client's CPUs the same"""
    others = [c for c in range(ncpu) if c != cpu] or [0]
    client = others[1:] if len(others) >= 2 else others
    if shared:
        return client, [], []
    if len(others) >= 2:
        return client, [], ['-H', str(others[0])]
    return client, ['chrt', '-i', '0'], ['-H', str(cpu)]


class Bench:
    """Bench - the runs of one invocation and the helpers that start each kind of run"""

    def __init__(self, args):
        self.a = args
        self.P = {}             # method_params(), set by main
        self.cpu = args.cpu
        self.tmp = args.keep or tempfile.mkdtemp(prefix='jsbench.')
        os.makedirs(self.tmp, exist_ok=True)
        self.n = 0
        self.runs = []
        self.quiet = {'left': args.wait_quiet}
        self.waited_foreign = set()
        self.retry_left = args.retry_budget
        self.saved = None
        if args.replay:
            with open(args.replay, 'rb') as f:
                self.saved = pickle.load(f)

    def path(self, stem, ext):
        """path - a fresh file name in the scratch directory"""
        self.n += 1
        return os.path.join(self.tmp, '%03d-%s.%s' % (self.n, stem, ext))

    def drop(self, *paths):
        """drop - remove a run's scratch files (kept with --keep)"""
        for p in paths:
            if not self.a.keep and os.path.exists(p):
                os.unlink(p)

    def _pre(self):
        self.waited_foreign |= wait_quiet(self.quiet)

    def replayed(self, name):
        """replayed - with --replay, the next saved run (the sections ask in the same order)"""
        if self.saved is None:
            return None
        run = self.saved.pop(0)
        if run.name != name:
            sys.exit('bench/run.py: --replay: expected %s, saved %s' % (name, run.name))
        self.runs.append(run)
        return run

    def _attempts(self, name, secs, once):
        """_attempts - run once(); measure again (from a shared time budget) while another
        measurement tool or a CPU hog ran at the same time"""
        if self.saved is not None:
            return self.replayed(name)
        for attempt in range(RETRIES + 1):
            self._pre()
            run = once()
            if not run.foreign or self.retry_left < secs + 1 or attempt == RETRIES:
                break
            self.retry_left -= secs + 1
            log('  %s: measured again, other work ran: %s' %
                (name, ', '.join(sorted(run.foreign))[:100]))
        self.runs.append(run)
        return run

    def js(self, name, secs, extra=(), inject=None, tasks=True, irqs=False, gaps=True,
           interval=POLL_S, progstats=False, pause=False, load=True, toggle=False,
           causes=False):
        """js - one jitterscope run (JSON and optionally gaps CSV), with an optional injector;
        load=False: the gaps CSV and the injector's log are written but not read back;
        pause: the probes paused at random ('hold': paused the whole run); toggle: detached
        and attached again at random by the tool (--probe-toggle, run.toggles)"""
        def once():
            jpath, gpath = self.path(name, 'json'), self.path(name, 'csv')
            tpath = self.path(name + '-toggle', 'csv')
            cmd = [JS, '--cpu', str(self.cpu), '--duration', '%gs' % secs, '--json', jpath, '-q']
            cmd += (['--gaps', gpath] if gaps else []) + list(extra)
            cmd += ['--probe-toggle', tpath] if toggle else []
            for _ in range(2):
                run = Run(name, cmd)
                inj = self._injector(inject, secs, name, load)
                # progstats: True, or a factory of a ProgStats (IrqProgStats)
                ps = (progstats if callable(progstats) else ProgStats)(
                    inj, STATS_SKIP_S, secs - STATS_SKIP_S) if progstats else None
                # with both, the statistics' hook starts the injector
                pt = PauseToggler(None if ps else inj, secs, hold=pause == 'hold') \
                    if pause else None
                hook = ps.start if ps else pt.start if pt else (inj.start if inj else None)
                if ps and pt:
                    def hook(run_, hooks=(ps.start, pt.start)):
                        for h in hooks:
                            h(run_)
                # the mappings near the end of sampling (exec + set-up ~0.3 s + duration - 0.6)
                spawn_watch(run, self.cpu, interval, tasks, irqs, hook, smaps_at=secs - 0.3,
                            timeout=secs + 30, fast_after=secs)
                run.inject = inj.finish() if inj else None
                run.progstats = ps.finish() if ps else None
                run.pauses = pt.finish() if pt else None
                run.pause_err = pt.err if pt else None
                if run.rc == 0 and os.path.exists(jpath):
                    break
                log('  %s: exit %s, once more' % (name, run.rc))
            if run.rc == 0:
                with open(jpath) as f:
                    run.json = json.load(f)
                if gaps and load:
                    run.gaps = load_gaps(gpath, self.cpu)
                    run.sent = load_sent(gpath, self.cpu)
                if gaps and causes:
                    run.causes = load_gap_causes(gpath, self.cpu)
                if toggle:
                    run.toggles = load_toggles(tpath)
            self.drop(jpath, gpath, tpath)
            return run
        return self._attempts(name, secs, once)

    def oslat(self, name, secs, inject=None):
        """oslat - one oslat run (JSON, 1024 one-microsecond buckets), optional injector"""
        def once():
            jpath = self.path(name, 'json')
            cmd = [OSLAT, '--cpu-list', str(self.cpu), '-D', str(int(secs)), '-q', '-b', '1024',
                   '--json', jpath]
            run = Run(name, cmd)
            inj = self._injector(inject, secs, name)
            # oslat's first thread on the CPU is the ~1 s pre-heat; the second one measures
            spawn_watch(run, self.cpu, POLL_S, True, False, inj.start if inj else None,
                        nth_pinned=2, timeout=secs + 30)
            run.inject = inj.finish() if inj else None
            if run.rc == 0:
                with open(jpath) as f:
                    run.json = json.load(f)
            return run
        return self._attempts(name, secs + 1, once)

    def loop(self, name, secs):
        """loop - the CPU's bare TSC loop (jsloop: the read jitterscope makes) for secs; run.loop:
        its summary"""
        def once():
            opath = self.path(name, 'txt')
            run = Run(name, [LOOP, '--cpu', str(self.cpu), '--duration', '%g' % secs,
                             '--out', opath])
            spawn_watch(run, self.cpu, POLL_S, True, False, timeout=secs + 30)
            run.loop = None
            if run.rc == 0:
                with open(opath) as f:
                    run.loop = {k: float(v) for k, v in parse_kv(f.read()).items()}
            self.drop(opath)
            return run
        return self._attempts(name, secs, once)

    def busy(self, name, secs, idle=False):
        """busy - a plain busy loop pinned to the CPU (no syscalls), observed like the tools;
        idle: a process that sleeps off the CPU instead, leaving it alone"""
        def once():
            if idle:
                code = ('import os,time\nos.sched_setaffinity(0,[c for c in os.sched_getaffinity'
                        '(0) if c!=%d])\ntime.sleep(%f)\n' % (self.cpu, secs))
            else:
                code = ('import os,time\nos.sched_setaffinity(0,[%d])\ne=time.monotonic()+%f\n'
                        'while time.monotonic()<e: pass\n' % (self.cpu, secs))
            run = Run(name, [sys.executable, '-c', code])
            spawn_watch(run, self.cpu, POLL_S, True, True, timeout=secs + 30)
            return run
        return self._attempts(name, secs, once)

    def app(self, name, secs, watched):
        """app - the stand-in application (jsapp) on the CPU for secs, marking its slow
        iterations to a file; watched: followed by jitterscope --pid APP --marks FILE from its
        first iteration until it exits. run.app: jsapp's summary (its iteration times)"""
        def once():
            mpath, rpath = self.path(name, 'marks'), self.path(name + '-ready', 'flag')
            jpath = self.path(name, 'json')
            open(mpath, 'w').close()
            cmd = [APP, '--cpu', str(self.cpu), '--duration', '%g' % secs,
                   '--work-us', str(self.P['app_work_us']),
                   '--slow-us', str(self.P['app_slow_us']), '--marks', mpath, '--ready', rpath]
            run = Run(name, cmd)
            run.t_exec = mono()
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                 preexec_fn=child_setup)
            run.pid, js = p.pid, None
            if watched:
                for _ in range(500):
                    if os.path.exists(rpath) or p.poll() is not None:
                        break
                    time.sleep(0.01)
                js = subprocess.Popen([JS, '--pid', str(p.pid), '--marks', mpath, '-d', '0',
                                       '-q', '--json', jpath], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, text=True, preexec_fn=child_setup)
            hogs = Hogs()
            hogs.sample(proc_scan())
            try:
                out, err = p.communicate(timeout=secs + 30)
            except subprocess.TimeoutExpired:
                p.kill()
                out, err = p.communicate()
            hogs.sample(proc_scan())
            run.foreign |= foreign_procs() | hogs.found()
            run.t_exit, run.rc = mono(), p.returncode
            run.app = parse_kv(out)
            if js:
                try:
                    js.wait(30)
                except subprocess.TimeoutExpired:
                    js.kill()
                    js.wait()
                self._js_outcome(run, name, js, jpath)
            if run.rc != 0:
                log('  %s: exit %s: %s' % (name, run.rc, err.strip()[-300:]))
            self.drop(mpath, rpath, jpath)
            return run
        return self._attempts(name, secs, once)

    def redis(self, name, watched, marks=False, feed=0, extra=(), shared=False):
        """redis - redis-server pinned to the measured CPU (127.0.0.1, a free port, no
        persistence) loaded by redis-benchmark on the other CPUs (-t get, --csv); watched:
        followed by jitterscope --pid from before the load until the server exits (marks: with
        --marks on an empty file nothing writes, as a user who tries it; feed: fed that many
        marks a second by bench/markfeed.py on the other CPUs while the load runs, also
        unwatched: the feeder's own cost on the load's CPUs; extra: more options of
        jitterscope's; shared: jitterscope unpinned, else where redis_place() puts it, the
        load where redis_place() puts it either way). run.bench:
        redis-benchmark's CSV row (rps, p50/p99 latency); run.json: jitterscope's JSON;
        run.js_cpu_s: jitterscope's own CPU time (rusage)"""
        P = self.P
        secs = P['redis_n'] / 10000.0   # a rough length, for the retry budget only

        def once():
            import socket
            with socket.socket() as so:
                so.bind(('127.0.0.1', 0))
                port = so.getsockname()[1]
            jpath = self.path(name, 'json')
            client, pre, place = redis_place(os.cpu_count() or 1, self.cpu, shared)
            others = ','.join(str(c) for c in client)
            srv = ['taskset', '-c', str(self.cpu), REDIS_SERVER, '--port', str(port), '--bind',
                   '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no']
            cmd = ['taskset', '-c', others, REDIS_BENCH, '-h', '127.0.0.1', '-p', str(port),
                   '-n', str(P['redis_n']), '-c', str(P['redis_clients']), '-t', 'get', '-q',
                   '--csv']
            run = Run(name, cmd)
            run.bench, run.js_cpu_s = None, None
            p = subprocess.Popen(srv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                 preexec_fn=child_setup)
            run.pid, js = p.pid, None
            ping = ['redis-cli', '-h', '127.0.0.1', '-p', str(port), 'ping']
            try:
                for _ in range(200):
                    if subprocess.run(ping, capture_output=True, text=True).stdout.strip() == \
                            'PONG' or p.poll() is not None:
                        break
                    time.sleep(0.05)
                mk = []
                if marks or feed:
                    mk = ['--marks', self.path(name + '-marks', 'csv')]
                    open(mk[1], 'w').close()
                if watched:
                    js = subprocess.Popen(pre + [JS, '--pid', str(p.pid), '-d', '0', '-q',
                                                 '--json', jpath] + place +
                                          (mk if marks else []) + list(extra),
                                          stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, text=True,
                                          preexec_fn=child_setup)
                    # attached: its follow programs are loaded (then a little more)
                    for _ in range(300):
                        if len(bpf_prog_ids(js.pid)) > 10 or js.poll() is not None:
                            break
                        time.sleep(0.05)
                    time.sleep(0.5)
                hogs = Hogs()
                hogs.sample(proc_scan())
                if feed:
                    fed = subprocess.Popen(['taskset', '-c', others, sys.executable, MARKFEED,
                                            mk[1], str(feed)], preexec_fn=child_setup)
                run.t_exec = mono()
                b = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
                run.t_exit, run.rc = mono(), b.returncode
                if feed:
                    fed.kill()
                    fed.wait()
                hogs.sample(proc_scan())
                # the server and jitterscope are this script's own: left out already
                run.foreign |= foreign_procs() | hogs.found()
                rows = [ln for ln in b.stdout.splitlines() if ln.startswith('"GET')]
                if rows:
                    hdr = [h.strip('"') for h in b.stdout.splitlines()[0].split(',')]
                    vals = [v.strip('"') for v in rows[0].split(',')]
                    run.bench = {h: float(v) for h, v in zip(hdr[1:], vals[1:])}
                elif run.rc == 0:
                    run.rc = 1
                    log('  %s: no CSV row from redis-benchmark: %s' % (name, b.stdout[-200:]))
            finally:
                subprocess.run(['redis-cli', '-h', '127.0.0.1', '-p', str(port), 'shutdown',
                                'nosave'], capture_output=True)
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
                    p.wait()
                if js:
                    try:
                        _, status, ru = os.wait4(js.pid, 0) if js.returncode is None \
                            else (0, 0, None)
                        if ru is not None:
                            js.returncode = os.waitstatus_to_exitcode(status)
                            run.js_cpu_s = ru.ru_utime + ru.ru_stime
                    except ChildProcessError:
                        js.wait()
                    self._js_outcome(run, name, js, jpath)
                self.drop(jpath)
            return run
        return self._attempts(name, secs, once)

    @staticmethod
    def _js_outcome(run, name, js, jpath):
        """the JSON of the jitterscope beside an application (js, ended) into run, or, when it
        failed or wrote none, run.rc 1 (unless the application's own) and its last words"""
        if js.returncode != 0 or not os.path.exists(jpath):
            log('  %s: jitterscope exit %s: %s' % (name, js.returncode,
                                                  js.stderr.read().strip()[-300:]))
            run.rc = run.rc or 1
        else:
            with open(jpath) as f:
                run.json = json.load(f)
        js.stderr.close()

    def _injector(self, inject, secs, name, load=True):
        """_injector - one jsinject (mode, args), or several in parallel (a list of them)"""
        if not inject:
            return None
        if isinstance(inject, tuple):
            inject = [inject]
        # from INJ_DELAY_S after the tool's measuring thread is seen (polled every POLL_S),
        # INJ_SHORT_S shorter than the tool
        injs = [Injector(self.cpu, mode, max(0.5, secs - INJ_SHORT_S),
                         self.path(name + '-inj', 'csv'), list(extra)) for mode, extra in inject]
        for i in injs:
            i.load = load
        return injs[0] if len(injs) == 1 else Injectors(injs)
