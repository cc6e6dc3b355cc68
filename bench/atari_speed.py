"""DQN on Pong, fastrl against Stable-Baselines3 at the same settings: agent steps/s and updates/s (issue 34).

python bench/atari_speed.py --out bench/results/atari_speed.json [--steps 4000] [--repeats 2]

Both learn from the same env (fastrl's `make_atari('ALE/Pong-v5')`: no-op starts, frame skip 4, 84x84 grayscale, a
stack of 4, episodic life, one lane), with SB3's Atari DQN settings (rl-zoo): Nature CNN, batch 32, an update every
4 steps, target copy every 1000 steps, a 10k replay, Adam 1e-4, reward clipping. The first `learning_starts` steps
(random actions, no updates) are timed apart from the learning steps. fastrl runs also with EnvPool lanes.
Runs alternate between the libraries, and each figure is the median of its repeats (this machine is noisy).
"""
import argparse, json, tempfile, time
from pathlib import Path
import numpy as np, torch

STARTS = 1000

def fastrl_run(steps:int, envpool:bool=False)->dict:
    from fastrl.algos.dqn import dqn
    t = time.perf_counter()
    r = dqn('ALE/Pong-v5' if not envpool else __import__('fastrl.experiments.config', fromlist=['EnvFn']).EnvFn(
                'ALE/Pong-v5', envpool=True),
            epochs=2, steps_per_epoch=steps // 2, learning_starts=STARTS, train_freq=4, gradient_steps=1,
            batch_size=32, lr=1e-4, target_update_interval=250, replay_size=10_000, q_kwargs=dict(hidden_sizes=()),
            exploration_fraction=0.1, final_eps=0.01, num_test_episodes=0, seed=0,
            logger_kwargs=dict(output_dir=tempfile.mkdtemp(), show=False))
    return dict(total_s=time.perf_counter() - t, epoch_s=r.progress['Time'].diff().iloc[-1], epoch_steps=steps // 2)

def sb3_run(steps:int)->dict:
    from stable_baselines3 import DQN
    from stable_baselines3.common.env_util import make_vec_env
    from stable_baselines3.common.callbacks import BaseCallback
    from fastrl.envs.atari import make_atari
    import gymnasium as gym
    class Clip(gym.RewardWrapper):
        def reward(self, r): return float(np.sign(r))
    env = make_vec_env(lambda: Clip(make_atari('ALE/Pong-v5')), n_envs=1, seed=0)
    class Mark(BaseCallback):
        def __init__(self): super().__init__(); self.t = {}
        def _on_step(self):
            if self.num_timesteps in (steps // 2, steps): self.t[self.num_timesteps] = time.perf_counter()
            return True
    m = DQN('CnnPolicy', env, learning_starts=STARTS, train_freq=4, gradient_steps=1, batch_size=32,
            learning_rate=1e-4, target_update_interval=1000, buffer_size=10_000, exploration_fraction=0.1,
            exploration_final_eps=0.01, optimize_memory_usage=False, seed=0, device='cpu', verbose=0)
    cb, t = Mark(), time.perf_counter()
    m.learn(steps, callback=cb)
    return dict(total_s=time.perf_counter() - t, epoch_s=cb.t[steps] - cb.t[steps // 2], epoch_steps=steps // 2)

if __name__ == '__main__':
    p = argparse.ArgumentParser(); p.add_argument('--out'); p.add_argument('--steps', type=int, default=4000)
    p.add_argument('--repeats', type=int, default=2)
    a = p.parse_args(); torch.set_num_threads(1)
    runs = {'fastrl': [], 'fastrl_envpool': [], 'sb3': []}
    for _ in range(a.repeats):   # alternating: drift hits every library alike
        runs['fastrl'].append(fastrl_run(a.steps)); runs['sb3'].append(sb3_run(a.steps))
        runs['fastrl_envpool'].append(fastrl_run(a.steps, envpool=True))
        print({k: [round(r['epoch_steps'] / r['epoch_s'], 1) for r in v] for k, v in runs.items()}, flush=True)
    med = lambda k: float(np.median([r['epoch_steps'] / r['epoch_s'] for r in runs[k]]))
    # the second half of the run: every step is a learning step, an update every 4
    res = {k: dict(agent_steps_per_s=round(med(k), 1), updates_per_s=round(med(k) / 4, 1)) for k in runs}
    res['ratio_fastrl_sb3'] = round(med('fastrl') / med('sb3'), 2)
    res['ratio_envpool_sb3'] = round(med('fastrl_envpool') / med('sb3'), 2)
    res['settings'] = dict(steps=a.steps, learning_starts=STARTS, repeats=a.repeats, threads=1)
    print(json.dumps(res, indent=1))
    if a.out: Path(a.out).write_text(json.dumps(res, indent=1))
