"""DQN and PPO on envs with Discrete observations (one-hot encoded inside the networks by `FlattenObs`).

Runs the Python entry functions `fastrl.algos.dqn` / `ppo` on
  frozenlake -- FrozenLake-v1 with `is_slippery=False` (4x4, reward 1 at the goal): solved when the greedy test return is 1.0;
  taxi       -- Taxi-v4 (gymnasium 1.x refuses the deprecated Taxi-v3; same 500 states, 6 actions, -1 per step,
                +20 delivery, -10 illegal pick-up/drop-off, 200-step limit): learning when the returns go up.
with the settings `SETTINGS[env][algo]` below, one run per seed. For every run it prints and records, per epoch, the mean
training-episode return (AverageEpRet) and the greedy test return (AverageTestEpRet, `num_test_episodes` episodes), and
then plays one greedy episode through `load_policy_and_env` on the run folder (the env rebuilt from config.json), which
checks that `test_policy` can replay a Discrete-observation run. Writes bench/results/<--name>.json.

    OMP_NUM_THREADS=1 .venv/bin/python bench/discrete_obs.py --env frozenlake --algos dqn ppo --seeds 0 1 2
    OMP_NUM_THREADS=1 .venv/bin/python bench/discrete_obs.py --env taxi --algos dqn ppo --seeds 0
"""
import argparse, json, tempfile, time
from pathlib import Path

import numpy as np
import torch

from fastrl.experiments.core import EnvFn

RESULTS_DIR = Path(__file__).parent/'results'
ENVS = dict(frozenlake=lambda: EnvFn('FrozenLake-v1', is_slippery=False), taxi=lambda: EnvFn('Taxi-v4'))
SETTINGS = dict(
    frozenlake=dict(
        dqn=dict(q_kwargs=dict(hidden_sizes=(64,)), steps_per_epoch=1000, epochs=8, exploration_fraction=0.5, final_eps=0.05,
                 lr=1e-3, learning_starts=500, train_freq=16, gradient_steps=16, target_update_interval=100, batch_size=64,
                 num_test_episodes=5),
        ppo=dict(steps_per_epoch=1000, epochs=10, num_test_episodes=5)),
    taxi=dict(
        dqn=dict(q_kwargs=dict(hidden_sizes=(128,)), steps_per_epoch=5000, epochs=12, exploration_fraction=0.3, final_eps=0.05,
                 lr=1e-3, learning_starts=1000, train_freq=16, gradient_steps=16, target_update_interval=500, batch_size=64,
                 num_test_episodes=10),
        ppo=dict(steps_per_epoch=4000, epochs=15, num_test_episodes=10)),
)


def run(env, algo, seed):
    from fastrl.algos import dqn, ppo
    from fastrl.experiments.test_policy import load_policy_and_env, run_policy
    out = Path(tempfile.mkdtemp())/f'{env}_{algo}_s{seed}'
    fn = dict(dqn=dqn, ppo=ppo)[algo]
    t0 = time.time()
    exp = fn(ENVS[env](), seed=seed, **SETTINGS[env][algo], logger_kwargs=dict(output_dir=out, show=False))
    secs = time.time() - t0
    df = exp.progress
    e, get_action = load_policy_and_env(out, deterministic=True)
    replay = run_policy(e, get_action, num_episodes=1, render=False, seed=10_000 + seed)[0][0]
    return dict(env=env, algo=algo, seed=seed, train_s=secs, ep_ret=df['AverageEpRet'].round(3).tolist(),
                test_ret=df['AverageTestEpRet'].round(3).tolist(), final_test_ret=float(df['AverageTestEpRet'].iloc[-1]),
                test_policy_ret=float(replay), env_steps=int(df['TotalEnvInteracts'].iloc[-1]))


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--env', choices=list(ENVS), default='frozenlake')
    p.add_argument('--algos', nargs='+', choices=['dqn', 'ppo'], default=['dqn', 'ppo'])
    p.add_argument('--seeds', type=int, nargs='+', default=[0, 1, 2])
    p.add_argument('--threads', type=int, default=1)
    p.add_argument('--name', default=None, help='results file bench/results/NAME.json (default: discrete_obs_<env>)')
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    name, rows = a.name or f'discrete_obs_{a.env}', []
    for seed in a.seeds:
        for algo in a.algos:
            r = run(a.env, algo, seed); rows.append(r)
            print(f"{a.env} {algo} seed {seed}: {r['env_steps']} steps in {r['train_s']:.0f}s; AverageEpRet per epoch {r['ep_ret']}; "
                  f"greedy AverageTestEpRet per epoch {r['test_ret']}; test_policy replay {r['test_policy_ret']}", flush=True)
            RESULTS_DIR.mkdir(exist_ok=True)
            (RESULTS_DIR/f'{name}.json').write_text(json.dumps(dict(env=a.env, settings={k: SETTINGS[a.env][k] for k in a.algos},
                                                                    torch=torch.__version__, runs=rows), indent=2, default=str) + '\n')
    print('\n| env | algo | seed | first-epoch AverageEpRet | last-epoch AverageEpRet | final greedy test return | test_policy replay |\n|---|---|---:|---:|---:|---:|---:|')
    for r in rows: print(f"| {r['env']} | {r['algo']} | {r['seed']} | {r['ep_ret'][0]:.2f} | {r['ep_ret'][-1]:.2f} | {r['final_test_ret']:.2f} | {r['test_policy_ret']:.2f} |")
    for algo in a.algos:
        f = [r['final_test_ret'] for r in rows if r['algo'] == algo]
        print(f"{algo}: final greedy test return mean {np.mean(f):.3f} over seeds {[r['seed'] for r in rows if r['algo'] == algo]}")
    print(f"wrote {RESULTS_DIR/f'{name}.json'}")


if __name__ == '__main__':
    main()
