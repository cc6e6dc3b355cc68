#!/usr/bin/env python
"""Build fastrl's documentation site from the executed notebooks (the nbdev way without quarto).

    python scripts/build_docs.py _docs/executed _docs/site

Input: the notebooks of nbs/ with their outputs, as `scripts/run_nbs.py --executed DIR` writes them while it
tests them (so a site is never built from notebooks that failed, and the docs show what the tests ran).
Output: one HTML page per notebook in notebook order (title and summary from its first cell; markdown cells as
prose; code cells highlighted; `#| export` cells folded under their `show_doc` reference; `#| hide` cells and
`#| default_exp` left out; outputs: show_doc tables, text, tables, plots, images), an API index of every
exported name linking to its `show_doc` entry, and README.md as the home page, with navigation on every page.
"""
from __future__ import annotations
import argparse, ast, base64, html, json, re, shutil, sys
from pathlib import Path

import markdown
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

ROOT = Path(__file__).resolve().parent.parent
DIRECTIVE = re.compile(r'^\s*#\|\s*(.*?)\s*$')
ANSI = re.compile(r'\x1b\[[0-9;?]*[A-Za-z]')
QUARTO_ATTR = re.compile(r'\{target="_blank"[^}]*\}')
SHOW_DOC = re.compile(r'^(show_doc\(.*\)\s*)+$', re.S)   # a cell that only calls show_doc: its output is what the reader wants
CSS = """
body{margin:0;font:15px/1.55 -apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#1f2328;display:flex}
nav{width:250px;min-width:250px;height:100vh;position:sticky;top:0;overflow-y:auto;background:#f6f8fa;border-right:1px solid #d0d7de;padding:16px 0}
nav a{display:block;padding:3px 18px;color:#0969da;text-decoration:none;font-size:14px}nav a:hover{background:#eaeef2}
nav a.here{font-weight:600;color:#1f2328;background:#ddf4ff}nav .brand{font-size:20px;font-weight:700;color:#1f2328;padding:0 18px 10px}
main{max-width:980px;padding:24px 40px 80px;overflow-x:auto;flex:1}
h1{border-bottom:1px solid #d0d7de;padding-bottom:6px}.summary{color:#57606a;font-size:17px;margin-top:-8px}
pre{background:#f6f8fa;border:1px solid #d0d7de;border-radius:6px;padding:10px 12px;overflow-x:auto;font-size:13px;line-height:1.45}
pre.out{background:#fff;border-left:3px solid #8c959f;border-radius:0}
table{border-collapse:collapse;margin:8px 0;font-size:13px}td,th{border:1px solid #d0d7de;padding:4px 8px;text-align:left}
th{background:#f6f8fa}img{max-width:100%}details{margin:6px 0}summary{cursor:pointer;color:#57606a;font-size:13px}
code{font-family:SFMono-Regular,Consolas,monospace;font-size:90%}.cell{margin:10px 0}.doc{border-left:3px solid #0969da;padding-left:12px}
"""


def directives(src:str)->list: return [m.group(1) for l in src.splitlines() if (m := DIRECTIVE.match(l))]
def strip_directives(src:str)->str: return '\n'.join(l for l in src.splitlines() if not DIRECTIVE.match(l)).strip('\n')
CODE = re.compile(r'(```.*?```|`[^`\n]*`)', re.S)
MATH = re.compile(r'\$\$(.+?)\$\$|(?<![\\$\w])\$(?!\s)([^$\n]+?)(?<![\s\\])\$(?![\w$])', re.S)

def mathml(tex:str, display:bool)->str:
    "LaTeX as MathML, which browsers render without a script or a network (the raw LaTeX where it cannot be converted)."
    from latex2mathml.converter import convert
    try: return convert(tex.strip(), display='block' if display else 'inline')
    except Exception: return html.escape(f"$${tex}$$" if display else f"${tex}$")

def md(s:str)->str:
    "Markdown as HTML, with `$...$` and `$$...$$` math as MathML (not inside code)."
    maths = []
    def keep(m):
        maths.append(mathml(m.group(1) if m.group(1) is not None else m.group(2), m.group(1) is not None))
        return f"MATHPLACEHOLDER{len(maths) - 1}X"
    parts = CODE.split(s)
    s = ''.join(p if i % 2 else MATH.sub(keep, p) for i, p in enumerate(parts))
    out = markdown.markdown(s, extensions=['tables', 'fenced_code', 'codehilite', 'toc'],
                            extension_configs={'codehilite': {'guess_lang': False}})
    return re.sub(r'MATHPLACEHOLDER(\d+)X', lambda m: maths[int(m.group(1))], out)
def src_of(c:dict)->str: return ''.join(c['source']) if isinstance(c['source'], list) else c['source']
def text_of(v)->str: return ''.join(v) if isinstance(v, list) else v


def clean_stream(t:str)->str:
    "Terminal text as a file shows it: ANSI codes dropped, a `\\r`-redrawn line reduced to its last state."
    return '\n'.join(l.split('\r')[-1] for l in ANSI.sub('', t).split('\n'))


def render_output(o:dict)->str:
    kind = o.get('output_type')
    if kind == 'stream': return f'<pre class="out">{html.escape(clean_stream(text_of(o["text"])))}</pre>'
    if kind == 'error': return '<pre class="out">' + html.escape(ANSI.sub('', '\n'.join(o.get('traceback', [])))) + '</pre>'
    d = o.get('data', {})
    if 'text/markdown' in d:   # show_doc: the API reference (its quarto-only link attributes dropped)
        return f'<div class="doc">{md(QUARTO_ATTR.sub("", text_of(d["text/markdown"])))}</div>'
    if 'image/png' in d: return f'<img src="data:image/png;base64,{text_of(d["image/png"]).strip()}">'
    if 'text/html' in d: return text_of(d['text/html'])
    if 'text/plain' in d: return f'<pre class="out">{html.escape(text_of(d["text/plain"]))}</pre>'
    return ''


def render_nb(nb:dict)->tuple:
    "(title, summary, html body) of an executed notebook."
    title, summary, parts = None, '', []
    for c in nb['cells']:
        s = src_of(c)
        if c['cell_type'] == 'markdown':
            if title is None and s.lstrip().startswith('# '):   # nbdev's title cell: `# Title` and `> summary`
                lines = s.strip().splitlines()
                title = lines[0][2:].strip()
                summary = ' '.join(l[1:].strip() for l in lines[1:] if l.startswith('>'))
                rest = '\n'.join(l for l in lines[1:] if not l.startswith('>'))
                if rest.strip(): parts.append(md(rest))
                continue
            parts.append(md(s)); continue
        if c['cell_type'] != 'code': continue
        ds = directives(s)
        if any(d == 'hide' or d.startswith('default_exp') for d in ds): continue
        code = strip_directives(s)
        src_html = highlight(code, PythonLexer(), HtmlFormatter()) if code.strip() and not SHOW_DOC.match(code.strip()) else ''
        if any(d.startswith('export') for d in ds):
            src_html = f'<details><summary>source</summary>{src_html}</details>' if src_html else ''
        outs = ''.join(render_output(o) for o in c.get('outputs', []))
        if src_html or outs: parts.append(f'<div class="cell">{src_html}{outs}</div>')
    return title, summary, '\n'.join(parts)


def page(title:str, body:str, nav:list, here:str, summary:str='')->str:
    links = ''.join(f'<a href="{href}"{" class=here" if href == here else ""}>{html.escape(t)}</a>' for href, t in nav)
    summary = md(summary).removeprefix('<p>').removesuffix('</p>') if summary else ''   # inline markdown (`code`)
    head = f'<h1>{html.escape(title)}</h1>' + (f'<p class="summary">{summary}</p>' if summary else '')
    return (f'<!doctype html><html><head><meta charset="utf-8"><title>{html.escape(title)} · fastrl</title>'
            f'<style>{CSS}{HtmlFormatter().get_style_defs([".codehilite", ".highlight"])}</style></head>'
            f'<body><nav><div class="brand">fastrl</div>{links}</nav><main>{head}{body}</main></body></html>')


def api_index(module_pages:dict)->str:
    "Every exported name (from fastrl/_modidx.py), grouped by module, linked to its show_doc entry on the module's page."
    from markdown.extensions.toc import slugify
    d = ast.literal_eval((ROOT/'fastrl'/'_modidx.py').read_text().split('d = ', 1)[1])
    out = []
    for mod, syms in sorted(d['syms'].items()):
        href = module_pages.get(mod[len('fastrl.'):])
        if href is None: continue
        items = [f'<a href="{href}#{slugify(short, "-")}"><code>{html.escape(short)}</code></a>'
                 for short in sorted(n[len(mod) + 1:] for n in syms) if not short.split('.')[-1].startswith('_')]
        if items: out.append(f'<h3><a href="{href}">{html.escape(mod)}</a></h3><p>' + ' · '.join(items) + '</p>')
    return '\n'.join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('executed', help='folder of executed notebooks (scripts/run_nbs.py --executed)')
    ap.add_argument('out', help='site folder to write (replaced)')
    a = ap.parse_args(argv)
    src = sorted((ROOT/'nbs').glob('*.ipynb'))
    missing = [p.name for p in src if not (Path(a.executed)/p.name).exists()]
    if missing: sys.exit(f"build_docs: no executed copy of {', '.join(missing)} in {a.executed} (did its test fail?)")
    out = Path(a.out)
    if out.exists(): shutil.rmtree(out)
    out.mkdir(parents=True)
    rendered, module_pages = [], {}
    for p in src:
        nb = json.loads((Path(a.executed)/p.name).read_text())
        title, summary, body = render_nb(nb)
        href = p.stem + '.html'
        for c in nb['cells']:   # the module the notebook exports to, for the API index
            for d in directives(src_of(c)) if c['cell_type'] == 'code' else ():
                if d.startswith('default_exp'): module_pages[d.split()[1]] = href
        rendered.append((href, title or p.stem, summary, body))
    nav = [('index.html', 'Home')] + [(h, t) for h, t, _, _ in rendered] + [('api.html', 'API index')]
    readme = (ROOT/'README.md').read_text()
    (out/'index.html').write_text(page('fastrl', md(readme.split('\n', 1)[1]), nav, 'index.html'))
    for href, title, summary, body in rendered: (out/href).write_text(page(title, body, nav, href, summary))
    (out/'api.html').write_text(page('API index', api_index(module_pages), nav, 'api.html', 'Every exported name, by module'))
    print(f"build_docs: {len(rendered) + 2} pages in {out}")


if __name__ == '__main__':
    main()
