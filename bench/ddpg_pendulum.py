"""DDPG on Pendulum-v1: fastrl vs Stable-Baselines3 vs a plain hand-written PyTorch loop.

All three train with the same (rl-zoo) hyper-parameters `HP` for `--steps` env steps on a single env:
  sb3    -- `stable_baselines3.DDPG`;
  hand   -- the loop below: the same math as SB3's DDPG (TD3 with one critic, no target-policy noise and
            no policy delay), with a preallocated tensor replay buffer and one gradient step per env step;
  fastrl -- `fastrl`'s `DDPGLearner` (see `run_fastrl`; skipped while it raises NotImplementedError).
For every (method, seed) it measures the wall time of the training loop only (env steps/s = steps / training
seconds; no model construction, no evaluation) and the mean return of the deterministic policy
(clip(actor(obs), low, high), no noise) over 10 episodes on a separately seeded eval env. Methods run
interleaved per seed (sb3, hand, fastrl, next seed, ...) so machine drift hits them alike, all at the same
`torch.set_num_threads(--threads)`. Prints markdown tables and writes bench/results/ddpg_pendulum.json.

    .venv/bin/python bench/ddpg_pendulum.py --seeds 0 1 2           # full comparison
    .venv/bin/python bench/ddpg_pendulum.py --quick --only sb3 hand  # smoke test, < 1 min

One deliberate difference from SB3: SB3 stores actions normalised to [-1, 1] and feeds those to the critic,
while `hand` feeds the critic actions in env units (Pendulum: [-2, 2]), i.e. a fixed rescaling of one input.
"""
import copy

import gymnasium as gym
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from common import Timer, base_parser, eval_seed, evaluate, report, run_all, run_sb3, torch_policy

ENV_ID = 'Pendulum-v1'
HP = dict(gamma=0.98, buffer_size=200_000, learning_starts=10_000, noise_std=0.1, learning_rate=1e-3,
          batch_size=256, tau=0.005, net_arch=[400, 300], train_freq=1, gradient_steps=1)
QUICK = dict(steps=1_000, learning_starts=500)  # ~500 updates per method: < 1 min for sb3 + hand


# ---------------------------------------------------------------- (a) Stable-Baselines3
def run_sb3_ddpg(seed, args):
    from stable_baselines3 import DDPG
    from stable_baselines3.common.noise import NormalActionNoise
    hp, n_act = args.hp, gym.make(ENV_ID).action_space.shape[0]
    noise = NormalActionNoise(np.zeros(n_act), hp['noise_std']*np.ones(n_act))  # in SB3's [-1, 1] action units
    return run_sb3(DDPG, ENV_ID, seed, args.steps, gamma=hp['gamma'], buffer_size=hp['buffer_size'],
                   learning_starts=hp['learning_starts'], action_noise=noise, train_freq=hp['train_freq'],
                   gradient_steps=hp['gradient_steps'], learning_rate=hp['learning_rate'], batch_size=hp['batch_size'],
                   tau=hp['tau'], policy_kwargs=dict(net_arch=hp['net_arch']))


# ---------------------------------------------------------------- (b) hand-written PyTorch DDPG
def mlp(n_in, hidden, n_out):
    layers, sizes = [], [n_in, *hidden]
    for a, b in zip(sizes[:-1], sizes[1:]): layers += [nn.Linear(a, b), nn.ReLU()]
    return nn.Sequential(*layers, nn.Linear(sizes[-1], n_out))


class Actor(nn.Module):
    def __init__(self, n_obs, n_act, hidden, low, high):
        super().__init__()
        self.net = mlp(n_obs, hidden, n_act)
        self.register_buffer('scale', torch.as_tensor((high - low)/2, dtype=torch.float32))
        self.register_buffer('bias', torch.as_tensor((high + low)/2, dtype=torch.float32))
    def forward(self, obs): return torch.tanh(self.net(obs))*self.scale + self.bias


class Critic(nn.Module):
    def __init__(self, n_obs, n_act, hidden):
        super().__init__()
        self.net = mlp(n_obs + n_act, hidden, 1)
    def forward(self, obs, act): return self.net(torch.cat([obs, act], 1))


class ReplayBuffer:
    "Preallocated tensors (written through numpy views of the same memory), uniform sampling with replacement."
    def __init__(self, size, n_obs, n_act):
        self.size, self.pos, self.full = size, 0, False
        self.t = dict(obs=torch.zeros(size, n_obs), act=torch.zeros(size, n_act), rew=torch.zeros(size, 1),
                      next_obs=torch.zeros(size, n_obs), term=torch.zeros(size, 1))
        self.np = {k: v.numpy() for k, v in self.t.items()}
    def add(self, **tr):
        for k, v in tr.items(): self.np[k][self.pos] = v
        self.pos = (self.pos + 1) % self.size
        self.full = self.full or self.pos == 0
    def sample(self, n):
        idx = torch.randint(0, self.size if self.full else self.pos, (n,))
        return {k: v[idx] for k, v in self.t.items()}


def run_hand(seed, args):
    hp = args.hp
    torch.manual_seed(seed)
    env = gym.make(ENV_ID)
    env.action_space.seed(seed)
    low, high = env.action_space.low, env.action_space.high
    n_obs, n_act = env.observation_space.shape[0], env.action_space.shape[0]
    actor, critic = Actor(n_obs, n_act, hp['net_arch'], low, high), Critic(n_obs, n_act, hp['net_arch'])
    actor_t, critic_t = copy.deepcopy(actor), copy.deepcopy(critic)
    a_opt = torch.optim.Adam(actor.parameters(), lr=hp['learning_rate'])
    c_opt = torch.optim.Adam(critic.parameters(), lr=hp['learning_rate'])
    rb = ReplayBuffer(min(hp['buffer_size'], args.steps), n_obs, n_act)
    t_low, t_high = torch.as_tensor(low), torch.as_tensor(high)
    gamma, tau = hp['gamma'], hp['tau']

    def update():
        b = rb.sample(hp['batch_size'])
        with torch.no_grad():  # truncation (time limit) is not stored as terminal, so it bootstraps
            y = b['rew'] + gamma*(1 - b['term'])*critic_t(b['next_obs'], actor_t(b['next_obs']))
        c_loss = F.mse_loss(critic(b['obs'], b['act']), y)
        c_opt.zero_grad(); c_loss.backward(); c_opt.step()
        a_loss = -critic(b['obs'], actor(b['obs'])).mean()
        a_opt.zero_grad(); a_loss.backward(); a_opt.step()
        with torch.no_grad():
            for net, targ in ((critic, critic_t), (actor, actor_t)):
                for p, p_t in zip(net.parameters(), targ.parameters()): p_t.lerp_(p, tau)  # p_t += tau*(p - p_t)

    obs, _ = env.reset(seed=seed)
    with Timer() as t:
        for step in range(args.steps):
            if step < hp['learning_starts']: act = env.action_space.sample()
            else:
                with torch.no_grad():
                    a = actor(torch.as_tensor(obs)[None])[0]
                    a += torch.randn_like(a)*hp['noise_std']*actor.scale
                act = a.clamp(t_low, t_high).numpy()
            next_obs, rew, term, trunc, _ = env.step(act)
            rb.add(obs=obs, act=act, rew=rew, next_obs=next_obs, term=term)
            obs = env.reset()[0] if term or trunc else next_obs
            if step + 1 > hp['learning_starts']: update()  # as SB3: train once num_timesteps > learning_starts
    env.close()
    return args.steps/t.s, evaluate(torch_policy(actor), ENV_ID, eval_seed(seed))


# ---------------------------------------------------------------- (c) fastrl
def run_fastrl(seed, args):
    """fastrl's `DDPGLearner` with `args.hp`: the seed-style agent with its Ornstein-Uhlenbeck noise swapped for
    Gaussian noise and a uniform-random warm-up inserted, both as augmentations; replay starts at `learning_starts`."""
    from fastcore.all import L
    from fastrl.pipes.core import ReplaceDp, InsertAfter
    from fastrl.data.block import DataBlock
    from fastrl.envs.gym import GymTransformBlock
    from fastrl.agents.core import OrnsteinUhlenbeck, GaussianNoise, UniformWarmup
    from fastrl.agents.ddpg import Actor as FActor, Critic as FCritic, DDPGAgent, DDPGLearner
    hp = args.hp
    torch.manual_seed(seed)
    h1, h2 = hp['net_arch']
    actor, critic = FActor(3, 1, h1, h2), FCritic(3, 1, h1, h2)
    agent = DDPGAgent(actor, dp_augmentation_fns=[
        ReplaceDp(OrnsteinUhlenbeck, lambda ou: GaussianNoise(ou.source_datapipe, std=hp['noise_std'])),
        InsertAfter(GaussianNoise, lambda p: UniformWarmup(p, steps=hp['learning_starts']))])
    dls = L(DataBlock(GymTransformBlock(agent=agent, seed=seed)).dataloaders([ENV_ID]))
    batches = 1000 if args.steps % 1000 == 0 else args.steps
    learner = DDPGLearner(actor, critic, dls, bs=hp['batch_size'], max_sz=min(hp['buffer_size'], args.steps),
                          gamma=hp['gamma'], tau=hp['tau'], actor_lr=hp['learning_rate'], critic_lr=hp['learning_rate'],
                          learning_starts=hp['learning_starts'] + 1, batches=batches)  # +1: as SB3, train once steps > learning_starts
    with Timer() as t: learner.fit(args.steps // batches)
    return args.steps/t.s, evaluate(torch_policy(actor), ENV_ID, eval_seed(seed))


if __name__ == '__main__':
    args = base_parser(__doc__).parse_args()
    args.hp = dict(HP)
    if args.quick: args.steps, args.hp['learning_starts'] = QUICK['steps'], QUICK['learning_starts']
    rows = run_all(dict(sb3=run_sb3_ddpg, hand=run_hand, fastrl=run_fastrl), args)
    report(rows, args, 'ddpg_pendulum', hp=args.hp)
