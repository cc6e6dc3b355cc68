"""Recurrent PPO on partially observed Pendulum (`PendulumNoVel-v1`, `fastrl.envs.pomdp`: the angular velocity
dropped, cos and sin of the angle kept). fastrl's PPO with an LSTM configured to SB3's PPO maths against sb3-contrib's
`RecurrentPPO` (`MlpLstmPolicy`) at RL Zoo's `ppo_lstm` PendulumNoVel-v1 settings, and fastrl's MLP PPO at the same
settings (it cannot see the velocity):

4 envs, n_steps 1024, batch 128 (RecurrentPPO's default), gae_lambda 0.95, gamma 0.9, n_epochs 10, ent_coef 0,
learning rate 1e-3 (constant), clip range 0.2, max_grad_norm 0.5, LSTM of 64 for pi and a separate one for v, then one
ReLU layer of 64 in each head, 100k steps.

Two deviations from the zoo, the same for both libraries:
- no gSDE (`use_sde: True, sde_sample_freq: 4` in the zoo): fastrl has none, so both explore with a state-independent
  Gaussian;
- the zoo's VecNormalize becomes gymnasium's `NormalizeReward(gamma=0.9)` inside each training env (the id
  `PendulumNoVelNormReward-v1` registered here) for both; observations (cos, sin) are already in [-1, 1] and are not
  normalised. Scores are on the raw `PendulumNoVel-v1`.

fastrl trains on sequences of 64 steps of one lane from the stored first state, sb3-contrib on the same rollout split
at episode starts (padded). Interleaved per seed, one torch thread; env-steps/s of the training loop and the mean
10-episode deterministic return on a separately seeded eval env, the recurrent state restarted each episode. Writes
bench/results/recurrent_pendulum.json.

    OMP_NUM_THREADS=1 .venv/bin/python bench/recurrent_pendulum.py --seeds 0 1 2 3 4
    .venv/bin/python bench/recurrent_pendulum.py --report      # IQM [95 % CI] per method, P(X > Y) per pair
    OMP_NUM_THREADS=1 .venv/bin/python bench/recurrent_pendulum.py --quick
"""
import gymnasium as gym
from torch import nn

import fastrl.envs.pomdp  # registers PendulumNoVel-v1
from onpolicy import bench_main
from recurrent_pomdp import SB3_MATHS, run_fastrl, run_sb3_lstm

EVAL_ID, TRAIN_ID = 'PendulumNoVel-v1', 'PendulumNoVelNormReward-v1'
HP = dict(n_envs=4, n_steps=1024, batch_size=128, gae_lambda=0.95, gamma=0.9, n_epochs=10, ent_coef=0.0,
          learning_rate=1e-3, clip_range=0.2, max_grad_norm=0.5, net_arch=[64], activation=nn.ReLU,
          rnn='lstm', lstm_hidden_size=64, seq_len=64)


def _train_env(**kw): return gym.wrappers.NormalizeReward(gym.make(EVAL_ID, **kw), gamma=HP['gamma'])
gym.register(TRAIN_ID, entry_point=_train_env, max_episode_steps=None)

ENV = dict(env_id=TRAIN_ID, hp=HP, eval_id=EVAL_ID)

# the differences from sb3-contrib's RecurrentPPO left in `fastrl_lstm_sb3`, one at a time and together (issue 53):
# the initial log sigma (fastrl -0.5, sb3-contrib 0), advantages normalised per epoch or again per minibatch (SB3), and
# training sequences of 64 steps or 128 (sb3-contrib: a minibatch of 128 steps cut at episode starts)
# (`fastrl_lstm_sb3` keeps what fastrl's recurrent PPO did before: log sigma -0.5, advantages normalised over the epoch;
# `fastrl_lstm_zoo` is what it does now by default, with SB3's PPO maths)
OLD = dict(log_std_init=-0.5, adv_norm='epoch')
ABLATIONS = dict(fastrl_lstm_std0=dict(OLD, log_std_init=0.), fastrl_lstm_mbnorm=dict(OLD, adv_norm='minibatch'),
                 fastrl_lstm_seq128=dict(OLD, seq_len=128), fastrl_lstm_zoo=dict(log_std_init=0., adv_norm='minibatch'),
                 fastrl_lstm_zoo128=dict(log_std_init=0., adv_norm='minibatch', seq_len=128))

if __name__ == '__main__':
    bench_main(__doc__, 'recurrent_pendulum', dict(sb3_lstm=lambda s, a: run_sb3_lstm(s, a, **ENV),
                                                    fastrl_lstm_sb3=lambda s, a: run_fastrl(s, a, 'lstm', 'fastrl_lstm_sb3', {**SB3_MATHS, **OLD}, **ENV),
                                                    fastrl_mlp_sb3=lambda s, a: run_fastrl(s, a, None, 'fastrl_mlp_sb3', SB3_MATHS, **ENV),
                                                    **{name: (lambda name, extra: lambda s, a: run_fastrl(s, a, 'lstm', name, {**SB3_MATHS, **extra}, **ENV))(name, extra)
                                                       for name, extra in ABLATIONS.items()}),
               {k: (v.__name__ if isinstance(v, type) else v) for k, v in HP.items()}, steps=100_000, quick_steps=8_192)
