"""Sync against async env lanes (`GymStepper(async_envs=...)`), 8 lanes of random actions, one process:
CartPole-v1 (cheap steps) and HalfCheetah-v5 (MuJoCo). Prints transitions per second and the async/sync ratio.

    .venv/bin/python bench/async_envs.py
"""
import time, torch
from fastrl.envs.gym import GymStepper
from fastrl.pipes.core import ListSource
torch.set_num_threads(1)
for env, T in (('CartPole-v1', 2000), ('HalfCheetah-v5', 1000)):
    r = {}
    for a in (False, True):
        st = GymStepper(ListSource([env]), None, seed=0, num_envs=8, async_envs=a); it = iter(st); next(it)
        t = time.perf_counter()
        for _ in range(T): next(it)
        r[a] = 8*T/(time.perf_counter()-t); st.close()
    print(f'{env} 8 lanes: sync {r[False]:.0f}/s async {r[True]:.0f}/s (async/sync {r[True]/r[False]:.2f})')
