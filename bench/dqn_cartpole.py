"""DQN on CartPole-v1: fastrl vs Stable-Baselines3, plus fastrl's double, dueling and categorical (C51) variants.

Every method trains with rl-zoo's CartPole-v1 hyper-parameters `HP` (hyperparams/dqn.yml of DLR-RM/rl-baselines3-zoo)
for `--steps` env steps on one env:
  sb3      -- `stable_baselines3.DQN`;
  hand     -- a plain PyTorch loop of the same updates (numpy-backed tensor replay, fused Adam): the speed floor
              that no framework on top of PyTorch beats by much, measured in the same run;
  fastrl   -- `DQNLearner` + the `TargetNetwork` augmentation (Huber loss, grad-norm clip 10, as SB3);
  double   -- fastrl + `DoubleDQN()`;
  dueling  -- fastrl with a `DuelingDQN` Q-network;
  dueling_double -- the dueling network trained with the double-DQN target, as Wang et al. (2016) train it;
  c51      -- fastrl + `Categorical()` with a `CategoricalDQN` (51 atoms, cross-entropy loss) on the default support of the
              `dqn` entry, `c51_support(gamma, declared_reward_range(env))`: [-100, 100] on CartPole at gamma 0.99.
For every (method, seed) it measures the wall time of the training loop only (env steps/s = steps / training seconds)
and the mean return of the greedy policy over 10 episodes on a separately seeded eval env. Methods run interleaved
per seed, all at `torch.set_num_threads(--threads)`. Prints markdown tables, writes bench/results/<--name>.json.

    .venv/bin/python bench/dqn_cartpole.py --seeds 0 1 2 --only sb3 fastrl                         # DQN vs SB3
    .venv/bin/python bench/dqn_cartpole.py --seeds 0 --only sb3 hand fastrl --name dqn_cartpole_speed    # + speed floor
    .venv/bin/python bench/dqn_cartpole.py --seeds 0 1 2 --only double dueling c51 --set learning_rate=5e-4 --name dqn_variants_lr5e-4
    .venv/bin/python bench/dqn_cartpole.py --quick                                                  # smoke test

`--set KEY=VALUE ...` overrides entries of `HP` or `C51` for every method; `--set lr_decay=0.0` decays the learning
rate linearly to 0 (fastrl: `LRSchedule(linear_decay(...))` over the gradient steps; SB3: a schedule over env steps). The final greedy policy collapses on some
seeds in every method, SB3 included (seeds 0-9: SB3 402.1, fastrl 407.3, each 7 of 10 at 500), so a few seeds cannot
tell methods or learning rates apart; see the README's table for 10-seed results of the variants.

Matching SB3's schedule: SB3 trains `gradient_steps` batches every `train_freq` env steps once more than
`learning_starts` steps are stored, and with `target_update_interval` (10 env steps) <= `train_freq` (256) it copies
the target once between two such rounds; fastrl's `ExperienceReplay(train_freq, gradient_steps)` does the same
rounds and `TargetNetwork(gradient_steps)` the same copy. Epsilon decays linearly from 1 to `exploration_final_eps`
over `exploration_fraction * steps` transitions in both. Differences: SB3 acts uniformly at random for the first
`learning_starts` steps (fastrl: epsilon-greedy, epsilon ~0.9 then) and SB3 rounds the run up to a multiple of
`train_freq` (50,176 steps for 50k).
"""
import copy

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from common import Timer, base_parser, eval_seed, evaluate, greedy_policy, report, run_all, run_sb3

ENV_ID = 'CartPole-v1'
HP = dict(learning_rate=2.3e-3, batch_size=64, buffer_size=100_000, learning_starts=1000, gamma=0.99,
          target_update_interval=10, train_freq=256, gradient_steps=128, exploration_fraction=0.16,
          exploration_final_eps=0.04, net_arch=[256, 256])
OPTIONAL = dict(lr_decay=None)   # settings every task's HP may leave out (the LunarLander script has its own HP)
C51 = dict(n_atoms=51, v_min=None, v_max=None)   # None: fastrl's default support, `c51_support` (as the `dqn` entry)
QUICK = dict(steps=3_000, learning_starts=500)
METHODS = ('sb3', 'hand', 'fastrl', 'double', 'dueling', 'dueling_double', 'c51')


def run_sb3_dqn(seed, args):
    from stable_baselines3 import DQN
    hp = args.hp
    lr = hp['learning_rate']
    if hp['lr_decay'] is not None:   # SB3's schedules take the progress remaining, 1 -> 0 over the run's env steps
        lr = lambda p, lr0=hp['learning_rate'], f=hp['lr_decay']: lr0 * (f + (1 - f) * p)
    return run_sb3(DQN, args.env, seed, args.steps, learning_rate=lr, batch_size=hp['batch_size'],
                   buffer_size=hp['buffer_size'], learning_starts=hp['learning_starts'], gamma=hp['gamma'],
                   target_update_interval=hp['target_update_interval'], train_freq=hp['train_freq'],
                   gradient_steps=hp['gradient_steps'], exploration_fraction=hp['exploration_fraction'],
                   exploration_final_eps=hp['exploration_final_eps'], policy_kwargs=dict(net_arch=hp['net_arch']))


def run_hand(seed, args):
    "Plain PyTorch DQN with SB3's schedule: epsilon-greedy, `gradient_steps` Huber-loss updates every `train_freq` steps."
    import gymnasium as gym
    hp = args.hp
    torch.manual_seed(seed)
    env = gym.make(args.env); env.action_space.seed(seed)
    n_obs, n_act = env.observation_space.shape[0], int(env.action_space.n)
    sizes = [n_obs, *hp['net_arch']]
    q = nn.Sequential(*[m for a, b in zip(sizes[:-1], sizes[1:]) for m in (nn.Linear(a, b), nn.ReLU())], nn.Linear(sizes[-1], n_act))
    q_t, opt = copy.deepcopy(q), torch.optim.Adam(q.parameters(), lr=hp['learning_rate'], fused=True)
    N = min(hp['buffer_size'], args.steps)
    buf = dict(obs=torch.zeros(N, n_obs), act=torch.zeros(N, dtype=torch.long), rew=torch.zeros(N),
               next_obs=torch.zeros(N, n_obs), term=torch.zeros(N))
    view = {k: v.numpy() for k, v in buf.items()}   # numpy views: cheap single-row writes
    decay, rng = hp['exploration_fraction'] * args.steps, np.random.default_rng(seed)
    obs, _ = env.reset(seed=seed)
    with Timer() as t:
        for step in range(args.steps):
            eps = max(hp['exploration_final_eps'], 1 - step / decay * (1 - hp['exploration_final_eps']))
            if step < hp['learning_starts'] or rng.random() < eps: act = int(env.action_space.sample())
            else:
                with torch.no_grad(): act = int(q(torch.as_tensor(obs)[None]).argmax())
            next_obs, rew, term, trunc, _ = env.step(act)
            i = step % N
            view['obs'][i], view['act'][i], view['rew'][i], view['next_obs'][i], view['term'][i] = obs, act, rew, next_obs, term
            obs = env.reset()[0] if term or trunc else next_obs
            if (step + 1) % hp['train_freq'] == 0 and step + 1 > hp['learning_starts']:
                q_t.load_state_dict(q.state_dict())   # target_update_interval <= train_freq: one copy per round
                for _ in range(hp['gradient_steps']):
                    idx = torch.randint(min(step + 1, N), (hp['batch_size'],))
                    b = {k: v[idx] for k, v in buf.items()}
                    with torch.no_grad(): y = b['rew'] + hp['gamma'] * (1 - b['term']) * q_t(b['next_obs']).max(1).values
                    loss = F.smooth_l1_loss(q(b['obs']).gather(1, b['act'][:, None]).squeeze(1), y)
                    opt.zero_grad(); loss.backward(); nn.utils.clip_grad_norm_(q.parameters(), 10.); opt.step()
    env.close()

    return args.steps / t.s, evaluate(greedy_policy(q), args.env, eval_seed(seed))


def target_sync(hp):
    "SB3's `target_update_interval` (env steps) as fastrl's interval in gradient steps."
    g = hp['gradient_steps'] if hp['gradient_steps'] > 0 else hp['train_freq']   # gradient steps per round
    if hp['target_update_interval'] <= hp['train_freq']: return g                  # one copy between rounds
    return max(1, round(hp['target_update_interval'] * g / hp['train_freq']))


def run_fastrl(seed, args, variant='dqn'):
    from fastcore.all import L
    from fastrl.data.block import DataBlock
    from fastrl.envs.gym import GymTransformBlock
    from fastrl.agents.dqn.basic import DQN, DQNAgent, DQNLearner
    from fastrl.agents.dqn.target import TargetNetwork
    hp = args.hp
    torch.manual_seed(seed)
    import gymnasium as gym
    env = gym.make(args.env); n_obs, n_act = env.observation_space.shape[0], int(env.action_space.n); env.close()
    augs = [TargetNetwork(target_sync(hp))]
    if variant in ('dueling', 'dueling_double'):
        from fastrl.agents.dqn.dueling import DuelingDQN
        model = DuelingDQN(n_obs, n_act, hidden_sizes=hp['net_arch'])
    elif variant == 'c51':
        from fastrl.agents.dqn.categorical import CategoricalDQN, Categorical
        from fastrl.agents.dqn.categorical import c51_support, declared_reward_range
        env = gym.make(args.env); v = c51_support(hp['gamma'], declared_reward_range(env)); env.close()
        sup = dict(v_min=v[0] if hp['v_min'] is None else hp['v_min'], v_max=v[1] if hp['v_max'] is None else hp['v_max'])
        model = CategoricalDQN(n_obs, n_act, hidden_sizes=hp['net_arch'], n_atoms=hp['n_atoms'], **sup)
        augs += Categorical()
    else: model = DQN(n_obs, n_act, hidden_sizes=hp['net_arch'])
    if variant in ('double', 'dueling_double'):
        from fastrl.agents.dqn.double import DoubleDQN
        augs.append(DoubleDQN())
    if hp['lr_decay'] is not None:   # linear, over the run's gradient steps, to lr_decay x the learning rate
        from fastrl.learner.core import LRSchedule, linear_decay
        rounds = (args.steps - hp['learning_starts']) // hp['train_freq'] + 1
        augs.append(LRSchedule(linear_decay(rounds * hp['gradient_steps'], final=hp['lr_decay'])))
    agent = DQNAgent(model, max_steps=int(hp['exploration_fraction'] * args.steps), min_epsilon=hp['exploration_final_eps'])
    dls = L(DataBlock(GymTransformBlock(agent=agent, seed=seed)).dataloaders([args.env]))
    batches = 1000 if args.steps % 1000 == 0 else args.steps
    learner = DQNLearner(model, dls, lr=hp['learning_rate'], bs=hp['batch_size'], max_sz=min(hp['buffer_size'], args.steps),
                         gamma=hp['gamma'], learning_starts=hp['learning_starts'], train_freq=hp['train_freq'],
                         gradient_steps=hp['gradient_steps'], batches=batches, dp_augmentation_fns=augs)
    with Timer() as t: learner.fit(args.steps // batches)

    return args.steps / t.s, evaluate(greedy_policy(model), args.env, eval_seed(seed))


def parser(doc, env_id, steps, methods=METHODS, name='dqn_cartpole'):
    p = base_parser(doc, methods=methods, steps=steps)
    p.add_argument('--name', default=name, help=f'results file bench/results/NAME.json (default: {name})')
    p.add_argument('--env', default=env_id, help=f'gymnasium env id (default: {env_id})')
    p.add_argument('--set', nargs='+', default=[], metavar='KEY=VALUE',
                   help='override hyper-parameters of HP (or C51: n_atoms, v_min, v_max) for every method, e.g. learning_rate=1e-3')
    return p


def overrides(pairs, hp):
    "`--set` pairs as a dict of JSON values; an unknown key is an error that lists the known ones."
    import json
    out = {}
    for kv in pairs:
        k, sep, v = kv.partition('=')
        if not sep or k not in hp: raise SystemExit(f"--set {kv}: expected KEY=VALUE with KEY one of {', '.join(hp)}")
        out[k] = json.loads(v)
    return out


def main(doc, env_id, hp, steps, name, methods=METHODS):
    args = parser(doc, env_id, steps, methods, name).parse_args()
    args.hp = dict(OPTIONAL) | dict(hp) | dict(C51)
    args.hp |= overrides(args.set, args.hp)
    if args.hp['lr_decay'] is not None and 'hand' in args.only:   # the speed floor keeps a constant rate
        raise SystemExit("--set lr_decay: the hand-written loop has no learning-rate schedule; leave 'hand' out of --only.")
    if args.quick: args.steps, args.hp['learning_starts'], args.name = QUICK['steps'], QUICK['learning_starts'], args.name + '_quick'
    runners = dict(sb3=run_sb3_dqn, hand=run_hand, fastrl=run_fastrl, double=lambda s, a: run_fastrl(s, a, 'double'),
                   dueling=lambda s, a: run_fastrl(s, a, 'dueling'), dueling_double=lambda s, a: run_fastrl(s, a, 'dueling_double'),
                   c51=lambda s, a: run_fastrl(s, a, 'c51'))
    rows, seeds = [], args.seeds
    for seed in seeds:   # the JSON is rewritten after every seed, so finished seeds survive an interrupted run
        args.seeds = [seed]
        rows += run_all({k: v for k, v in runners.items() if k in methods}, args)
        args.seeds = seeds
        report(rows, args, args.name, hp=args.hp)


if __name__ == '__main__':
    main(__doc__, ENV_ID, HP, 50_000, 'dqn_cartpole')
