"""`fastrl tune` demonstrated on PPO CartPole-v1: 20 trials, each 3 seeds of 10 epochs x 2000 steps scored by their
mean final test return (TPE sampler, median pruner, PPO's default search space; trial 0 is PPO's defaults), killed
with SIGKILL during trial 6 and resumed by running the same command again. Copies the study's best.json and history.png, and a table of every trial, to
bench/results/tune_ppo_cartpole/.

    .venv/bin/python bench/tune_demo.py [--data_dir /tmp/tune_demo]
"""
import argparse, json, shutil, signal, subprocess, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT/'bench'/'results'/'tune_ppo_cartpole'

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--data_dir', default='/tmp/tune_demo'); ap.add_argument('--kill_at', type=int, default=6)
    a = ap.parse_args()
    cmd = [sys.executable, '-m', 'fastrl.run', 'tune', 'ppo', '--env', 'CartPole-v1', '--epochs', '10',
           '--steps_per_epoch', '2000', '--seed', '0', '1', '2', '--trials', '20', '--data_dir', a.data_dir,
           '--exp_name', 'ppo_cartpole']
    study = Path(a.data_dir)/'ppo_cartpole'
    if study.exists(): shutil.rmtree(study)
    t0 = time.time()
    p = subprocess.Popen(cmd)
    while not (study/f'trial_{a.kill_at}'/'seed_0'/'progress.txt').exists() and p.poll() is None: time.sleep(0.5)
    p.send_signal(signal.SIGKILL); p.wait()
    t_kill = time.time() - t0
    print(f'--- killed (SIGKILL) during trial {a.kill_at} after {t_kill:.0f} s; the same command again:', flush=True)
    r = subprocess.run(cmd)
    t_all = time.time() - t0
    sys.path.insert(0, str(ROOT))
    import optuna; optuna.logging.set_verbosity(optuna.logging.WARNING)
    from fastrl.tune import parse_tune, study_of
    st = study_of(parse_tune(cmd[4:]))
    rows = [dict(number=t.number, state=t.state.name, value=t.value, defaults=bool(t.user_attrs.get('defaults')),
                 **t.params) for t in st.trials]
    OUT.mkdir(parents=True, exist_ok=True)
    shutil.copy2(study/'best.json', OUT/'best.json'); shutil.copy2(study/'history.png', OUT/'history.png')
    import pandas as pd
    pd.DataFrame(rows).to_csv(OUT/'trials.csv', index=False)
    best = json.loads((study/'best.json').read_text())
    (OUT/'summary.json').write_text(json.dumps(dict(command=' '.join(cmd[3:]), exit=r.returncode, killed_after_s=t_kill,
                                                    wall_s=t_all, best_value=best['best_value'],
                                                    defaults_value=best['defaults_value'], trials=best['trials']), indent=1))
    print(f"best {best['best_value']} vs defaults {best['defaults_value']}; {best['trials']}; {t_all:.0f} s in all")
