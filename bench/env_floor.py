"""What the n-step env path cannot go below at 8 CartPole lanes (issue 18): the raw vector step, fastrl's pipes, and
the bare Python/numpy work any n-step stage of this design must do per vector step, all in microseconds per vector
step, measured in one process, one thread, interleaved.

- `raw`: `SyncVectorEnv.step` with random actions;
- `GymStepper`, `+NStepper(3)+FirstLastMerger`: fastrl's pipes (as `bench/env_overhead.py`);
- `floor: output`: building the one `SimpleStep` an n-step stage yields (12 fields, each `torch.from_numpy`);
- `floor: ring write`: writing one step's 12 fields into a ring of the last n steps (one numpy row write each);
- `floor: reward sum`: the discounted sum of 3 reward rows.

    .venv/bin/python bench/env_floor.py [--lanes 8] [--steps 20000] [--repeat 3]
"""
import argparse, json, time
from pathlib import Path
import numpy as np, torch, gymnasium as gym
from gymnasium.vector import SyncVectorEnv, AutoresetMode
from fastrl.core import SimpleStep
from fastrl.envs.gym import GymStepper, NStepper, FirstLastMerger
from fastrl.pipes.core import ListSource
torch.set_num_threads(1)

FIELDS = ('state', 'action', 'next_state', 'terminated', 'truncated', 'reward', 'total_reward', 'env_id', 'proc_id',
          'step_n', 'episode_n', 'n_steps')

def per_step(f, T:int)->float:
    "Microseconds per call of `f` over `T` calls."
    t = time.perf_counter()
    for _ in range(T): f()
    return (time.perf_counter() - t) / T * 1e6

def raw(N:int, T:int)->float:
    env = SyncVectorEnv([lambda: gym.make('CartPole-v1') for _ in range(N)], autoreset_mode=AutoresetMode.SAME_STEP)
    env.reset(seed=0); env.action_space.seed(0)
    return per_step(lambda: env.step(env.action_space.sample()), T)

def pipe(N:int, T:int, nsteps:int=1)->float:
    p = GymStepper(ListSource(['CartPole-v1']), None, seed=0, num_envs=N)
    if nsteps > 1: p = FirstLastMerger(NStepper(p, nsteps))
    it = iter(p); next(it)
    return per_step(lambda: next(it), T)

def floors(N:int, T:int, n:int=3)->dict:
    "The three floors, on arrays shaped as CartPole's step fields."
    arrs = dict(state=np.zeros((N, 4), np.float32), next_state=np.zeros((N, 4), np.float32),
                **{k: np.zeros(N, np.float32) for k in ('reward', 'total_reward')},
                **{k: np.zeros(N, bool) for k in ('terminated', 'truncated')},
                **{k: np.zeros(N, np.int64) for k in ('action', 'env_id', 'proc_id', 'step_n', 'episode_n', 'n_steps')})
    ring = {k: np.zeros((n,) + a.shape, a.dtype) for k, a in arrs.items()}
    disc = 0.99 ** np.arange(n, dtype=np.float32)
    def out(): return SimpleStep(**{k: torch.from_numpy(arrs[k]) for k in FIELDS})
    def write():
        for k, a in arrs.items(): ring[k][1] = a
    def rsum():
        r = ring['reward'][0] * disc[0]
        for i in range(1, n): r += ring['reward'][i] * disc[i]
        return r
    return {'floor: output': per_step(out, T), 'floor: ring write': per_step(write, T),
            'floor: reward sum': per_step(rsum, T)}

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--lanes', type=int, default=8)
    ap.add_argument('--steps', type=int, default=20_000, help='vector steps per measurement')
    ap.add_argument('--repeat', type=int, default=3)
    ap.add_argument('--out', default=str(Path(__file__).parent/'results'/'env_floor.json'))
    a = ap.parse_args()
    N, T, runs = a.lanes, a.steps, []
    for _ in range(a.repeat):
        r = {'raw': raw(N, T), 'GymStepper': pipe(N, T), '+NStepper(3)+FirstLastMerger': pipe(N, T, 3), **floors(N, T)}
        runs.append(r)
        print('  '.join(f'{k} {v:.1f} us' for k, v in r.items()), flush=True)
    med = {k: float(np.median([r[k] for r in runs])) for k in runs[0]}
    budget = 1.5 * med['raw'] - med['GymStepper']
    need = med['floor: output'] + med['floor: ring write'] + med['floor: reward sum']
    res = dict(lanes=N, vector_steps=T, runs=runs, median_us=med,
               nstep_stage_us=med['+NStepper(3)+FirstLastMerger'] - med['GymStepper'],
               budget_for_nstep_at_1_5x_us=budget, floor_of_nstep_stage_us=need)
    print(json.dumps({k: v for k, v in res.items() if k != 'runs'}, indent=1))
    Path(a.out).write_text(json.dumps(res, indent=1) + '\n')

if __name__ == '__main__': main()
