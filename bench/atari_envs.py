"""Atari env steps/s: gymnasium's ALE with fastrl's preprocessing against EnvPool's (`envpool=True`), through
`GymStepper` with random actions, by lanes (issue 34).

python bench/atari_envs.py --out bench/results/atari_envs.json [--env ALE/Pong-v5] [--steps 4000]
"""
import argparse, json, time
from pathlib import Path
import torch
from fastrl.envs.gym import GymStepper
from fastrl.pipes.core import ListSource
from fastrl.experiments.config import EnvFn

def rate(env:str, lanes:int, steps:int, envpool:bool)->float:
    kw = dict(envpool=True) if envpool else {}
    st = GymStepper(ListSource([EnvFn(env, **kw)]), seed=0, num_envs=lanes, n=max(1, steps // lanes))
    next(iter(GymStepper(ListSource([EnvFn(env, **kw)]), seed=0, num_envs=lanes, n=1)))   # imports, first reset
    t = time.perf_counter(); n = sum(s.bs for s in st); secs = time.perf_counter() - t
    assert type(st.env).__name__ == ('EnvPoolVec' if envpool else 'SyncVectorEnv')
    st.close()
    return n / secs

if __name__ == '__main__':
    p = argparse.ArgumentParser(); p.add_argument('--out'); p.add_argument('--env', default='ALE/Pong-v5')
    p.add_argument('--steps', type=int, default=4000); p.add_argument('--lanes', default='1,2,4,8')
    p.add_argument('--repeats', type=int, default=3)
    a = p.parse_args(); torch.set_num_threads(1)
    res = {'env': a.env, 'agent_steps': a.steps, 'rows': []}
    for lanes in map(int, a.lanes.split(',')):
        # interleaved repeats, the median of each: this machine's speed drifts
        rs = [(rate(a.env, lanes, a.steps, False), rate(a.env, lanes, a.steps, True)) for _ in range(a.repeats)]
        g, e = (sorted(x)[len(x) // 2] for x in zip(*rs))
        res['rows'].append(dict(lanes=lanes, gymnasium=round(g, 1), envpool=round(e, 1), ratio=round(e / g, 2)))
        print(res['rows'][-1], flush=True)
    if a.out: Path(a.out).write_text(json.dumps(res, indent=1))
