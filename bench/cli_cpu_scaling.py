"""`--cpu 2` against `--cpu 1` through the command line, at the same total env steps.

For each seed, runs (interleaved, so machine drift hits both alike)

    python -m fastrl.run ppo --env CartPole-v1 --hid "[32,32]" --epochs E --steps_per_epoch S --seed SEED --cpu N

for N in --cpus, in a fresh data folder, and records the wall time of the command (process start-up and
torchrun included), the training time of the run (`Time` of the last progress.txt row), and the
AverageEpRet of the last epoch and the mean of the last 3 epochs. Results go to
bench/results/cli_ppo_cartpole_cpu.json after every run.

    python bench/cli_cpu_scaling.py --seeds 0 10 --epochs 15
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT/'bench'/'results'/'cli_ppo_cartpole_cpu.json'


def run(seed, cpu, args, data_dir):
    cmd = [sys.executable, '-m', 'fastrl.run', 'ppo', '--env', args.env, '--hid', '[32,32]', '--epochs', str(args.epochs),
           '--steps_per_epoch', str(args.steps_per_epoch), '--seed', str(seed), '--cpu', str(cpu),
           '--exp_name', f'cpu{cpu}', '--data_dir', data_dir]
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS='1')
    t0 = time.perf_counter()
    r = subprocess.run(cmd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode: raise RuntimeError(f'{" ".join(cmd)} failed:\n{r.stderr[-3000:]}')
    p = pd.read_table(Path(data_dir)/f'cpu{cpu}'/f'cpu{cpu}_s{seed}'/'progress.txt')
    return dict(seed=seed, cpu=cpu, wall_s=round(wall, 1), train_s=round(float(p.Time.iloc[-1]), 1),
                total_steps=int(p.TotalEnvInteracts.iloc[-1]), final_ret=round(float(p.AverageEpRet.iloc[-1]), 1),
                last3_ret=round(float(p.AverageEpRet.tail(3).mean()), 1), command=' '.join(cmd[1:]))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--seeds', type=int, nargs='+', default=[0, 10])
    ap.add_argument('--cpus', type=int, nargs='+', default=[1, 2])
    ap.add_argument('--epochs', type=int, default=15)
    ap.add_argument('--steps_per_epoch', type=int, default=4000)
    ap.add_argument('--env', default='CartPole-v1')
    args = ap.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as d:
        for seed in args.seeds:
            for cpu in args.cpus:
                rows.append(run(seed, cpu, args, d))
                print(rows[-1], flush=True)
                OUT.write_text(json.dumps(dict(machine=f'{os.cpu_count()} cores (shared)', load_avg_at_end=os.getloadavg(),
                                               runs=rows), indent=1))
    df = pd.DataFrame(rows)
    means = df.groupby('cpu')[['wall_s', 'train_s', 'final_ret', 'last3_ret']].mean()
    print(means.to_string())
    base = means.loc[args.cpus[0]]
    for c in args.cpus[1:]:
        print(f'cpu {c} / cpu {args.cpus[0]}: wall {means.loc[c, "wall_s"] / base.wall_s:.2f}, train {means.loc[c, "train_s"] / base.train_s:.2f}')


if __name__ == '__main__': main()
