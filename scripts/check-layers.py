#!/usr/bin/env python3
"""check-layers.py - the layering of src/ checked from its #include lines.

The rules are the table under "## Rules" in docs/LAYERS.md: each row names a folder of src/
(front is src/ itself: main, cli, commands), the folders its files never include, and the
headers of those folders that it may include all the same. A header belongs to the folder
it sits in; include/ (what crosses a boundary: the mark API, the event ABI shared with bpf/)
may be included by every folder, and bpf/ is a folder of its own. Only quoted includes of
headers found in the tree count: system headers and the generated skeletons do not.

    scripts/check-layers.py [--root DIR] [--rules FILE]

Exit 0 every rule holds, 1 a file breaks one (one line each: FILE:LINE: FOLDER includes
HEADER of FOLDER) or src/ is flat (no layer folder: the sources left their layers), 64 usage
or a rules table it cannot read.
"""
import os
import re
import sys

INCLUDE_RE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')


def usage(msg):
    print(f"check-layers: {msg}", file=sys.stderr)
    print("usage: scripts/check-layers.py [--root DIR] [--rules FILE]", file=sys.stderr)
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


def main(argv):
    root, rules_path = ".", None
    args = list(argv)
    while args:
        a = args.pop(0)
        if a in ("--root", "--rules") and args:
            if a == "--root":
                root = args.pop(0)
            else:
                rules_path = args.pop(0)
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
    if bad:
        print(f"check-layers: {bad} include(s) break the layering", file=sys.stderr)
        return 1
    print(f"check-layers: {len(rules)} folders keep their rules")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
