"""Entry functions of the MuJoCo studies (issue 19): fastrl's (`fastrl.algos`) and Stable-Baselines3's at the same
hyper-parameters. Both take Spinning Up's arguments and write a Spinning Up run folder (`config.json`,
`progress.txt` with `AverageTestEpRet`, `TotalEnvInteracts` and `Time` per epoch, `checkpoint.pt`), so one fastrl
`ExperimentGrid` runs both, `--resume` continues both, and `fastrl.run plot`/`report` read both.

`run(algo, lib, **kwargs)` is the grid's thunk. Every process that runs a run (a "segment": a run stopped and
resumed has several) keeps a file in its folder's `segments/` up to date after each logged epoch: first and last
epoch, wall and CPU seconds, versions.

Stable-Baselines3 cannot express everything Spinning Up sets; `sb3_offpolicy` refuses a setting it cannot honour
rather than running something else (see `SB3_LIMITS`). A resumed SB3 run continues from its last epoch's model,
optimisers and replay buffer with freshly seeded random numbers and a new episode: a valid continuation, not the
bit-exact one fastrl's checkpoints give.
"""
import json, os, pickle, platform, subprocess, threading, time
from pathlib import Path
import numpy as np

HERE = Path(__file__).resolve().parent

SB3_LIMITS = """\
- one learning rate for actor and critic: pi_lr must equal q_lr;
- random actions and the first update both start at `learning_starts`: update_after must equal start_steps;
- TD3's delayed policy updates come on critic updates d, 2d, ... (as fastrl's; Spinning Up's on 0, d, ...)."""

from fastrl.experiments.settings import processor as cpu   # the report compares the speed of runs on one kind only

def versions()->dict:
    "Versions of what a run depends on, and the processor it ran on."
    import torch, gymnasium, fastrl
    out = dict(python=platform.python_version(), torch=torch.__version__, gymnasium=gymnasium.__version__,
               fastrl=fastrl.__version__, machine=platform.machine(), cpu=cpu())
    try:   # the commit of the fastrl that ran it (a run made from a checkout)
        git = ['git', '-C', str(Path(fastrl.__file__).parent)]
        out['fastrl_commit'] = subprocess.run(git + ['rev-parse', 'HEAD'], capture_output=True, text=True).stdout.strip()
        out['fastrl_dirty'] = bool(subprocess.run(git + ['status', '--porcelain', '--', '.'], capture_output=True,
                                                  text=True).stdout.strip())
        # the study's own code (these entry functions: SB3's arm is written here) uncommitted, too
        out['bench_dirty'] = bool(subprocess.run(['git', '-C', str(HERE), 'status', '--porcelain', '--', '.'],
                                                 capture_output=True, text=True).stdout.strip())
    except OSError: pass
    for m in ('stable_baselines3', 'mujoco'):
        try: out[m] = __import__(m).__version__
        except ImportError: pass
    return out

def run(algo:str, # 'td3', 'sac', 'ddpg', 'ppo', 'trpo' or 'vpg'
        lib:str, # 'fastrl' or 'sb3'
        **kwargs): # The entry function's arguments (Spinning Up's names), `logger_kwargs` included
    ("The studies' thunk: `algo` of `lib`. Its CPU and wall time go to `segments/` in its folder, one file per process "
     "that ran it, brought up to date after every logged epoch (so a killed process leaves what it did to the last "
     "epoch it logged).")
    import fastrl.algos as fa
    from fastrl.experiments.checkpoint import load_checkpoint
    from fastrl.experiments.guards import epoch_rows
    if lib == 'fastrl': fn = getattr(fa, algo)
    elif lib == 'sb3': fn = SB3[algo]
    else: raise ValueError(f"lib must be 'fastrl' or 'sb3', got {lib!r}")
    lk = kwargs['logger_kwargs']
    out = Path(lk['output_dir'])
    ck = out/'checkpoint.pt'
    first = load_checkpoint(ck)['epoch'] + 1 if lk.get('resume') and ck.exists() else 1
    t, c = time.time(), time.process_time()
    seg = dict(algo=algo, lib=lib, first_epoch=first, last_epoch=first - 1, wall_s=0., cpu_s=0., status='running',
               pid=os.getpid(), started=time.strftime('%Y-%m-%d %H:%M:%S', time.localtime(t)), versions=versions())
    path = out/'segments'/f"{time.strftime('%Y%m%d-%H%M%S', time.localtime(t))}-{os.getpid()}.json"
    def update(status:str|None=None):
        ("Record the time to the epoch just logged (the work of an epoch a stop cuts short counts nowhere, as it is "
         "done again on resume), and the status.")
        rows = epoch_rows(out/'progress.txt')
        if rows > seg['last_epoch']: seg.update(last_epoch=rows, wall_s=time.time() - t, cpu_s=time.process_time() - c)
        elif status is None: return
        if status: seg['status'] = status
        if not (out/'config.json').exists(): return   # refused before it started: nothing to account for
        path.parent.mkdir(exist_ok=True)
        tmp = path.with_suffix('.tmp'); tmp.write_text(json.dumps(seg)); os.replace(tmp, path)
    stop = threading.Event()
    def poll():
        while not stop.wait(2.): update()
    threading.Thread(target=poll, daemon=True).start()
    status = 'error'
    try:
        res = fn(**kwargs); status = 'done'; return res
    except BaseException as e:   # Ctrl-C, or fastrl's one-line report of it
        if isinstance(e, KeyboardInterrupt) or getattr(e, 'exit_code', None) == 130: status = 'stopped'
        raise
    finally: stop.set(); update(status)

def segments(folder)->list:
    "The segments (processes) that ran the run in `folder`, oldest first."
    return [json.loads(p.read_text()) for p in sorted(Path(folder).glob('segments/*.json'))]

# --- RL Zoo's normalisation, the same gymnasium wrappers for both libraries ------------------------------------------

# RL Zoo's tuned PPO settings for the MuJoCo tasks normalise observations and rewards (`normalize: true`, SB3's
# `VecNormalize`). Both libraries get it as the same two gymnasium wrappers inside the env (VecNormalize's arithmetic:
# running mean and variance of the observations; rewards divided by the running std of the discounted return), so
# neither arm has a normalisation of its own; VecNormalize's clips at +-10 are left out, for both.
ZOO_TASKS = {'ZooHopper-v5': ('Hopper-v5', 0.999)}   # id -> (the task, the gamma of its reward normalisation)

def normalised(env_id:str, gamma:float, **kwargs):
    "`gym.make(env_id)` inside `NormalizeObservation` and `NormalizeReward(gamma)`."
    import gymnasium as gym
    env = gym.wrappers.NormalizeObservation(gym.make(env_id, **kwargs))
    return gym.wrappers.NormalizeReward(env, gamma=gamma)

def register_zoo():
    "Register the `ZOO_TASKS` ids with gymnasium (in every process that imports this module)."
    import gymnasium as gym
    for zid, (task, gamma) in ZOO_TASKS.items():
        if zid not in gym.registry:
            gym.register(zid, entry_point=f'{__name__}:normalised', kwargs=dict(env_id=task, gamma=gamma))

def raw_task(name:str)->str:
    "The task under a `ZOO_TASKS` id (scores are returns of the task itself); any other name as it is."
    return ZOO_TASKS.get(name, (name,))[0]

register_zoo()

def env_stats(env)->dict:
    "The running statistics of `env`'s normalisation wrappers (by wrapper class), to save with an SB3 checkpoint."
    import gymnasium as gym
    out = {}
    while isinstance(env, gym.Wrapper):
        if isinstance(env, gym.wrappers.NormalizeObservation): out['obs_rms'] = env.obs_rms
        if isinstance(env, gym.wrappers.NormalizeReward):
            out.update(return_rms=env.return_rms, discounted_reward=env.discounted_reward)
        env = env.env
    return out

def set_env_stats(env, stats:dict):
    "Put `env_stats` back into `env`'s normalisation wrappers (a resumed SB3 run)."
    import gymnasium as gym
    while isinstance(env, gym.Wrapper):
        if isinstance(env, gym.wrappers.NormalizeObservation): env.obs_rms = stats['obs_rms']
        if isinstance(env, gym.wrappers.NormalizeReward):
            env.return_rms, env.discounted_reward = stats['return_rms'], stats['discounted_reward']
        env = env.env

# --- Stable-Baselines3 with Spinning Up's signature -------------------------------------------------------------------

def _limited(env_fn, max_ep_len:int):
    "`env_fn()` with Spinning Up's time limit."
    import gymnasium as gym
    env = env_fn()
    if max_ep_len and getattr(env.spec, 'max_episode_steps', None) != max_ep_len:
        env = gym.wrappers.TimeLimit(env, max_ep_len)
    return env

def _sb3_env(env_fn, max_ep_len:int):
    "The training env: `env_fn()` with Spinning Up's time limit, in a `Monitor` (episode returns)."
    from stable_baselines3.common.monitor import Monitor
    return Monitor(_limited(env_fn, max_ep_len))

def test_episodes(policy, env_fn, episodes:int, seed:int, max_ep_len:int, clip:bool=True)->tuple:
    ("(returns, lengths) of `episodes` episodes of `policy` (observation -> action) on a fresh env, the first reset "
     "seeded with `seed` (as fastrl seeds its test env: `10000 + 1000*seed + epoch`). With `clip` a `Box` action is "
     "clipped to the env's bounds before the env sees it, for every library alike: SB3's `predict` clips, and MuJoCo "
     "charges its control cost on the action it is given, so a mean outside the bounds would cost more unclipped.")
    env = _limited(env_fn, max_ep_len)
    box = isinstance(env.action_space, __import__('gymnasium').spaces.Box) and clip
    act = (lambda o: np.clip(policy(o), env.action_space.low, env.action_space.high)) if box else policy
    rets, lens = [], []
    for i in range(episodes):
        o, _ = env.reset(seed=seed if i == 0 else None)
        done, r, n = False, 0., 0
        while not done:
            o, rew, term, trunc, _ = env.step(act(o))
            r, n, done = r + float(rew), n + 1, term or trunc
        rets.append(r); lens.append(n)
    env.close()
    return rets, lens

def _stats(prefix:str, xs:list)->dict:
    if not xs: return {f'Average{prefix}': np.nan, f'Std{prefix}': np.nan, f'Max{prefix}': np.nan, f'Min{prefix}': np.nan}
    return {f'Average{prefix}': np.mean(xs), f'Std{prefix}': np.std(xs), f'Max{prefix}': np.max(xs),
            f'Min{prefix}': np.min(xs)}

def sb3_offpolicy(algo:str, # 'td3', 'sac' or 'ddpg'
                  env_fn, ac_kwargs=dict(), seed:int=0, steps_per_epoch:int=4000, epochs:int=100,
                  replay_size:int=int(1e6), gamma:float=0.99, polyak:float=0.995, pi_lr:float=1e-3, q_lr:float=1e-3,
                  lr:float=None, # SAC's one learning rate (Spinning Up's `lr`); `None`: pi_lr
                  batch_size:int=100, start_steps:int=10000, update_after:int=1000, update_every:int=50,
                  act_noise:float=0.1, target_noise:float=0.2, noise_clip:float=0.5, policy_delay:int=2,
                  alpha:float=0.2, num_test_episodes:int=10, max_ep_len:int=1000, logger_kwargs=dict(),
                  save_freq:int=1):
    "Stable-Baselines3's TD3, SAC or DDPG with Spinning Up's arguments, writing a Spinning Up run folder."
    import torch
    from fastrl.core import ConfigError
    from stable_baselines3 import DDPG, SAC, TD3
    from stable_baselines3.common.noise import NormalActionNoise
    config = {k: v for k, v in locals().items() if k not in ('torch', 'ConfigError', 'DDPG', 'SAC', 'TD3',
                                                          'NormalActionNoise')}
    if algo == 'sac': pi_lr = q_lr = lr if lr is not None else pi_lr
    if pi_lr != q_lr: raise ConfigError(f"sb3 {algo}: pi_lr={pi_lr} and q_lr={q_lr} differ; SB3 has one learning rate")
    if update_after != start_steps:
        raise ConfigError(f"sb3 {algo}: update_after={update_after} must equal start_steps={start_steps} "
                          "(SB3's learning_starts is both)")
    cls = dict(td3=TD3, ddpg=DDPG, sac=SAC)[algo]
    def make(env):
        limit, n_act = float(env.action_space.high[0]), env.action_space.shape[0]
        noise = NormalActionNoise(np.zeros(n_act), np.full(n_act, act_noise / limit))
        extra = dict(td3=dict(action_noise=noise, policy_delay=policy_delay, target_policy_noise=target_noise / limit,
                              target_noise_clip=noise_clip / limit),
                     ddpg=dict(action_noise=noise), sac=dict(ent_coef=alpha, target_update_interval=1))[algo]
        pk = dict(net_arch=list(ac_kwargs.get('hidden_sizes', (256, 256))),
                  activation_fn=ac_kwargs.get('activation', torch.nn.ReLU))
        # SB3 allocates (and its checkpoint saves) the whole buffer: no more rows than the run can fill, the same
        # sampling as a `replay_size` buffer that never fills
        return cls('MlpPolicy', env, learning_rate=pi_lr, buffer_size=min(replay_size, steps_per_epoch * epochs),
                   learning_starts=start_steps,
                   batch_size=batch_size, tau=1 - polyak, gamma=gamma, train_freq=(update_every, 'step'),
                   gradient_steps=update_every, policy_kwargs=pk, seed=seed, device='cpu', verbose=0, **extra)
    return _sb3_epochs(algo, cls, make, config, env_fn, seed, steps_per_epoch, epochs, num_test_episodes,
                       max_ep_len, logger_kwargs, replay=True)

def _sb3_epochs(algo:str, cls, make, config:dict, env_fn, seed:int, steps_per_epoch:int, epochs:int,
                num_test_episodes:int, max_ep_len:int, logger_kwargs:dict, replay:bool):
    ("Train SB3 model `make(env)` (class `cls`) epoch by epoch in a Spinning Up run folder: config.json, a progress "
     "row per epoch (test episodes included), and a checkpoint (model, optimisers, replay buffer) every epoch.")
    from fastrl.experiments.checkpoint import load_checkpoint, save_checkpoint
    from fastrl.experiments.config import to_json
    from fastrl.experiments.guards import RunLock, refuse_existing_run
    lk = dict(logger_kwargs)
    out = Path(lk.get('output_dir') or f'/tmp/experiments/{int(time.time())}')
    resume, overwrite = lk.get('resume', False), lk.get('overwrite', False)
    out.mkdir(parents=True, exist_ok=True)
    lock = RunLock(out).acquire()
    try:
        ck = load_checkpoint(out/'checkpoint.pt') if resume else None
        if not resume:
            if not overwrite: refuse_existing_run(out, locked=True)   # the lock is ours: just taken
            for n in ('progress.txt', 'checkpoint.pt'): (out/n).unlink(missing_ok=True)
            for p in out.glob('sb3_*'): p.unlink()
            cfg = dict(config, env_fn=f"gym.make({env_fn.env_name!r})" if hasattr(env_fn, 'env_name') else repr(env_fn),
                       lib='sb3', exp_name=lk.get('exp_name'),
                       logger_kwargs={k: v for k, v in lk.items() if k not in ('resume', 'overwrite')},
                       __fastrl__=dict(entry=f'{__name__}:sb3_{algo}', refs={}))
            (out/'config.json').write_text(json.dumps(to_json(cfg), indent=4, sort_keys=True))
        done = ck['epoch'] if ck else 0
        env = _sb3_env(env_fn, max_ep_len)
        if ck:
            model = cls.load(out/f"sb3_model_{done}.zip", env=env, device='cpu')
            if replay: model.load_replay_buffer(out/f"sb3_replay_{done}.pkl")
            if (st := out/f"sb3_envstats_{done}.pkl").exists(): set_env_stats(env, pickle.loads(st.read_bytes()))
            model._last_obs = None   # a new episode on the fresh env
            model.set_random_seed(seed + 1000 * done)
            lines = open(out/'progress.txt').read().splitlines()[:done + 1]   # drop epochs logged after the checkpoint
            (out/'progress.txt').write_text('\n'.join(lines) + '\n')
        else: model = make(env)
        t_off, c_off = (ck['elapsed'], ck['cpu']) if ck else (0., 0.)
        t0, c0 = time.time(), time.process_time()
        for epoch in range(done + 1, epochs + 1):
            mon = model.get_env().envs[0]
            n0 = len(mon.get_episode_rewards())
            model.learn(steps_per_epoch, reset_num_timesteps=False)
            rets, lens = mon.get_episode_rewards()[n0:], mon.get_episode_lengths()[n0:]
            trets, tlens = test_episodes(lambda o: model.predict(o, deterministic=True)[0], env_fn, num_test_episodes,
                                         10_000 + 1000 * seed + epoch, max_ep_len)
            row = dict(Epoch=epoch, **_stats('EpRet', rets), **_stats('TestEpRet', trets),
                       EpLen=np.mean(lens) if lens else np.nan, TestEpLen=np.mean(tlens) if tlens else np.nan,
                       TotalEnvInteracts=model.num_timesteps, Time=t_off + time.time() - t0,
                       CPUTime=c_off + time.process_time() - c0)
            p = out/'progress.txt'
            with open(p, 'a') as f:
                if not p.stat().st_size: f.write('\t'.join(row) + '\n')
                f.write('\t'.join(f'{v:.6g}' if isinstance(v, float) else str(v) for v in row.values()) + '\n')
            model.save(out/f"sb3_model_{epoch}.zip")   # a checkpoint every epoch, as fastrl writes one
            if replay: model.save_replay_buffer(out/f"sb3_replay_{epoch}.pkl")
            if stats := env_stats(env): (out/f"sb3_envstats_{epoch}.pkl").write_bytes(pickle.dumps(stats))
            save_checkpoint(dict(epoch=epoch, elapsed=row['Time'], cpu=row['CPUTime']), out/'checkpoint.pt')
            for q in out.glob('sb3_*'):   # the previous epoch's files, once the checkpoint names the new ones
                if not q.stem.endswith(f'_{epoch}'): q.unlink()
            if lk.get('show', True): print(' '.join(f'{k} {v:.4g}' if isinstance(v, float) else f'{k} {v}'
                                                  for k, v in row.items()), flush=True)
        return model
    finally: lock.release()

SB3_PPO_LIMITS = """\
- one Adam optimiser for the policy and the value function: the value function learns at pi_lr (Spinning Up: vf_lr)
  for train_pi_iters passes (Spinning Up: train_v_iters), on the loss pi + 0.5 v;
- the value targets are GAE(lambda) returns (Spinning Up: rewards-to-go);
- the KL early stop (1.5 x target_kl) ends the value function's passes too (Spinning Up: only the policy's), and
  estimates KL as E[(r - 1) - log r] (Spinning Up: E[-log r])."""

# fastrl's PPO arguments that choose SB3's maths (`fastrl.algos.ppo`): given to this entry function, each must name
# what SB3 does, so a grid that hands both libraries the same settings runs the same algorithm in both
SB3_PPO_MATHS = dict(joint=True, joint_clip=True, value_target='gae', adam_eps=1e-5, adv_norm='minibatch')

def sb3_ppo(env_fn, ac_kwargs=dict(), seed:int=0, steps_per_epoch:int=4000, epochs:int=50, gamma:float=0.99,
            clip_ratio:float=0.2, pi_lr:float=3e-4, vf_lr:float=1e-3, train_pi_iters:int=80, train_v_iters:int=80,
            lam:float=0.97, max_ep_len:int=1000, target_kl:float|None=0.01, num_test_episodes:int=10,
            logger_kwargs=dict(), save_freq:int=10,
            mb_size:int|None=None, # SB3's batch_size (`None`: the whole epoch, as Spinning Up)
            ent_coef:float=0., vf_coef:float=0.5, max_grad_norm:float|None=None, # `None`: no clipping
            joint:bool|None=None, joint_clip:bool|None=None, value_target:str|None=None, adam_eps:float|None=None,
            adv_norm:str|None=None): # given: SB3's (`SB3_PPO_MATHS`), else a refusal
    ("Stable-Baselines3's PPO with Spinning Up's arguments, writing a Spinning Up run folder. Not given, fastrl's "
     "maths arguments leave SB3's unavoidable differences (`SB3_PPO_LIMITS`, the Spinning Up study); given, each must "
     "be SB3's (`SB3_PPO_MATHS`), and then `vf_lr` and `train_v_iters` must equal `pi_lr` and `train_pi_iters`. "
     "`ac_kwargs`: hidden_sizes, activation, log_std_init (Spinning Up's -0.5 by default); no orthogonal init.")
    import torch
    from fastrl.core import ConfigError
    from stable_baselines3 import PPO
    config = dict(locals()); config.pop('torch'); config.pop('PPO'); config.pop('ConfigError')
    given = {k: config[k] for k in SB3_PPO_MATHS if config[k] is not None}
    for k, v in given.items():
        if v != SB3_PPO_MATHS[k]: raise ConfigError(f"sb3 ppo: {k}={v!r} is not SB3's PPO ({k}={SB3_PPO_MATHS[k]!r})")
    if given and (vf_lr, train_v_iters) != (pi_lr, train_pi_iters):
        raise ConfigError(f"sb3 ppo: with SB3's maths the value function learns with the policy: vf_lr={vf_lr} and "
                          f"train_v_iters={train_v_iters} must equal pi_lr={pi_lr} and train_pi_iters={train_pi_iters}")
    hid = list(ac_kwargs.get('hidden_sizes', (64, 64)))
    pk = dict(net_arch=dict(pi=hid, vf=hid), activation_fn=ac_kwargs.get('activation', torch.nn.Tanh),
              log_std_init=ac_kwargs.get('log_std_init', -0.5), ortho_init=False)
    make = lambda env: PPO('MlpPolicy', env, n_steps=steps_per_epoch, batch_size=mb_size or steps_per_epoch,
                           n_epochs=train_pi_iters, learning_rate=pi_lr, gamma=gamma, gae_lambda=lam,
                           clip_range=clip_ratio, ent_coef=ent_coef, vf_coef=vf_coef,
                           max_grad_norm=1e10 if max_grad_norm is None else max_grad_norm, target_kl=target_kl,
                           normalize_advantage=True, policy_kwargs=pk, seed=seed, device='cpu', verbose=0)
    return _sb3_epochs('ppo', PPO, make, config, env_fn, seed, steps_per_epoch, epochs, num_test_episodes,
                       max_ep_len, logger_kwargs, replay=False)

def sb3_td3(env_fn, **kwargs): return sb3_offpolicy('td3', env_fn, **kwargs)
def sb3_sac(env_fn, **kwargs): return sb3_offpolicy('sac', env_fn, **kwargs)
def sb3_ddpg(env_fn, **kwargs): return sb3_offpolicy('ddpg', env_fn, **kwargs)

SB3 = dict(td3=sb3_td3, sac=sb3_sac, ddpg=sb3_ddpg, ppo=sb3_ppo)
