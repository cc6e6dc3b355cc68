"""PPO on CartPole-v1: fastrl vs Stable-Baselines3 at rl-zoo's tuned CartPole-v1 settings (hyperparams/ppo.yml):
8 envs, n_steps 32, batch 256, gae_lambda 0.8, gamma 0.98, n_epochs 20, ent_coef 0, learning rate lin_1e-3,
clip range lin_0.2, 100k steps; SB3's other defaults (max_grad_norm 0.5, 64x64 tanh nets) for both.

Interleaved per seed, one torch thread; env-steps/s of the training loop and the mean 10-episode deterministic
return on a separately seeded eval env. Writes bench/results/ppo_cartpole.json.

    OMP_NUM_THREADS=1 .venv/bin/python bench/ppo_cartpole.py --seeds 0 1 2
    OMP_NUM_THREADS=1 .venv/bin/python bench/ppo_cartpole.py --quick
"""
from onpolicy import bench_main, run_fastrl_onpolicy, run_sb3_ppo

ENV_ID = 'CartPole-v1'
HP = dict(n_envs=8, n_steps=32, batch_size=256, gae_lambda=0.8, gamma=0.98, n_epochs=20, ent_coef=0.0,
          learning_rate=1e-3, clip_range=0.2, linear=True, max_grad_norm=0.5, net_arch=[64, 64])

if __name__ == '__main__':
    bench_main(__doc__, 'ppo_cartpole', dict(sb3=lambda s, a: run_sb3_ppo(ENV_ID, s, a.steps, HP),
                        fastrl=lambda s, a: run_fastrl_onpolicy('ppo', ENV_ID, s, a.steps, HP)), HP, steps=100_000, quick_steps=5_000)
