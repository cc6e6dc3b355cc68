"""VPG on CartPole-v1, fastrl only (Stable-Baselines3 has no VPG): 200k steps, 3 seeds, goal: mean >= 400.

Settings: 8 envs x 256 steps = 2048 transitions per epoch (98 epochs), gamma 0.99, GAE lambda 0.97 (Spinning Up),
pi_lr 1e-2 (Spinning Up's 3e-4 is tuned for MuJoCo-size batches and does not solve CartPole in 200k steps),
vf_lr 1e-3, train_v_iters 80 (Spinning Up), 64x64 tanh MLPs. Compare with bench/results/ppo_cartpole.json.

    OMP_NUM_THREADS=1 .venv/bin/python bench/vpg_cartpole.py --seeds 0 1 2
"""
from onpolicy import bench_main, run_fastrl_onpolicy

ENV_ID = 'CartPole-v1'
HP = dict(n_envs=8, n_steps=256, gamma=0.99, gae_lambda=0.97, learning_rate=1e-2, vf_lr=1e-3, train_v_iters=80, n_epochs=80,
          net_arch=[64, 64])

if __name__ == '__main__':
    bench_main(__doc__, 'vpg_cartpole', dict(fastrl=lambda s, a: run_fastrl_onpolicy('vpg', ENV_ID, s, a.steps, HP)), HP, steps=200_000, quick_steps=10_000)
