"""A 4-variant grid through the CLI in series and with `--workers 2`: wall time of each, and whether every
`progress.txt` is byte-identical apart from Time (the runs' numbers may not depend on how they were launched).

    .venv/bin/python bench/workers_speed.py [--epochs 5] [--steps 4000]
"""
import argparse, subprocess, sys, tempfile, time
from pathlib import Path

def table(d):
    rows = [l.rstrip('\n').split('\t') for l in open(d/'progress.txt')]
    i = rows[0].index('Time'); return [r[:i] + r[i+1:] for r in rows]

if __name__ == '__main__':
    p = argparse.ArgumentParser(); p.add_argument('--epochs', default='5'); p.add_argument('--steps', default='4000')
    a = p.parse_args()
    tmp = Path(tempfile.mkdtemp())
    grid = ['ppo', '--env', 'CartPole-v1', '--exp_name', 'w', '--seed', '0', '1', '2', '3', '--epochs', a.epochs,
            '--steps_per_epoch', a.steps, '--quiet']
    secs = {}
    for name, more in (('series', []), ('workers2', ['--workers', '2'])):
        t0 = time.time()
        subprocess.run([sys.executable, '-m', 'fastrl.run', *grid, *more, '--data_dir', str(tmp/name)], check=True,
                       stdout=subprocess.DEVNULL)
        secs[name] = time.time() - t0
    same = all(table(tmp/'series'/'w'/f'w_s{s}') == table(tmp/'workers2'/'w'/f'w_s{s}') for s in range(4))
    print(f"series {secs['series']:.1f} s, --workers 2 {secs['workers2']:.1f} s: "
          f"{secs['series'] / secs['workers2']:.2f}x; progress.txt identical (Time aside): {same}")
