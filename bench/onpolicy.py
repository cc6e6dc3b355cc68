"""Shared runners of the on-policy benchmarks (`ppo_*.py`, `vpg_cartpole.py`, `trpo_cartpole.py`).

`HP` dicts use Stable-Baselines3's PPO names (n_envs, n_steps, batch_size, n_epochs, learning_rate, clip_range,
gamma, gae_lambda, ent_coef, max_grad_norm, net_arch, linear); fastrl gets the same numbers under Spinning Up's
names: steps_per_epoch = n_envs*n_steps, mb_size = batch_size, train_pi_iters = train_v_iters = n_epochs,
pi_lr = vf_lr = learning_rate, clip_ratio = clip_range, lam = gae_lambda, target_kl = None, and
`linear=True` anneals learning rates and clip range to 0 as SB3's `lin_` schedules do. fastrl's PPO takes its policy
and value steps in pairs on the same minibatches (`PPOLearner(joint=True)`), as SB3 does; `joint=False` in `HP` gives
Spinning Up's separate passes (the same updates when the networks share no parameters).
"""
import math

import gymnasium as gym
import torch
from torch import nn

from common import CPU_S, CPUTimer, eval_seed, evaluate


def run_sb3_ppo(env_id, seed, steps, hp, policy='MlpPolicy'):
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env
    lr, clip = hp['learning_rate'], hp['clip_range']
    if hp.get('linear'): lr, clip = (lambda v: (lambda p: p * v))(lr), (lambda v: (lambda p: p * v))(clip)
    env = make_vec_env(env_id, n_envs=hp['n_envs'], seed=seed)
    model = PPO(policy, env, seed=seed, device='cpu', verbose=0, n_steps=hp['n_steps'], batch_size=hp['batch_size'], n_epochs=hp['n_epochs'],
                   learning_rate=lr, clip_range=clip, gamma=hp['gamma'], gae_lambda=hp['gae_lambda'], ent_coef=hp.get('ent_coef', 0.),
                   max_grad_norm=hp.get('max_grad_norm', 0.5), policy_kwargs=dict(net_arch=hp.get('net_arch', [64, 64])))
    with CPUTimer() as t: model.learn(total_timesteps=steps)
    CPU_S['sb3', seed] = t.cpu_s * steps / model.num_timesteps   # per `steps` (SB3 rounds up to whole rollouts)
    return model.num_timesteps / t.s, evaluate(lambda o: model.predict(o, deterministic=True)[0], env_id, eval_seed(seed))


def ac_policy(ac):
    "Deterministic numpy policy of an actor-critic for `evaluate`: argmax / mean."
    @torch.no_grad()
    def policy(obs): return ac.pi.mode(torch.as_tensor(obs, dtype=torch.float32)[None])[0].numpy()
    return policy


class recurrent_policy:
    "Deterministic numpy policy of a recurrent actor-critic for `evaluate`: its state carried, restarted by `reset()`."
    def __init__(self, ac): self.ac = ac; self.reset()
    def reset(self): self.h = self.ac.initial(1)[:, 0]
    @torch.no_grad()
    def __call__(self, obs):
        a, self.h = self.ac.pi.act(torch.as_tensor(obs, dtype=torch.float32)[None], self.h, deterministic=True)
        return a[0].numpy()


class packing:
    "`policy` taking the raw observations of an env whose fastrl lanes pack them (`PackObservation` `wrapper`)."
    def __init__(self, policy, wrapper): self.policy, self.wrapper = policy, wrapper
    def reset(self):
        if hasattr(self.policy, 'reset'): self.policy.reset()
    def __call__(self, obs): return self.policy(self.wrapper.observation(obs))


def run_fastrl_onpolicy(algo, env_id, seed, steps, hp, eval_id=None, **algo_kwargs):
    """Train fastrl's `algo` learner ('ppo', 'vpg', 'trpo') for `ceil(steps / steps_per_epoch)` epochs of
    `n_envs*n_steps` transitions (one learner batch each); time `fit` only; evaluate the deterministic policy on
    `eval_id` (default: `env_id`)."""
    from fastcore.all import L
    from fastrl.data.block import DataBlock
    from fastrl.envs.gym import GymTransformBlock
    from fastrl.pipes.core import InsertAfter, find_dp
    from fastrl.learner.core import LearnerHead
    from fastrl.memory.advantage_buffer import AdvantageBuffer
    from fastrl.agents.policies import MLPActorCritic, ActorCriticAgent
    from fastrl.agents.vpg import VPGLearner, VPGPolicyLoss, ValueLoss
    from fastrl.algos.onpolicy import ClipBoxActions  # Box actions clipped in the env, as SB3 clips them
    from fastrl.agents.ppo import PPOLearner, LinearAnneal, PPOJointLoss
    from fastrl.envs.packed import packed_env, PackObservation
    torch.manual_seed(seed)
    probe = packed_env(gym.make(env_id))   # Dict observations as fastrl's lanes give them: one byte row
    act_fn = hp.get('activation', nn.Tanh)
    std = {k: hp[k] for k in ('log_std_init',) if k in hp}   # a Gaussian policy's initial log sigma, when HP gives one
    if hp.get('rnn'):   # a recurrent actor-critic: the cell, then MLP heads of net_arch
        from fastrl.agents.recurrent import RecurrentActorCritic
        ac = RecurrentActorCritic(probe.observation_space, probe.action_space, hidden_sizes=hp.get('net_arch', [64]),
                                  activation=act_fn, rnn=hp['rnn'], rnn_size=hp.get('lstm_hidden_size', 64),
                                  **std)
        common_seq = dict(seq_len=hp.get('seq_len', hp['n_steps']))
    else:
        ac = MLPActorCritic(probe.observation_space, probe.action_space, hidden_sizes=hp.get('net_arch', [64, 64]), activation=act_fn,
                            **std)
        common_seq = {}
    N, T = hp['n_envs'], hp['n_steps']
    spe = N * T
    dls = L(DataBlock(GymTransformBlock(agent=ActorCriticAgent(ac), seed=seed, num_envs=N, bs=T)).dataloaders([ClipBoxActions(env_id)]))
    common = dict(steps_per_epoch=spe, gamma=hp['gamma'], lam=hp['gae_lambda'], vf_lr=hp.get('vf_lr', hp['learning_rate']),
                  train_v_iters=hp.get('train_v_iters', hp['n_epochs']), max_grad_norm=hp.get('max_grad_norm'), **common_seq,
                  **{k: hp[k] for k in ('value_target', 'adam_eps') if k in hp})   # SB3's: 'gae', 1e-5
    if algo == 'ppo':
        learner = PPOLearner(ac, dls, clip_ratio=hp['clip_range'], train_pi_iters=hp['n_epochs'], target_kl=hp.get('target_kl'),
                             mb_size=hp['batch_size'], pi_lr=hp['learning_rate'], joint=hp.get('joint', True),
                             vf_coef=hp.get('vf_coef', 1.), joint_clip=hp.get('joint_clip', False),
                             **{k: hp[k] for k in ('adv_norm', 'ent_coef') if k in hp}, **common)
    elif algo == 'vpg':
        learner = VPGLearner(ac, dls, pi_lr=hp['learning_rate'], v_mb_size=hp.get('batch_size'), **common)
    elif algo == 'trpo':
        from fastrl.agents.trpo import TRPOLearner
        learner = TRPOLearner(ac, dls, v_mb_size=hp.get('batch_size'), **algo_kwargs, **common)
    else: raise ValueError(algo)
    epochs = math.ceil(steps / spe)
    if hp.get('linear'):
        pol = find_dp(learner, (VPGPolicyLoss, PPOJointLoss))
        v_opt = pol.v_opt if isinstance(pol, PPOJointLoss) else find_dp(learner, ValueLoss).opt
        anneal = InsertAfter(AdvantageBuffer, lambda p: LinearAnneal(p, steps / spe, opts=[pol.opt, v_opt], clip_pipes=[pol]))
        learner = LearnerHead(anneal(learner.source_datapipe))
    with CPUTimer() as t: learner.fit(epochs)
    CPU_S['fastrl', seed] = t.cpu_s * steps / (epochs * spe)
    policy = recurrent_policy(ac) if hp.get('rnn') else ac_policy(ac)
    if isinstance(probe, PackObservation): policy = packing(policy, probe)
    return epochs * spe / t.s, evaluate(policy, eval_id or env_id, eval_seed(seed))


def iqm_report(path):
    "IQM with a 95 % stratified-bootstrap interval per method, and P(X > Y) for each pair (fastrl.experiments.study)."
    import json
    from fastrl.experiments.plot import stratified_bootstrap
    from fastrl.experiments.study import prob_improvement_ci
    runs = json.loads(path.read_text())['runs']
    by = {}
    for r in runs: by.setdefault(r['method'], []).append(r['mean_return'])
    out = {}
    for m, xs in by.items():
        p, lo, hi = stratified_bootstrap([xs], rng=0)
        out[m] = dict(seeds=len(xs), IQM=p, lo95=lo, hi95=hi, returns=xs)
        print(f"{m:16s} n={len(xs)}  IQM {p:6.1f} [{lo:6.1f}, {hi:6.1f}]   {[round(x, 1) for x in xs]}")
    pairs = {}
    for x in by:
        for y in by:
            if x < y:
                p, lo, hi = prob_improvement_ci([by[x]], [by[y]], rng=0)
                pairs[f'{x} > {y}'] = dict(P=p, lo95=lo, hi95=hi)
                print(f"P({x} > {y}) = {p:.2f} [{lo:.2f}, {hi:.2f}]")
    return dict(methods=out, pairs=pairs)


def bench_main(doc, name, runners, hp, steps, quick_steps):
    """CLI of an on-policy bench script: runs `runners` interleaved per seed and, after every seed, merges its rows
    into `results/{name}.json` (rows of earlier invocations with the same steps are kept, a rerun replaces them),
    so partial results survive and seeds can be run one invocation at a time."""
    import json, sys
    from common import RESULTS_DIR, add_cpu_s, base_parser, cpu_report, report, run_all
    if '--report' in sys.argv:   # the study of the runs so far: IQM [95 % CI] per method, P(X > Y) per pair
        path = RESULTS_DIR/f'{name}.json'
        d = json.loads(path.read_text()); d['study'] = iqm_report(path); path.write_text(json.dumps(d, indent=1))
        return
    args = base_parser(doc, methods=tuple(runners), steps=steps).parse_args()
    if args.quick: args.steps, name = quick_steps, name + '_quick'
    path, seeds = RESULTS_DIR/f'{name}.json', list(args.seeds)
    for i, s in enumerate(seeds):
        args.seeds = [s]
        new = add_cpu_s(run_all(runners, args))
        old = json.loads(path.read_text())['runs'] if path.exists() else []
        keep = [r for r in old if r['steps'] == args.steps and (r['method'], r['seed']) not in {(n['method'], n['seed']) for n in new}]
        rows = sorted(keep + new, key=lambda r: (r['seed'], list(runners).index(r['method']) if r['method'] in runners else 99))
        args.seeds = sorted({r['seed'] for r in rows})
        report(rows, args, name, hp=hp)
        cpu_report(rows, name)
