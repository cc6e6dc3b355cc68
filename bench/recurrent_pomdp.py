"""Recurrent PPO on partially observed control: CartPole-v1 with its velocities dropped (`CartPoleNoVel-v1`,
`fastrl.envs.pomdp`). fastrl's PPO with an LSTM (`--rnn lstm`) against sb3-contrib's `RecurrentPPO`
(`MlpLstmPolicy`) at RL Zoo's tuned `ppo_lstm` CartPoleNoVel-v1 settings, and fastrl's MLP PPO at the same settings
(which cannot see velocities and so should fail), and fastrl's LSTM PPO configured to SB3's PPO maths
(`fastrl_lstm_sb3`: value loss weighted 0.5 in a jointly clipped sum, Adam eps 1e-5, GAE(lambda) value targets):

8 envs, n_steps 32, batch 256, gae_lambda 0.8, gamma 0.98, n_epochs 20, ent_coef 0, learning rate lin_1e-3, clip
range lin_0.2, max_grad_norm 0.5, LSTM of 64 for pi and a separate one for v, then one ReLU layer of 64 in each head,
100k steps. One deviation from the zoo, for both libraries: no VecNormalize (`normalize: true` in the zoo); fastrl
trains on sequences of the 32 steps of one lane from the stored first state, sb3-contrib on the same rollout split at
episode starts (padded).

Interleaved per seed, one torch thread; env-steps/s of the training loop and the mean 10-episode deterministic
return on a separately seeded eval env, the recurrent state restarted each episode. Writes
bench/results/recurrent_pomdp.json.

    OMP_NUM_THREADS=1 .venv/bin/python bench/recurrent_pomdp.py --seeds 0 1 2 3 4
    OMP_NUM_THREADS=1 .venv/bin/python bench/recurrent_pomdp.py --seeds 0 1 2 3 4 --only fastrl_lstm_sb3
    .venv/bin/python bench/recurrent_pomdp.py --report      # IQM [95 % CI] per method, P(X > Y) per pair
    OMP_NUM_THREADS=1 .venv/bin/python bench/recurrent_pomdp.py --quick
"""
import numpy as np
from torch import nn

import fastrl.envs.pomdp  # registers CartPoleNoVel-v1
from common import CPU_S, CPUTimer, eval_seed, evaluate
from onpolicy import bench_main, run_fastrl_onpolicy

ENV_ID = 'CartPoleNoVel-v1'
HP = dict(n_envs=8, n_steps=32, batch_size=256, gae_lambda=0.8, gamma=0.98, n_epochs=20, ent_coef=0.0,
          learning_rate=1e-3, clip_range=0.2, linear=True, max_grad_norm=0.5, net_arch=[64], activation=nn.ReLU,
          rnn='lstm', lstm_hidden_size=64)


class sb3_recurrent_policy:
    "Deterministic numpy policy of an sb3-contrib RecurrentPPO for `evaluate`: its LSTM state carried per episode."
    def __init__(self, model): self.model = model; self.reset()
    def reset(self): self.state, self.start = None, np.ones((1,), dtype=bool)
    def __call__(self, obs):
        a, self.state = self.model.predict(obs, state=self.state, episode_start=self.start, deterministic=True)
        self.start = np.zeros((1,), dtype=bool)
        return a


def run_sb3_lstm(seed, args, env_id=ENV_ID, hp=HP, eval_id=None):
    "sb3-contrib's RecurrentPPO at `hp` on `env_id`, scored on `eval_id` (default: the same env)."
    from sb3_contrib import RecurrentPPO
    from stable_baselines3.common.env_util import make_vec_env
    lin = (lambda v: (lambda p: p * v)) if hp.get('linear') else (lambda v: v)
    env = make_vec_env(env_id, n_envs=hp['n_envs'], seed=seed)
    model = RecurrentPPO('MlpLstmPolicy', env, seed=seed, device='cpu', verbose=0, n_steps=hp['n_steps'],
                         batch_size=hp['batch_size'], n_epochs=hp['n_epochs'], learning_rate=lin(hp['learning_rate']),
                         clip_range=lin(hp['clip_range']), gamma=hp['gamma'], gae_lambda=hp['gae_lambda'],
                         ent_coef=hp['ent_coef'], max_grad_norm=hp['max_grad_norm'],
                         policy_kwargs=dict(ortho_init=False, activation_fn=nn.ReLU, lstm_hidden_size=hp['lstm_hidden_size'],
                                            enable_critic_lstm=True, net_arch=dict(pi=hp['net_arch'], vf=hp['net_arch'])))
    with CPUTimer() as t: model.learn(total_timesteps=args.steps)
    CPU_S['sb3_lstm', seed] = t.cpu_s * args.steps / model.num_timesteps
    return model.num_timesteps / t.s, evaluate(sb3_recurrent_policy(model), eval_id or env_id, eval_seed(seed))


# fastrl configured to SB3's PPO maths: the value loss at 0.5 in the joint sum whose gradient is clipped by its joint
# norm, Adam eps 1e-5, GAE(lambda) returns as V's target (fastrl's defaults are Spinning Up's: separate clips, eps 1e-8,
# rewards-to-go)
SB3_MATHS = dict(vf_coef=0.5, joint_clip=True, adam_eps=1e-5, value_target='gae')


def run_fastrl(seed, args, rnn, name=None, extra=None, env_id=ENV_ID, hp=HP, eval_id=None):
    steps_s, ret = run_fastrl_onpolicy('ppo', env_id, seed, args.steps, {**hp, 'rnn': rnn, **(extra or {})}, eval_id=eval_id)
    CPU_S[name or f"fastrl_{rnn or 'mlp'}", seed] = CPU_S.pop(('fastrl', seed))
    return steps_s, ret


if __name__ == '__main__':
    bench_main(__doc__, 'recurrent_pomdp', dict(sb3_lstm=run_sb3_lstm,
                                                 fastrl_lstm=lambda s, a: run_fastrl(s, a, 'lstm'),
                                                 fastrl_lstm_sb3=lambda s, a: run_fastrl(s, a, 'lstm', 'fastrl_lstm_sb3', SB3_MATHS),
                                                 fastrl_mlp=lambda s, a: run_fastrl(s, a, None)),
               {k: (v.__name__ if isinstance(v, type) else v) for k, v in HP.items()}, steps=100_000, quick_steps=5_000)
