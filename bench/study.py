"""Studies (issue 17): a 10-run PPO CartPole study (5 seeds x 2 variants: PPO's clipped loss and the `vpg_loss`
ablation) run in series and with `--workers 2`, its files compared and the wall times given as a ratio; the same
study on a local Ray instance; an ablation study of DDPG's exploration (Gaussian, OU, none; 5 seeds each); and the
study report of each. Everything goes through the command line, as a user would run it.

    python bench/study.py [--epochs 5] [--steps 4000] [--repeat 1] [--ratio_only] [--out bench/results/study]
"""
import argparse, json, shutil, subprocess, sys, tempfile, time
from pathlib import Path

def cli(*args, data_dir):
    "Run `python -m fastrl.run *args --data_dir data_dir --quiet`; its wall time in seconds."
    t = time.time()
    subprocess.run([sys.executable, '-m', 'fastrl.run', *args, '--data_dir', str(data_dir), '--quiet'], check=True,
                   stdout=subprocess.DEVNULL)
    return time.time() - t

def tables(root:Path)->dict:
    "Each run's progress.txt under `root` without its Time column, by run folder name."
    out = {}
    for p in sorted(root.rglob('progress.txt')):
        rows = [l.rstrip('\n').split('\t') for l in open(p)]
        i = rows[0].index('Time')
        out[p.parent.name] = [r[:i] + r[i+1:] for r in rows]
    return out

def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--epochs', type=int, default=5)
    ap.add_argument('--steps', type=int, default=4000, help='PPO steps per epoch')
    ap.add_argument('--out', default=str(Path(__file__).parent/'results'/'study'))
    ap.add_argument('--repeat', type=int, default=1, help='serial/parallel pairs (alternating order)')
    ap.add_argument('--ratio_only', action='store_true', help='only the serial/parallel pairs (study_ratio.json)')
    a = ap.parse_args()
    out = Path(a.out); out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp())
    ppo = ['ppo', '--env', 'CartPole-v1', '--seed', '0', '1', '2', '3', '4', '--aug', 'None', 'vpg_loss',
           '--epochs', str(a.epochs), '--steps_per_epoch', str(a.steps), '--exp_name', 'ppo_study']
    res = dict(command=' '.join(ppo), pairs=[])
    for k in range(a.repeat):   # serial and parallel alternate (ABBA) so that machine drift hits both alike
        t = {}
        for mode in (('serial', 'workers2') if k % 2 == 0 else ('workers2', 'serial')):
            shutil.rmtree(tmp/mode, ignore_errors=True)
            t[mode] = cli(*ppo, *(['--workers', '2'] if mode == 'workers2' else []), data_dir=tmp/mode)
        res['pairs'].append(dict(serial_s=t['serial'], workers2_s=t['workers2'], ratio=t['workers2'] / t['serial']))
        print(res['pairs'][-1], flush=True)
    res['serial_s'] = sum(p['serial_s'] for p in res['pairs'])
    res['workers2_s'] = sum(p['workers2_s'] for p in res['pairs'])
    res['ratio_workers2_over_serial'] = res['workers2_s'] / res['serial_s']
    s, w = tables(tmp/'serial'), tables(tmp/'workers2')
    res['runs'] = len(s)
    res['identical_progress_files'] = sum(s[k] == w.get(k) for k in s)
    if a.ratio_only:
        print(json.dumps(res, indent=1)); (out/'study_ratio.json').write_text(json.dumps(res, indent=1) + '\n'); return
    try:
        import ray  # noqa: F401
        res['ray_s'] = cli(*ppo, '--ray', data_dir=tmp/'ray')
        res['ray_identical_progress_files'] = sum(s[k] == v for k, v in tables(tmp/'ray').items() if k in s)
    except ImportError: res['ray_s'] = None
    subprocess.run([sys.executable, '-m', 'fastrl.run', 'report', str(tmp/'workers2'/'ppo_study_aug'), '--by', 'aug',
                    '--out', str(out/'ppo_report')], check=True)
    ddpg = ['ddpg', '--env', 'Pendulum-v1', '--seed', '0', '1', '2', '3', '4', '--aug', 'None', 'explore_ou',
            'explore_none', '--epochs', '5', '--steps_per_epoch', '2000', '--start_steps', '1000', '--update_after', '1000',
            '--max_ep_len', '200', '--num_test_episodes', '5', '--exp_name', 'ddpg_explore', '--workers', '2']
    res['ddpg_command'] = ' '.join(ddpg)
    res['ddpg_study_s'] = cli(*ddpg, data_dir=tmp/'ddpg')
    subprocess.run([sys.executable, '-m', 'fastrl.run', 'report', str(tmp/'ddpg'/'ddpg_explore_aug'), '--by', 'aug',
                    '--out', str(out/'ddpg_explore_report')], check=True)
    print(json.dumps(res, indent=1))
    (out/'study.json').write_text(json.dumps(res, indent=1) + '\n')
    shutil.rmtree(tmp)

if __name__ == '__main__': main()
