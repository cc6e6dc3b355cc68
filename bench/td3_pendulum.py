"""TD3 on Pendulum-v1: fastrl vs Stable-Baselines3 at the rl-zoo hyper-parameters.

Both train with the same hyper-parameters `HP` (rl-zoo `hyperparams/td3.yml`, Pendulum: 20k steps, gamma 0.98,
buffer 200k, learning_starts 10k, normal action noise 0.1, lr 1e-3, 400-300 nets; SB3's TD3 defaults otherwise:
batch 256, tau 0.005, policy_delay 2, target noise 0.2 clipped at 0.5) for `--steps` env steps on a single env:
  sb3    -- `stable_baselines3.TD3`;
  fastrl -- `fastrl.agents.td3`: `TD3Agent` (uniform warm-up for `learning_starts` steps, then Gaussian noise) and
            `TD3Learner` (twin critics in one batched module, fused Adam).
For every (method, seed) it measures the wall time of the training loop only (env steps/s = steps / training
seconds; also env steps per CPU second of the process, steadier on a loaded machine) and the mean return of the deterministic policy over 10 episodes on a separately seeded eval env.
Methods run interleaved per seed, at the same `torch.set_num_threads(--threads)`. Prints markdown tables and
writes bench/results/td3_pendulum.json.

    .venv/bin/python bench/td3_pendulum.py --seeds 0 1 2    # full comparison (--append: add seeds to the results file)
    .venv/bin/python bench/td3_pendulum.py --quick          # smoke test, < 1 min

The zoo trains once per episode (`train_freq: [1, "episode"], gradient_steps: -1`); both methods here do the same
number of updates, one per env step (`train_freq=1, gradient_steps=1`), as bench/ddpg_pendulum.py.
SB3 feeds the critic actions normalised to [-1, 1], fastrl in env units ([-2, 2]): a fixed rescaling of one input.
"""
import gymnasium as gym
import numpy as np
import torch

from common import fit_fastrl_cpu, offpolicy_main, run_sb3_cpu

ENV_ID = 'Pendulum-v1'
HP = dict(gamma=0.98, buffer_size=200_000, learning_starts=10_000, noise_std=0.1, learning_rate=1e-3,
          batch_size=256, tau=0.005, net_arch=[400, 300], train_freq=1, gradient_steps=1,
          policy_delay=2, target_policy_noise=0.2, target_noise_clip=0.5)
QUICK = dict(steps=1_000, learning_starts=500)


def run_sb3_td3(seed, args):
    from stable_baselines3 import TD3
    from stable_baselines3.common.noise import NormalActionNoise
    hp, n_act = args.hp, gym.make(ENV_ID).action_space.shape[0]
    noise = NormalActionNoise(np.zeros(n_act), hp['noise_std']*np.ones(n_act))  # in SB3's [-1, 1] action units
    return run_sb3_cpu(('sb3', seed), TD3, ENV_ID, seed, args.steps, gamma=hp['gamma'], buffer_size=hp['buffer_size'],
                   learning_starts=hp['learning_starts'], action_noise=noise, train_freq=hp['train_freq'],
                   gradient_steps=hp['gradient_steps'], learning_rate=hp['learning_rate'], batch_size=hp['batch_size'],
                   tau=hp['tau'], policy_delay=hp['policy_delay'], target_policy_noise=hp['target_policy_noise'],
                   target_noise_clip=hp['target_noise_clip'], policy_kwargs=dict(net_arch=hp['net_arch']))


def run_fastrl(seed, args):
    "fastrl's `TD3Agent` + `TD3Learner` with `args.hp`."
    from fastrl.agents.ddpg import Actor
    from fastrl.agents.td3 import TwinCritic, TD3Agent, TD3Learner, torch_default_init
    hp = args.hp
    torch.manual_seed(seed)
    h1, h2 = hp['net_arch']
    actor = Actor(3, 1, h1, h2, weight_init_fn=torch_default_init, final_layer_init_fn=torch_default_init)
    critic = TwinCritic(3, 1, h1, h2)
    agent = TD3Agent(actor, act_noise=hp['noise_std'], start_steps=hp['learning_starts'])
    def make(dls, batches):   # learning_starts + 1: as SB3, train once steps > learning_starts
        return TD3Learner(actor, critic, dls, bs=hp['batch_size'], max_sz=min(hp['buffer_size'], args.steps),
                          gamma=hp['gamma'], tau=hp['tau'], actor_lr=hp['learning_rate'], critic_lr=hp['learning_rate'],
                          policy_delay=hp['policy_delay'], target_noise=hp['target_policy_noise'], noise_clip=hp['target_noise_clip'],
                          train_freq=hp['train_freq'], gradient_steps=hp['gradient_steps'],
                          learning_starts=hp['learning_starts'] + 1, batches=batches)
    return fit_fastrl_cpu(agent, make, actor, ENV_ID, seed, args)


if __name__ == '__main__':
    offpolicy_main(__doc__, dict(sb3=run_sb3_td3, fastrl=run_fastrl), 'td3_pendulum', HP, QUICK)
