#!/usr/bin/env python
"""Run the project's notebooks as tests, the way `nbdev-test` does, with a per-notebook report.

Each notebook runs through `nbdev.test.test_nb` (so `#| slow`-style flags, `skip_exec` front matter,
`.notest` files and the `[tool.nbdev]` config behave as in `nbdev-test`) in its own fresh process,
forked from a server that has already imported torch, at most `--n-workers` at a time (default 2,
each limited to one OpenMP thread unless OMP_NUM_THREADS is set). Prints one line per notebook as it finishes,
`PASS 0.8s nbs/00_core.ipynb [1/54]` or `FAIL 3.1s nbs/02_x.ipynb [2/54]` followed by that notebook's output
(and, when 30 s pass without a line, which notebooks are running and for how long), and
ends with the line `notebooks: N passed, M failed`. Exits 1 if any notebook failed (or none ran).

    python scripts/run_nbs.py                      # every notebook under nbs/
    python scripts/run_nbs.py --flags slow         # also run `#| slow` cells
    python scripts/run_nbs.py nbs/00_core.ipynb nbs/01_pipes.core.ipynb
    python scripts/run_nbs.py --executed _docs/executed   # also keep the executed notebooks (the docs site's input)
"""
from __future__ import annotations
import argparse, json, multiprocessing as mp, multiprocessing.connection, os, shutil, sys, tempfile, time
from pathlib import Path


# Imported once, before any notebook runs (a missing one is skipped): slow-to-import dependencies.
# torch._dynamo is pulled in by the first optimizer step, matplotlib_inline by the notebook shell.
PRELOAD = ['numpy', 'torch', 'torch._dynamo', 'torch.optim', 'gymnasium', 'pandas', 'matplotlib_inline.backend_inline',
           'IPython', 'execnb.shell', 'nbdev.test', 'fastprogress']


def _child(fn: str, flags: str, log: str) -> None:
    "Run one notebook in this (fresh) process, output to `log`; exit status 0 on success."
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(fd, 1); os.dup2(fd, 2); os.close(fd)
    ok = False
    try:
        # forked, not started afresh: give numpy's global RNG a fresh seed as a new process would have
        if 'numpy' in sys.modules: sys.modules['numpy'].random.seed()
        from nbdev.config import get_config, import_obj
        from nbdev.test import test_nb, nb_test_cells
        from fastcore.xtras import working_directory
        fn = Path(fn).absolute()
        cfg = get_config(fn.parent)
        skip_flags = cfg.tst_flags
        if isinstance(skip_flags, str): skip_flags = skip_flags.split()
        force_flags = flags.split()
        wd = cfg.nbs_path if cfg.nbs_path and Path(cfg.nbs_path).exists() else os.getcwd()
        save = os.environ.get('FASTRL_EXECUTED_DIR')   # --executed DIR: keep the executed notebook (outputs) for the docs
        if save:
            import nbdev.test
            from fastcore.nbio import write_nb
            nbdev.test.write_nb = lambda nb, f: write_nb(nb, Path(save)/Path(f).name)   # never the source notebook
        with working_directory(wd):
            setup = cfg.get('test_setup')
            if setup: import_obj(setup)(nb_test_cells(fn, skip_flags, force_flags))
            ok, _ = test_nb(fn, skip_flags=skip_flags, force_flags=force_flags, basepath=cfg.config_path, save=bool(save),
                            cell_timeout=cfg.cell_timeout or None, cell_timing_min=cfg.get('cell_timing_min'))
    except BaseException:
        import traceback; traceback.print_exc()
    finally:
        sys.stdout.flush(); sys.stderr.flush()
    os._exit(0 if ok else 1)   # skip interpreter teardown: leftover threads of a notebook can't hang the exit


def _find(paths: list[str]) -> list[Path]:
    "Notebooks to test, selected like `nbdev-test` (skips `_*`/`.*` files and folders, and `.notest` dirs)."
    from nbdev.config import get_config
    from nbdev.doclinks import nbglob
    if not paths: paths = [str(get_config().nbs_path)]
    out = []
    for p in paths:
        p = Path(p)
        if p.is_dir(): fs = [Path(f) for f in nbglob(p, as_path=True, symlinks=False)]
        elif p.is_file(): fs = [p]
        else: sys.exit(f"run_nbs: no such notebook or folder: {p}")
        out += [f for f in fs if not (f.parent / '.notest').exists()]
    seen, res = set(), []
    for f in sorted(out, key=lambda f: str(f)):
        k = f.resolve()
        if k not in seen: seen.add(k); res.append(f)
    # Longest first (the seconds each took in the last recorded run, DURATIONS): two workers then end together
    # instead of one running a long notebook alone at the end. A notebook not recorded counts as a long one.
    try: took = json.loads(DURATIONS.read_text())
    except (OSError, ValueError): took = {}
    return sorted(res, key=lambda f: -took.get(f.name, 1e9))


DURATIONS = Path(__file__).resolve().parent / 'nb_durations.json'

def _record(results: list):
    "Write the seconds each notebook of a whole passing run took to DURATIONS (`--record`)."
    DURATIONS.write_text(json.dumps({Path(fn).name: round(t, 1) for fn, ok, t in sorted(results, key=lambda r: -r[2])},
                                    indent=0) + '\n')


def _rel(f: Path) -> str:
    try: return str(f.resolve().relative_to(Path.cwd().resolve()))
    except ValueError: return str(f)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('paths', nargs='*', help='notebooks or folders (default: the nbdev nbs_path)')
    ap.add_argument('--flags', default='', help='space-separated test flags to run, e.g. "slow"')
    ap.add_argument('--n-workers', '--n_workers', type=int, default=int(os.environ.get('FASTRL_TEST_WORKERS', 2)),
                    help='notebooks run at once (default 2, or $FASTRL_TEST_WORKERS)')
    ap.add_argument('--record', action='store_true', help=f'write the seconds each notebook took to {DURATIONS.name} (longest run first next time)')
    ap.add_argument('--timeout', type=float, default=None, help='seconds allowed per notebook (default: none)')
    ap.add_argument('--executed', default=None, help='folder to write each passing notebook, with its outputs, to (for scripts/build_docs.py)')
    a = ap.parse_args(argv)
    if a.executed: os.makedirs(a.executed, exist_ok=True); os.environ['FASTRL_EXECUTED_DIR'] = os.path.abspath(a.executed)

    files = _find(a.paths)
    if not files:
        print("run_nbs: no notebooks found", file=sys.stderr)
        print("notebooks: 0 passed, 0 failed")
        return 1
    n = max(1, min(a.n_workers, len(files)))
    # Small nets on a small machine: one intra-op thread per notebook is as fast as more, and several
    # notebooks each spinning several OpenMP threads on 2 cores slow down many times over.
    for v in ('OMP_NUM_THREADS', 'MKL_NUM_THREADS', 'OPENBLAS_NUM_THREADS'): os.environ.setdefault(v, '1')
    # Likewise inductor (the notebooks that compile): a pool of compile workers, each a fresh interpreter importing torch,
    # costs more than it gives where the notebooks already take the cores; compile in the notebook's own process
    os.environ.setdefault('TORCHINDUCTOR_COMPILE_THREADS', '1')
    os.environ['PYTHONUNBUFFERED'] = '1'
    # Each notebook gets a fresh process, forked from a server that has already imported torch & nbdev
    if 'forkserver' in mp.get_all_start_methods():
        ctx = mp.get_context('forkserver')
        ctx.set_forkserver_preload(PRELOAD)
    else: ctx = mp.get_context('spawn')
    flags = f" --flags {a.flags!r}" if a.flags else ''
    print(f"testing {len(files)} notebook(s) with {n} worker(s){flags}", flush=True)

    t0, results, todo, running = time.time(), [], list(files), {}
    last = [time.time()]   # when a line was last printed: a long notebook still says it runs, every 30 s
    tmp = tempfile.mkdtemp(prefix='run_nbs-')
    def finish(p, ok, note=''):
        fn, start, log = running.pop(p)
        results.append((fn, ok, time.time() - start))
        print(f"{'PASS' if ok else 'FAIL'} {time.time() - start:.1f}s {_rel(fn)} [{len(results)}/{len(files)}]", flush=True)
        last[0] = time.time()
        if not ok:
            out = Path(log).read_text(errors='replace').rstrip() + note
            print('    ' + (out.strip() or '(no output)').replace('\n', '\n    '), flush=True)
    try:
        while todo or running:
            while todo and len(running) < n:
                fn = todo.pop(0)
                log = os.path.join(tmp, f"{len(results) + len(running)}.log")
                p = ctx.Process(target=_child, args=(str(fn.absolute()), a.flags, log), daemon=False)
                p.start()
                running[p] = (fn, time.time(), log)
            mp.connection.wait([p.sentinel for p in running], timeout=1)
            if time.time() - last[0] >= 30:
                print('     running: ' + ', '.join(f"{_rel(f)} ({time.time() - s:.0f}s)" for f, s, _ in running.values()),
                      flush=True)
                last[0] = time.time()
            for p in list(running):
                if not p.is_alive():
                    p.join()
                    code = p.exitcode
                    finish(p, code == 0, '' if code in (0, 1) else f"\n[notebook process died: exit code {code}]")
                elif a.timeout and time.time() - running[p][1] > a.timeout:
                    p.kill(); p.join()
                    finish(p, False, f"\n[timed out after {a.timeout:.0f}s]")
    except KeyboardInterrupt:
        for p in running: p.kill()
        print("\nrun_nbs: interrupted", file=sys.stderr)
        return 130
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    failed = [fn for fn, ok, _ in results if not ok]
    if a.record and not failed: _record(results)
    print(f"total {time.time() - t0:.1f}s")
    if failed:
        print("failed notebooks:\n" + ''.join(f"    {_rel(f)}\n" for f in sorted(failed)), end='')
    print(f"notebooks: {len(results) - len(failed)} passed, {len(failed)} failed", flush=True)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
