"""Off-policy with several env lanes: TD3 (Pendulum-v1) and DQN (CartPole-v1) through their entry functions with
`num_envs` 1, 4 and 8 at equal env steps, several seeds, one process, one torch thread.

Reports env steps/s of the whole training call, the mean deterministic return over 10 episodes on a separately
seeded env (`common.evaluate`) and the mean training return of the last 2 epochs, per `num_envs`, and the speed
ratios against `num_envs=1`. The update-to-data
ratio is the algorithm's at every `num_envs` (`ExperienceReplay(keep_ratio=True)`), so the updates' cost is the
same and only the env path and the data change.

    .venv/bin/python bench/offpolicy_envs.py                 # td3 and dqn, seeds 0 1 2, num_envs 1 4 8
    .venv/bin/python bench/offpolicy_envs.py --algos dqn --seeds 0 --quick
"""
import argparse, json, sys, tempfile, time
from pathlib import Path
import numpy as np, torch
sys.path.insert(0, str(Path(__file__).parent))
from common import RESULTS_DIR, evaluate, eval_seed, greedy_policy, torch_policy
from fastrl.algos import td3, dqn

SETUPS = {
    # Spinning Up's TD3 with a 10k-step budget on Pendulum (smaller nets: the updates dominate the time)
    'td3': dict(fn=td3, env='Pendulum-v1', steps=12_000, model='ac',
                kw=dict(ac_kwargs=dict(hidden_sizes=(64, 64)), start_steps=2000, update_after=1000, max_ep_len=200)),
    # rl-zoo's CartPole-v1 DQN (the entry function's defaults), 50k steps
    'dqn': dict(fn=dqn, env='CartPole-v1', steps=50_000, model='q', kw=dict()),
}

def policy(name, exp): return torch_policy(exp.models['ac'].pi) if name == 'td3' else greedy_policy(exp.models['q'])

def run(name, num_envs, seed, steps, out):
    s = SETUPS[name]
    spe = steps // 5
    t = time.perf_counter()
    exp = s['fn'](s['env'], seed=seed, steps_per_epoch=spe, epochs=steps // spe, num_envs=num_envs, num_test_episodes=0,
                  logger_kwargs=dict(output_dir=str(out/f'{name}_e{num_envs}_s{seed}'), show=False), **s['kw'])
    secs = time.perf_counter() - t
    return dict(algo=name, num_envs=num_envs, seed=seed, steps=steps, train_s=secs, steps_per_s=steps / secs,
                mean_return=evaluate(policy(name, exp), s['env'], eval_seed(seed)),
                train_return=train_return(out/f'{name}_e{num_envs}_s{seed}'))

def train_return(d)->float:
    "Mean training-episode return of the last 2 epochs (`AverageEpRet`): less noisy than one final greedy policy."
    import pandas as pd
    return float(pd.read_table(Path(d)/'progress.txt')['AverageEpRet'].iloc[-2:].mean())

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--algos', nargs='+', default=['td3', 'dqn'], choices=list(SETUPS))
    p.add_argument('--num_envs', type=int, nargs='+', default=[1, 4, 8])
    p.add_argument('--seeds', type=int, nargs='+', default=[0, 1, 2])
    p.add_argument('--quick', action='store_true', help='2000 steps: a smoke test')
    p.add_argument('--name', default='offpolicy_envs')
    a = p.parse_args()
    torch.set_num_threads(1)
    rows, out = [], Path(tempfile.mkdtemp())
    print(f'runs in {out}')
    for name in a.algos:
        steps = 2000 if a.quick else SETUPS[name]['steps']
        for seed in a.seeds:
            for n in a.num_envs:   # interleaved: machine drift hits every num_envs alike
                r = run(name, n, seed, steps, out); rows.append(r)
                print(f"{name} num_envs={n} seed={seed}: {r['steps_per_s']:7.0f} steps/s ({r['train_s']:.1f} s), "
                      f"return {r['mean_return']:8.1f}", flush=True)
    summary = {}
    print('\n| algo | num_envs | seeds | env steps/s | ratio to 1 lane | final return: mean (min, max) | training return, '
          'last 2 epochs |\n|---|---:|---:|---:|---:|---|---:|')
    for name in a.algos:
        base = None
        for n in a.num_envs:
            rs = [r for r in rows if r['algo'] == name and r['num_envs'] == n]
            sps, rets = float(np.mean([r['steps_per_s'] for r in rs])), [r['mean_return'] for r in rs]
            base = base or sps
            tr = float(np.mean([r['train_return'] for r in rs]))
            summary[f'{name}_e{n}'] = dict(steps_per_s=sps, speed_ratio=sps / base, mean_return=float(np.mean(rets)),
                                           returns=rets, train_return=tr)
            print(f"| {name} | {n} | {len(rs)} | {sps:.0f} | {sps / base:.2f} | {np.mean(rets):.1f} "
                  f"({min(rets):.1f}, {max(rets):.1f}) | {tr:.1f} |")
    RESULTS_DIR.mkdir(exist_ok=True)
    f = RESULTS_DIR/f'{a.name}.json'
    f.write_text(json.dumps(dict(config=vars(a), torch=torch.__version__, runs=rows, summary=summary), indent=2) + '\n')
    print(f'wrote {f}')

if __name__ == '__main__': main()
