"""One PPO update of an LSTM actor-critic, computed by sb3-contrib's `RecurrentPPO` and by fastrl from the same weights
and the same rollout (issue 53): what each computes from the rollout (log-probs, values, GAE advantages and returns)
and the parameters after one gradient step on the whole rollout, at RL Zoo's `ppo_lstm` PendulumNoVel-v1 maths
(gamma 0.9, lambda 0.95, clip 0.2, value loss at 0.5, gradient norm 0.5 over all parameters, Adam eps 1e-5, advantages
normalised in the minibatch), small sizes. Prints the largest absolute difference of each and writes
bench/results/recurrent_maths.json.

sb3-contrib cuts its rollout at a random index before it splits it into minibatches; here the cut is put at 0 so that
both train on the same sequences (each lane whole): the parameters after the step then agree to float32 rounding. The
advantages differ by a scale: fastrl normalises the rollout's by the population std, SB3 a minibatch's by the sample
std (`adv_norm='minibatch'` normalises again within the minibatch, as SB3, so the step is the same).

    .venv/bin/python bench/recurrent_maths.py
"""
import numpy as np, torch
from torch import nn
import fastrl.envs.pomdp  # registers PendulumNoVel-v1
from fastrl.core import SimpleStep
from fastrl.agents.recurrent import RecurrentActorCritic
from fastrl.memory.advantage_buffer import AdvantageBuffer
from fastrl.agents.ppo import PPOJointLoss

N, T, H, GAMMA, LAM = 2, 48, 16, 0.9, 0.95


def sb3_rollout_and_step(seed=0):
    "sb3-contrib: one rollout of N lanes x T steps, then one update on it as one minibatch (n_epochs 1)."
    from sb3_contrib import RecurrentPPO
    from stable_baselines3.common.env_util import make_vec_env
    env = make_vec_env('PendulumNoVel-v1', n_envs=N, seed=seed)
    m = RecurrentPPO('MlpLstmPolicy', env, n_steps=T, batch_size=N * T, n_epochs=1, learning_rate=1e-3, gamma=GAMMA,
                     gae_lambda=LAM, clip_range=0.2, ent_coef=0., vf_coef=0.5, max_grad_norm=0.5, seed=seed, device='cpu',
                     policy_kwargs=dict(ortho_init=False, activation_fn=nn.ReLU, lstm_hidden_size=H, enable_critic_lstm=True,
                                        net_arch=dict(pi=[H], vf=[H])))
    total, cb = m._setup_learn(N * T, callback=None)
    cb.on_training_start(locals(), globals())
    before = {k: v.clone() for k, v in m.policy.state_dict().items()}
    obs0 = m._last_obs.copy()
    m.collect_rollouts(m.env, cb, m.rollout_buffer, n_rollout_steps=T)
    last_obs = m._last_obs.copy()
    rb = m.rollout_buffer   # [T, N, ...] until `get` flattens it
    data = {k: getattr(rb, k).copy() for k in ('observations', 'actions', 'rewards', 'episode_starts', 'values',
                                               'log_probs', 'advantages', 'returns')}
    # sb3-contrib cuts the flattened rollout at a random index (a sequence starts there, from the stored state): cut it
    # at 0, so that its sequences are the lanes, whole, as fastrl's sequences of T steps
    randint, np.random.randint = np.random.randint, lambda *a, **k: 0
    try: m.train()
    finally: np.random.randint = randint
    after = {k: v.clone() for k, v in m.policy.state_dict().items()}
    return data, before, after, obs0, last_obs


def fastrl_from(sd):
    "fastrl's RecurrentActorCritic holding the sb3-contrib policy's weights `sd`."
    import gymnasium as gym
    env = gym.make('PendulumNoVel-v1')
    ac = RecurrentActorCritic(env.observation_space, env.action_space, hidden_sizes=(H,), activation=nn.ReLU, rnn='lstm',
                              rnn_size=H, log_std_init=0.)
    pairs = {}
    for mine, theirs in (('pi.core.cell', 'lstm_actor'), ('v.core.cell', 'lstm_critic')):
        for w in ('weight_ih', 'weight_hh', 'bias_ih', 'bias_hh'): pairs[f'{mine}.{w}'] = f'{theirs}.{w}_l0'
    for w in ('weight', 'bias'):
        pairs[f'pi.head.mu_net.0.{w}'] = f'mlp_extractor.policy_net.0.{w}'; pairs[f'pi.head.mu_net.2.{w}'] = f'action_net.{w}'
        pairs[f'v.head.v_net.0.{w}'] = f'mlp_extractor.value_net.0.{w}'; pairs[f'v.head.v_net.2.{w}'] = f'value_net.{w}'
    pairs['pi.head.log_std'] = 'log_std'
    own = ac.state_dict()
    assert set(own) == set(pairs), sorted(set(own) ^ set(pairs))
    ac.load_state_dict({k: sd[v] for k, v in pairs.items()})
    return ac, pairs


def main():
    torch.set_num_threads(1)
    data, before, after, obs0, last_obs = sb3_rollout_and_step()
    from types import SimpleNamespace
    rb = SimpleNamespace(**data)
    ac, pairs = fastrl_from(before)
    obs = torch.as_tensor(rb.observations, dtype=torch.float32)                      # [T, N, 2]
    act = torch.as_tensor(rb.actions, dtype=torch.float32)                           # [T, N, 1]
    rew = torch.as_tensor(rb.rewards, dtype=torch.float32)                           # [T, N] (no cut inside: T < 200)
    assert rb.episode_starts[1:].sum() == 0, 'an episode ended inside the rollout: make T smaller'
    nxt = torch.cat([obs[1:], torch.as_tensor(last_obs, dtype=torch.float32)[None]])
    # the agent's state before each step, as fastrl's sampler carries it (pi's and v's cores), from zeros
    buf = AdvantageBuffer(None, ac, steps_per_epoch=N * T, gamma=GAMMA, lam=LAM, seq_len=T, value_target='gae')
    h = ac.initial(N)
    with torch.no_grad():
        for t in range(T):
            buf.add(SimpleStep(state=obs[t], action=act[t], next_state=nxt[t], reward=rew[t],
                               terminated=torch.zeros(N, dtype=torch.bool), truncated=torch.zeros(N, dtype=torch.bool),
                               step_n=torch.full((N,), t), agent_state=h.clone(), env_id=torch.arange(N),
                               episode_n=torch.ones(N, dtype=torch.long), total_reward=torch.zeros(N),
                               n_steps=torch.ones(N, dtype=torch.long)))
            hp = ac.pi.core.step(obs[t], h[:, 0])[1]; hv = ac.v.core.step(obs[t], h[:, 1])[1]
            h = torch.stack([hp, hv], 1)
        r = buf.finish()                                                             # sequences [N, T]
    lane = lambda x: torch.as_tensor(x, dtype=torch.float32).transpose(0, 1)       # sb3's [T, N] -> [N, T]
    diff = lambda a, b: float((a - b).abs().max())
    out = dict(logp=diff(r.logp, lane(rb.log_probs)), v=diff(r.v, lane(rb.values)),
               returns=diff(r.ret, lane(rb.returns)))
    a_sb3 = lane(rb.advantages); a_sb3 = (a_sb3 - a_sb3.mean()) / (a_sb3.std() + 1e-8)
    out['advantages (normalised)'] = diff(r.adv, a_sb3)
    # one update on the whole rollout as one minibatch
    opt = torch.optim.Adam(ac.pi.parameters(), lr=1e-3, eps=1e-5); v_opt = torch.optim.Adam(ac.v.parameters(), lr=1e-3, eps=1e-5)
    jl = PPOJointLoss(None, ac, opt, v_opt, clip_ratio=0.2, train_pi_iters=1, train_v_iters=1, target_kl=None,
                      mb_size=N * T, vf_coef=0.5, joint_clip=True, adv_norm='minibatch')
    d = jl.joint_minibatch(r.obs, r.act, r.adv, r.logp, r.ret, h0=r.h0, first=r.first)
    opt.zero_grad(); v_opt.zero_grad(); d['loss'].backward()
    nn.utils.clip_grad_norm_(list(ac.parameters()), 0.5)
    opt.step(); v_opt.step()
    sd = ac.state_dict()
    out['parameters after the step'] = max(diff(sd[k], after[v]) for k, v in pairs.items())
    out['parameter change (sb3-contrib, for scale)'] = max(diff(after[v], before[v]) for v in pairs.values())
    for k, v in out.items(): print(f'{k:45s} {v:.3g}')
    import json, sb3_contrib
    from common import RESULTS_DIR
    (RESULTS_DIR/'recurrent_maths.json').write_text(json.dumps(dict(
        sizes=dict(lanes=N, steps=T, lstm=H), sb3_contrib=sb3_contrib.__version__, torch=torch.__version__,
        max_abs_difference=out), indent=1))
    return out


if __name__ == '__main__':
    main()
