"""DQN on LunarLander-v3: fastrl vs Stable-Baselines3 at rl-zoo's LunarLander-v2 hyper-parameters.

rl-zoo (hyperparams/dqn.yml of DLR-RM/rl-baselines3-zoo) trains DQN on LunarLander-v2 for 100k steps with the
settings in `HP` and reports a mean return of 154 at 100k steps. gymnasium 1.x only ships LunarLander-v3 (same
dynamics, bug fixes). Methods, timing and evaluation as in `dqn_cartpole.py` (env steps/s of the training loop only,
greedy 10-episode return on a separately seeded eval env, methods interleaved per seed, one torch thread):

    .venv/bin/python bench/dqn_lunarlander.py --seeds 0 1 2

Schedule: one gradient step per env step (`train_freq=4, gradient_steps=-1`); SB3's `target_update_interval=250`
env steps is 250 gradient steps here. With `learning_starts=0` SB3 starts training after 4 stored transitions
(sampling a batch of 128 with replacement from them); fastrl's replay waits until it holds one batch (128).
"""
from dqn_cartpole import main

HP = dict(learning_rate=6.3e-4, batch_size=128, buffer_size=50_000, learning_starts=0, gamma=0.99,
          target_update_interval=250, train_freq=4, gradient_steps=-1, exploration_fraction=0.12,
          exploration_final_eps=0.1, net_arch=[256, 256])

if __name__ == '__main__':
    main(__doc__, 'LunarLander-v3', HP, 100_000, 'dqn_lunarlander', methods=('sb3', 'fastrl'))
