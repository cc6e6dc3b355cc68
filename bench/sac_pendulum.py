"""SAC on Pendulum-v1: fastrl vs Stable-Baselines3 at the rl-zoo hyper-parameters.

Both train with the same hyper-parameters `HP` (rl-zoo `hyperparams/sac.yml`, Pendulum-v1: 20k steps, lr 1e-3;
SB3's SAC defaults otherwise: buffer 1M, learning_starts 100 (uniform random actions until then), batch 256,
tau 0.005, gamma 0.99, one update per env step, automatic entropy tuning from alpha = 1 with target entropy
-dim(A), 256-256 nets, log-std clamped to [-20, 2]) for `--steps` env steps on a single env:
  sb3    -- `stable_baselines3.SAC`;
  fastrl -- `fastrl.agents.sac`: `SACAgent` (uniform warm-up, then samples of the policy) and `SACLearner`
            (`alpha='auto'`, twin critics in one batched module, fused Adam).
For every (method, seed) it measures the wall time of the training loop only (env steps/s = steps / training
seconds; also env steps per CPU second of the process, steadier on a loaded machine) and the mean return of the deterministic policy (tanh of the Gaussian mean, scaled) over 10 episodes
on a separately seeded eval env. Methods run interleaved per seed, at the same `torch.set_num_threads(--threads)`.
Prints markdown tables and writes bench/results/sac_pendulum.json.

    .venv/bin/python bench/sac_pendulum.py --seeds 0 1 2    # full comparison (--append: add seeds to the results file)
    .venv/bin/python bench/sac_pendulum.py --quick          # smoke test, < 1 min

SB3 feeds the critic actions normalised to [-1, 1], fastrl in env units ([-2, 2]): a fixed rescaling of one input.
SB3 halves the critic loss (0.5 * sum of the two MSEs); fastrl uses the sum, as Spinning Up (Adam is insensitive to it).
"""
import torch

from common import fit_fastrl_cpu, offpolicy_main, run_sb3_cpu

ENV_ID = 'Pendulum-v1'
HP = dict(learning_rate=1e-3, buffer_size=1_000_000, learning_starts=100, batch_size=256, tau=0.005, gamma=0.99,
          train_freq=1, gradient_steps=1, ent_coef='auto', net_arch=[256, 256])
QUICK = dict(steps=1_000, learning_starts=100)


def run_sb3_sac(seed, args):
    from stable_baselines3 import SAC
    hp = args.hp
    return run_sb3_cpu(('sb3', seed), SAC, ENV_ID, seed, args.steps, learning_rate=hp['learning_rate'], buffer_size=hp['buffer_size'],
                   learning_starts=hp['learning_starts'], batch_size=hp['batch_size'], tau=hp['tau'], gamma=hp['gamma'],
                   train_freq=hp['train_freq'], gradient_steps=hp['gradient_steps'], ent_coef=hp['ent_coef'],
                   policy_kwargs=dict(net_arch=hp['net_arch']))


def run_fastrl(seed, args):
    "fastrl's `SACAgent` + `SACLearner` with `args.hp`."
    from fastrl.agents.td3 import TwinCritic
    from fastrl.agents.sac import SquashedGaussianActor, SACAgent, SACLearner
    hp = args.hp
    torch.manual_seed(seed)
    h1, h2 = hp['net_arch']
    actor, critic = SquashedGaussianActor(3, 1, h1, h2), TwinCritic(3, 1, h1, h2)
    agent = SACAgent(actor, start_steps=hp['learning_starts'])
    def make(dls, batches):   # learning_starts + 1: as SB3, train once steps > learning_starts
        return SACLearner(actor, critic, dls, lr=hp['learning_rate'], alpha=hp['ent_coef'], bs=hp['batch_size'],
                          max_sz=min(hp['buffer_size'], args.steps), gamma=hp['gamma'], tau=hp['tau'],
                          train_freq=hp['train_freq'], gradient_steps=hp['gradient_steps'],
                          learning_starts=hp['learning_starts'] + 1, batches=batches)
    return fit_fastrl_cpu(agent, make, actor, ENV_ID, seed, args)


if __name__ == '__main__':
    offpolicy_main(__doc__, dict(sb3=run_sb3_sac, fastrl=run_fastrl), 'sac_pendulum', HP, QUICK)
