"""Cost of fastrl's resumable checkpoint for DDPG at Spinning Up's defaults (256x256 nets, replay_size=1e6) on Pendulum-v1.

Builds `ddpg` with one short epoch (no updates), then pretends the replay buffer holds N transitions (its preallocated
tensors are already full size) and times `Experiment.save_checkpoint` (graph walk + torch.save + fsync + os.replace),
`load_graph_state` of that file into the learner (torch.load(weights_only=True) + restore), and reports the file size.

    .venv/bin/python bench/checkpoint_cost.py --sizes 1000 100000 1000000
"""
import argparse, json, os, tempfile, time
from pathlib import Path
import torch
from fastrl.algos.ddpg import ddpg
from fastrl.experiments.core import EnvFn, load_checkpoint, load_graph_state, set_rng_state
from fastrl.memory.experience_replay import ExperienceReplay
from fastrl.pipes.core import find_dp

p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
p.add_argument('--sizes', type=int, nargs='+', default=[1000, 100_000, 1_000_000])
p.add_argument('--repeats', type=int, default=3)
a = p.parse_args()
torch.set_num_threads(1)
out = Path(tempfile.mkdtemp())
exp = ddpg(EnvFn('Pendulum-v1'), steps_per_epoch=200, epochs=1, update_after=10**9, num_test_episodes=1,
           logger_kwargs=dict(output_dir=out, show=False))
mem = find_dp(exp.learner, ExperienceReplay).memory
rows = []
for n in a.sizes:
    mem.size, mem.ptr = n, n % mem.max_sz
    saves, loads = [], []
    for _ in range(a.repeats):
        t = time.perf_counter(); exp.save_checkpoint(1); saves.append(time.perf_counter() - t)
        t = time.perf_counter(); ck = load_checkpoint(out/'checkpoint.pt'); load_graph_state(exp.learner, ck['ranks'][0]['graph'])
        set_rng_state(ck['ranks'][0]['rng']); loads.append(time.perf_counter() - t)
    mb = os.path.getsize(out/'checkpoint.pt') / 2**20
    rows.append(dict(transitions=n, size_mb=round(mb, 1), save_s=round(min(saves), 3), load_s=round(min(loads), 3)))
    print(rows[-1], flush=True)
res = Path(__file__).parent/'results'; res.mkdir(exist_ok=True)
(res/'checkpoint_cost.json').write_text(json.dumps(dict(rows=rows, model_mb=round(os.path.getsize(out/'pyt_save'/'model.pt')/2**20, 2)), indent=1))
print('| transitions in replay | checkpoint MB | save s | load s |\n|---:|---:|---:|---:|')
for r in rows: print(f"| {r['transitions']} | {r['size_mb']} | {r['save_s']} | {r['load_s']} |")
