"""`--compile` against eager on this CPU (issue 50): SAC and TD3 on Pendulum-v1 with 64x64 networks, Spinning Up's
batch of 100, one update per env step, one torch thread. Each arm runs in its own process (a fresh dynamo cache:
compiling is part of epoch 1), arms interleaved per repeat so that machine drift hits them alike. The figure is the
wall time of epoch 2 (the `Time` column's difference), after epoch 1 warmed up and compiled; and per compiled run the
distinct graphs and graph breaks that torch's dynamo counters report over the whole run, acting included.

    .venv/bin/python bench/compile_speed.py                         # sac td3, 3 repeats: ~10 min on 2 quiet cores
    .venv/bin/python bench/compile_speed.py --algos sac --repeats 1 --steps 1000
    .venv/bin/python bench/compile_speed.py --old /path/to/older/checkout   # also that fastrl's eager update
Writes bench/results/compile_speed.json.
"""
import argparse, json, os, platform, subprocess, sys, tempfile, time
from pathlib import Path
import numpy as np

HERE = Path(__file__).resolve().parent

def child(algo:str, compile:bool, steps:int, out:str):
    "One run in this process: the entry function, then its epoch times and dynamo's counters, as JSON on stdout."
    import torch, pandas as pd
    torch.set_num_threads(1)
    from torch._dynamo.utils import counters
    from fastrl import algos
    kw = dict(ac_kwargs=dict(hidden_sizes=(64, 64)), seed=0, steps_per_epoch=steps, epochs=2, batch_size=100,
              start_steps=500, update_after=500, update_every=50, num_test_episodes=2, max_ep_len=200,
              logger_kwargs=dict(output_dir=out, show=False))
    getattr(algos, algo)('Pendulum-v1', compile=compile, **kw)
    prog = pd.read_table(Path(out)/'progress.txt')
    t = prog.Time.tolist()
    print(json.dumps(dict(epoch1_s=t[0], epoch2_s=t[1] - t[0], graphs=counters['stats'].get('unique_graphs', 0),
                          breaks=sum(counters['graph_break'].values()),
                          test_return=float(prog.AverageTestEpRet.iloc[-1]))))

def run(algo:str, compile:bool, steps:int, root:str=str(HERE.parent))->dict:
    "One arm in a fresh process, importing the fastrl of checkout `root`."
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, TORCHINDUCTOR_CACHE_DIR=str(Path(d)/'inductor'), OMP_NUM_THREADS='1', PYTHONPATH=root)
        cmd = [sys.executable, __file__, '--child', algo, str(int(compile)), str(steps), str(Path(d)/'run')]
        r = subprocess.run(cmd, capture_output=True, text=True, env=env)
        if r.returncode: raise SystemExit(f"{algo} compile={compile} failed:\n{r.stderr[-3000:]}")
        return json.loads(r.stdout.strip().splitlines()[-1])

def main():
    if len(sys.argv) > 1 and sys.argv[1] == '--child': return child(sys.argv[2], sys.argv[3] == '1', int(sys.argv[4]), sys.argv[5])
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--algos', nargs='+', default=['sac', 'td3'])
    p.add_argument('--repeats', type=int, default=3)
    p.add_argument('--steps', type=int, default=2000, help='env steps per epoch (default 2000)')
    p.add_argument('--old', default=None, help="another checkout (the fastrl before issue 50): its eager runs too")
    p.add_argument('--out', default=str(HERE/'results'/'compile_speed.json'))
    a = p.parse_args()
    arms = ['eager', 'compiled'] + (['old_eager'] if a.old else [])
    res = {algo: {k: [] for k in arms} for algo in a.algos}
    for rep in range(a.repeats):
        for algo in a.algos:
            for arm in (arms if rep % 2 == 0 else arms[::-1]):
                r = run(algo, arm == 'compiled', a.steps, a.old if arm == 'old_eager' else str(HERE.parent))
                res[algo][arm].append(r)
                print(f"{algo} {arm:8} repeat {rep}: epoch 2 {r['epoch2_s']:.1f} s (epoch 1 {r['epoch1_s']:.1f} s), "
                      f"graphs {r['graphs']}, breaks {r['breaks']}", flush=True)
    summary = {}
    for algo, arms in res.items():
        e, c = (np.array([r['epoch2_s'] for r in arms[k]]) for k in ('eager', 'compiled'))
        summary[algo] = dict(eager_epoch2_s=float(np.median(e)), compiled_epoch2_s=float(np.median(c)),
                             speedup=float(np.median(e) / np.median(c)),
                             graphs=sorted({r['graphs'] for r in arms['compiled']}),
                             breaks=sorted({r['breaks'] for r in arms['compiled']}))
        print(f"{algo}: epoch 2 median {summary[algo]['eager_epoch2_s']:.1f} s eager, "
              f"{summary[algo]['compiled_epoch2_s']:.1f} s compiled: {summary[algo]['speedup']:.2f}x")
        if arms.get('old_eager'):
            o = float(np.median([r['epoch2_s'] for r in arms['old_eager']]))
            summary[algo].update(old_eager_epoch2_s=o, eager_vs_old=o / summary[algo]['eager_epoch2_s'])
            print(f"{algo}: the older checkout's eager epoch 2 {o:.1f} s: eager now {o / summary[algo]['eager_epoch2_s']:.2f}x it")
    import torch
    Path(a.out).write_text(json.dumps(dict(summary=summary, runs=res, steps_per_epoch=a.steps, repeats=a.repeats, old=a.old,
                                           torch=torch.__version__, cpu=platform.processor() or platform.machine(),
                                           date=time.strftime('%Y-%m-%d')), indent=1) + '\n')

if __name__ == '__main__': main()
