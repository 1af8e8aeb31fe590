#!/usr/bin/env python3
"""make-corpus.py [RUN.json] - (re)write the fuzzers' seed corpora, tests/fuzz/corpus/NAME/.

Seeds come from the fixture trees (tests/data/sysroot), the HdrHistogram test data and
hand-written examples of every syntax; RUN.json (a small `jitterscope --json` run) seeds the
JSON fuzzer. Deterministic: the same inputs give the same files.
"""
import gzip, hashlib, json, os, re, sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
SYSROOT = os.path.join(ROOT, "tests", "data", "sysroot")


def put(name, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(CORPUS, name)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def fixture_files(tree):
    top = os.path.join(SYSROOT, tree)
    for dirpath, _, files in os.walk(top):
        for fn in sorted(files):
            p = os.path.join(dirpath, fn)
            rel = os.path.relpath(p, top)
            yield rel, open(p, "rb").read()


def audit_seeds():
    tasks = 0
    for tree in ("tuned", "badly-tuned", "malformed"):
        seen = set()
        for rel, data in fixture_files(tree):
            task = re.match(r"proc/\d+/", rel)
            if task:
                if tasks >= 6:
                    continue
                tasks += 1
            # one seed per kind of file and tree (irq/N/..., cpuN/... share a kind)
            kind = re.sub(r"\d+", "N", rel)
            if len(data) <= 6000 and kind not in seen:
                seen.add(kind)
                put("audit", rel.encode() + b"\n" + data)
            if rel == "proc/cmdline":
                put("cmdline", data)
            if rel in ("proc/interrupts", "proc/softirqs"):
                put("procfiles", (b"\x00" if rel == "proc/interrupts" else b"\x01") + data)
            if rel == "proc/cpuinfo":
                put("procfiles", b"\x03" + data[:4000])
            if rel.startswith("sys/devices/system/cpu/") and len(data) < 64:
                put("procfiles", b"\x04" + data)
    for line in ("isolcpus=managed_irq,domain,1-N nohz_full=1-N rcu_nocbs=all -- x=1",
                 "isolcpus=nohz,1,3-5:1/2 irqaffinity=0 console=ttyS0,115200 console=tty0",
                 "rcu_nocbs=1-3 rcu_nocb_poll skew_tick=1 tsc=reliable nosoftlockup",
                 "isolcpus= nohz_full= rcu_nocbs=N-0 irqaffinity=ff,00000001"):
        put("cmdline", line + "\n")


def hdr_seeds():
    d = os.path.join(ROOT, "tests", "data", "hdr")
    for fn in sorted(os.listdir(d)):
        txt = open(os.path.join(d, fn), errors="replace").read()
        for m in re.findall(r"HIST[A-Za-z0-9+/=]{8,}", txt)[:4]:
            put("hdr", m)
    put("hdr", "HISTFAAAACl4nJNpmSzMwMDAyAABzFCaEUzOm7PBHsJl3n6Ry6KJiQEAORgHFA==")


def json_seeds(run_json):
    if run_json:
        for m in re.findall(r'"(HIST[A-Za-z0-9+/=]{8,})"', open(run_json).read())[:3]:
            put("hdr", m)
    put("json", '{"a":[1,2.5e3,-0,true,false,null,"\\u00e9\\n"],"b":{}}')
    put("json", '[[[[[[[[[[[[]]]]]]]]]]]]')
    if run_json:
        doc = json.load(open(run_json))
        put("json", json.dumps(doc, separators=(",", ":")))
        doc.pop("audit", None)
        doc.pop("explained_by_settings", None)
        put("json", json.dumps(doc, separators=(",", ":")))


def text_seeds():
    for s in ("1", "1,3-5", "0-N", "0-1023:2/4", "ff,00000001", "0x3", "2-7"):
        put("cpulist", s)
    for s in ("60", "1.5", "5m", "1h", "2d", "1500ms", "500ns", "5us", "f:99", "r:1", "o:0",
              "event=0x04", "event=4,umask=1\n", "5\u00b5s", "5\u03bcs", "1.0005us",
              "0.0000005s", "9223372036854775807ns", "1.5MiB", "64K"):
        put("time", s)
    for s in ("1us,10us,100us", "1ms", "0.5us,1s", "500", "1000000"):
        put("arrival", s)
    for s in ("max=50us,p99.9=5us,smi=0,irq=0,lost=0.1%", "p99=1ms,gaps=10",
              "lost=5ms,preempt=3,softirq=2us"):
        put("budget", s)
    for argv in (["--cpu", "1", "-d", "5m", "-T", "500ns", "--json", "a.json"],
                 ["check", "--cpu", "3", "--sysroot", "/x"],
                 ["report", "a.json"], ["diff", "a.json", "b.json"],
                 ["-c", "1-3", "-H", "0", "--arrival-interval", "1us,1ms", "--burst", "4"],
                 ["--budget", "max=50us", "--prom", "p", "--hlog", "h", "--hlog-interval", "2s"],
                 ["-P", "f:50", "--warm-up", "2", "--ring-size", "4096", "-n", "20", "-q"]):
        put("cli", "\0".join(argv))
    put("procfiles", b"\x02ffffffff81000000 T _stext\nffffffff81001000 t foo [mod]\n")
    put("procfiles", b"\x05-1\n")
    put("procfiles", b"\x06performance\n")
    put("procfiles", b"\x07" + gzip.compress(b"CONFIG_HZ=1000\nCONFIG_NO_HZ_FULL=y\n", mtime=0))


if __name__ == "__main__":
    audit_seeds()
    hdr_seeds()
    json_seeds(sys.argv[1] if len(sys.argv) > 1 else None)
    text_seeds()
