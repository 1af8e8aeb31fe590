#!/usr/bin/env python3
"""gen_expected.py - regenerate the expected .hgrm files of tests/unit/test_hlog.c with the
reference model ../shared/tools/hdr_ref.py (run from the repository root):

    python3 tests/data/hdr/gen_expected.py

The data sets must stay identical to test_hlog.c's dataset_b() / golden A.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(os.path.dirname(ROOT), "shared", "tools"))
import hdr_ref  # noqa: E402

M64 = (1 << 64) - 1
HERE = os.path.dirname(os.path.abspath(__file__))


def dataset_b():
    """20 000 values spread over 1 .. 2^32 plus a few heavy repeats (see test_hlog.c)."""
    h = hdr_ref.Hist(1, 3600 * 10 ** 9, 3)
    for i in range(20000):
        x = ((i + 1) * 0x9E3779B97F4A7C15) & M64
        bits = 1 + i % 32
        h.record(1 + ((x >> 20) % (1 << bits)))
    h.record(12000, 700)
    h.record(1000000, 300)
    h.record(3600 * 10 ** 9, 3)
    return h


def golden_a():
    h = hdr_ref.Hist(1, 3600 * 10 ** 9, 3)
    for v, n in ((1, 1), (100, 2), (1000000, 1)):
        h.record(v, n)
    return h


def main():
    outs = {
        "golden_a_r1_t5.hgrm": hdr_ref.hgrm(golden_a(), 1.0, 5),
        "golden_a_r1e6_t5.hgrm": hdr_ref.hgrm(golden_a(), 1e6, 5),
        "dataset_b_r1_t5.hgrm": hdr_ref.hgrm(dataset_b(), 1.0, 5),
        "dataset_b_r1e3_t10.hgrm": hdr_ref.hgrm(dataset_b(), 1e3, 10),
    }
    for name, text in outs.items():
        with open(os.path.join(HERE, name), "w") as f:
            f.write(text)
        print(name, text.count("\n"), "lines")


if __name__ == "__main__":
    main()
