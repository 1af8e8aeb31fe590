"""bench/sections - one module per section of docs/BENCHMARKS.md, each with one row
ROW = (name, summary, fn): bench/run.py walks the rows and calls fn(b, t, c) with the Bench, the
Table and the run's context c (c.reps, c.hz, and c.base: the floor's jitterscope runs, which
scaling reuses)."""
