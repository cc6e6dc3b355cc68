"""Per-step cost of the run guards, measured directly (whole-run timings on these machines drift by +-15 %
between identical runs, far more than the guards cost).

Times, with `timeit` (best of 7 repeats), each piece of work the guards add to an env step or a record, and
relates the sum to the time of one DQN and one PPO env step measured in the same process:
- `GymStepper._check` of the reward (new) and of the observation (the old NaN-only test vs the new NaN/Inf test);
- `FiniteGuard.log` of a scalar-tensor loss record and of a float record (every record of an `Experiment`);
- `LearnerBase.env_steps` read once per dataloader item by `ExperienceReplay` (env-step schedule).

    OMP_NUM_THREADS=1 .venv/bin/python bench/guard_overhead.py
"""
import json, math, time, timeit
from pathlib import Path
import numpy as np
import torch

torch.set_num_threads(1)


def best(stmt, number=20_000, **g):
    "Microseconds per call of `stmt` (best of 7 repeats)."
    return min(timeit.repeat(stmt, globals=g, number=number, repeat=7)) / number * 1e6


def step_time(algo):
    "Seconds per env step of a short `algo` run on CartPole (Experiment, no test episodes), the guards included."
    import tempfile
    from fastrl.algos import dqn, ppo
    out, t = tempfile.mkdtemp(), time.perf_counter()
    if algo == 'dqn': dqn('CartPole-v1', steps_per_epoch=2500, epochs=2, num_test_episodes=0, logger_kwargs=dict(output_dir=out + '/r', show=False))
    else: ppo('CartPole-v1', steps_per_epoch=4000, epochs=2, logger_kwargs=dict(output_dir=out + '/r', show=False))
    return (time.perf_counter() - t) / 5000 if algo == 'dqn' else (time.perf_counter() - t) / 8000


def main():
    from fastrl.envs.gym import GymStepper
    from fastrl.pipes.core import ListSource
    from fastrl.core import Record
    from fastrl.experiments.core import FiniteGuard
    from fastrl.learner.core import LearnerBase
    from fastrl.data.block import DataBlock
    from fastrl.envs.gym import GymTransformBlock
    st = GymStepper(ListSource(['CartPole-v1']))
    obs, rew = np.zeros((1, 4), np.float32), np.ones(1, np.float32)
    g = FiniteGuard()
    loss, eps = Record('LossQ', torch.tensor(0.5)), Record('epsilon', 0.3)
    lb = LearnerBase(list(DataBlock(GymTransformBlock()).dataloaders(['CartPole-v1'])))
    us = dict(
        reward_check=best('st._check(rew, "reward")', st=st, rew=rew),
        obs_check_new=best('st._check(obs)', st=st, obs=obs),
        obs_check_old=best('np.count_nonzero(np.isnan(obs))', np=np, obs=obs),
        guard_tensor_record=best('g.log(loss)', g=g, loss=loss),
        guard_float_record=best('g.log(eps)', g=g, eps=eps),
        env_steps_read=best('lb.env_steps', lb=lb))
    # per env step of the dqn entry function (counted with cProfile over 10k steps: 29604 guarded records, 10000 of
    # them the float epsilon, the rest tensors; 20177 `_check` calls): 1 reward check, 2 obs checks as before,
    # 1 float and 1.96 tensor records, 1 env_steps read. ppo (1 lane): 1 reward check, 2 obs checks; its records
    # come once per epoch
    dqn_add = us['reward_check'] + 2 * (us['obs_check_new'] - us['obs_check_old']) + us['guard_float_record'] \
              + 1.96 * us['guard_tensor_record'] + us['env_steps_read']
    ppo_add = us['reward_check'] + 2 * (us['obs_check_new'] - us['obs_check_old'])
    t_dqn, t_ppo = step_time('dqn') * 1e6, step_time('ppo') * 1e6
    res = dict(us=us, dqn_step_us=t_dqn, ppo_step_us=t_ppo, dqn_added_us=dqn_add, ppo_added_us=ppo_add,
               dqn_fraction=dqn_add / t_dqn, ppo_fraction=ppo_add / t_ppo)
    for k, v in us.items(): print(f'{k:22} {v:7.2f} us')
    print(f'DQN env step {t_dqn:7.1f} us, guards add {dqn_add:5.2f} us = {100 * dqn_add / t_dqn:.2f} %')
    print(f'PPO env step {t_ppo:7.1f} us, guards add {ppo_add:5.2f} us = {100 * ppo_add / t_ppo:.2f} %')
    (Path(__file__).parent/'results'/'guard_overhead.json').write_text(json.dumps(res, indent=1))


if __name__ == '__main__':
    main()
