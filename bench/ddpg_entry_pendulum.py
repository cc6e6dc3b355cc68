"""Learning check of the Spinning-Up-style `ddpg` entry function on Pendulum-v1 at Spinning Up's defaults
(256x256 nets, start_steps=10000, update_after=1000, update_every=50, act_noise=0.1, 4000 steps per epoch),
5 epochs (20k env steps), one torch thread. Writes progress.txt under /tmp and bench/results/ddpg_entry_pendulum.json.

    .venv/bin/python bench/ddpg_entry_pendulum.py --seeds 0
"""
import argparse, json, time
from pathlib import Path
import torch
from fastrl.algos.ddpg import ddpg
from fastrl.experiments.core import EnvFn

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument('--seeds', type=int, nargs='+', default=[0])
p.add_argument('--epochs', type=int, default=5)
a = p.parse_args()
torch.set_num_threads(1)
res = Path(__file__).parent/'results'; res.mkdir(exist_ok=True)
rows = []
for seed in a.seeds:
    t = time.time()
    exp = ddpg(EnvFn('Pendulum-v1'), seed=seed, epochs=a.epochs, logger_kwargs=dict(output_dir=f'/tmp/exp/ddpg_entry_s{seed}', show=False))
    df = exp.progress
    rows.append(dict(seed=seed, wall_s=round(time.time() - t, 1), steps_per_s=round(float(df['TotalEnvInteracts'].iloc[-1] / df['Time'].iloc[-1]), 1),
                     test_return_by_epoch=[round(float(v), 1) for v in df['AverageTestEpRet']]))
    print(rows[-1], flush=True)
    (res/'ddpg_entry_pendulum.json').write_text(json.dumps(rows, indent=1))
