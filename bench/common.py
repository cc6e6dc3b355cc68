"""Shared helpers for the `bench/*.py` scripts that compare fastrl with Stable-Baselines3 and a hand-written loop.

Every runner has the signature `run_x(seed, args) -> (env_steps_per_s, mean_return)`, where steps/s counts
only the training loop (env steps + updates; no model construction, no evaluation) and the return is the
mean over `N_EVAL_EPISODES` deterministic episodes on a separately seeded eval env (`eval_seed(seed)`).
`run_all` calls the runners interleaved (for each seed: every method in turn) so machine drift hits them
alike, and `report` prints a markdown table and writes the JSON results.
"""
import argparse, json, platform, time
from pathlib import Path

import gymnasium as gym
import numpy as np
import torch

N_EVAL_EPISODES = 10
RESULTS_DIR = Path(__file__).parent/'results'


def base_parser(description, methods=('sb3', 'hand', 'fastrl'), steps=20_000):
    "Common CLI: --seeds, --steps, --threads, --only, --quick. Scripts add their own flags to the returned parser."
    p = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--seeds', type=int, nargs='+', default=[0], help='seeds to run (default: 0)')
    p.add_argument('--steps', type=int, default=steps, help=f'total env steps per run (default: {steps})')
    p.add_argument('--threads', type=int, default=1, help='torch.set_num_threads for every run (default: 1)')
    p.add_argument('--only', nargs='+', choices=methods, default=list(methods), help='subset of methods to run')
    p.add_argument('--quick', action='store_true', help='tiny budget smoke test')
    return p


def eval_seed(seed): return 10_000 + seed


def evaluate(policy, env_id, seed, n_episodes=N_EVAL_EPISODES):
    "Mean undiscounted return of `policy(obs: np.ndarray) -> action` over `n_episodes` on a fresh env seeded with `seed`."
    env, returns = gym.make(env_id), []
    for ep in range(n_episodes):
        obs, _ = env.reset(seed=seed if ep == 0 else None)
        if hasattr(policy, 'reset'): policy.reset()   # a recurrent policy restarts its state with the episode
        done, ret = False, 0.0
        while not done:
            act = policy(obs)
            if isinstance(env.action_space, gym.spaces.Box): act = np.clip(act, env.action_space.low, env.action_space.high)
            obs, r, term, trunc, _ = env.step(act)
            ret, done = ret + float(r), term or trunc
        returns.append(ret)
    env.close()
    return float(np.mean(returns))


def torch_policy(actor):
    "Wrap a torch module mapping a batch of obs to actions as a numpy `policy(obs)` for `evaluate`."
    @torch.no_grad()
    def policy(obs): return actor(torch.as_tensor(obs, dtype=torch.float32)[None])[0].numpy()
    return policy


def greedy_policy(q):
    "Wrap a Q-network mapping a batch of obs to action values as the greedy numpy `policy(obs) -> int` for `evaluate`."
    @torch.no_grad()
    def policy(obs): return int(q(torch.as_tensor(obs, dtype=torch.float32)[None]).argmax(-1)[0])
    return policy


class Timer:
    "Context manager measuring wall-clock seconds: `with Timer() as t: ...; t.s`."
    def __enter__(self): self.t0 = time.perf_counter(); return self
    def __exit__(self, *exc): self.s = time.perf_counter() - self.t0


def run_sb3(algo_cls, env_id, seed, total_steps, policy='MlpPolicy', **kwargs):
    "Build `algo_cls(policy, env_id, seed=seed, **kwargs)`, time `learn(total_steps)` only, then evaluate deterministically."
    model = algo_cls(policy, env_id, seed=seed, device='cpu', verbose=0, **kwargs)
    with Timer() as t: model.learn(total_timesteps=total_steps)
    ret = evaluate(lambda o: model.predict(o, deterministic=True)[0], env_id, eval_seed(seed))
    return total_steps/t.s, ret


def run_all(runners, args):
    "Run `runners[name](seed, args)` for the selected methods, interleaved per seed. Returns a list of result rows."
    torch.set_num_threads(args.threads)
    rows, skipped = [], set()
    for seed in args.seeds:
        for name, fn in runners.items():
            if name not in args.only or name in skipped: continue
            print(f'--- {name} seed={seed} steps={args.steps} threads={args.threads}', flush=True)
            try: sps, ret = fn(seed, args)
            except NotImplementedError as e:
                print(f'    skipped {name}: not implemented yet ({e})', flush=True); skipped.add(name); continue
            rows.append(dict(method=name, seed=seed, steps=args.steps, train_s=args.steps/sps, steps_per_s=sps, mean_return=ret))
            print(f'    {sps:8.1f} steps/s  ({args.steps/sps:.1f}s)   mean {N_EVAL_EPISODES}-ep return {ret:9.2f}', flush=True)
    return rows


def _ratio(a, b): return None if a is None or b is None else a/b


def report(rows, args, name, hp=None):
    "Print the per-run table, per-method means and speed ratios; write everything to `results/{name}.json`."
    print(f'\n| method | seed | steps/s | mean {N_EVAL_EPISODES}-ep return |\n|---|---:|---:|---:|')
    for r in rows: print(f"| {r['method']} | {r['seed']} | {r['steps_per_s']:.1f} | {r['mean_return']:.1f} |")
    means = {}
    for m in dict.fromkeys(r['method'] for r in rows):
        rs = [r for r in rows if r['method'] == m]
        means[m] = dict(n_seeds=len(rs), steps_per_s=float(np.mean([r['steps_per_s'] for r in rs])),
                        train_s=float(np.mean([r['train_s'] for r in rs])),
                        mean_return=float(np.mean([r['mean_return'] for r in rs])),
                        std_return=float(np.std([r['mean_return'] for r in rs])))
    print(f'\n| method | seeds | mean steps/s | mean train s | mean return (std over seeds) |\n|---|---:|---:|---:|---:|')
    for m, s in means.items():
        print(f"| {m} | {s['n_seeds']} | {s['steps_per_s']:.1f} | {s['train_s']:.1f} | {s['mean_return']:.1f} ({s['std_return']:.1f}) |")
    g = lambda m, k: means.get(m, {}).get(k)
    ratios = {'fastrl/sb3 steps/s': _ratio(g('fastrl', 'steps_per_s'), g('sb3', 'steps_per_s')),
              'hand/sb3 steps/s': _ratio(g('hand', 'steps_per_s'), g('sb3', 'steps_per_s')),
              'fastrl/hand time': _ratio(g('fastrl', 'train_s'), g('hand', 'train_s'))}
    print()
    for k, v in ratios.items(): print(f'{k:20s} ' + ('n/a' if v is None else f'{v:.2f}'))
    RESULTS_DIR.mkdir(exist_ok=True)
    out = RESULTS_DIR/f'{name}.json'
    cfg = {k: v for k, v in vars(args).items() if k != 'hp'}
    meta = dict(torch=torch.__version__, python=platform.python_version(), machine=platform.machine(), processor=platform.processor())
    try:
        import stable_baselines3; meta['stable_baselines3'] = stable_baselines3.__version__
    except ImportError: pass
    out.write_text(json.dumps(dict(config=cfg, hyperparameters=hp, meta=meta, runs=rows, means=means, ratios=ratios), indent=2) + '\n')
    print(f'\nwrote {out}')


def run_saving(runners, args, name, hp=None, append=False):
    """`run_all` one (seed, method) at a time, interleaved per seed, rewriting `results/{name}.json` after every finished run.
    With `append`, the runs already in that file are kept (a run of the same method and seed is replaced)."""
    import copy
    out = RESULTS_DIR/f'{name}.json'
    rows = json.loads(out.read_text())['runs'] if append and out.exists() else []
    for seed in args.seeds:
        for m in runners:
            if m not in args.only: continue
            a = copy.copy(args); a.seeds, a.only = [seed], [m]
            new = add_cpu_s(run_all({m: runners[m]}, a))
            rows = [r for r in rows if (r['method'], r['seed']) not in {(n['method'], n['seed']) for n in new}] + new
            report(rows, args, name, hp=hp)
            cpu_report(rows, name)
    return rows


CPU_S = {}  # (method, seed) -> CPU seconds of the training loop, filled by runners timed with `CPUTimer`


def add_cpu_s(rows):
    "Add `cpu_s` and `cpu_steps_per_s` from `CPU_S` to the rows whose (method, seed) a runner timed; returns `rows`."
    for r in rows:
        if (r['method'], r['seed']) in CPU_S:
            r['cpu_s'] = CPU_S[r['method'], r['seed']]; r['cpu_steps_per_s'] = r['steps']/r['cpu_s']
    return rows


class CPUTimer(Timer):
    "`Timer` that also measures the process's CPU seconds (`cpu_s`): steady when other processes load the machine."
    def __enter__(self): self.c0 = time.process_time(); return super().__enter__()
    def __exit__(self, *exc): super().__exit__(*exc); self.cpu_s = time.process_time() - self.c0


def run_sb3_cpu(method_seed, algo_cls, env_id, seed, total_steps, policy='MlpPolicy', **kwargs):
    "`run_sb3` that also records the training loop's CPU seconds in `CPU_S[method_seed]`."
    model = algo_cls(policy, env_id, seed=seed, device='cpu', verbose=0, **kwargs)
    with CPUTimer() as t: model.learn(total_timesteps=total_steps)
    CPU_S[method_seed] = t.cpu_s
    ret = evaluate(lambda o: model.predict(o, deterministic=True)[0], env_id, eval_seed(seed))
    return total_steps/t.s, ret


def fit_fastrl_cpu(agent, make_learner, actor, env_id, seed, args):
    """Train a fastrl off-policy learner on one `env_id` env stepped by `agent`: `make_learner(dls, batches)` builds it
    (epochs of 1000 batches, or one epoch when `args.steps` is not a multiple); times `fit` (wall and CPU seconds, the
    latter into `CPU_S['fastrl', seed]`) and evaluates the deterministic `actor`. Returns `(env steps/s, mean return)`."""
    from fastcore.all import L
    from fastrl.data.block import DataBlock
    from fastrl.envs.gym import GymTransformBlock
    dls = L(DataBlock(GymTransformBlock(agent=agent, seed=seed)).dataloaders([env_id]))
    batches = 1000 if args.steps % 1000 == 0 else args.steps
    learner = make_learner(dls, batches)
    with CPUTimer() as t: learner.fit(args.steps // batches)
    CPU_S['fastrl', seed] = t.cpu_s
    return args.steps/t.s, evaluate(torch_policy(actor), env_id, eval_seed(seed))


def cpu_report(rows, name):
    "Print env-steps per CPU second per run and the fastrl/sb3 ratio; add them to `results/{name}.json`."
    rs = [r for r in rows if 'cpu_s' in r]
    if not rs: return
    print(f'\n| method | seed | steps per CPU s |\n|---|---:|---:|')
    for r in rs: print(f"| {r['method']} | {r['seed']} | {r['cpu_steps_per_s']:.1f} |")
    means = {m: float(np.mean([r['cpu_steps_per_s'] for r in rs if r['method'] == m])) for m in dict.fromkeys(r['method'] for r in rs)}
    both = sorted({r['seed'] for r in rs if r['method'] == 'sb3'} & {r['seed'] for r in rs if r['method'] == 'fastrl'})
    per_seed = {s: next(r['cpu_steps_per_s'] for r in rs if r['method'] == 'fastrl' and r['seed'] == s) /
                   next(r['cpu_steps_per_s'] for r in rs if r['method'] == 'sb3' and r['seed'] == s) for s in both}
    ratio = float(np.mean(list(per_seed.values()))) if per_seed else None
    print('fastrl/sb3 steps per CPU s: ' + ('n/a' if ratio is None else f'{ratio:.2f}') + f'  (per seed: {per_seed})')
    out = RESULTS_DIR/f'{name}.json'
    d = json.loads(out.read_text())
    d['cpu'] = dict(means_steps_per_cpu_s=means, ratio_per_seed={str(k): v for k, v in per_seed.items()}, ratio_mean=ratio)
    out.write_text(json.dumps(d, indent=2) + '\n')


def offpolicy_main(description, runners, name, hp, quick):
    "The command line of the off-policy Pendulum benchmarks: base flags plus --append/--learning_starts/--tag, then `run_saving`."
    p = base_parser(description, methods=tuple(runners))
    p.add_argument('--append', action='store_true', help='keep the runs already in the results file (other seeds)')
    p.add_argument('--learning_starts', type=int, default=None, help='override HP learning_starts (speed-only runs)')
    p.add_argument('--tag', default='', help='suffix of the results file name (e.g. speed)')
    args = p.parse_args()
    args.hp = dict(hp)
    if args.learning_starts is not None: args.hp['learning_starts'] = args.learning_starts
    if args.quick: args.steps, args.hp['learning_starts'] = quick['steps'], quick['learning_starts']
    run_saving(runners, args, name + ('_quick' if args.quick else '') + (f'_{args.tag}' if args.tag else ''), hp=args.hp, append=args.append)
