"""GPU figures and device checks (issue 37), in one command that ends well inside 10 minutes on one H100/H200.

    python bench/gpu.py --out $OUT/gpu.json            # on the CUDA machine
    python bench/gpu.py --dry --out /tmp/gpu.json      # here, on the CPU: the plumbing only ('cuda' runs on the CPU)

It measures, at fixed settings over a fixed step budget:
- SAC, TD3 and PPO on HalfCheetah-v5 (`python -m fastrl.run ALGO ...`), each as `--device cpu` (the CPU baseline, on
  cores of their own, run beside the GPU runs), and on CUDA eager, `--compile` and `--compile --cudagraphs`.
  Env steps/s are those of epoch 2 (`steps_per_epoch / (Time[2] - Time[1])`): epoch 1 holds the warm-up and the
  compilation, which are reported apart (its seconds);
and checks on the device:
- no host sync inside any update: dqn, ddpg, td3, sac and ppo (`target_kl=None`; with Spinning Up's early stop PPO
  reads its KL once per policy step, which is also run, to show where) train an epoch with
  `torch.cuda.set_sync_debug_mode('error')` inside every update window (`fastrl.learner.device.update_window`);
- compiled networks compute what eager ones do: each algorithm's default networks on one fixed batch, compiled and
  graph-captured against eager (relative error of outputs and gradients); and epoch 1's losses of the three CUDA
  variants side by side (the same random draws; they part by rounding only);
- a checkpoint taken on the GPU goes on on the CPU and back (`resume --device`), and a GPU run resumed on the GPU
  is the uninterrupted run (progress.txt, Time aside).
Figures go to --out as JSON (written after each part), and a table is printed last.
"""
import argparse, json, os, shutil, subprocess, sys, tempfile, time, traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OFF = ['--env', 'HalfCheetah-v5', '--epochs', '2', '--steps_per_epoch', '1000', '--start_steps', '500',
       '--update_after', '500', '--update_every', '50', '--batch_size', '256', '--num_test_episodes', '0',
       '--max_ep_len', '1000']
SPEED = {'sac': OFF, 'td3': OFF,
         'ppo': ['--env', 'HalfCheetah-v5', '--epochs', '2', '--steps_per_epoch', '4000', '--max_ep_len', '1000']}
VARIANTS = {'cpu': ['--device', 'cpu'], 'eager': ['--device', 'cuda'],
            'compile': ['--device', 'cuda', '--compile', 'True'],
            'cudagraphs': ['--device', 'cuda', '--compile', 'True', '--cudagraphs', 'True']}
LEANRL = {'sac': (127, 725), 'td3': (272, 936), 'ppo': (652, 1774)}   # published env steps/s: eager -> best, one H100
SYNC = {'dqn': ('CartPole-v1', dict(steps_per_epoch=600, learning_starts=200, train_freq=50, gradient_steps=50,
                                    num_test_episodes=1)),
        'ddpg': ('Pendulum-v1', dict(steps_per_epoch=400, start_steps=100, update_after=100, update_every=50,
                                     num_test_episodes=1)),
        'td3': ('Pendulum-v1', dict(steps_per_epoch=400, start_steps=100, update_after=100, update_every=50,
                                    num_test_episodes=1)),
        'sac': ('Pendulum-v1', dict(steps_per_epoch=400, start_steps=100, update_after=100, update_every=50,
                                    num_test_episodes=1)),
        'ppo': ('CartPole-v1', dict(steps_per_epoch=1000, target_kl=None, train_pi_iters=20, train_v_iters=20)),
        'ppo_kl': ('CartPole-v1', dict(steps_per_epoch=1000, train_pi_iters=20, train_v_iters=20))}

def progress(path:Path)->list:
    "The rows of a progress.txt as dicts of floats."
    lines = path.read_text().splitlines()
    head = lines[0].split('\t')
    return [dict(zip(head, map(float, l.split('\t')))) for l in lines[1:]]

def without_time(path:Path)->str:
    rows = [l.split('\t') for l in path.read_text().splitlines()]
    i = rows[0].index('Time')
    return '\n'.join('\t'.join(c for j, c in enumerate(r) if j != i) for r in rows)

def cli(args:list, env:dict|None=None, cores:str|None=None, timeout:float=200)->tuple:
    "(return code, seconds, last lines of stderr) of `python -m fastrl.run ARGS`."
    cmd = [sys.executable, '-m', 'fastrl.run', *args]
    if cores: cmd = ['taskset', '-c', cores, *cmd]
    t = time.time()
    try: r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env={**os.environ, **(env or {})})
    except subprocess.TimeoutExpired: return 124, time.time() - t, f'timed out after {timeout:.0f} s'
    return r.returncode, time.time() - t, '\n'.join(r.stderr.strip().splitlines()[-6:])

def cuda_args(args:list, dry:bool)->list:
    "On a dry run (no GPU) the CUDA variants run on the CPU, without CUDA graphs: the plumbing only."
    if not dry: return args
    out, skip = [], False
    for a in args:
        if skip: skip = False; continue
        if a == '--cudagraphs': skip = True; continue
        out.append('cpu' if a == 'cuda' else a)
    return out

def speed_row(algo, variant, data:Path, rc, secs, err)->dict:
    p = data/f'{algo}_{variant}'/f'{algo}_{variant}_s0'/'progress.txt'
    row = dict(algo=algo, variant=variant, rc=rc, wall_s=round(secs, 1))
    if rc or not p.exists(): return dict(row, error=err)
    rows = progress(p)
    spe = int(SPEED[algo][SPEED[algo].index('--steps_per_epoch') + 1])
    t1, t2 = rows[0]['Time'], rows[1]['Time']
    losses = {k: rows[0][k] for k in ('LossQ', 'LossPi', 'LossV') if k in rows[0]}
    return dict(row, epoch1_s=round(t1, 2), epoch2_s=round(t2 - t1, 3), steps_per_s=round(spe / (t2 - t1), 1),
                epoch1_losses=losses, AverageEpRet=[r.get('AverageEpRet') for r in rows])

def check_sync(dry:bool)->dict:
    "Each algorithm of `SYNC` trains an epoch on the device with sync debugging set to 'error' inside its updates."
    import importlib, torch
    from fastrl.experiments.core import around_fit
    from fastrl.learner.device import update_window
    out = {}
    for name, (env, kw) in SYNC.items():
        algo = name.split('_')[0]
        fn = getattr(importlib.import_module(f'fastrl.algos.{algo}'), algo)
        seen = dict(updates=0)
        def enter():
            seen['updates'] += 1
            if not dry: torch.cuda.set_sync_debug_mode('error')
        def leave():
            if not dry: torch.cuda.set_sync_debug_mode(0)
        def debugged(learner, fit):
            with update_window(learner, enter, leave): fit()
        t = time.time()
        try:
            with tempfile.TemporaryDirectory() as d, around_fit(debugged):
                fn(env, epochs=1, device='cpu' if dry else 'cuda', seed=0, **kw,
                   logger_kwargs=dict(output_dir=d, show=False, overwrite=True))
            out[name] = dict(ok=True, updates=seen['updates'], seconds=round(time.time() - t, 1))
        except Exception as e:
            tb = [f"{Path(f.filename).name}:{f.lineno} {f.name}" for f in traceback.extract_tb(e.__traceback__)
                  if 'fastrl' in f.filename][-4:]
            out[name] = dict(ok=False, updates=seen['updates'], error=f"{type(e).__name__}: {str(e)[:300]}", where=tb)
        finally:
            if not dry: torch.cuda.set_sync_debug_mode(0)
        print(name, out[name], flush=True)
    return out

def check_parity(dry:bool, mode:str|None=None)->dict:
    ("Each algorithm's default networks, compiled (`mode`) against eager on one fixed random batch on the device: the "
     "largest relative error of the outputs the update uses and of their gradients.")
    import torch, gymnasium as gym
    from fastrl.learner.device import compiled_vs_eager
    from fastrl.agents.sac import SACActorCritic
    from fastrl.agents.td3 import TD3ActorCritic
    from fastrl.agents.ddpg_entry import DDPGActorCritic
    from fastrl.agents.policies import MLPActorCritic
    from fastrl.agents.dqn.basic import DQN
    dev = 'cpu' if dry else 'cuda'
    obs, box, disc = gym.spaces.Box(-1, 1, (17,)), gym.spaces.Box(-1, 1, (6,)), gym.spaces.Discrete(4)
    s, a, ad = torch.randn(256, 17, device=dev), torch.rand(256, 6, device=dev) * 2 - 1, torch.randint(4, (256,), device=dev)
    calls = {'sac': (lambda: SACActorCritic(obs, box), lambda m: [m.pi.sample(s, deterministic=True)[0], m.q(s, a)]),
             'td3': (lambda: TD3ActorCritic(obs, box), lambda m: [m.pi(s), m.q(s, a)]),
             'ddpg': (lambda: DDPGActorCritic(obs, box), lambda m: [m.pi(s), m.q(s, a)]),
             'ppo': (lambda: MLPActorCritic(obs, box), lambda m: [m.pi.log_prob(s, a), m.v(s)]),
             'ppo_discrete': (lambda: MLPActorCritic(obs, disc), lambda m: [m.pi.log_prob(s, ad), m.v(s)]),
             'dqn': (lambda: DQN(17, 4), lambda m: [m(s)])}
    out = {}
    for name, (make, run) in calls.items():
        t = time.time()
        try:
            err, gerr = compiled_vs_eager(lambda: make().to(dev), run, mode)
            out[name] = dict(out_rel_err=err, grad_rel_err=gerr, compile_and_first_call_s=round(time.time() - t, 1))
        except Exception as e: out[name] = dict(error=f"{type(e).__name__}: {str(e)[:300]}")
        print('parity', mode, name, out[name], flush=True)
    return out

def check_resume(data:Path, dry:bool)->dict:
    "GPU checkpoint -> CPU, CPU checkpoint -> GPU, and a GPU run resumed on the GPU against the uninterrupted one."
    dev = 'cpu' if dry else 'cuda'
    base = ['--env', 'Pendulum-v1', '--steps_per_epoch', '400', '--start_steps', '100', '--update_after', '100',
            '--update_every', '50', '--num_test_episodes', '1', '--seed', '0', '--data_dir', str(data), '--quiet']
    out = {}
    for name, first, then in (('gpu_to_cpu', dev, 'cpu'), ('cpu_to_gpu', 'cpu', dev), ('gpu_to_gpu', dev, dev)):
        rc1, _, e1 = cli(['sac', *base, '--epochs', '1', '--device', first, '--exp_name', name], timeout=120)
        run = data/name/f'{name}_s0'
        rc2, _, e2 = cli(['resume', str(run), '--epochs', '2', '--device', then, '--quiet'], timeout=120)
        rows = len(progress(run/'progress.txt')) if (run/'progress.txt').exists() else 0
        out[name] = dict(rc=[rc1, rc2], rows=rows, error=(e1 if rc1 else e2 if rc2 else None))
    for name in ('straight', 'straight_again'):   # is a GPU run itself reproducible?
        rc, _, e = cli(['sac', *base, '--epochs', '2', '--device', dev, '--exp_name', name], timeout=120)
    p = lambda n: data/n/f'{n}_s0'/'progress.txt'
    for key, (x, y) in (('resume_exact_on_gpu', ('straight', 'gpu_to_gpu')),
                        ('same_run_twice_on_gpu', ('straight', 'straight_again'))):
        if not (p(x).exists() and p(y).exists()): out[key] = f'rc {rc}: {e}'; continue
        out[key] = without_time(p(x)) == without_time(p(y))
        if not out[key]:   # where they part: the first row and its columns that differ
            rx, ry = progress(p(x)), progress(p(y))
            i = next(i for i, (u, v) in enumerate(zip(rx, ry)) if {k: w for k, w in u.items() if k != 'Time'}
                     != {k: w for k, w in v.items() if k != 'Time'})
            out[key + '_differs'] = dict(row=i + 1, columns={k: (rx[i][k], ry[i][k]) for k in rx[i]
                                                             if k != 'Time' and rx[i][k] != ry[i][k]})
    return out

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--out', default='gpu.json')
    p.add_argument('--dry', action='store_true', help='no GPU: the CUDA variants on the CPU (plumbing check)')
    p.add_argument('--parts', nargs='+', default=['sync', 'speed', 'resume'])
    p.add_argument('--algos', nargs='+', default=['sac', 'ppo', 'td3'])
    p.add_argument('--variants', nargs='+', default=['eager', 'compile', 'cudagraphs'])
    p.add_argument('--no_cpu', action='store_true', help='no CPU baselines')
    p.add_argument('--budget', type=float, default=480, help='seconds: no run starts after this')
    p.add_argument('--_sync', action='store_true', help=argparse.SUPPRESS)
    a = p.parse_args()
    if a._sync:
        print('SYNC_JSON', json.dumps(dict(sync=check_sync(a.dry), parity=check_parity(a.dry),
                                           parity_cudagraphs=None if a.dry else check_parity(a.dry, 'reduce-overhead'))))
        return
    t0, res = time.time(), dict(started=time.strftime('%Y-%m-%d %H:%M:%S'))
    try:
        import torch
        res['device'] = torch.cuda.get_device_name(0) if torch.cuda.is_available() else 'no CUDA (dry run)'
        res['torch'] = torch.__version__
    except Exception as e: res['device'] = f'torch failed: {e}'
    res['cpu_cores'] = os.cpu_count()
    out = Path(a.out); out.parent.mkdir(parents=True, exist_ok=True)
    save = lambda: out.write_text(json.dumps(res, indent=1) + '\n')
    data = Path(tempfile.mkdtemp(prefix='fastrl_gpu_'))
    n = os.cpu_count() or 2
    # the GPU runs (and their compilation) and the CPU baselines on cores apart
    gpu_cores, cpu_cores = ((f'0-{n // 2 - 1}', f'{n // 2}-{n - 1}') if n >= 8 and shutil.which('taskset')
                            else (None, None))
    env = {'TORCHINDUCTOR_COMPILE_THREADS': str(max(1, n // 4)), 'PYTHONUNBUFFERED': '1'}
    cpu_jobs = {}
    if 'speed' in a.parts and not a.no_cpu:   # the CPU baselines, each on a core of its own, beside the GPU runs
        for algo in a.algos:
            args = [algo, *SPEED[algo], *VARIANTS['cpu'], '--seed', '0', '--exp_name', f'{algo}_cpu',
                    '--data_dir', str(data), '--quiet']
            cmd = [sys.executable, '-m', 'fastrl.run', *args]
            if cpu_cores: cmd = ['taskset', '-c', cpu_cores, *cmd]
            cpu_jobs[algo] = (subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                               env={**os.environ, **env}), time.time())
    if 'sync' in a.parts:
        cmd = [sys.executable, str(Path(__file__).resolve()), '--_sync'] + (['--dry'] if a.dry else [])
        if gpu_cores: cmd = ['taskset', '-c', gpu_cores, *cmd]
        try: r = subprocess.run(cmd, capture_output=True, text=True, env={**os.environ, **env}, timeout=240)
        except subprocess.TimeoutExpired as e: r = subprocess.CompletedProcess(cmd, 124, e.stdout or '', 'timed out')
        line = [l for l in r.stdout.splitlines() if l.startswith('SYNC_JSON ')]
        got = json.loads(line[0][10:]) if line else dict(sync=dict(error=r.stderr[-1500:]))
        res.update(got)
        save()
    if 'speed' in a.parts:
        res['speed'] = []
        for algo in a.algos:
            for variant in a.variants:
                if time.time() - t0 > a.budget:
                    res['speed'].append(dict(algo=algo, variant=variant, skipped='time budget')); continue
                args = [algo, *SPEED[algo], *cuda_args(VARIANTS[variant], a.dry), '--seed', '0',
                        '--exp_name', f'{algo}_{variant}', '--data_dir', str(data), '--quiet']
                rc, secs, err = cli(args, env, gpu_cores, timeout=max(30, min(240, a.budget + 60 - (time.time() - t0))))
                res['speed'].append(speed_row(algo, variant, data, rc, secs, err)); save()
                print(res['speed'][-1], flush=True)
        for algo, (proc, t) in cpu_jobs.items():
            try: proc.wait(timeout=max(5, a.budget + 90 - (time.time() - t0)))
            except subprocess.TimeoutExpired: proc.kill()
            err = proc.stderr.read() if proc.stderr else ''
            res['speed'].append(speed_row(algo, 'cpu', data, proc.returncode, time.time() - t, err[-800:])); save()
    if 'resume' in a.parts:
        if time.time() - t0 > a.budget + 30: res['resume'] = 'skipped: time budget'
        else: res['resume'] = check_resume(data, a.dry)
        save()
    res['total_s'] = round(time.time() - t0, 1); save()
    # the table, last
    print(f"\n{res['device']} (torch {res.get('torch')}), {res['total_s']} s in all")
    for r in res.get('speed', []):
        print(f"{r['algo']:4} {r['variant']:10} " + (f"{r['steps_per_s']:8.1f} steps/s  epoch1 {r['epoch1_s']:6.1f} s  "
              f"losses {r['epoch1_losses']}" if 'steps_per_s' in r else str(r.get('error') or r.get('skipped'))[-300:]))
    for k, v in (res.get('sync') or {}).items(): print('sync', k, v)
    for part in ('parity', 'parity_cudagraphs'):
        for k, v in (res.get(part) or {}).items(): print(part, k, v)
    print('resume', res.get('resume'))

if __name__ == '__main__': main()
