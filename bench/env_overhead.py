"""Per-step overhead of the env pipe against a raw gymnasium SyncVectorEnv loop, one process, one thread:
GymStepper alone (random actions), with NStepper(3)+FirstLastMerger, and Pendulum driven by a DDPG agent (64x64 actor);
1, 8 and 32 lanes, 24k env transitions per measurement.

    .venv/bin/python bench/env_overhead.py
"""
import time, torch, gymnasium as gym
from gymnasium.vector import SyncVectorEnv, AutoresetMode
from fastrl.envs.gym import GymStepper, NStepper, FirstLastMerger
from fastrl.pipes.core import ListSource
from fastrl.agents.ddpg import Actor, DDPGAgent
torch.set_num_threads(1)
STEPS = 24_000   # env transitions per measurement (all lanes)
def raw(env_id, N, actor=None):
    T = STEPS // N
    env = SyncVectorEnv([lambda: gym.make(env_id) for _ in range(N)], autoreset_mode=AutoresetMode.SAME_STEP)
    obs,_ = env.reset(seed=0); env.action_space.seed(0)
    t = time.perf_counter()
    for _ in range(T):
        if actor is None: a = env.action_space.sample()
        else:
            with torch.no_grad(): a = actor(torch.as_tensor(obs)).clamp(-2,2).numpy()
        obs, r, te, tr, info = env.step(a)
    return N*T/(time.perf_counter()-t)
def pipe(env_id, N, agent=None, nsteps=1):
    T = STEPS // N
    p = GymStepper(ListSource([env_id]), agent, seed=0, num_envs=N)
    if nsteps > 1: p = FirstLastMerger(NStepper(p, nsteps))
    it = iter(p); next(it)
    t = time.perf_counter()
    for _ in range(T): next(it)
    return N*T/(time.perf_counter()-t)
for rep in range(2):
    for N in (1, 8, 32):
        r, f, f3 = raw('CartPole-v1', N), pipe('CartPole-v1', N), pipe('CartPole-v1', N, nsteps=3)
        print(f'CartPole N={N}: raw {r:8.0f}/s  GymStepper {f:8.0f}/s ({r/f:.2f}x time)  +NStepper(3)+merge {f3:8.0f}/s ({r/f3:.2f}x)')
    actor = Actor(3,1,64,64); agent = DDPGAgent(actor); agent.train(False)
    for N in (1, 8):
        r, f = raw('Pendulum-v1', N, actor), pipe('Pendulum-v1', N, agent)
        print(f'Pendulum+actor(64x64) N={N}: raw {r:8.0f}/s  GymStepper+DDPGAgent {f:8.0f}/s ({r/f:.2f}x time)')
