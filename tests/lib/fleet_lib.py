#!/usr/bin/env python3
"""fleet_lib.py - what the fleet tests read out of contrib/ and docs/ (fleet_contrib.sh,
fleet_prometheus.sh): the systemd unit's command line, the DaemonSet's structure, every
PromQL expression of the Grafana dashboard, the alert rules and docs/FLEET.md, and their
checks against a live Prometheus server.

    fleet_lib.py static ROOT JITTERSCOPE        contrib/ checked without a server
    fleet_lib.py unit-argv ROOT JS CPUS HK PROM  the unit's command, today's options only
    fleet_lib.py unit-caps ROOT                  its capabilities, as setpriv takes them
    fleet_lib.py live ROOT URL                   every expression against Prometheus at URL
    fleet_lib.py quantile URL Q[,Q...] SELECTOR JSON  histogram_quantile vs the run's pQ
    fleet_lib.py await URL STATE ARGS...         poll Prometheus at URL until STATE holds

Each prints one line per problem and exits 1 if there was any."""

import json
import os
import re
import shlex
import subprocess
import sys
import time
import urllib.parse
import urllib.request

import yaml

# options the unit and the DaemonSet name before this jitterscope has them (none today)
COMING = set()
# what Grafana puts in place of its variables when the test evaluates an expression
GRAFANA = {'__rate_interval': '1m', '__range': '5m', '__interval': '15s',
           'instance': '.*', 'cpu': '.*', 'spike': '0.0001'}
METRIC = re.compile(r'\bjitterscope_[a-z0-9_]+')


def unit_sections(path):
    """unit_sections - {section: [(key, value)]} of a systemd unit, continuations joined"""
    out, sec, buf = {}, None, ''
    for raw in open(path):
        line = raw.rstrip('\n')
        if buf:
            line = buf + ' ' + line.strip()
            buf = ''
        if line.endswith('\\'):
            buf = line[:-1].rstrip()
            continue
        s = line.strip()
        if not s or s[0] in '#;':
            continue
        if s.startswith('['):
            sec = s.strip('[]')
            out.setdefault(sec, [])
            continue
        k, _, v = s.partition('=')
        out[sec].append((k.strip(), v.strip()))
    return out


def unit_env(svc):
    """unit_env - the Environment= assignments (systemd's quoting: shell-like words)"""
    env = {}
    for k, v in svc:
        if k == 'Environment':
            for word in shlex.split(v):
                name, _, val = word.partition('=')
                env[name] = val
    return env


def unit_argv(path):
    """unit_argv - ExecStart as systemd runs it: ${X} one word, $X split on spaces"""
    svc = unit_sections(path)['Service']
    env = unit_env(svc)
    cmd = [v for k, v in svc if k == 'ExecStart'][-1]
    argv = []
    for word in shlex.split(cmd):
        m = re.fullmatch(r'\$(\w+)', word)
        if m:
            argv += env.get(m.group(1), '').split()
            continue
        argv.append(re.sub(r'\$\{(\w+)\}', lambda x: env.get(x.group(1), ''), word))
    return argv


def unit_caps(path):
    """unit_caps - CapabilityBoundingSet= and AmbientCapabilities= as sets"""
    svc = unit_sections(path)['Service']
    get = lambda key: set(' '.join(v for k, v in svc if k == key).split())
    return get('CapabilityBoundingSet'), get('AmbientCapabilities')


def options(argv):
    """options - the --long options of a command line"""
    return {a.split('=')[0] for a in argv if a.startswith('--')}


def known_options(js):
    """known_options - every --long option today's jitterscope --help lists"""
    out = subprocess.run([js, '--help'], capture_output=True, text=True, check=True).stdout
    return set(re.findall(r'(--[a-z][a-z0-9-]*)', out))


def check_options(where, used, known, bad):
    for o in sorted(used - known - COMING):
        bad.append(f'{where}: {o} is neither a jitterscope option nor a coming one')
    for o in sorted(used & COMING & known):
        bad.append(f'{where}: {o} exists now: drop its COMING notes (fleet_lib.py COMING, '
                   'contrib/, README.md, docs/FLEET.md)')


def check_unit(root, known, bad):
    path = f'{root}/contrib/jitterscope.service'
    argv = unit_argv(path)
    check_options('jitterscope.service ExecStart', options(argv), known, bad)
    bound, ambient = unit_caps(path)
    want = {'CAP_BPF', 'CAP_PERFMON', 'CAP_SYSLOG', 'CAP_SYS_NICE', 'CAP_IPC_LOCK'}
    if bound != want or ambient != want:
        bad.append(f'jitterscope.service: capabilities {sorted(bound)} / {sorted(ambient)}, '
                   f'want {sorted(want)} (the set tested by fleet_prometheus.sh)')
    svc = dict(unit_sections(path)['Service'])
    for key, val in (('NoNewPrivileges', 'yes'), ('ProtectSystem', 'strict')):
        if svc.get(key) != val:
            bad.append(f'jitterscope.service: {key}={svc.get(key)}, want {val}')
    aff = {c for part in svc.get('CPUAffinity', '').split() for c in cpulist(part)}
    env = unit_env(unit_sections(path)['Service'])
    need = cpulist(env['JITTERSCOPE_CPUS']) | cpulist(env['JITTERSCOPE_HOUSEKEEPING'])
    if not need <= aff:
        bad.append(f'jitterscope.service: CPUAffinity {sorted(aff)} lacks {sorted(need - aff)}'
                   ' (jitterscope refuses a CPU outside its allowed set)')
    prom = argv[argv.index('--prom') + 1]
    rw = [p.lstrip('-') for k, v in unit_sections(path)['Service'] if k == 'ReadWritePaths'
          for p in v.split()]
    if not any(prom.startswith(p.rstrip('/') + '/') for p in rw):
        bad.append(f'jitterscope.service: --prom {prom} is not under ReadWritePaths {rw}')
    return want


def cpulist(s):
    out = set()
    for part in s.replace(',', ' ').split():
        a, _, b = part.partition('-')
        out |= set(range(int(a), int(b or a) + 1))
    return out


def check_daemonset(root, known, caps, bad):
    d = yaml.safe_load(open(f'{root}/contrib/daemonset.yaml'))
    err = lambda msg: bad.append(f'daemonset.yaml: {msg}')
    if d.get('apiVersion') != 'apps/v1' or d.get('kind') != 'DaemonSet':
        err(f"apiVersion/kind {d.get('apiVersion')}/{d.get('kind')}")
    spec = d['spec']
    tmpl = spec['template']
    sel = spec['selector']['matchLabels']
    if any(tmpl['metadata']['labels'].get(k) != v for k, v in sel.items()):
        err(f'selector {sel} does not match the template labels')
    pod = tmpl['spec']
    if pod.get('hostPID') is not True:
        err('hostPID is not true: the probes name the node\'s tasks')
    if pod.get('hostNetwork'):
        err('hostNetwork: not needed (Prometheus scrapes the pod)')
    vols = {v['name']: v for v in pod['volumes']}
    hostpaths = {v['hostPath']['path'] for v in vols.values() if 'hostPath' in v}
    for p in ('/sys/kernel/btf', '/sys/fs/cgroup'):
        if p not in hostpaths:
            err(f'no hostPath volume {p}')
    for p in hostpaths:
        if p.startswith(('/sys/kernel/debug', '/sys/kernel/tracing', '/dev')) or p == '/':
            err(f'hostPath {p} is not needed')
    ctrs = pod['containers']
    if len(ctrs) != 1:
        err(f'{len(ctrs)} containers, want 1')
    c = ctrs[0]
    sc = c.get('securityContext', {})
    if sc.get('privileged') is not False or sc.get('allowPrivilegeEscalation') is not False:
        err('the container must say privileged: false, allowPrivilegeEscalation: false')
    cap = sc.get('capabilities', {})
    if cap.get('drop') != ['ALL'] or {'CAP_' + x for x in cap.get('add', [])} != caps:
        err(f"capabilities drop {cap.get('drop')} add {cap.get('add')}, want ALL and "
            f'those of jitterscope.service')
    for m in c.get('volumeMounts', []):
        if m['name'] not in vols:
            err(f"volumeMount {m['name']} has no volume")
        elif 'hostPath' in vols[m['name']] and m['mountPath'].startswith('/sys') and \
                not m.get('readOnly'):
            err(f"{m['mountPath']} is mounted read-write")
    env = {e['name'] for e in c.get('env', [])}
    args = c.get('args', [])
    for a in args:
        for ref in re.findall(r'\$\((\w+)\)', a):
            if ref not in env:
                err(f'{a}: $({ref}) is not in env')
    check_options('daemonset.yaml args', options(args), known, bad)
    listen = [a.split('=', 1)[1] for a in args if a.startswith('--listen=')]
    port = listen[0].rsplit(':', 1)[1] if listen else None
    ports = {str(p['containerPort']): p.get('name') for p in c.get('ports', [])}
    if port not in ports:
        err(f'--listen port {port} is not a containerPort {sorted(ports)}')
    ann = tmpl['metadata'].get('annotations', {})
    if ann.get('prometheus.io/port') != port:
        err(f"prometheus.io/port {ann.get('prometheus.io/port')} != --listen port {port}")
    probe = c.get('livenessProbe', {}).get('httpGet', {})
    if probe and probe.get('port') not in set(ports.values()) | set(ports):
        err(f"livenessProbe port {probe.get('port')} is not a container port")


def dashboard(root):
    """dashboard - (exprs, variables) of the Grafana dashboard: [(where, expr)], and
    [(name, kind, query or values)]"""
    d = json.load(open(f'{root}/contrib/grafana-dashboard.json'))
    exprs = []

    def walk(panels):
        for p in panels:
            for t in p.get('targets', []):
                if t.get('expr'):
                    exprs.append((f"panel '{p['title']}' {t['refId']}", t['expr']))
            walk(p.get('panels', []))
    walk(d['panels'])
    vars_ = []
    for v in d['templating']['list']:
        q = v.get('query')
        vars_.append((v['name'], v['type'], q.get('query') if isinstance(q, dict) else q))
    return d, exprs, vars_


def grafana_subst(expr):
    """grafana_subst - the expression with Grafana's variables replaced (GRAFANA)"""
    return re.sub(r'\$\{?(\w+)\}?', lambda m: GRAFANA[m.group(1)], expr)


def rules(root):
    """rules - [(alert, expr)] of contrib/prometheus-rules.yml"""
    r = yaml.safe_load(open(f'{root}/contrib/prometheus-rules.yml'))
    return [(x.get('alert') or x.get('record'), x['expr'])
            for g in r['groups'] for x in g['rules']]


def doc_exprs(path):
    """doc_exprs - [(where, expr)]: each line of the ```promql blocks of a document (a
    line ending in an operator, a comma or an open parenthesis continues on the next;
    # starts a comment)"""
    out, inside, cur, start = [], False, '', 0
    for n, line in enumerate(open(path), 1):
        s = line.strip()
        if s.startswith('```'):
            inside = s == '```promql'
            continue
        if not inside or not s or s.startswith('#'):
            continue
        if not cur:
            start = n
        cur = (cur + ' ' + s).strip()
        if re.search(r'[-+*/(,]$', cur):
            continue
        out.append((f'{path.rsplit("/", 1)[-1]}:{start}', cur))
        cur = ''
    return out


def families(root):
    """families - the metric names docs/OUTPUTS.md lists, histograms' series included"""
    names = set()
    for m in re.finditer(r'^\| `(jitterscope_[a-z0-9_]+)` \| ([a-z]+)', open(
            f'{root}/docs/OUTPUTS.md').read(), re.M):
        names.add(m.group(1))
        if m.group(2) == 'histogram':
            names |= {m.group(1) + s for s in ('_bucket', '_sum', '_count')}
    return names


def static(root, js):
    bad = []
    known = known_options(js)
    caps = check_unit(root, known, bad)
    check_daemonset(root, known, caps, bad)
    fams = families(root)
    d, exprs, vars_ = dashboard(root)
    if d.get('uid') != 'jitterscope' or not d.get('panels'):
        bad.append('grafana-dashboard.json: no uid or no panels')
    kinds = {p['type'] for p in d['panels']}
    for k in ('heatmap', 'timeseries'):
        if k not in kinds:
            bad.append(f'grafana-dashboard.json: no {k} panel')
    srcs = exprs + [(f'rule {a}', e) for a, e in rules(root)] + \
        doc_exprs(f'{root}/docs/FLEET.md') + [(f'variable {n}', q) for n, k, q in vars_
                                              if k == 'query']
    for where, e in srcs:
        for name in METRIC.findall(e):
            if name not in fams:
                bad.append(f'{where}: {name} is not a family of docs/OUTPUTS.md')
        if '$' in e and not where.startswith('variable'):
            try:
                grafana_subst(e)
            except KeyError as x:
                bad.append(f'{where}: variable {x} has no test value (fleet_lib.GRAFANA)')
    print(f'fleet_contrib: {len(exprs)} dashboard, {len(rules(root))} rule and '
          f'{len(doc_exprs(root + "/docs/FLEET.md"))} FLEET.md expressions name known families')
    return bad


def query(url, expr):
    """query - Prometheus's answer to an instant query: (status, result or error)"""
    q = urllib.parse.urlencode({'query': expr})
    try:
        with urllib.request.urlopen(f'{url}/api/v1/query?{q}', timeout=10) as r:
            j = json.load(r)
    except urllib.error.HTTPError as e:
        body = e.read()
        try:
            j = json.loads(body)
        except ValueError:  # not ready yet: 503 "Service Unavailable", as text
            return 'error', f'HTTP {e.code}: {body[:80]!r}'
    return j['status'], j['data']['result'] if j['status'] == 'success' else j.get('error')


def live(root, url):
    """live - every expression evaluates; dashboard and FLEET.md ones return data; every
    metric they name has series; the variables' queries find values; the rules are loaded
    and evaluated without error"""
    bad = []
    _, exprs, vars_ = dashboard(root)
    groups = [('dashboard', exprs, True), ('FLEET.md', doc_exprs(f'{root}/docs/FLEET.md'), True),
              ('rules', [(f'rule {a}', e) for a, e in rules(root)], False)]
    names = set()
    n = 0
    for what, lst, need_data in groups:
        for where, e in lst:
            st, res = query(url, grafana_subst(e))
            n += 1
            if st != 'success':
                bad.append(f'{where}: {res}: {e}')
            elif need_data and not res:
                bad.append(f'{where}: no data: {grafana_subst(e)}')
            names |= set(METRIC.findall(e))
    for name in sorted(names):
        st, res = query(url, f'count({{__name__="{name}"}})')
        if st != 'success' or not res:
            bad.append(f'{name}: no series in Prometheus')
    for name, kind, q in vars_:
        if kind == 'query':
            m = re.fullmatch(r'label_values\((.*),\s*(\w+)\)', q)
            st, res = query(url, grafana_subst(m.group(1)))
            if st != 'success' or not any(m.group(2) in r['metric'] for r in res):
                bad.append(f'variable {name}: {q} finds no {m.group(2)}')
        elif kind == 'custom' and name == 'spike':
            for v in q.split(','):
                st, res = query(url, f'count(jitterscope_gap_duration_seconds_bucket{{le="{v}"}})')
                if not res:
                    bad.append(f'variable spike: {v} is no le bound of the histogram')
    with urllib.request.urlopen(f'{url}/api/v1/rules', timeout=10) as r:
        loaded = [x for g in json.load(r)['data']['groups'] for x in g['rules']]
    if len(loaded) != len(rules(root)):
        bad.append(f'{len(loaded)} rules loaded, want {len(rules(root))}')
    for x in loaded:
        if x.get('health') != 'ok' or x.get('lastError'):
            bad.append(f"rule {x['name']}: health {x.get('health')} {x.get('lastError')}")
    print(f'fleet_prometheus: {n} expressions evaluated, {len(names)} metrics found, '
          f'{len(loaded)} rules healthy' + (f', {len(bad)} problems' if bad else ''))
    return bad


def value(url, expr):
    """value - the single value of an instant query, or None (no series, or an error)"""
    try:
        st, res = query(url, expr)
    except OSError:
        return None
    return float(res[0]['value'][1]) if st == 'success' and len(res) == 1 else None


def sample(url, name):
    """sample - the value of the sample NAME (no labels) served at URL, or None"""
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            body = r.read().decode()
    except OSError:
        return None
    m = re.search(r'^%s (\S+)$' % re.escape(name), body, re.M)
    return float(m.group(1)) if m else None


def await_state(url, state, args):
    """await_state - poll every 0.2 s until STATE holds (the list of what is still missing
    comes back empty), at most 60 s (up) or 30 s; a PID of NAME=PID... ending fails it at once
      up NAME=PID...        Prometheus scraped both jobs: up{job} is 1 for jitterscope, node
      moving JS NE MIN      --listen (metrics URL JS) and the textfile (node_exporter's URL
                            NE) say a run duration above the one they said first: both
                            exports move on; and Prometheus's last scrape of --listen counts
                            MIN budget violations of max=1us at least (one per
                            --budget-interval)
      final JSON            Prometheus scraped the final textfile (its _count is the run's
                            gap_count) and evaluated every loaded rule (health ok)
    Prints the values seen (moving: --listen's first and last duration, the textfile's)"""
    pids = [a.split('=', 1) for a in args if state == 'up']
    if state == 'moving':
        js, ne, least = args
        d1 = sample(js, 'jitterscope_run_duration_seconds')
        t1 = sample(ne, 'jitterscope_run_duration_seconds')
        if not (d1 or 0) > 0 or not (t1 or 0) > 0:
            return [f'no run duration exported: --listen {d1}, textfile {t1}']
    timeout = 60 if state == 'up' else 30
    end = time.monotonic() + timeout
    while True:
        if state == 'up':
            got = {j: value(url, f'up{{job="{j}"}}') for j in ('jitterscope', 'node')}
            missing = [f'up{{job="{j}"}} {v}' for j, v in got.items() if v != 1]
            shown = ''
        elif state == 'moving':
            d2 = sample(js, 'jitterscope_run_duration_seconds')
            t2 = sample(ne, 'jitterscope_run_duration_seconds')
            v = value(url, 'jitterscope_budget_violations_total{job="jitterscope",'
                           'limit="max=1us"}')
            missing = [x for x, ok in (
                (f'--listen run duration {d2} (was {d1})', (d2 or 0) > d1),
                (f'textfile run duration {t2} (was {t1})', (t2 or 0) > t1),
                (f'--listen budget violations scraped {v}, want {least}',
                 (v or 0) >= float(least))) if not ok]
            shown = f'{d1} {d2} {t1} {t2}'
        else:
            gaps = json.load(open(args[0]))['cpus'][0]['gap_count']
            n = value(url, 'sum(jitterscope_gap_duration_seconds_count{job="node",cpu="1"})')
            try:
                with urllib.request.urlopen(f'{url}/api/v1/rules', timeout=10) as r:
                    rl = [x for g in json.load(r)['data']['groups'] for x in g['rules']]
            except OSError:
                rl = []
            missing = ([f'textfile _count scraped {n}, JSON gap_count {gaps}'] if n != gaps
                       else []) + [f"rule {x['name']} health {x.get('health')}"
                                   for x in rl if x.get('health') != 'ok']
            if not rl:
                missing.append('no rules loaded')
            shown = ''
        if not missing:
            if shown:
                print(shown)
            return []
        for name, pid in pids:
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                return [f'{name} (pid {pid}) ended while waiting for {state}']
        if time.monotonic() > end:
            return [f'not {state} after {timeout} s: ' + '; '.join(missing)]
        time.sleep(0.2)


BOUNDS = [m * 10 ** e for e in range(-7, 2) for m in (1, 2, 5)][:25]


def bucket(v):
    """bucket - index of the 1-2-5 bucket (le) holding v seconds; 25 = +Inf"""
    return next((i for i, b in enumerate(BOUNDS) if v <= b * (1 + 1e-9)), len(BOUNDS))


def quantile(url, q, sel, run_json, count='exact'):
    """quantile - histogram_quantile(q) over the scraped buckets of sel against the run's own
    percentile. Both take the first value whose rank reaches ceil(q * count), so with the
    final textfile ('exact': the scraped count is the run's gap_count) they are in the same
    bucket, or the JSON's in the next one only when it is within 0.1 % of the bound (its
    value is the top of a 3-digit slot, which may cross it). --listen's last scrape ('le':
    before the run ended, a count at most gap_count) saw fewer gaps: one bucket either way"""
    c = json.load(open(run_json))['cpus'][0]
    key = {'0.99': 'p99_ns', '0.999': 'p999_ns', '0.9': 'p90_ns', '0.5': 'p50_ns'}[q]
    own = c[key] / 1e9
    st, res = query(url, f'histogram_quantile({q}, sum by (le) ({sel}))')
    if st != 'success' or len(res) != 1:
        return [f'histogram_quantile({q}): {st} {res}']
    got = float(res[0]['value'][1])
    st, cnt = query(url, f'sum({sel.replace("_bucket", "_count")})')
    n = int(float(cnt[0]['value'][1])) if cnt else -1
    print(f'fleet_prometheus: p{float(q) * 100:g} PromQL {got * 1e6:.2f} us (bucket le='
          f'{BOUNDS[bucket(got)] if bucket(got) < 25 else "+Inf"}), JSON {own * 1e6:.2f} us '
          f'(le={BOUNDS[bucket(own)] if bucket(own) < 25 else "+Inf"}); scraped count {n}, '
          f'JSON gap_count {c["gap_count"]}')
    bad = []
    b = bucket(got)
    if count == 'exact':
        if not (bucket(own) == b or bucket(own) == b + 1 and b < len(BOUNDS)
                and own <= BOUNDS[b] * 1.001):
            bad.append(f'histogram_quantile({q}) {got} s is not in the bucket of the JSON '
                       f'{key} {own} s (nor just below its slot)')
    elif abs(b - bucket(own)) > 1:
        bad.append(f'histogram_quantile({q}) {got} s and the JSON {key} {own} s are more '
                   'than one bucket apart')
    if (n != c['gap_count']) if count == 'exact' else not 0 < n <= c['gap_count']:
        bad.append(f'scraped _count {n}, JSON gap_count {c["gap_count"]} ({count})')
    return bad


def main():
    cmd = sys.argv[1]
    if cmd == 'unit-argv':
        # the unit's command with the test's CPUs, textfile, --listen address and a
        # --prom-interval of 1 s (the scrape interval of the test's Prometheus)
        root, js, cpus, hk, prom, listen = sys.argv[2:8]
        argv = unit_argv(f'{root}/contrib/jitterscope.service')
        out, skip = [js], False
        for a in argv[1:]:
            if skip:
                skip = False
                continue
            if a in COMING:
                skip = True
                continue
            out.append(a)
        for opt, val in (('--cpu', cpus), ('--house-keeping', hk)):
            out[out.index(opt) + 1] = val
        out[out.index('--prom') + 1] = prom
        out[out.index('--listen') + 1] = listen
        out[out.index('--prom-interval') + 1] = '1s'
        if '--spike-dir' in out:    # the flight recorder beside the textfile, not in /var/lib
            out[out.index('--spike-dir') + 1] = os.path.join(os.path.dirname(prom), 'spikes')
        print('\n'.join(out))
        return 0
    if cmd == 'unit-caps':
        bound, _ = unit_caps(f'{sys.argv[2]}/contrib/jitterscope.service')
        print(','.join('+' + c[4:].lower() for c in sorted(bound)))
        return 0
    if cmd == 'static':
        bad = static(sys.argv[2], sys.argv[3])
    elif cmd == 'live':
        bad = live(sys.argv[2], sys.argv[3])
    elif cmd == 'quantile':
        url, qs, rest = sys.argv[2], sys.argv[3], sys.argv[4:7]
        bad = [b for q in qs.split(',') for b in quantile(url, q, *rest)]
    elif cmd == 'await':
        bad = await_state(sys.argv[2], sys.argv[3], sys.argv[4:])
    else:
        print(f'fleet_lib.py: unknown command {cmd}', file=sys.stderr)
        return 64
    for b in bad:
        print('FAIL: ' + b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
