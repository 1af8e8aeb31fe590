#!/usr/bin/env python3
"""check-layers.py - the layering of src/ checked from its #include lines and its objects' symbols.

The rules are the table under "## Rules" in docs/LAYERS.md: each row names a folder of src/
(front is src/ itself: main, cli, commands), the folders its files never include, and the
headers of those folders that it may include all the same. A header belongs to the folder
it sits in; include/ (what crosses a boundary: the mark API, the event ABI shared with bpf/)
may be included by every folder, and bpf/ is a folder of its own. Only quoted includes of
headers found in the tree count: system headers and the generated skeletons do not.

A call crosses layers without an #include (a function declared by hand, or by a header that
another header includes), so the objects are read too: each src/FOLDER/NAME.c is built into
OBJDIR/NAME.o (the Makefile names objects by the file alone), and nm lists what each object
defines and what it references. An object whose folder never includes a folder must not
reference a symbol defined by that folder's objects either, unless one of the headers its
row excepts names it. Sources without an object (not built yet; the other arch's
*_x86.c/*_arm64.c are not missing) are said on stderr; with no object at all, the #include
lines alone are checked. An object older than its source is read as it is: make
layers-check builds the objects first. nm is $NM, else nm.

    scripts/check-layers.py [--root DIR] [--rules FILE] [--objdir DIR]

--objdir: where the objects are (default ROOT/build). Exit 0 every rule holds, 1 a file
breaks one (one line each: FILE:LINE: FOLDER includes HEADER of FOLDER, or FILE:LINE: FOLDER
calls SYMBOL of FOLDER (FILE)) or src/ is flat (no layer folder: the sources left their
layers), 64 usage, a rules table it cannot read, or objects nm cannot read.
"""
import os
import re
import subprocess
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
IDENT_RE = re.compile(r"[A-Za-z_]\w*")
ARCHES = ("x86", "arm64")  # src/*/*_ARCH.c: one of them is built (docs/ARCH.md)


def usage(msg):
    print(f"check-layers: {msg}", file=sys.stderr)
    print("usage: scripts/check-layers.py [--root DIR] [--rules FILE] [--objdir DIR]",
          file=sys.stderr)
    sys.exit(64)


def read_rules(path):
    """{folder: (set of forbidden folders, set of allowed headers)} from the Rules table"""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        usage(f"cannot read the rules {path}: {e.strerror}")
    rules, in_rules = {}, False
    for n, line in enumerate(lines, 1):
        if line.startswith("## "):
            in_rules = line.strip() == "## Rules"
            continue
        if not in_rules or not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 3:
            usage(f"{path}:{n}: a rule has 3 cells (folder | never includes | except)")
        folder, never, allowed = cells
        if folder in ("folder", "") or set(folder) <= set("-: "):
            continue  # the header row and its underline
        words = lambda s: {w.strip("`") for w in re.split(r"[,\s]+", s) if w and w != "-"}
        if folder.strip("`") in rules:
            usage(f"{path}:{n}: {folder} has two rules")
        rules[folder.strip("`")] = (words(never), words(allowed))
    if not rules:
        usage(f"{path}: no rules under '## Rules'")
    return rules


def folder_of(root, path):
    """the layer of a file: front (src/ itself), a folder of src/, include, bpf"""
    rel = os.path.relpath(path, root).split(os.sep)
    if rel[0] == "src":
        return "front" if len(rel) == 2 else rel[1]
    return rel[0]


def objects_of(objdir, sources):
    """{source: its object} of the sources built into objdir, and those missing one (but
    an arch's source whose other arch's object is there: the build chose that one)"""
    built, missing = {}, []
    for path in sources:
        obj = os.path.join(objdir, os.path.basename(path)[:-2] + ".o")
        if os.path.isfile(obj):
            built[path] = obj
            continue
        m = re.match(r"(.*_)(%s)\.c$" % "|".join(ARCHES), path)
        if m and any(os.path.isfile(os.path.join(objdir, os.path.basename(m.group(1)) + a + ".o"))
                     for a in ARCHES if a != m.group(2)):
            continue
        missing.append(path)
    return built, missing


def read_symbols(objects):
    """({symbol: [(object, nm type)] defining it}, {object: symbols it references}) by nm"""
    nm = os.environ.get("NM") or "nm"
    try:
        out = subprocess.run([nm, "-A", "-P", *objects], capture_output=True, text=True)
    except OSError as e:
        return None, f"cannot run {nm}: {e.strerror}"
    if out.returncode:
        print(out.stderr.rstrip(), file=sys.stderr)
        usage(f"{nm} cannot read the objects")
    defs, refs = {}, {}
    for line in out.stdout.splitlines():
        obj, _, rest = line.partition(": ")
        fields = rest.split()
        if len(fields) < 2:
            continue
        name, kind = fields[0], fields[1]
        if kind == "U":
            refs.setdefault(obj, set()).add(name)
        elif kind.isupper():  # global (lower case: static, not reachable from elsewhere)
            defs.setdefault(name, []).append((obj, kind))
    return (defs, refs), None


def first_use(path, name):
    """the first line of path naming name in a function's body or an initializer (indented),
    else the first naming it at all (a declaration), comments aside; 0 if none"""
    word = re.compile(r"\b%s\b" % re.escape(name))
    found = []
    with open(path, encoding="utf-8", errors="replace") as fp:
        for n, line in enumerate(fp, 1):
            text = line.strip()
            if word.search(text) and not (text.startswith(("/*", "//", "* ")) or text == "*"):
                if line[:1] in " \t":
                    return n
                found.append(n)
    return found[0] if found else 0


def check_calls(root, objdir, rules, headers):
    """one line per symbol an object references of a folder its own never includes: their
    number, whether any object was read, and a note (or None) on what could not be"""
    sources = []
    for dirpath, dirs, files in os.walk(os.path.join(root, "src")):
        sources += [os.path.join(dirpath, f) for f in sorted(files) if f.endswith(".c")]
    built, missing = objects_of(objdir, sorted(sources))
    shown = os.path.relpath(objdir, root)
    shown = objdir if shown.startswith("..") else shown
    if not built:
        return 0, False, f"no objects in {shown}/ (make builds them): calls not checked"
    symbols, why = read_symbols(sorted(built.values()))
    if why:
        return 0, False, f"{why}: calls not checked"
    defs, refs = symbols
    source_of = {obj: src for src, obj in built.items()}
    named = {}  # the identifiers a folder's excepted headers name
    for folder, (_, allowed) in rules.items():
        named[folder] = set()
        for h in allowed:
            for p in headers.get(h, []):
                with open(p, encoding="utf-8", errors="replace") as fp:
                    named[folder] |= set(IDENT_RE.findall(fp.read()))
    bad = 0
    for src, obj in sorted(built.items()):
        mine = folder_of(root, src)
        never = rules.get(mine, (set(), set()))[0]
        for name in sorted(refs.get(obj, ())):
            theirs = [(source_of[o], k) for o, k in defs.get(name, ()) if o in source_of]
            if not theirs or name in named.get(mine, ()):
                continue
            if any(folder_of(root, s) not in never for s, _ in theirs):
                continue  # defined (also) where the caller may reach
            callee, kind = theirs[0]
            folder = folder_of(root, callee)
            verb = "calls" if kind in ("T", "W") else "uses"
            print(f"{os.path.relpath(src, root)}:{first_use(src, name)}: {mine} {verb} {name} "
                  f"of {folder} ({os.path.relpath(callee, root)}) "
                  f"(docs/LAYERS.md: {mine} never includes {folder})")
            bad += 1
    note = None
    if missing:
        names = ", ".join(os.path.relpath(p, root) for p in missing[:3])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        note = (f"{len(missing)} source(s) without an object in {shown}/ ({names}{more}): "
                f"their calls not checked")
    return bad, True, note


def main(argv):
    root, rules_path, objdir = ".", None, None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("--root", "--rules", "--objdir") and args:
            if a == "--root":
                root = args.pop(0)
            elif a == "--rules":
                rules_path = args.pop(0)
            else:
                objdir = args.pop(0)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            usage(f"unknown argument '{a}'")
    rules = read_rules(rules_path or os.path.join(root, "docs", "LAYERS.md"))
    src = os.path.join(root, "src")
    if not os.path.isdir(src):
        usage(f"no src/ under {root}")
    # a layer folder holds sources (a README.md alone, before the move, does not count)
    layers = [d for d in sorted(os.listdir(src)) if os.path.isdir(os.path.join(src, d)) and
              any(f.endswith((".c", ".h")) for f in os.listdir(os.path.join(src, d)))]
    flat = [d for d in layers if d not in rules]
    if not any(d in rules for d in layers if d != "audit" and d != "report"):
        print("check-layers: src/ is flat (no layer folder of docs/LAYERS.md but audit/ and "
              "report/): the sources left their layers", file=sys.stderr)
        return 1
    if flat:
        print(f"check-layers: src/{flat[0]}/ has no rule in docs/LAYERS.md", file=sys.stderr)
        return 1

    # every header of the tree by the name an #include gives it
    headers = {}
    for top in ("src", "include", "bpf"):
        for dirpath, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = [d for d in dirs if d != "vmlinux"]
            for f in files:
                if f.endswith(".h"):
                    p = os.path.join(dirpath, f)
                    rel = os.path.relpath(p, os.path.join(root, "include"))
                    for name in {f, rel} if top == "include" else {f}:
                        headers.setdefault(name, []).append(p)
    bad = 0
    for dirpath, dirs, files in os.walk(src):
        for f in sorted(files):
            if not f.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, f)
            mine = folder_of(root, path)
            never, allowed = rules.get(mine, (set(), set()))
            with open(path, encoding="utf-8", errors="replace") as fp:
                for n, line in enumerate(fp, 1):
                    m = INCLUDE_RE.match(line)
                    if not m:
                        continue
                    name = m.group(1)
                    found = headers.get(name) or headers.get(os.path.basename(name))
                    if not found:
                        continue  # a generated skeleton, or not ours
                    theirs = folder_of(root, found[0])
                    if theirs in never and os.path.basename(name) not in allowed:
                        print(f"{os.path.relpath(path, root)}:{n}: {mine} includes {name} "
                              f"of {theirs} (docs/LAYERS.md: {mine} never includes {theirs})")
                        bad += 1
    calls, read, note = check_calls(root, objdir or os.path.join(root, "build"), rules, headers)
    if note:
        print(f"check-layers: {note}", file=sys.stderr)
    if bad or calls:
        print(f"check-layers: {bad} include(s) and {calls} call(s) break the layering",
              file=sys.stderr)
        return 1
    what = "#include lines and the objects' calls" if read else "#include lines only"
    print(f"check-layers: {len(rules)} folders keep their rules ({what})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
