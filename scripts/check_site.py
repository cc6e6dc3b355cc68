#!/usr/bin/env python
"""Check a built documentation site: every internal link leads to a page that exists and, with a `#fragment`, to an
element with that id; every name in a module's `__all__` has its API entry; the search page and index exist.

    python scripts/check_site.py _docs/site

Prints the broken links (page, link) and missing entries, and exits 1 if there are any.
"""
from __future__ import annotations
import importlib, sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent


class _Page(HTMLParser):
    "The ids and the link targets (href, src) of one HTML page."
    def __init__(self):
        super().__init__(convert_charrefs=True); self.ids, self.links = set(), []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get('id'): self.ids.add(a['id'])
        if tag == 'a' and a.get('name'): self.ids.add(a['name'])
        for k in ('href', 'src'):
            if a.get(k) and not (tag == 'link' and k == 'href' and a.get('rel') in ('preconnect', 'dns-prefetch')):
                self.links.append(a[k])


def parse(p:Path)->_Page:
    pg = _Page(); pg.feed(p.read_text(errors='replace')); return pg


def broken_links(site:Path)->list:
    "`(page, link)` of every internal link or resource of `site` whose file or anchor does not exist."
    pages = {p.resolve(): parse(p) for p in site.rglob('*.html')}
    out = []
    for p, pg in pages.items():
        for link in pg.links:
            u = urlsplit(link)
            if u.scheme or u.netloc or link.startswith(('mailto:', 'javascript:', 'data:')): continue
            target = (p.parent/unquote(u.path)).resolve() if u.path else p
            if u.path.endswith('/') or target.is_dir(): target = target/'index.html'
            if not target.exists(): out.append((p.relative_to(site.resolve()), link)); continue
            if u.fragment and target.suffix == '.html':
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(u.fragment) not in ids: out.append((p.relative_to(site.resolve()), link))
    return out


def missing_api(site:Path)->list:
    "`module.name` of every exported name without an entry (an element with that id) on its module's API page."
    out = []
    for py in sorted((ROOT/'fastrl').rglob('*.py')):
        if py.name in ('__init__.py', '_modidx.py'): continue
        mod = '.'.join(py.relative_to(ROOT).with_suffix('').parts)
        if mod.endswith('testing'): continue
        m = importlib.import_module(mod)
        names = [n for n in getattr(m, '__all__', []) if getattr(getattr(m, n, None), '__module__', mod) == mod]
        if not names: continue
        page = site/'api'/f'{mod}.html'
        ids = parse(page).ids if page.exists() else set()
        out += [f'{mod}.{n}' for n in names if f'{mod}.{n}' not in ids]
    return out


def main(argv=None):
    site = Path((argv or sys.argv[1:] or ['_docs/site'])[0])
    bad, miss = broken_links(site), missing_api(site)
    need = [f for f in ('index.html', 'search.html', 'genindex.html') if not (site/f).exists()]
    n_pages = sum(1 for _ in site.rglob('*.html'))
    for page, link in bad: print(f'broken link: {page} -> {link}')
    for name in miss: print(f'no API entry: {name}')
    for f in need: print(f'missing page: {f}')
    print(f'check_site: {n_pages} pages, {len(bad)} broken internal links, {len(miss)} exported names without an API '
          f'entry, {len(need)} missing pages')
    sys.exit(1 if bad or miss or need else 0)


if __name__ == '__main__': main()
