"""TRPO on CartPole-v1, fastrl only (TRPO is in sb3-contrib, not installed here): 100k steps, 3 seeds, goal: mean >= 475.

Settings from rl-zoo's tuned sb3-contrib TRPO CartPole-v1 (hyperparams/trpo.yml): 2 envs x 512 steps = 1024
transitions per epoch, gamma 0.99, GAE lambda 0.98, critic lr 1e-3 with 20 value steps on minibatches of 512,
Fisher damping 1e-3; sb3-contrib's defaults for the rest: KL limit 0.01, 15 CG iterations, line search 0.8 x 10.
64x64 tanh MLPs.

    OMP_NUM_THREADS=1 .venv/bin/python bench/trpo_cartpole.py --seeds 0 1 2
"""
from onpolicy import bench_main, run_fastrl_onpolicy

ENV_ID = 'CartPole-v1'
HP = dict(n_envs=2, n_steps=512, batch_size=512, gamma=0.99, gae_lambda=0.98, learning_rate=1e-3, n_epochs=20, net_arch=[64, 64],
          delta=0.01, damping_coeff=1e-3, cg_iters=15, backtrack_iters=10, backtrack_coeff=0.8)
TRPO_KW = ('delta', 'damping_coeff', 'cg_iters', 'backtrack_iters', 'backtrack_coeff')

if __name__ == '__main__':
    bench_main(__doc__, 'trpo_cartpole', dict(fastrl=lambda s, a: run_fastrl_onpolicy('trpo', ENV_ID, s, a.steps, HP, **{k: HP[k] for k in TRPO_KW})), HP, steps=100_000, quick_steps=5_000)
