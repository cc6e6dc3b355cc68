"""Combine DQN benchmark result files (bench/results/dqn_*.json, e.g. one per seed) into one table.

    .venv/bin/python bench/dqn_report.py                       # every bench/results/dqn_cartpole*.json
    .venv/bin/python bench/dqn_report.py --glob 'dqn_lunarlander*.json'

Prints every run (method, seed, env steps/s, mean 10-episode greedy return, source file), then per method the number
of seeds, mean steps/s and mean return (std over seeds), and the fastrl/sb3 steps/s ratio of each seed both ran.
"""
import argparse, json
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).parent/'results'

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--glob', default='dqn_cartpole*.json')
    args = p.parse_args()
    runs = {}
    for f in sorted(RESULTS.glob(args.glob)):
        for r in json.loads(f.read_text())['runs']: runs[(r['method'], r['seed'])] = dict(r, file=f.name)  # later files win
    rows = sorted(runs.values(), key=lambda r: (r['seed'], r['method']))
    print('| method | seed | env steps/s | mean 10-ep return | file |\n|---|---:|---:|---:|---|')
    for r in rows: print(f"| {r['method']} | {r['seed']} | {r['steps_per_s']:.1f} | {r['mean_return']:.1f} | {r['file']} |")
    print('\n| method | seeds | mean env steps/s | mean return (std over seeds) |\n|---|---:|---:|---:|')
    for m in dict.fromkeys(r['method'] for r in rows):
        rs = [r for r in rows if r['method'] == m]
        rets = [r['mean_return'] for r in rs]
        print(f"| {m} | {len(rs)} | {np.mean([r['steps_per_s'] for r in rs]):.1f} | {np.mean(rets):.1f} ({np.std(rets):.1f}) |")
    pairs = [(s, runs[('fastrl', s)]['steps_per_s'] / runs[('sb3', s)]['steps_per_s'])
             for s in sorted({k[1] for k in runs}) if ('fastrl', s) in runs and ('sb3', s) in runs]
    if pairs:
        print('\nfastrl/sb3 env steps/s per seed: ' + ', '.join(f'seed {s}: {x:.2f}' for s, x in pairs)
              + f'; mean {np.mean([x for _, x in pairs]):.2f}')
