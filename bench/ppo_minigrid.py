"""PPO on MiniGrid's Dict observations: fastrl against Stable-Baselines3's `MultiInputPolicy` PPO at RL Zoo's MiniGrid
settings (hyperparams/ppo.yml, `minigrid-defaults`): 8 envs, n_steps 128, batch 64, gae_lambda 0.95, gamma 0.99,
n_epochs 10, ent_coef 0, learning rate 2.5e-4, clip range 0.2, max_grad_norm 0.5, 64x64 tanh networks, 100k steps;
and fastrl's recurrent PPO (`fastrl_lstm`, `--rnn lstm`) at the same settings.

Both libraries get the same observation: the `image` (7x7x3 object/colour/state codes, as float32: too small for a
CNN, so both flatten it) and the `direction` (one-hot in both) keys of the Dict, the `mission` text dropped
(`FilterObservation`, as `--env_kwargs:obs_keys image,direction` does in fastrl). Deviations from the zoo, for both:
no VecNormalize, and the Dict itself instead of its `FlatObsWrapper` (which one-hot encodes the mission string).
fastrl packs the Dict into one byte row per step and its `MultiInputEncoder` unpacks it; SB3's `CombinedExtractor`
flattens each key.

Interleaved per seed, one torch thread; env-steps/s of the training loop and the mean 10-episode deterministic
return on a separately seeded eval env. Writes bench/results/minigrid_doorkey.json.

    OMP_NUM_THREADS=1 .venv/bin/python bench/ppo_minigrid.py --seeds 0 1 2 3 4
    .venv/bin/python bench/ppo_minigrid.py --report     # IQM [95 % CI] per method, P(X > Y) per pair
"""
import gymnasium as gym
import numpy as np

from common import CPU_S
from onpolicy import bench_main, run_fastrl_onpolicy, run_sb3_ppo

BASE = 'MiniGrid-DoorKey-5x5-v0'
ENV_ID = 'MiniGridImgDir-DoorKey-5x5-v0'
HP = dict(n_envs=8, n_steps=128, batch_size=64, gae_lambda=0.95, gamma=0.99, n_epochs=10, ent_coef=0.0,
          learning_rate=2.5e-4, clip_range=0.2, max_grad_norm=0.5, net_arch=[64, 64])


class FloatImage(gym.ObservationWrapper):
    "The `image` key as float32 codes (so neither library puts a CNN on a 7x7 grid)."
    def __init__(self, env):
        super().__init__(env)
        sp = env.observation_space
        self.observation_space = gym.spaces.Dict({**sp.spaces, 'image': gym.spaces.Box(0., 255., sp['image'].shape, np.float32)})
    def observation(self, obs): return {**obs, 'image': obs['image'].astype(np.float32)}


def image_and_direction(**kwargs):
    import minigrid  # registers the MiniGrid ids
    return FloatImage(gym.wrappers.FilterObservation(gym.make(BASE, **kwargs), ['image', 'direction']))


if ENV_ID not in gym.registry: gym.register(ENV_ID, entry_point=image_and_direction)


# recurrent PPO at the same settings: an LSTM of 64 before one tanh layer of 64 in pi and in v, trained on sequences
# of 32 steps from their stored first states (two per minibatch of 64)
LSTM = dict(rnn='lstm', lstm_hidden_size=64, net_arch=[64], seq_len=32)


def run_fastrl(seed, args, name, hp):
    out = run_fastrl_onpolicy('ppo', ENV_ID, seed, args.steps, hp)
    CPU_S[name, seed] = CPU_S.pop(('fastrl', seed))   # each arm's CPU seconds under its own name
    return out


def run_sb3(seed, args):
    return run_sb3_ppo(ENV_ID, seed, args.steps, HP, policy='MultiInputPolicy')


if __name__ == '__main__':
    bench_main(__doc__, 'minigrid_doorkey', dict(sb3=run_sb3, fastrl=lambda s, a: run_fastrl(s, a, 'fastrl', HP),
                                                  fastrl_lstm=lambda s, a: run_fastrl(s, a, 'fastrl_lstm', {**HP, **LSTM})),
               HP, steps=100_000, quick_steps=4_096)
