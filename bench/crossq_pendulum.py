"""CrossQ on Pendulum-v1: fastrl vs sb3-contrib's CrossQ at the same hyper-parameters.

Both train with `HP` (sb3-contrib's CrossQ defaults: lr 1e-3, Adam betas (0.5, 0.999), buffer 1M, learning_starts
100 (uniform random actions until then), batch 256, gamma 0.99, one update per env step, policy every 3 updates,
alpha tuned from 1 to entropy -dim(A), BatchRenorm momentum 0.01 and 100k warm-up steps), except the critics' width:
256-256 for both here (sb3-contrib's 1024-1024 costs ~10x more per update on two cores) for `--steps` env steps:
  sb3    -- `sb3_contrib.CrossQ`;
  fastrl -- `fastrl.agents.crossq`: `CrossQAgent` and `CrossQLearner`.
Each run reports training env steps/s and the mean return of the deterministic policy (by its running
statistics) over 10 episodes of a separately seeded eval env; runs interleave per seed.

    .venv/bin/python bench/crossq_pendulum.py --seeds 0 1 2     # ~20 min per seed and library on 2 cores
    .venv/bin/python bench/crossq_pendulum.py --quick            # smoke test
"""
import torch

from common import fit_fastrl_cpu, offpolicy_main, run_sb3_cpu

ENV_ID = 'Pendulum-v1'
HP = dict(learning_rate=1e-3, buffer_size=1_000_000, learning_starts=100, batch_size=256, gamma=0.99, train_freq=1,
          gradient_steps=1, ent_coef='auto', policy_delay=3, pi_arch=[256, 256], qf_arch=[256, 256])
QUICK = dict(steps=1_000, learning_starts=100)


def run_sb3(seed, args):
    from sb3_contrib import CrossQ
    hp = args.hp
    return run_sb3_cpu(('sb3', seed), CrossQ, ENV_ID, seed, args.steps, learning_rate=hp['learning_rate'],
                       buffer_size=hp['buffer_size'], learning_starts=hp['learning_starts'],
                       batch_size=hp['batch_size'], gamma=hp['gamma'], train_freq=hp['train_freq'],
                       gradient_steps=hp['gradient_steps'], ent_coef=hp['ent_coef'], policy_delay=hp['policy_delay'],
                       policy_kwargs=dict(net_arch=dict(pi=hp['pi_arch'], qf=hp['qf_arch'])))


class _EvalActor(torch.nn.Module):
    "The actor's deterministic action by its running statistics (what `evaluate` plays)."
    def __init__(self, actor): super().__init__(); self.actor = actor
    def forward(self, obs):
        from fastrl.core import evaluating
        with evaluating(self.actor): return self.actor(obs)


def run_fastrl(seed, args):
    import gymnasium as gym
    from fastrl.agents.crossq import CrossQActorCritic, CrossQAgent, CrossQLearner
    hp = args.hp
    torch.manual_seed(seed)
    env = gym.make(ENV_ID)
    ac = CrossQActorCritic(env.observation_space, env.action_space, hp['pi_arch'], hp['qf_arch'])
    agent = CrossQAgent(ac.pi, start_steps=hp['learning_starts'])
    def make(dls, batches):   # learning_starts + 1: as SB3, train once steps > learning_starts
        return CrossQLearner(ac.pi, ac.q, dls, lr=hp['learning_rate'], alpha=hp['ent_coef'],
                             policy_delay=hp['policy_delay'], bs=hp['batch_size'],
                             max_sz=min(hp['buffer_size'], args.steps), gamma=hp['gamma'],
                             train_freq=hp['train_freq'], gradient_steps=hp['gradient_steps'],
                             learning_starts=hp['learning_starts'] + 1, batches=batches)
    return fit_fastrl_cpu(agent, make, _EvalActor(ac.pi), ENV_ID, seed, args)


if __name__ == '__main__':
    offpolicy_main(__doc__, dict(sb3=run_sb3, fastrl=run_fastrl), 'crossq_pendulum', HP, QUICK)
