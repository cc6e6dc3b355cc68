"""PPO on HalfCheetah-v5 (MuJoCo): fastrl vs Stable-Baselines3, 200k steps, goal: fastrl mean >= SB3 mean.

Settings: SB3's PPO defaults (what rl-zoo uses for its MuJoCo defaults, minus `normalize`, which neither side
uses here): 1 env, n_steps 2048, minibatch 64, 10 epochs, lr 3e-4, clip 0.2, gamma 0.99, GAE lambda 0.95,
ent_coef 0, max_grad_norm 0.5, 64x64 tanh nets.

    OMP_NUM_THREADS=1 .venv/bin/python bench/ppo_halfcheetah.py --seeds 0 1 2
"""
from onpolicy import bench_main, run_fastrl_onpolicy, run_sb3_ppo

ENV_ID = 'HalfCheetah-v5'
HP = dict(n_envs=1, n_steps=2048, batch_size=64, gae_lambda=0.95, gamma=0.99, n_epochs=10, ent_coef=0.0,
          learning_rate=3e-4, clip_range=0.2, max_grad_norm=0.5, net_arch=[64, 64])

if __name__ == '__main__':
    bench_main(__doc__, 'ppo_halfcheetah', dict(sb3=lambda s, a: run_sb3_ppo(ENV_ID, s, a.steps, HP),
                        fastrl=lambda s, a: run_fastrl_onpolicy('ppo', ENV_ID, s, a.steps, HP)), HP, steps=200_000, quick_steps=4_096)
