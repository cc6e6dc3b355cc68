#!/usr/bin/env python
"""Build fastrl's documentation site with Sphinx and MyST-NB from the executed notebooks.

    python scripts/build_docs.py _docs/executed _docs/site

Input: the notebooks of nbs/ with their outputs, as `scripts/run_nbs.py --executed DIR` writes them while it tests
them (a site is never built from notebooks that failed, and the docs show what the tests ran; a notebook missing
there is taken from nbs/ without outputs).
Steps:
1. A Sphinx source folder (`_docs/src`): each notebook with nbdev's `#|` directives mapped to MyST-NB cell tags
   (`DIRECTIVE_TAGS`: hide and export cells left out, `show_doc` cells shown by their output only); the README as
   the home page; on each algorithm's page its benchmark curves and table from `bench/results/`; an API reference page
   per module with an autodoc entry for every name in its `__all__`; grouped navigation (`GROUPS`).
2. `sphinx-build` with the Furo theme: search (Sphinx's own index, no network), grouped navigation, the API pages.
`scripts/check_site.py` then checks every internal link and anchor of the result, and that every exported name has
its API entry.
"""
from __future__ import annotations
import argparse, hashlib, importlib, json, re, shutil, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIRECTIVE = re.compile(r'^\s*#\|\s*(.*?)\s*$')
# nbdev's cell directives as MyST-NB tags: what a reader of the page sees of each cell
DIRECTIVE_TAGS = {'hide': 'remove-cell', 'export': 'remove-cell', 'exporti': 'remove-cell', 'exports': 'remove-input',
                  'default_exp': 'remove-cell', 'slow': 'remove-cell', 'eval: false': 'remove-output',
                  'hide_input': 'remove-input', 'hide_output': 'remove-output'}
SHOW_DOC = re.compile(r'^(show_doc\(.*\)\s*)+$', re.S)   # a cell that only calls show_doc: its output is the point
# show_doc's link to the source on GitHub (the project's placeholder repository here), with quarto's attributes
SOURCE_LINK = re.compile(r'\[source\]\([^)]*\)(\{[^}]*\})?')
# navigation: (caption, test on the notebook's file name)
GROUPS = [('Get started', lambda n: n.startswith(('90_', '91_', '92_', '93_', '95_'))),
          ('Tutorials', lambda n: n.startswith(('39_', '40_', '41_', '42_', '43_', '44_'))),
          ('Algorithms', lambda n: n.startswith(('29', '3')) and '_algos' in n),
          ('Experiments', lambda n: n.startswith('2') and '_experiments' in n or n.startswith(('22', '24'))),
          ('Building blocks', lambda n: n[:2].isdigit() and int(n[:2]) < 20)]
SKIP = ('98_testing',)   # fixtures of the tests, not part of the library's API
# each algorithm page's benchmark: (results file prefix in bench/results/mujoco, table row label)
BENCH = {'32_algos.vpg': ('onpolicy', 'VPG'), '33_algos.ppo': ('onpolicy', 'PPO'), '34_algos.trpo': ('onpolicy', 'TRPO'),
         '35_algos.ddpg': ('offpolicy', 'DDPG'), '36_algos.td3': ('offpolicy', 'TD3'), '37_algos.sac': ('offpolicy', 'SAC')}
# a like-for-like study of the algorithm against SB3 at RL Zoo's settings: (results file prefix, row label, what it is)
LIKE_FOR_LIKE = {'33_algos.ppo': ('zoo', 'PPO', "fastrl's PPO configured to SB3's maths against SB3's PPO, both at RL "
                                                "Zoo's tuned Hopper settings (`bench/mujoco/study.py zoo`)")}


def tag_cells(nb:dict)->dict:
    "`nb` with each cell's nbdev directives as MyST-NB tags (the directive lines themselves dropped)."
    for c in nb['cells']:
        if c['cell_type'] != 'code': continue
        lines = ''.join(c['source']).splitlines(keepends=True)
        tags, keep = set(c.get('metadata', {}).get('tags', [])), []
        for l in lines:
            m = DIRECTIVE.match(l)
            if m and not keep:   # directives open a cell
                word = m[1].split()[0] if m[1] else ''
                key = m[1] if m[1] in DIRECTIVE_TAGS else word
                if key in DIRECTIVE_TAGS: tags.add(DIRECTIVE_TAGS[key])
                continue
            keep.append(l)
        src = ''.join(keep)
        if SHOW_DOC.match(src.strip() or 'x'): tags.add('remove-input')
        if not src.strip(): tags.add('remove-cell')
        c['source'] = src.splitlines(keepends=True)
        c.setdefault('metadata', {})['tags'] = sorted(tags)
        c['metadata'].pop('execution', None)   # the test run's cell timings: nbformat's schema wants strings there
        for o in c.get('outputs', []):
            md = (o.get('data') or {}).get('text/markdown')
            if md is not None:
                md = SOURCE_LINK.sub('', ''.join(md) if isinstance(md, list) else md)
                o['data']['text/markdown'] = re.sub(r'^---\s*$', '', md, flags=re.M)   # show_doc's rules: not inside an output
    return nb


def md_cell(text:str)->dict:
    "A Markdown cell (its id from its text: nbformat 4.5 wants one)."
    return {'cell_type': 'markdown', 'id': hashlib.sha1(text.encode()).hexdigest()[:8], 'metadata': {},
            'source': text.splitlines(keepends=True)}


# each algorithm page's single-environment studies against SB3: bench/results/NAME.json (its `means` per method)
SMALL = {'32_algos.vpg': ['vpg_cartpole'], '33_algos.ppo': ['ppo_cartpole', 'ppo_pendulum', 'ppo_halfcheetah'],
         '34_algos.trpo': ['trpo_cartpole'], '35_algos.ddpg': ['ddpg_pendulum'], '36_algos.td3': ['td3_pendulum'],
         '37_algos.sac': ['sac_pendulum'], '37b_algos.crossq': ['crossq_pendulum'],
         '38_algos.dqn': ['dqn_cartpole_speed_final', 'dqn_lunarlander']}


def small_section(stem:str)->list:
    "Markdown lines: the page's single-environment studies, one row per method of each results file."
    rows = []
    for name in SMALL.get(stem, []):
        p = ROOT/'bench'/'results'/f'{name}.json'
        if not p.exists(): continue
        d = json.loads(p.read_text())
        env = (d.get('config') or {}).get('env') or (d.get('config') or {}).get('env_id') or ''
        for method, m in (d.get('means') or {}).items():
            if not isinstance(m, dict) or 'mean_return' not in m: continue
            rows.append(f"| `bench/results/{name}.json` {env} | {method} | {m.get('n_seeds', '?')} | "
                        f"{m['mean_return']:.1f} ± {m.get('std_return', float('nan')):.1f} | {m.get('steps_per_s', float('nan')):.0f} |")
    if not rows: return []
    return ['### Single-environment studies', '',
            'Each against Stable-Baselines3 (and a hand-written loop where there is one) in the same script; the return '
            'is the mean over seeds of 10 deterministic episodes of the final policy (the README lists the commands).', '',
            '| results | method | seeds | return (mean ± std over seeds) | env steps/s |', '|---|---|---:|---:|---:|', *rows, '']


def bench_section(stem:str, src:Path)->dict|None:
    "A markdown cell with the benchmark curves and table rows of the algorithm page `stem`, or None."
    if stem not in BENCH:
        small = small_section(stem)
        return md_cell('\n'.join(['## Benchmark', '', *small])) if small else None
    fam, label = BENCH[stem]
    d = ROOT/'bench'/'results'/'mujoco'
    fig, table = d/f'{fam}_{label.lower()}.png', d/f'{fam}_table.md'
    if not table.exists(): return None
    rows = table.read_text().splitlines()
    body = [r for r in rows[2:] if r.startswith(f'| {label} |')]
    (src/'_static').mkdir(exist_ok=True)
    text = [f'## Benchmark', '',
            f"Spinning Up's MuJoCo benchmark tasks, fastrl against Stable-Baselines3 (`bench/mujoco/study.py {fam}`; "
            "the README's benchmark section gives the settings and the commands).", '']
    curves = d/f'{fam}_curves.png'
    if curves.exists():   # every algorithm of the study: the return against env steps, per task
        shutil.copy2(curves, src/'_static'/curves.name)
        text += [f'![learning curves of the {fam} study](_static/{curves.name})', '']
    if fig.exists():      # this algorithm's final scores: IQM with 95 % intervals per task, and P(fastrl > SB3)
        shutil.copy2(fig, src/'_static'/fig.name)
        text += [f'![{label}: final scores per task](_static/{fig.name})', '']
    text += [rows[0], rows[1], *body, '']
    if stem in LIKE_FOR_LIKE and (z := d/f'{LIKE_FOR_LIKE[stem][0]}_table.md').exists():
        zrows = z.read_text().splitlines()
        text += ['### Like for like', '', LIKE_FOR_LIKE[stem][2] + ':', '', zrows[0], zrows[1],
                 *[r for r in zrows[2:] if r.startswith(f'| {LIKE_FOR_LIKE[stem][1]} |')], '']
    text += small_section(stem)
    return md_cell('\n'.join(text))


def api_pages(src:Path)->list:
    "One page per module of fastrl with an autodoc entry for each name of its `__all__`; the page names."
    out = []
    (src/'api').mkdir(exist_ok=True)
    mods = sorted(p for p in (ROOT/'fastrl').rglob('*.py') if p.name not in ('__init__.py', '_modidx.py'))
    for p in mods:
        mod = '.'.join(p.relative_to(ROOT).with_suffix('').parts)
        if mod.endswith('testing'): continue
        try: m = importlib.import_module(mod)
        except Exception as e: print(f'api: skipping {mod}: {e}', file=sys.stderr); continue
        names = [n for n in getattr(m, '__all__', []) if getattr(getattr(m, n, None), '__module__', mod) == mod]
        if not names: continue
        lines = [f'# `{mod}`', '', (m.__doc__ or '').strip(), '', f'```{{eval-rst}}', f'.. currentmodule:: {mod}', '']
        for n in names:
            o = getattr(m, n)
            if isinstance(o, type): lines += [f'.. autoclass:: {n}', '   :members:', '   :undoc-members:', '']
            elif callable(o): lines += [f'.. autofunction:: {n}', '']
            else:   # a constant: its value (a dict's or list's own docstring says nothing of it)
                v = repr(o); v = v if len(v) <= 100 else v[:97] + '...'
                lines += [f'.. py:data:: {n}', f'   :value: {v}', '']
        lines += ['```', '']
        (src/'api'/f'{mod}.md').write_text('\n'.join(lines))
        out.append(f'api/{mod}')
    return out


CONF = r'''
project = 'fastrl'
author = 'the fastrl developers'
copyright = 'the fastrl developers'
extensions = ['myst_nb', 'sphinx.ext.autodoc', 'sphinx.ext.napoleon']
html_theme = 'furo'
html_title = 'fastrl'
html_static_path = ['_static']
exclude_patterns = ['_build', '**.ipynb_checkpoints', 'readme.md']
nb_execution_mode = 'off'          # the notebooks were executed by the test run
nb_output_stderr = 'remove'
myst_enable_extensions = ['dollarmath', 'amsmath', 'colon_fence', 'html_image']
myst_heading_anchors = 3
autodoc_member_order = 'bysource'
autodoc_inherit_docstrings = False  # a method without its own docstring shows none (not gymnasium's or torch's)
default_role = 'code'               # fastrl's docstrings write `name` for code, as Markdown does
autodoc_typehints = 'description'
autodoc_default_options = {'exclude-members': '__init__, __iter__, __weakref__, __dict__, __module__, set'}
suppress_warnings = ['myst.header', 'myst.xref_missing', 'mystnb.unknown_mime_type', 'misc.highlighting_failure',
                     'autodoc', 'toc.not_included', 'ref.python', 'myst.domains', 'duplicate_declaration']

import re
_TICKED = re.compile(r'(`[^`]+`)')
def _plain_docstring(app, what, name, obj, options, lines):
    "fastrl's docstrings are Markdown-like: outside `code`, a * or | is text, not reStructuredText markup."
    if not (getattr(obj, '__module__', None) or '').startswith('fastrl'): return
    for i, line in enumerate(lines):
        parts = _TICKED.split(line)
        for j, p in enumerate(parts):
            if p.startswith('`'):   # `Name`s: code then a letter needs an escaped space between (reStructuredText)
                nxt = parts[j + 1][:1] if j + 1 < len(parts) else ''
                if nxt and not (nxt.isspace() or nxt in "-.,:;!?/'\")]}>"): parts[j] = p + '\\ '
                if j and parts[j - 1][-1:].isalnum(): parts[j] = '\\ ' + parts[j]
            else: parts[j] = p.replace('\\', '\\\\').replace('*', '\\*').replace('|', '\\|')
        lines[i] = ''.join(parts)
def setup(app): app.connect('autodoc-process-docstring', _plain_docstring)
'''


def readme_page(src:Path)->str:
    "The README as the home page, with the images it shows copied beside it."
    text = (ROOT/'README.md').read_text()
    (src/'_static').mkdir(exist_ok=True)
    def img(m):
        p = ROOT/m[2]
        if p.exists(): shutil.copy2(p, src/'_static'/p.name); return f'{m[1]}(_static/{p.name})'
        return m[0]
    text = re.sub(r'(!\[[^\]]*\])\(([^)\s]+\.(?:png|gif|svg))\)', img, text)
    # links to notebooks point to their pages
    return re.sub(r'\]\(nbs/([\w.]+)\.ipynb\)', r'](\1.ipynb)', text)


def build_source(executed:Path, src:Path)->dict:
    "Write the Sphinx source folder; returns `{group caption: [page names]}`."
    if src.exists(): shutil.rmtree(src)
    src.mkdir(parents=True); (src/'_static').mkdir()
    (src/'conf.py').write_text(CONF)
    pages = {g: [] for g, _ in GROUPS}
    for p in sorted((ROOT/'nbs').glob('*.ipynb')):
        stem = p.stem
        if stem in SKIP: continue
        nb = json.loads(((executed/p.name) if (executed/p.name).exists() else p).read_text())
        nb = tag_cells(nb)
        nb.setdefault('metadata', {}).update(kernelspec={'name': 'python3', 'display_name': 'Python 3', 'language': 'python'},
                                             language_info={'name': 'python'})
        extra = bench_section(stem, src)
        if extra is not None: nb['cells'].append(extra)
        (src/p.name).write_text(json.dumps(nb))
        group = next((g for g, test in GROUPS if test(stem)), 'Building blocks')
        pages[group].append(stem)
    (src/'readme.md').write_text(readme_page(src))
    api = api_pages(src)
    # the home page is the README (included: readme.md itself is no page, see exclude_patterns), then the navigation
    toc = ['```{include} readme.md', '```', '']
    for g, names in [(g, pages[g]) for g, _ in GROUPS] + [('API', api)]:
        toc += ['```{toctree}', f':caption: {g}', ':maxdepth: 1', ':hidden:', '', *names, '```', '']
    (src/'index.md').write_text('\n'.join(toc))
    return pages


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('executed', type=Path, help='folder of executed notebooks (scripts/run_nbs.py --executed)')
    ap.add_argument('site', type=Path, help='output folder of the HTML site')
    ap.add_argument('--src', type=Path, default=None, help='Sphinx source folder to write (default: SITE/../src)')
    a = ap.parse_args(argv)
    t0 = time.time()
    src = a.src or a.site.parent/'src'
    pages = build_source(a.executed, src)
    from sphinx.cmd.build import build_main
    if a.site.exists(): shutil.rmtree(a.site)
    rc = build_main(['-b', 'html', '-q', '-j', 'auto', '-d', str(a.site.parent/'doctrees'), str(src), str(a.site)])
    if rc: sys.exit(rc)
    n = sum(len(v) for v in pages.values())
    print(f'docs site: {n} notebook pages, API reference, search; {a.site}/index.html ({time.time() - t0:.0f} s)')


if __name__ == '__main__': main()
