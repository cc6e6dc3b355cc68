#!/usr/bin/env python
"""Fingerprints of every entry function: small fixed-seed runs whose files must not change under a refactor.

    python scripts/fingerprint.py record DIR     # run every case, keep its progress.txt and saved model in DIR/<case>
    python scripts/fingerprint.py compare A B    # byte-compare two recordings (the Time column left out)

A case is a few epochs of one algorithm (dqn also with each of its variants), on one thread. `compare` prints one
line per case and exits 1 when any progress file or model tensor differs. Used by the house issue: record before a
change that must not change behaviour, record after, compare.
"""
from __future__ import annotations
import sys, time
from pathlib import Path

OFF = dict(steps_per_epoch=300, epochs=3, batch_size=32, start_steps=100, update_after=100, update_every=50,
           replay_size=2000, num_test_episodes=2, max_ep_len=100, ac_kwargs=dict(hidden_sizes=(32, 32)))
DQN = dict(steps_per_epoch=300, epochs=3, batch_size=32, learning_starts=100, replay_size=2000, num_test_episodes=2,
           target_update_interval=50, q_kwargs=dict(hidden_sizes=(32,)))
ON = dict(steps_per_epoch=400, epochs=3, train_v_iters=5, num_test_episodes=2, ac_kwargs=dict(hidden_sizes=(16,)))
CASES = {
    'ddpg': ('ddpg', 'Pendulum-v1', OFF),
    'td3': ('td3', 'Pendulum-v1', OFF),
    'sac': ('sac', 'Pendulum-v1', OFF),
    'dqn': ('dqn', 'CartPole-v1', DQN),
    'dqn_double_dueling': ('dqn', 'CartPole-v1', dict(DQN, double=True, dueling=True)),
    'dqn_c51': ('dqn', 'CartPole-v1', dict(DQN, categorical=True)),
    'dqn_nsteps': ('dqn', 'CartPole-v1', dict(DQN, nsteps=3)),
    'vpg': ('vpg', 'CartPole-v1', ON),
    'ppo': ('ppo', 'CartPole-v1', dict(ON, train_pi_iters=5, num_envs=2)),
    'ppo_pendulum': ('ppo', 'Pendulum-v1', dict(ON, train_pi_iters=5, mb_size=100)),
    'trpo': ('trpo', 'CartPole-v1', ON),
}

def record(out:Path):
    import torch
    from fastrl.algos import get_algo
    torch.set_num_threads(1)
    for case, (algo, env, kw) in CASES.items():
        t0 = time.time()
        get_algo(algo)(env, seed=3, **kw, logger_kwargs=dict(output_dir=out/case, show=False, overwrite=True))
        print(f"{case:20s} {time.time() - t0:5.1f}s", flush=True)

def _progress(p:Path)->list:
    rows = [l.rstrip('\n').split('\t') for l in p.read_text().splitlines()]
    keep = [i for i,c in enumerate(rows[0]) if c != 'Time']
    return [[r[i] for i in keep] for r in rows]

def compare(a:Path, b:Path)->int:
    import torch
    bad = 0
    for case in CASES:
        pa, pb = _progress(a/case/'progress.txt'), _progress(b/case/'progress.txt')
        ma = torch.load(a/case/'pyt_save'/'model.pt', weights_only=True)['models']
        mb = torch.load(b/case/'pyt_save'/'model.pt', weights_only=True)['models']
        same_models = ma.keys() == mb.keys() and all(ma[k].keys() == mb[k].keys() and all(torch.equal(ma[k][t], mb[k][t]) for t in ma[k]) for k in ma)
        ok = pa == pb and same_models
        bad += not ok
        print(f"{case:20s} progress {'same' if pa == pb else 'DIFFERS'} ({len(pa) - 1} epochs, {len(pa[0])} columns), "
              f"models {'same' if same_models else 'DIFFER'}")
    print(f"{len(CASES) - bad} of {len(CASES)} cases identical")
    return 1 if bad else 0

if __name__ == '__main__':
    cmd, *paths = sys.argv[1:] or ['--help']
    if cmd == 'record' and len(paths) == 1: record(Path(paths[0]))
    elif cmd == 'compare' and len(paths) == 2: sys.exit(compare(*map(Path, paths)))
    else: sys.exit(__doc__)
