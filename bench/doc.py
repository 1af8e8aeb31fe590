"""bench/doc.py - docs/BENCHMARKS.md from one run of bench/run.py.

The document is the run's own: its header (date, machine, the exact tree as git reports it),
the table and the per-run tables, the notes computed from the runs, and the method text of
bench/BENCHMARKS.md.in filled with the parameters the run used. That template holds no figure
of its own (bench/test_run.py checks it): every number in the document comes from the run.

Template: Markdown with {name} placeholders (letters, digits after the first letter, _) and
block lines '@@ NAME': what follows, up to the next block line, is written only when section
NAME ran ('@@ all': always).
"""

import os
import re
import subprocess
import textwrap

TEMPLATE = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'BENCHMARKS.md.in')
PLACEHOLDER = re.compile(r'\{([A-Za-z_][A-Za-z0-9_]*)\}')


def git_tree(root):
    """git_tree - {'commit': full hash, 'changes': [porcelain lines]} of the tree at root, or
    {'error': why}: uncommitted changes to tracked files and untracked files not ignored"""
    try:
        rev = subprocess.run(['git', '-C', root, 'rev-parse', 'HEAD'], capture_output=True,
                             text=True, check=True).stdout.strip()
        st = subprocess.run(['git', '-C', root, 'status', '--porcelain'], capture_output=True,
                            text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        return {'error': str(e).strip()[:120] or 'git failed'}
    return {'commit': rev, 'changes': [x for x in st.splitlines() if x.strip()]}


def tree_text(before, after=None):
    """tree_text - the header's tree line: the commit and whether it was clean, at the start of
    the run and (when it differs) at its end"""
    def one(t):
        if 'error' in t:
            return 'unknown (%s)' % t['error']
        if not t['changes']:
            return '%s, clean (no uncommitted change)' % t['commit']
        shown = '; '.join(t['changes'][:8])
        more = len(t['changes']) - 8
        return '%s, dirty: %d uncommitted change%s (%s%s)' % (
            t['commit'], len(t['changes']), '' if len(t['changes']) == 1 else 's', shown,
            '; %d more' % more if more > 0 else '')
    text = one(before)
    if after is not None and after != before:
        text += '; at the end of the run: ' + one(after)
    return text


def blocks(text):
    """blocks - [(section, text)] of a template; section 'all' before any block line"""
    out, name, cur = [], 'all', []
    for line in text.splitlines(keepends=True):
        m = re.match(r'^@@\s+(\S+)\s*$', line)
        if m:
            out.append((name, ''.join(cur)))
            name, cur = m.group(1), []
        else:
            cur.append(line)
    out.append((name, ''.join(cur)))
    return [(n, t) for n, t in out if t.strip()]


def fixed_figures(text):
    """fixed_figures - the template's lines that hold a digit outside a placeholder (a figure
    not from the run)"""
    return [line for line in text.splitlines()
            if not line.startswith('@@') and re.search(r'\d', PLACEHOLDER.sub('', line))]


def reflow(text, width=96):
    """reflow - paragraphs and '* ' items wrapped again to width (headings and blank lines
    kept), once the placeholders changed the lines' lengths"""
    out, cur = [], []

    def flush():
        if cur:
            item = cur[0].startswith('* ')
            words = ' '.join(x.strip() for x in cur)
            words = words[2:] if item else words
            out.extend(textwrap.wrap(words, width, initial_indent='* ' if item else '',
                                     subsequent_indent='  ' if item else '',
                                     break_on_hyphens=False, break_long_words=False))
            cur.clear()
    for line in text.splitlines():
        if not line.strip() or line.startswith('#'):
            flush()
            out.append(line)
        elif line.startswith('* '):
            flush()
            cur.append(line)
        else:
            cur.append(line)
    flush()
    return '\n'.join(out) + '\n'


def render(text, params, sections):
    """render - the blocks of the sections that ran, placeholders filled from params (a
    missing one raises KeyError: a template naming a figure the run does not have)"""
    return reflow(''.join(PLACEHOLDER.sub(lambda m: str(params[m.group(1)]), t)
                          for name, t in blocks(text) if name == 'all' or name in sections))


def md_table(header, rows):
    """md_table - a markdown table"""
    out = ['| ' + ' | '.join(str(c) for c in header) + ' |', '|' + '---|' * len(header)]
    out += ['| ' + ' | '.join(str(c).replace('|', '/') for c in r) + ' |' for r in rows]
    return '\n'.join(out)


def document(header, t, params, sections, foreign, template=TEMPLATE):
    """document - the whole Markdown text: header lines, table, missed targets, per-run tables,
    notes, then the method text"""
    with open(template) as f:
        method = render(f.read(), params, sections)
    parts = ['# Benchmarks', '',
             'Last results of `make bench` (`bench/run.py`), written whole by that run.', '']
    parts += ['* ' + h for h in header] + ['', '## Results', '',
                                           md_table(t.HEADER, t.rows), '']
    if foreign:
        parts += ['`*` other measurement tools ran during these runs: %s.' %
                  ', '.join(sorted(foreign)[:12]), '']
    fails = [r for r in t.rows if r[5].startswith('FAIL')]
    if fails:
        parts += ['### Targets missed in this run', '']
        parts += ['* %s: %s against %s (target %s)' % (r[0], r[1], r[2], r[4]) for r in fails]
        parts += ['']
    for title, hdr, rows in t.details:
        parts += ['### ' + title, '', md_table(hdr, rows), '']
    if t.notes:
        parts += ['### Notes from this run', ''] + ['* ' + n for n in t.notes] + ['']
    return '\n'.join(parts) + '\n' + method
