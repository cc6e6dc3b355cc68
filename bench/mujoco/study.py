"""Spinning Up's MuJoCo benchmark as fastrl studies (issue 19): fastrl against Stable-Baselines3 at the same
hyper-parameters, in one fastrl `ExperimentGrid` per algorithm family, run `--workers` at a time and continued with
`resume=True` after a stop (Ctrl-C, `kill`, the end of a session): finished runs are kept, stopped ones resume from
their last epoch, the rest start. The same command starts, continues and reports a study:

    python bench/mujoco/study.py offpolicy    # TD3, SAC, DDPG x HalfCheetah, Hopper, Walker2d x 5 seeds x fastrl, SB3
    python bench/mujoco/study.py onpolicy     # PPO (fastrl, SB3), TRPO and VPG (fastrl) x the same envs x 5 seeds
    python bench/mujoco/study.py zoo1m --workers 1   # like-for-like PPO Hopper at RL Zoo's 1M steps, 10 seeds x 2 libs
    python bench/mujoco/study.py offpolicy --report     # only the report of the runs finished so far
    python bench/mujoco/study.py offpolicy --algos td3 --envs Hopper-v5 --seeds 0 --epochs 2 --data_dir /tmp/q  # a try
                                              # (its report goes to /tmp/q/report)

Runs go to `bench/mujoco/data/` (not in git: a new checkout has none; the committed results file is the study's
record, so the runs finished in it are not run again and stay in the report, and the report keeps a copy of each
unfinished run of at most `CARRY_MB` in `{study}_unfinished/`, which a start in a new checkout resumes from its last
epoch: the on-policy runs; an off-policy run's replay buffer is too large for git, so it starts again);
the report to `bench/results/mujoco/`:
`{study}_runs.json` (per run:
return curve, final deterministic return, wall and CPU time, versions), and per algorithm `{study}_{algo}.csv`
(IQM and 95 % stratified-bootstrap interval per task and library, and across tasks of D4RL-normalised
returns), `{study}_{algo}_improvement.csv`
(P(fastrl > SB3)), `{study}_{algo}.png`, plus `{study}_table.md` (the README's table, with Spinning Up's
mean at the same step count read off its benchmark figure: `spinup_curves.json`), `{study}_rank_tests.csv` (an exact
Mann-Whitney test per cell, Holm-adjusted over the cells) and `{study}_curves.png`.
"""
import argparse, json, os, shutil, sys
from pathlib import Path
import numpy as np, pandas as pd

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))   # `entries` by name, in this process and in the grid's worker processes
import entries  # noqa: E402

ENVS = ['HalfCheetah-v5', 'Hopper-v5', 'Walker2d-v5']
# D4RL's reference returns of these tasks (Fu et al., 2020; a random policy's and an expert SAC's, on their -v2
# versions): the "all tasks" IQM is of the scores (return - random) / (expert - random), one scale for every task
D4RL_NORM = {'HalfCheetah-v5': (-280.178953, 12135.0), 'Hopper-v5': (-20.272305, 3234.3),
             'Walker2d-v5': (1.629008, 4592.3)}
STUDIES = dict(
    # Spinning Up's defaults, except where SB3 cannot express them (entries.SB3_LIMITS): random actions and
    # updates both start at 10k steps (Spinning Up: updates from 1k). Test episodes every 10k steps, as on Spinning
    # Up's benchmark page.
    offpolicy=dict(groups=[(['td3', 'sac', 'ddpg'], ['fastrl', 'sb3'])], settings={
        'steps_per_epoch': 10_000, 'epochs': 15, 'start_steps': 10_000, 'update_after': 10_000,
        'ac_kwargs:hidden_sizes': (256, 256), 'max_ep_len': 1000, 'num_test_episodes': 10}),
    # Spinning Up's defaults and its benchmark's (64, 32) tanh networks; SB3's PPO where it can express them
    # (entries.SB3_PPO_LIMITS). TRPO and VPG have no SB3 twin: fastrl alone.
    # The curve is the training episodes' return, as on Spinning Up's page; the score 10 deterministic episodes at
    # the end (`final_test`: test episodes every epoch would cost 2.5x the training steps).
    onpolicy=dict(groups=[(['ppo'], ['fastrl', 'sb3']), (['trpo', 'vpg'], ['fastrl'])], settings={
        'steps_per_epoch': 4000, 'epochs': 125, 'ac_kwargs:hidden_sizes': (64, 32), 'max_ep_len': 1000,
        'num_test_episodes': 0}),
    # Like for like (issue 38): PPO at RL Zoo's tuned settings for SB3's PPO on Hopper (hyperparams/ppo.yml,
    # Hopper-v3), normalisation included (`entries.ZOO_TASKS`: the same wrappers in both arms), fastrl configured to
    # SB3's maths (`entries.SB3_PPO_MATHS`; SB3's entry refuses any other), at 200k of the zoo's 1M steps (391 epochs
    # of 512). The score: 10 deterministic episodes at the end on the task itself (observations normalised by the
    # run's frozen statistics, actions clipped to the bounds), 10 seeds.
    zoo=dict(groups=[(['ppo'], ['fastrl', 'sb3'])], envs=['ZooHopper-v5'], seeds=list(range(10)), min_runs=10,
             arms=dict(fastrl='fastrl PPO (SB3 maths)', sb3='SB3 PPO'), settings={
        'steps_per_epoch': 512, 'epochs': 391, 'mb_size': 32, 'train_pi_iters': 5, 'train_v_iters': 5,
        'gamma': 0.999, 'lam': 0.99, 'pi_lr': 9.80828e-05, 'vf_lr': 9.80828e-05, 'clip_ratio': 0.2,
        'ent_coef': 0.00229519, 'vf_coef': 0.835671, 'max_grad_norm': 0.7, 'target_kl': None,
        'joint': True, 'joint_clip': True, 'value_target': 'gae', 'adam_eps': 1e-5, 'adv_norm': 'minibatch',
        'ac_kwargs:hidden_sizes': (256, 256), 'ac_kwargs:activation': __import__('torch').nn.ReLU, 'ac_kwargs:log_std_init': -2.,
        'max_ep_len': 1000, 'num_test_episodes': 0, 'save_freq': 50}),
)
# The like-for-like study at the zoo's own budget (issue 53): the same arms and settings, 1954 epochs of 512 steps
# (1,000,448 env steps: the zoo's 1M). Its runs are another study's: the 200k runs above stay as they are.
# Its runs go at nice 19 beside other work, across sessions: their wall time says how busy the machine was, not how
# fast a library is, so its table gives CPU seconds per env step and no env steps per second (`wall_speed`).
STUDIES['zoo1m'] = dict(STUDIES['zoo'], settings=dict(STUDIES['zoo']['settings'], epochs=1954), wall_speed=False)
ARMS = dict(fastrl='fastrl', sb3='SB3')   # the table's names of the arms, unless the study names them

def arms(study:str)->tuple:
    "The names of `study`'s two arms in its tables: (fastrl's, SB3's)."
    names = STUDIES[study].get('arms', ARMS)
    return names['fastrl'], names['sb3']

def grid(study:str, algos:list, libs:list, envs:list, seeds:list, epochs:int|None, skip=frozenset()):
    ("One `ExperimentGrid` of the study: algorithm, env, seed and library vary (always in the folder names); the "
     "variants whose `run_key` is in `skip` are left out.")
    from fastrl.experiments.grid import ExperimentGrid
    eg = ExperimentGrid(study)
    eg.add('algo', algos, shorthand='', in_name=True)
    eg.add('env_name', envs, shorthand='', in_name=True)
    eg.add('seed', seeds)
    eg.add('lib', libs, shorthand='', in_name=True)   # each seed's pair runs side by side
    for k, v in STUDIES[study]['settings'].items(): eg.add(k, epochs if k == 'epochs' and epochs else v)
    every = eg.variants
    eg.variants = lambda: [v for v in every() if run_key(eg.variant_name(v), v['seed']) not in skip]
    return eg

def run_key(exp_name:str, seed:int)->str:
    "A run's name in the results file and under `data_dir`: `{exp_name}/{exp_name}_s{seed}` (fastrl's run folders)."
    return f'{exp_name}/{exp_name}_s{seed}'

def folder_key(run:str)->str:
    "The `run_key` of a run folder's path."
    return '/'.join(Path(run).parts[-2:])

def recorded(path:Path)->dict:
    ("The results file's runs by `run_key` (empty if there is none yet). The run folders (under `data_dir`, not in "
     "git) may be gone in a new checkout: the committed results file is the study's lasting record.")
    if not path.is_file(): return {}
    return {folder_key(r['run']): r for r in json.loads(path.read_text())}

NOT_RECORDED, SEVERAL = 'not recorded', 'several'   # a run's processor: before it was recorded; resumed on another

def read_run(d:Path)->dict|None:
    "One run folder as a record of the results file (None if it has no epoch yet)."
    p = d/'progress.txt'
    if not p.is_file() or p.stat().st_size == 0: return None
    prog = pd.read_table(p)
    if not len(prog): return None
    cfg = json.loads((d/'config.json').read_text())
    segs = entries.segments(d)
    algo, lib = algo_lib(d)
    covered = sorted({e for s in segs for e in range(s['first_epoch'], s['last_epoch'] + 1)})
    cpu = float(sum(s['cpu_s'] for s in segs))
    last = prog.iloc[-1]
    finished = int(last.Epoch) >= cfg['epochs']
    tested = 'AverageTestEpRet' in prog and prog.AverageTestEpRet.notna().all()   # test episodes every epoch
    score = float(last.AverageTestEpRet) if tested else final_test(d, algo, lib, cfg) if finished else None
    curve = 'AverageTestEpRet' if tested else 'AverageEpRet'
    cpus = {(sg.get('versions') or {}).get('cpu', NOT_RECORDED) for sg in segs} or {NOT_RECORDED}
    return dict(run=str(d), algo=algo, env=cfg_env(cfg), lib=lib, seed=cfg['seed'], epochs=int(last.Epoch),
                epochs_wanted=cfg['epochs'], finished=finished, final_test_return=score, curve_of=curve,
                env_steps=int(last.TotalEnvInteracts),
                wall_s=float(last.Time), cpu_s=cpu,
                cpu_complete=covered == list(range(1, int(last.Epoch) + 1)),
                # per env step of the epochs the segments account for (a process killed within 2 s of logging an
                # epoch may leave that epoch out of its segment)
                cpu_s_per_step=cpu / max(1, len(covered) * cfg['steps_per_epoch']),
                steps_per_s=float(last.TotalEnvInteracts / last.Time), segments=len(segs),
                versions=segs[-1]['versions'] if segs else None,
                # made by code with uncommitted changes (fastrl's, or these entry functions'): never in a table
                dirty=any((sg.get('versions') or {}).get(k) for sg in segs for k in ('fastrl_dirty', 'bench_dirty')),
                final_test_unclipped=unclipped(d),
                machine=cpus.pop() if len(cpus) == 1 else SEVERAL,   # the processor its speed was measured on
                curve=dict(TotalEnvInteracts=prog.TotalEnvInteracts.tolist(), AverageEpRet=prog.AverageEpRet.tolist(),
                           **({'AverageTestEpRet': prog.AverageTestEpRet.tolist()} if tested else {})))

def unclipped(d:Path)->float|None:
    "A fastrl run's final score with its actions not clipped (`final_test`), where it was measured."
    p = d/'final_test.json'
    return json.loads(p.read_text()).get('mean_unclipped') if p.exists() else None

def algo_lib(d:Path)->tuple:
    "(algorithm, library) of the study's run folder `d`, from its grid folder's name (`{study}_{algo}_{env}_{lib}`)."
    algo, _, lib = d.parent.name.split('_')[1:4]
    return algo, lib

def final_test(d:Path, algo:str, lib:str, cfg:dict, episodes:int=10)->float:
    ("Mean return of `episodes` deterministic episodes of the finished run in `d` on an env seeded as fastrl seeds "
     "its test env after the last epoch (`10000 + 1000*seed + epochs`); kept in `d/final_test.json`.")
    p = d/'final_test.json'
    if p.exists(): return json.loads(p.read_text())['mean']
    from fastrl.experiments.settings import make_env_fn
    seed, env_fn, pol = final_test_seed(cfg), make_env_fn(entries.raw_task(cfg_env(cfg))), run_policy(d, algo, lib, cfg)
    rets, lens = entries.test_episodes(pol, env_fn, episodes, seed, cfg['max_ep_len'])   # actions clipped, both libs
    res = dict(returns=rets, lengths=lens, mean=float(np.mean(rets)), env_seed=seed, actions='clipped to the bounds')
    if lib == 'fastrl':   # what the score was before the clip (SB3's predict clips: the same as clipped)
        un = entries.test_episodes(pol, env_fn, episodes, seed, cfg['max_ep_len'], clip=False)[0]
        res.update(returns_unclipped=un, mean_unclipped=float(np.mean(un)))
    p.write_text(json.dumps(res) + '\n')
    return float(np.mean(rets))

def final_test_seed(cfg:dict)->int:
    "The seed of a run's final test env: fastrl's test env after the last epoch (`10000 + 1000*seed + epochs`)."
    return 10_000 + 1000 * cfg['seed'] + cfg['epochs']

def run_policy(d:Path, algo:str, lib:str, cfg:dict):
    "The deterministic policy (observation -> action) of the finished run in `d`: fastrl's saved one or SB3's last."
    if lib == 'fastrl':   # observations as the task gives them: a run's normalisation is in the policy, frozen
        from fastrl.experiments.policy import Policy
        pol = Policy.load(d)
        return lambda o: pol.predict(o, deterministic=True)
    import pickle, stable_baselines3
    model = getattr(stable_baselines3, algo.upper()).load(d/f"sb3_model_{cfg['epochs']}.zip", device='cpu')
    st = d/f"sb3_envstats_{cfg['epochs']}.pkl"   # the training env's normalisation, frozen (as VecNormalize at test)
    rms = pickle.loads(st.read_bytes())['obs_rms'] if st.exists() else None
    norm = (lambda o: ((o - rms.mean) / np.sqrt(rms.var + 1e-8)).astype(np.float32)) if rms else (lambda o: o)
    return lambda o: model.predict(norm(o), deterministic=True)[0]

def cfg_env(cfg:dict)->str:
    from fastrl.experiments.study import _task
    return _task(cfg)

def complete_cells(done:pd.DataFrame, min_runs:int)->pd.DataFrame:
    ("The finished runs of the (algorithm, task) cells where every library that runs the algorithm has `min_runs` "
     "finished runs: a cell still in progress would compare unequal samples.")
    keep = []
    for (algo, env), cell in done.groupby(['algo', 'env'], sort=False):
        libs = set(done.lib[done.algo == algo])
        if all((cell.lib == lib).sum() >= min_runs for lib in libs): keep.append(cell)
    return pd.concat(keep) if keep else done.iloc[:0]

def report(study:str, data_dir:Path, out:Path, min_runs:int=5):
    ("Write the results file (every run) and the report of the complete cells (`complete_cells`); print the "
     "table.")
    from fastrl.experiments.study import ALL_TASKS, study_tables
    here = [r for d in sorted(data_dir.glob(f'{study}_*/{study}_*_s*')) if d.is_dir() and (r := read_run(d))]
    runs = merge_runs(recorded(out/f'{study}_runs.json'), here)
    out.mkdir(parents=True, exist_ok=True)
    (out/f'{study}_runs.json').write_text(json.dumps(runs, indent=1) + '\n')
    (out/f'{study}_progress.md').write_text(progress(study, runs))
    ended = {folder_key(r['run']) for r in runs if r['finished']}   # finished here or in the results file
    carry(study, [r['run'] for r in here if folder_key(r['run']) not in ended], out)
    dirty = [r for r in runs if r['finished'] and is_dirty(r)]
    for r in dirty: print(f"  not counted: {Path(r['run']).name} ran uncommitted code or recorded no commit (delete its "
                          "record to run it again)")
    done = pd.DataFrame([dict(r, machine=r.get('machine', NOT_RECORDED)) for r in runs
                         if r['finished'] and not is_dirty(r)])
    print(f"{len(runs)} runs with at least one epoch, {len(done) + len(dirty)} finished, {len(dirty)} not counted")
    for r in runs:   # where the study stands: the runs started and not finished
        if not r['finished']: print(f"  unfinished: {Path(r['run']).name}, epoch {r['epochs']} of {r['epochs_wanted']}")
    if not len(done): return
    done = complete_cells(done, min_runs)
    print(f"{len(done)} in cells where every library has {min_runs} finished runs")
    if not len(done): return
    f, b = arms(study)
    lines = [f'| algorithm | task | {f} IQM [95% CI] | {b} IQM [95% CI] | Spinning Up mean (its figure) | '
             f'P({f} > {b}) [95% CI] | {f} / {b} env steps/s | {f} / {b} CPU s per env step | '
             f'runs ({f}, {b}) |', '|' + '---|' * 9]
    for algo in dict.fromkeys(done.algo):
        a = done[done.algo == algo]
        tab = pd.DataFrame(dict(variant=a.lib, task=a.env, run=a.run, score=a.final_test_return))
        scores, imp, fig = study_tables(tab, norm={t: D4RL_NORM[entries.raw_task(t)] for t in tab.task.unique()})
        scores.to_csv(out/f'{study}_{algo}.csv', index=False); imp.to_csv(out/f'{study}_{algo}_improvement.csv', index=False)
        fig.savefig(out/f'{study}_{algo}.png', dpi=110)
        for task in list(dict.fromkeys(a.env)) + ([ALL_TASKS] if a.env.nunique() > 1 else []):
            lines.append(table_row(algo, task, a if task == ALL_TASKS else a[a.env == task], scores, imp,
                                   wall=STUDIES[study].get('wall_speed', True)))
    table = '\n'.join(lines) + '\n'
    tests = rank_tests(done)
    tests.to_csv(out/f'{study}_rank_tests.csv', index=False, float_format='%.4g')
    (out/f'{study}_table.md').write_text(table)
    (out/f'{study}_rank_tests.md').write_text(rank_table(study, tests, done))
    (out/f'{study}_finals.md').write_text(finals(study, done))
    print(table)
    if len(tests):
        print(f"Mann-Whitney rank test of fastrl's against SB3's final returns per cell, exact two-sided p, "
              f"Holm-adjusted over the {len(tests)} cells ({study}_rank_tests.csv):")
        for t in tests.itertuples():
            print(f"  {t.algo.upper()} {t.task}: P(fastrl > SB3) {t.P_fastrl_better:.2f}, p {t.p:.3f}, "
                  f"Holm {t.p_holm:.2f}")
    curves([r for r in runs if r['run'] in set(done.run)], out/f'{study}_curves.png')

def is_dirty(r:dict)->bool:
    ("Whether run record `r` cannot be traced to a commit: made by uncommitted code, or recording no commit (runs "
     "from before the commit was recorded). A published table counts only runs of a recorded, clean commit (records "
     "from before the dirty flag covered every segment read it from their last segment's versions).")
    v = r.get('versions') or {}
    return bool(r.get('dirty', v.get('fastrl_dirty'))) or not v.get('fastrl_commit')

def merge_runs(old:dict, new:list)->list:
    ("The results file's runs (`old`, by `run_key`) updated with the runs read from `data_dir` (`new`), sorted by "
     "name: a finished run stays recorded when its folder is gone or holds a restarted, unfinished copy; an unfinished "
     "one whose folder is gone is dropped (the grid starts it again).")
    runs = {k: r for k, r in old.items() if r['finished']}
    for r in new:
        k = folder_key(r['run'])
        if r['finished'] or k not in runs: runs[k] = r
    return [runs[k] for k in sorted(runs)]

# Carrying unfinished runs across checkouts: a new checkout has no `data_dir`, so the report keeps a copy of each
# unfinished run small enough for git in `{study}_unfinished/` beside the results file, and the next start copies it
# back. An on-policy run's resume files are 0.1-0.6 MB; an off-policy one's replay buffer makes 23-46 MB.
CARRY_MB = 5.
NOT_CARRIED = ('.lock', 'checkpoint.prev.pt')   # the run's lock (its process holds it) and fastrl's fallback checkpoint

def carried(out:Path, study:str)->Path:
    "Where the report keeps copies of the study's unfinished runs (committed with the results file)."
    return out/f'{study}_unfinished'

def resume_files(d:Path)->list:
    "The files of run folder `d` that resuming it needs: all but `NOT_CARRIED`, relative to `d`."
    return sorted(p.relative_to(d) for p in d.rglob('*') if p.is_file() and p.name not in NOT_CARRIED)

def snapshot(d:Path, dest:Path, tries:int=3)->bool:
    ("Copy the resume files of the run in `d` (which may be running) to `dest` as of one checkpoint: checkpoint first, "
     "the rest after, and again if the run wrote another checkpoint meanwhile (SB3 deletes the last epoch's model "
     "then). False if it never held still.")
    from fastrl.experiments.checkpoint import load_checkpoint
    tmp = dest.with_name(dest.name + '.tmp')
    for _ in range(tries):
        shutil.rmtree(tmp, ignore_errors=True); tmp.mkdir(parents=True)
        shutil.copy2(d/'checkpoint.pt', tmp/'checkpoint.pt')
        epoch = load_checkpoint(tmp/'checkpoint.pt')['epoch']
        try:
            for f in resume_files(d):
                if f == Path('checkpoint.pt'): continue   # copied first
                (tmp/f).parent.mkdir(parents=True, exist_ok=True); shutil.copy2(d/f, tmp/f)
        except FileNotFoundError: continue   # a file replaced while copying: another checkpoint came
        if load_checkpoint(d/'checkpoint.pt')['epoch'] == epoch:
            shutil.rmtree(dest, ignore_errors=True); tmp.rename(dest); return True
    shutil.rmtree(tmp, ignore_errors=True)
    return False

def carry(study:str, unfinished:list, out:Path, limit_mb:float=CARRY_MB):
    ("Keep in `carried(out, study)` a copy of each run folder in `unfinished` whose resume files take at most "
     "`limit_mb` (a larger one starts again in a new checkout), and drop the copies of every other run.")
    root, kept = carried(out, study), set()
    for d in map(Path, unfinished):
        if not (d/'checkpoint.pt').is_file(): continue
        mb = sum((d/f).stat().st_size for f in resume_files(d)) / 2**20
        if mb > limit_mb:
            print(f"  not carried: {d.name} ({mb:.0f} MB > {limit_mb:g} MB); in a new checkout it starts again")
            continue
        if snapshot(d, root/folder_key(d)): kept.add(folder_key(d))
        else: print(f"  not carried: {d.name} (it wrote a checkpoint during each of 3 copies)")
    for d in sorted(root.glob('*/*')):
        if folder_key(d) not in kept: shutil.rmtree(d)
    for g in sorted(root.glob('*')):
        if g.is_dir() and not any(g.iterdir()): g.rmdir()
    if root.is_dir() and not any(root.iterdir()): root.rmdir()
    if kept: print(f"{len(kept)} unfinished runs carried in {root} (commit it: a new checkout resumes them)")

def restore(study:str, data_dir:Path, out:Path)->int:
    ("Copy the runs carried in `carried(out, study)` into `data_dir` where it has no folder of theirs (a new "
     "checkout): the grid then resumes them from their last epoch. Returns how many.")
    n = 0
    for src in sorted(carried(out, study).glob('*/*')):
        if src.suffix == '.tmp' or (dst := data_dir/folder_key(src)).exists(): continue   # .tmp: a copy cut short
        shutil.copytree(src, dst); n += 1
    if n: print(f"{n} unfinished runs restored from {carried(out, study)} into {data_dir}: they resume", flush=True)
    return n

def spinup_curve(algo:str, task:str, path:Path=HERE/'spinup_curves.json')->tuple|None:
    ("`(env steps, mean return)` of Spinning Up's PyTorch `algo` on `task` (e.g. 'Hopper-v5') as drawn on its "
     "benchmark page (`spinup_curves.json`: the mean line's vertices and the axis ticks, in the figure's "
     "coordinates); `None` where the figure has no such curve.")
    t = json.loads(path.read_text())['tasks'].get(task.split('-')[0])
    if t is None or algo not in t['curves']: return None
    to_data = lambda ticks: np.polyfit(*np.array(ticks).T, 1)   # the axes are linear: fit all ticks
    xs, ys = np.array(t['curves'][algo]).T
    return np.polyval(to_data(t['xticks']), xs), np.polyval(to_data(t['yticks']), ys)

def spinup_mean(algo:str, task:str, steps:int)->float|None:
    "Spinning Up's mean return (`spinup_curve`) after `steps` env steps; `None` where its curve does not reach them."
    c = spinup_curve(algo, task)
    if c is None or not c[0][0] <= steps <= c[0][-1] + 1: return None   # +1: the figure's 6 decimals put 10k at 9999.x
    return float(np.interp(steps, *c))

def table_row(algo:str, task:str, runs:pd.DataFrame, scores:pd.DataFrame, imp:pd.DataFrame, wall:bool=True)->str:
    ("The README table's row of one algorithm and task (or `ALL_TASKS`: IQMs of D4RL-normalised scores), "
     "P(fastrl > SB3), speed ratios (env steps per second only where the study's wall times measure speed: `wall`).")
    from fastrl.experiments.study import ALL_TASKS, prob_improvement_ci
    every = task == ALL_TASKS
    s = scores[scores.task == task].set_index('variant')
    d = 2 if every else 0
    num = lambda x: f"{round(x, d) + 0.:.{d}f}"   # + 0.: no '-0' for a value that rounds to zero from below
    cell = lambda v: f"{num(s.IQM[v])} [{num(s.lo95[v])}, {num(s.hi95[v])}]" if v in s.index else '–'
    f, b = runs[runs.lib == 'fastrl'], runs[runs.lib == 'sb3']
    p = None
    if len(f) and len(b):
        if every:
            i = imp[(imp.X == 'fastrl') & (imp.Y == 'sb3')].iloc[0]; p = (i.P_X_better, i.lo95, i.hi95)
        else: p = prob_improvement_ci([f.final_test_return], [b.final_test_return], rng=0)
    speed = [f'{x:.2f}' if np.isfinite(x) and (i or wall) else '–' for i, x in enumerate(speed_ratios(runs))]
    # Spinning Up's curve is of its own settings: a reference only for a study at them (not the zoo's)
    su = None if every or task != entries.raw_task(task) else spinup_mean(algo, task, int(runs.env_steps.max()))
    label = 'all tasks (D4RL-normalised)' if every else task
    return (f"| {algo.upper()} | {label} | {cell('fastrl')} | {cell('sb3')} | {'–' if su is None else f'{su:.0f}'} | "
            f"{f'{p[0]:.2f} [{p[1]:.2f}, {p[2]:.2f}]' if p else '–'} | "
            f"{speed[0]} | {speed[1]} | {len(f)}, {len(b)} |")

def speed_ratios(runs:pd.DataFrame)->tuple:
    ("fastrl / SB3 (env steps per second, CPU seconds per env step) of `runs`, comparing runs on one processor only: "
     "the ratio of the libraries' means in each (task, processor) group with runs of both, then the geometric mean "
     "over the groups weighted by their runs. A run resumed on another processor, or on a processor where the other "
     "library has no run of its task, counts in no group; (nan, nan) where no group has both.")
    logs, ws = [], []
    for _, g in runs[runs.machine != SEVERAL].groupby(['env', 'machine']):
        f, b = g[g.lib == 'fastrl'], g[g.lib == 'sb3']
        if not (len(f) and len(b)): continue
        logs.append(np.log([f.steps_per_s.mean() / b.steps_per_s.mean(),
                            f.cpu_s_per_step.mean() / b.cpu_s_per_step.mean()]))
        ws.append(len(g))
    return tuple(np.exp(np.average(logs, axis=0, weights=ws))) if ws else (np.nan, np.nan)

def rank_test(x:list, y:list)->tuple:
    ("(P(x > y), exact two-sided p) of the Mann-Whitney test of samples `x` and `y`: P is fastrl's `prob_improvement` "
     "(U over len(x) len(y)); p is the share of the relabellings of the pooled scores whose P lies at least as far "
     "from 1/2 (5 against 5: all 252).")
    from itertools import combinations
    from fastrl.experiments.study import prob_improvement
    pool = np.asarray(list(x) + list(y), dtype=float)
    ps = np.array([prob_improvement(pool[list(c)], np.delete(pool, list(c)))
                   for c in combinations(range(len(pool)), len(x))])
    obs = prob_improvement(x, y)
    return obs, float(np.mean(np.abs(ps - 0.5) >= abs(obs - 0.5) - 1e-9))

def rank_tests(done:pd.DataFrame)->pd.DataFrame:
    ("Per (algorithm, task) cell with runs of both libraries: `rank_test` of fastrl's against SB3's final returns, "
     "and Holm's adjustment of the p values over the cells (the table makes that many comparisons).")
    rows = [dict(algo=algo, task=env, P_fastrl_better=u, p=p) for (algo, env), c in done.groupby(['algo', 'env'])
            if (c.lib == 'sb3').any() and (c.lib == 'fastrl').any()
            for u, p in [rank_test(*(list(c.final_test_return[c.lib == lib]) for lib in ('fastrl', 'sb3')))]]
    t = pd.DataFrame(rows, columns=['algo', 'task', 'P_fastrl_better', 'p'])
    order = np.argsort(t.p.to_numpy(), kind='stable')
    adj = np.minimum(1, np.maximum.accumulate(t.p.to_numpy()[order] * (len(t) - np.arange(len(t)))))
    t.loc[t.index[order], 'p_holm'] = adj
    return t

def rank_table(study:str, tests:pd.DataFrame, done:pd.DataFrame)->str:
    ("The rank tests as the README's table: per cell P(fastrl > SB3), the exact two-sided p, Holm's adjustment over "
     "the study's cells, and the smallest p the design can give (2 / C(n_f + n_s, n_f)), Holm-adjusted too: where "
     "that is above 0.05 no result of the cell could count as a difference.")
    from math import comb
    f, b = arms(study)
    lines = [f'| algorithm | task | runs ({f}, {b}) | P({f} > {b}) | p (exact, two-sided) | p, Holm over {len(tests)} '
             f'cells | smallest p possible (Holm) |', '|' + '---|' * 7]
    for t in tests.itertuples():
        c = done[(done.algo == t.algo) & (done.env == t.task)]
        nf, ns = int((c.lib == 'fastrl').sum()), int((c.lib == 'sb3').sum())
        floor = 2 / comb(nf + ns, nf)
        lines.append(f'| {t.algo.upper()} | {t.task} | {nf}, {ns} | {t.P_fastrl_better:.2f} | {t.p:.3f} | '
                     f'{t.p_holm:.3f} | {floor:.2g} ({min(1., floor * len(tests)):.2g}) |')
    return '\n'.join(lines) + '\n'

def finals(study:str, done:pd.DataFrame)->str:
    ("Every counted run's final return, per cell and library in seed order, with the mean: the README's lists (a "
     "fastrl run's score with unclipped actions beside, where measured).")
    names, out = dict(zip(('fastrl', 'sb3'), arms(study))), []
    for (algo, env), c in done.groupby(['algo', 'env'], sort=False):
        parts = []
        for lib in ('fastrl', 'sb3'):
            r = c[c.lib == lib].sort_values('seed')
            if not len(r): continue
            parts.append(f"{names[lib]} {', '.join(f'{x:.0f}' for x in r.final_test_return)} "
                         f"(mean {r.final_test_return.mean():.0f})")
            un = r.get('final_test_unclipped')
            if un is not None and un.notna().all():
                parts.append(f"{names[lib]} with unclipped actions {', '.join(f'{x:.0f}' for x in un)} "
                             f"(mean {un.mean():.0f})")
        out.append(f"- {algo.upper()} {env}: " + '; '.join(parts) + '.')
    return '\n'.join(out) + '\n'

def progress(study:str, runs:list)->str:
    ("Where a study under way stands, per library: its counted finished runs' final returns, each with its seed, and "
     "their CPU seconds (CPU per env step over the epochs timed, times the run's env steps: an epoch logged just before "
     "a stop has no segment's time) (the README's lines until every cell is complete).")
    names, n, out = dict(zip(('fastrl', 'sb3'), arms(study))), len(STUDIES[study].get('seeds', range(5))), []
    for lib in ('fastrl', 'sb3'):
        rs = sorted((r for r in runs if r['lib'] == lib and r['finished'] and not is_dirty(r)), key=lambda r: r['seed'])
        cpu = [r['cpu_s_per_step'] * r['env_steps'] for r in rs if r.get('cpu_s_per_step')]
        out.append(f"- {names[lib]}, {len(rs)} of {n} runs finished: "
                   + (', '.join(f"{r['final_test_return']:.0f} (seed {r['seed']})" for r in rs) or 'none')
                   + (f"; {min(cpu):.0f}–{max(cpu):.0f} CPU seconds a run" if len(cpu) > 1 else
                      f"; {cpu[0]:.0f} CPU seconds" if cpu else '') + '.')
    return '\n'.join(out) + '\n'

def curves(runs:list, path:Path):
    ("Mean return (test, or training where a run has no test rounds) against env steps, a row of panels per "
     "algorithm and a column per task, fastrl and SB3 (finished runs).")
    import matplotlib; matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    runs = [r for r in runs if r['finished']]
    cells = list(dict.fromkeys((r['algo'], r['env']) for r in runs))
    if not cells: return
    algos = list(dict.fromkeys(a for a, _ in cells))
    envs = sorted({e for _, e in cells}, key=lambda e: (ENVS.index(e) if e in ENVS else len(ENVS), e))
    fig, axs = plt.subplots(len(algos), len(envs), figsize=(4.2 * len(envs), 3.2 * len(algos)), squeeze=False)
    for ax in axs.flat: ax.set_visible(False)
    for algo, env in cells:
        ax = axs[algos.index(algo), envs.index(env)]; ax.set_visible(True)
        for lib in ('fastrl', 'sb3'):
            rs = [r for r in runs if (r['algo'], r['env'], r['lib']) == (algo, env, lib)]
            if not rs: continue
            x = np.array(rs[0]['curve']['TotalEnvInteracts'])
            y = np.array([r['curve'][r['curve_of']] for r in rs])
            ax.plot(x, y.mean(0), label=f'{lib} ({len(rs)})')
            ax.fill_between(x, y.mean(0) - y.std(0), y.mean(0) + y.std(0), alpha=0.2)
        if (su := spinup_curve(algo, env)) is not None:
            keep = su[0] < x[-1]   # up to the study's last step: the drawn line, cut there
            ax.plot([*su[0][keep], x[-1]], [*su[1][keep], np.interp(x[-1], *su)], 'k--', lw=1,
                    label='Spinning Up (its figure)')
        ax.set_title(f'{algo.upper()} {env}', fontsize=9); ax.set_xlabel('env steps'); ax.legend(fontsize=7)
        ax.xaxis.set_major_formatter(lambda v, _: f'{v / 1000:g}k')
        of = next(r['curve_of'] for r in runs if (r['algo'], r['env']) == (algo, env))
        ax.set_ylabel({'AverageTestEpRet': 'test', 'AverageEpRet': 'training'}[of] + ' return (mean ± std)', fontsize=8)
    fig.tight_layout(); fig.savefig(path, dpi=100); plt.close(fig)

def main():
    import signal
    signal.signal(signal.SIGINT, signal.default_int_handler)   # also when started in the background (`&`, nohup)
    signal.signal(signal.SIGTERM, signal.default_int_handler)   # `kill` stops it as Ctrl-C does
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('study', choices=list(STUDIES))
    ap.add_argument('--algos', nargs='+', default=None)
    ap.add_argument('--envs', nargs='+', default=None, help="default: the study's (the three tasks)")
    ap.add_argument('--seeds', nargs='+', type=int, default=None, help="default: the study's (0-4)")
    ap.add_argument('--epochs', type=int, default=None, help='override the study\'s epochs (for a try)')
    ap.add_argument('--workers', type=int, default=2)
    ap.add_argument('--data_dir', default=str(HERE/'data'))
    ap.add_argument('--out', default=None, help="the report's folder (default: bench/results/mujoco, or, with "
                    "another --data_dir, its 'report' folder: a try never touches the study's results)")
    ap.add_argument('--report', action='store_true', help='only write the report of the runs finished so far')
    ap.add_argument('--min_runs', type=int, default=None, help="finished runs per library for a cell to be reported "
                    "(default: the study's seeds)")
    a = ap.parse_args()
    st = STUDIES[a.study]
    a.envs, a.seeds = a.envs or st.get('envs', ENVS), a.seeds if a.seeds is not None else st.get('seeds', [0, 1, 2, 3, 4])
    a.min_runs = a.min_runs or st.get('min_runs', 5)
    if a.out is None:
        own = Path(a.data_dir).resolve() == HERE/'data'
        a.out = str(HERE.parent/'results'/'mujoco' if own else Path(a.data_dir)/'report')
    restore(a.study, Path(a.data_dir), Path(a.out))
    if not a.report:
        from fastrl.experiments.launch import one_line_errors
        results = Path(a.out)/f'{a.study}_runs.json'
        done = {k for k, r in recorded(results).items() if r['finished']}
        if done: print(f"{len(done)} runs finished in {results} (its records are kept): not run again", flush=True)
        for algos, libs in STUDIES[a.study]['groups']:
            algos = [x for x in algos if a.algos is None or x in a.algos]
            if not algos: continue
            eg = grid(a.study, algos, libs, a.envs, a.seeds, a.epochs, skip=done)
            rc = one_line_errors(lambda: eg.run(entries.run, workers=a.workers, data_dir=a.data_dir, quiet=True,
                                                resume=True))
            if rc: sys.exit(rc)
    report(a.study, Path(a.data_dir), Path(a.out), a.min_runs)

if __name__ == '__main__': main()
