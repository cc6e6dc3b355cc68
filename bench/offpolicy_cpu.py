"""SAC data-parallel: `--cpu 2` against `--cpu 1` on Pendulum-v1 at equal env steps (all processes together).

For each seed, the same `sac` call runs in one process and in two (torchrun, gloo, one torch thread each).
Reported per run: wall time of the training call, the mean deterministic return over 10 episodes on a separately
seeded env (`common.evaluate`), and, for 2 processes, whether both ranks end with the same parameters to the bit.
Then a 2-process run of 3 epochs is compared with one stopped after 2 epochs and resumed to 3: `progress.txt`
(Time aside) and every rank's parameters must be identical.

With 2 processes each rank steps half the env transitions and takes one update per local transition on an
averaged gradient, so there are half as many updates, each on 2 x batch_size rows (see `fastrl.algos.offpolicy`).

    .venv/bin/python bench/offpolicy_cpu.py                  # seeds 0 1 2, 10k steps
    .venv/bin/python bench/offpolicy_cpu.py --seeds 0 --steps 2000
    .venv/bin/python bench/offpolicy_cpu.py --seeds 0 1 --steps 6000 --hid 256 256 --no_resume --name offpolicy_cpu_256
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path
import numpy as np, torch
sys.path.insert(0, str(Path(__file__).parent))
from common import RESULTS_DIR, evaluate, eval_seed, torch_policy

ENV = 'Pendulum-v1'
KW = dict(ac_kwargs=dict(hidden_sizes=(64, 64)), start_steps=2000, update_after=1000, max_ep_len=200, num_test_episodes=0)

def worker(a):
    "One process of a run (torchrun starts two): train, write this rank's parameters, rank 0 also times and scores."
    from fastrl.algos import sac
    from fastrl.experiments.core import resume
    from fastrl.agents.onpolicy import flat_params_of
    torch.set_num_threads(1)
    rank, out = int(os.environ.get('RANK', '0')), Path(a.out)
    t = time.perf_counter()
    if a.resume: exp = resume(a.out, show=False, epochs=a.epochs)
    else:
        exp = sac(ENV, seed=a.seed, steps_per_epoch=a.steps // a.epochs, epochs=a.epochs,
                  logger_kwargs=dict(output_dir=a.out, show=False), **(KW | dict(ac_kwargs=dict(hidden_sizes=a.hid))))
    secs = time.perf_counter() - t
    torch.save(flat_params_of(exp.models['ac']), out/f'params{rank}.pt')
    if rank == 0 and not a.resume:
        (out/'result.json').write_text(json.dumps(dict(train_s=secs, mean_return=evaluate(
            torch_policy(exp.models['ac'].pi), ENV, eval_seed(a.seed)))))

def launch(procs, out, seed, steps, epochs, hid, resume=False):
    cmd = [sys.executable, __file__, '--worker', '--out', str(out), '--seed', str(seed), '--steps', str(steps),
           '--epochs', str(epochs), '--hid', *map(str, hid)] + (['--resume'] if resume else [])
    if procs > 1: cmd = [sys.executable, '-m', 'torch.distributed.run', '--standalone', f'--nproc_per_node={procs}'] + cmd[1:]
    r = subprocess.run(cmd, capture_output=True, text=True, env=dict(os.environ, OMP_NUM_THREADS='1'))
    if r.returncode: sys.exit(f'run failed ({" ".join(cmd)}):\n{r.stdout[-2000:]}\n{r.stderr[-3000:]}')

def same_params(out, procs): return all(torch.equal(torch.load(out/'params0.pt'), torch.load(out/f'params{r}.pt'))
                                        for r in range(procs))

def check_resume(a, tmp)->dict:
    "Exact resume of a 2-process run: 3 epochs against 2 epochs + resume to 3."
    rs, ep = a.steps // a.epochs * 3, 3
    full, part = tmp/'resume_full', tmp/'resume_part'
    launch(2, full, 0, rs, ep, a.hid); launch(2, part, 0, rs * 2 // 3, 2, a.hid)
    launch(2, part, 0, rs, ep, a.hid, resume=True)
    import pandas as pd
    prog = [pd.read_table(d/'progress.txt').drop(columns='Time') for d in (full, part)]
    resumed = dict(progress_identical=bool(prog[0].equals(prog[1])),
                   params_identical=all(torch.equal(torch.load(full/f'params{r}.pt'), torch.load(part/f'params{r}.pt'))
                                        for r in (0, 1)))
    print(f'2-process resume after 2 of 3 epochs: {resumed}')
    return resumed

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--seeds', type=int, nargs='+', default=[0, 1, 2])
    p.add_argument('--steps', type=int, default=10_000)
    p.add_argument('--epochs', type=int, default=5)
    p.add_argument('--worker', action='store_true'); p.add_argument('--resume', action='store_true')
    p.add_argument('--hid', type=int, nargs='+', default=[64, 64], help='hidden sizes of the actor and critics')
    p.add_argument('--no_resume', action='store_true', help='skip the 2-process resume check')
    p.add_argument('--name', default='offpolicy_cpu', help='results/NAME.json')
    p.add_argument('--out'); p.add_argument('--seed', type=int)
    a = p.parse_args()
    if a.worker: return worker(a)
    tmp, rows = Path(tempfile.mkdtemp()), []
    for seed in a.seeds:
        for procs in (1, 2):   # interleaved: machine drift hits both alike
            out = tmp/f'sac_cpu{procs}_s{seed}'
            launch(procs, out, seed, a.steps, a.epochs, a.hid)
            r = json.loads((out/'result.json').read_text()) | dict(procs=procs, seed=seed, steps=a.steps,
                                                                   ranks_identical=same_params(out, procs))
            rows.append(r)
            print(f"sac --cpu {procs} seed {seed}: {r['train_s']:.1f} s, return {r['mean_return']:.1f}, "
                  f"ranks identical: {r['ranks_identical']}", flush=True)
    resumed = None if a.no_resume else check_resume(a, tmp)
    summary = {}
    print('\n| processes | seeds | train s: mean | ratio to 1 | return: mean (min, max) | ranks identical |\n|---:|---:|---:|---:|---|---|')
    for procs in (1, 2):
        rr = [r for r in rows if r['procs'] == procs]
        t, ret = float(np.mean([r['train_s'] for r in rr])), [r['mean_return'] for r in rr]
        summary[procs] = dict(train_s=t, mean_return=float(np.mean(ret)), returns=ret)
        print(f"| {procs} | {len(rr)} | {t:.1f} | {t / summary[1]['train_s']:.2f} | {np.mean(ret):.1f} "
              f"({min(ret):.1f}, {max(ret):.1f}) | {all(r['ranks_identical'] for r in rr)} |")
    f = RESULTS_DIR/f'{a.name}.json'
    f.write_text(json.dumps(dict(config=vars(a), env=ENV, kwargs=KW, torch=torch.__version__, runs=rows,
                                 summary=summary, resume=resumed), indent=2) + '\n')
    print(f'wrote {f}')

if __name__ == '__main__': main()
