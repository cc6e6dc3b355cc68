"""What the run guards cost: the same fastrl runs on two checkouts, interleaved per seed, each in a fresh process.

Compares a baseline commit (default f72e788, before the guards: NaN/Inf checks of every observation and reward in
`GymStepper`, env-step counting in `ExperienceReplay`, `FiniteGuard` on every record, the run lock, kept previous
checkpoints) with the working tree. Three workloads, one torch thread:
- `dqn`: `bench/dqn_cartpole.py`'s fastrl runner (the DQN learner on CartPole-v1, rl-zoo settings);
- `ppo`: `bench/ppo_cartpole.py`'s fastrl runner (PPO learner, 8 envs, rl-zoo settings);
- `dqn_entry`: the `dqn` entry function through `Experiment` (progress file, checkpoints, `FiniteGuard`), 4 epochs.
Reports env steps/s per run and the new/old ratio of the means. Writes bench/results/trust_cost.json (`--name`).

    OMP_NUM_THREADS=1 .venv/bin/python bench/trust_cost.py --seeds 0 1 2
"""
import argparse, json, os, subprocess, sys, tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

CHILD = r'''
import json, sys, time, tempfile, argparse
import torch
torch.set_num_threads(1)
work, seed, steps = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
if work == 'dqn':
    import dqn_cartpole as d
    from common import base_parser
    a = argparse.Namespace(steps=steps, env=d.ENV_ID, hp=dict(d.OPTIONAL) | dict(d.HP) | dict(d.C51))
    sps, ret = d.run_fastrl(seed, a)
elif work == 'ppo':
    import ppo_cartpole as p
    from onpolicy import run_fastrl_onpolicy
    sps, ret = run_fastrl_onpolicy('ppo', p.ENV_ID, seed, steps, p.HP)
else:
    from fastrl.algos import dqn
    out = tempfile.mkdtemp()
    t0, c0 = time.perf_counter(), time.process_time()
    exp = dqn('CartPole-v1', seed=seed, steps_per_epoch=steps // 4, epochs=4, num_test_episodes=0,
              logger_kwargs=dict(output_dir=out + '/run', show=False))
    sps, ret = steps / (time.perf_counter() - t0), float(exp.progress['AverageEpRet'].iloc[-1])
    print(json.dumps(dict(sps=sps, ret=ret, cpu_sps=steps / (time.process_time() - c0))))
    sys.exit()
print(json.dumps(dict(sps=sps, ret=ret)))
'''


def run(tree, work, seed, steps):
    env = dict(os.environ, OMP_NUM_THREADS='1', PYTHONPATH=os.pathsep.join([str(tree), str(tree/'bench')]))
    r = subprocess.run([sys.executable, '-c', CHILD, work, str(seed), str(steps)], env=env, cwd=tree/'bench',
                       capture_output=True, text=True)
    if r.returncode: raise SystemExit(f'{tree} {work} seed {seed} failed:\n{r.stderr[-3000:]}')
    return json.loads(r.stdout.strip().splitlines()[-1])


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--seeds', type=int, nargs='+', default=[0, 1, 2])
    p.add_argument('--base', default='f72e788', help='baseline commit (default: f72e788)')
    p.add_argument('--work', nargs='+', default=['dqn', 'ppo', 'dqn_entry'])
    p.add_argument('--steps', nargs='+', type=int, default=[30_000, 50_000, 20_000], help='env steps of each workload')
    p.add_argument('--name', default='trust_cost', help='results file bench/results/NAME.json')
    a = p.parse_args()
    base = Path(tempfile.mkdtemp())/'base'
    subprocess.run(['git', 'worktree', 'add', '--detach', str(base), a.base], cwd=ROOT, check=True, capture_output=True)
    rows = []
    try:
        for seed in a.seeds:
            for work, steps in zip(a.work, a.steps):
                for name, tree in (('old', base), ('new', ROOT)) if seed % 2 == 0 else (('new', ROOT), ('old', base)):
                    r = run(tree, work, seed, steps)
                    rows.append(dict(work=work, seed=seed, code=name, steps=steps, **r))
                    cpu = f"  ({r['cpu_sps']:.1f} per CPU s)" if 'cpu_sps' in r else ''
                    print(f"{work:10} seed {seed} {name}: {r['sps']:8.1f} steps/s{cpu}  return {r['ret']:.1f}", flush=True)
    finally:
        subprocess.run(['git', 'worktree', 'remove', '--force', str(base)], cwd=ROOT, capture_output=True)
    summary = {}
    for work in a.work:
        m = {c: [r['sps'] for r in rows if r['work'] == work and r['code'] == c] for c in ('old', 'new')}
        mean = {c: sum(v)/len(v) for c, v in m.items()}
        summary[work] = dict(old=mean['old'], new=mean['new'], ratio=mean['new']/mean['old'])
        print(f"{work:10} old {mean['old']:8.1f}  new {mean['new']:8.1f}  new/old {mean['new']/mean['old']:.3f}")
    if any('cpu_sps' in r for r in rows):
        for work in a.work:
            m = {c: [r['cpu_sps'] for r in rows if r['work'] == work and r['code'] == c and 'cpu_sps' in r] for c in ('old', 'new')}
            if m['old'] and m['new']:
                o, n = sum(m['old'])/len(m['old']), sum(m['new'])/len(m['new'])
                summary[work].update(old_cpu=o, new_cpu=n, ratio_cpu=n/o)
                print(f"{work:10} per CPU s: old {o:8.1f}  new {n:8.1f}  new/old {n/o:.3f}")
    (HERE/'results'/f'{a.name}.json').write_text(json.dumps(dict(base=a.base, runs=rows, summary=summary), indent=1))


if __name__ == '__main__':
    main()
