"""PPO on Pendulum-v1: fastrl vs Stable-Baselines3, 200k steps, 3 seeds, goal: mean >= -300.

Settings: rl-zoo's tuned PPO Pendulum-v1 (hyperparams/ppo.yml) *without gSDE* (fastrl has no gSDE): 4 envs x 1024
steps = 4096 transitions per update, minibatch 64 (SB3 default), 10 epochs, lr 1e-3, clip 0.2, gamma 0.9, GAE
lambda 0.95, ent_coef 0; SB3's max_grad_norm 0.5 and 64x64 tanh nets for both. The policies differ in the initial
log-std (SB3: 0, fastrl: Spinning Up's -0.5).

    OMP_NUM_THREADS=1 .venv/bin/python bench/ppo_pendulum.py --seeds 0 1 2
"""
from onpolicy import bench_main, run_fastrl_onpolicy, run_sb3_ppo

ENV_ID = 'Pendulum-v1'
HP = dict(n_envs=4, n_steps=1024, batch_size=64, gae_lambda=0.95, gamma=0.9, n_epochs=10, ent_coef=0.0,
          learning_rate=1e-3, clip_range=0.2, max_grad_norm=0.5, net_arch=[64, 64])

if __name__ == '__main__':
    bench_main(__doc__, 'ppo_pendulum', dict(sb3=lambda s, a: run_sb3_ppo(ENV_ID, s, a.steps, HP),
                        fastrl=lambda s, a: run_fastrl_onpolicy('ppo', ENV_ID, s, a.steps, HP)), HP, steps=200_000, quick_steps=8_192)
