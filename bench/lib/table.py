"""bench/lib/table.py - the table: rows of figure, target and verdict, the per-run detail tables,
and the number formats"""


class Table:
    """Table - rows of metric, jitterscope, baseline, ratio, target, verdict (+ footnotes)"""

    HEADER = ('metric', 'jitterscope', 'baseline', 'ratio', 'target', 'verdict')

    def __init__(self):
        self.rows = []
        self.details = []   # (title, header, rows) sub-tables for the document
        self.notes = []

    def add(self, metric, js, base, rat, target, verdict, contaminated=False):
        if contaminated and verdict in ('PASS', 'FAIL'):
            verdict += '*'
        self.rows.append((metric, js, base, rat, target, verdict))

    def text(self):
        rows = [self.HEADER] + [tuple(str(c) for c in r) for r in self.rows]
        w = [max(len(r[i]) for r in rows) for i in range(6)]
        w[0] = min(w[0], 58)
        lines = []
        for j, r in enumerate(rows):
            lines.append('  '.join(r[i][:w[i]].ljust(w[i]) if i == 0 else r[i].ljust(w[i])
                                   for i in range(6)).rstrip())
            if j == 0:
                lines.append('  '.join('-' * x for x in w))
        return '\n'.join(lines)

    @staticmethod
    def plain(hdr, rows):
        """plain - a sub-table as aligned text"""
        rows = [tuple(str(c) for c in hdr)] + [tuple(str(c) for c in r) for r in rows]
        w = [max(len(r[i]) for r in rows) for i in range(len(hdr))]
        return '\n'.join('  '.join(r[i].ljust(w[i]) for i in range(len(hdr))).rstrip()
                         for r in rows)


def fmt(x, unit='', nd=1):
    """fmt - a number with a unit, '-' for None"""
    if x is None:
        return '-'
    return ('%.' + str(nd) + 'f%s') % (x, unit)


def fmt_ratio(x):
    """fmt_ratio - a ratio as 0.62x"""
    return '-' if x is None else '%.2fx' % x


def check(value, op, target):
    """check - PASS/FAIL of value op target, '-' when not measured"""
    if value is None:
        return 'n/a'
    ok = {'<=': value <= target, '>=': value >= target, '==': value == target}[op]
    return 'PASS' if ok else 'FAIL'


def dirty(runs):
    """dirty - True when another measurement tool ran during any of these runs"""
    return any(r.foreign for r in runs)
