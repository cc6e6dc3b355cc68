"""How many passes over each epoch's 4000 samples SB3's PPO makes at the on-policy study's settings (its KL early stop
ends the value function's passes with the policy's): Hopper-v5, seed 0, the first 25 epochs (100k steps).

    python bench/mujoco/sb3_ppo_passes.py
"""
import os, sys, torch, numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__))); import entries  # noqa: E402
import stable_baselines3
from fastrl.experiments.settings import make_env_fn
torch.set_num_threads(1)
passes, train = [], stable_baselines3.PPO.train
def counted(self):
    n = self._n_updates; train(self); passes.append(self._n_updates - n)
stable_baselines3.PPO.train = counted
entries.sb3_ppo(make_env_fn('Hopper-v5'), ac_kwargs=dict(hidden_sizes=(64, 32)), seed=0, steps_per_epoch=4000,
                epochs=25, num_test_episodes=0, logger_kwargs=dict(output_dir='/tmp/sb3p', overwrite=True, show=False))
print('SB3 PPO passes per epoch:', passes, 'mean', np.mean(passes))
