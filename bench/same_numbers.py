"""Fixed-seed runs of ppo, trpo, td3, sac and dqn (and any other algorithm named), a few epochs each: the
`progress.txt` of each, Time aside, and its sha256. A refactor that must not change behaviour is checked by
running this before (`--save before.json`) and after (`--compare before.json`) on the same machine.

    .venv/bin/python bench/same_numbers.py --save bench/results/same_numbers_before.json   # ~1 min on 2 cores
    .venv/bin/python bench/same_numbers.py --compare bench/results/same_numbers_before.json
"""
import argparse, hashlib, json, os, subprocess, sys, tempfile, time
from pathlib import Path

OFF = ['--env', 'Pendulum-v1', '--epochs', '3', '--steps_per_epoch', '400', '--start_steps', '200',
       '--update_after', '200', '--update_every', '50', '--num_test_episodes', '2', '--max_ep_len', '200',
       '--hid', '[32,32]']
RUNS = {
    'ppo':  ['--env', 'CartPole-v1', '--epochs', '3', '--steps_per_epoch', '1000', '--hid', '[32,32]'],
    'trpo': ['--env', 'CartPole-v1', '--epochs', '3', '--steps_per_epoch', '1000', '--hid', '[32,32]'],
    'vpg':  ['--env', 'CartPole-v1', '--epochs', '3', '--steps_per_epoch', '1000', '--hid', '[32,32]'],
    'td3':  OFF, 'sac': OFF, 'ddpg': OFF,
    'dqn':  ['--env', 'CartPole-v1', '--epochs', '3', '--steps_per_epoch', '1000', '--hid', '[32,32]',
             '--num_test_episodes', '2'],
}
DQN = RUNS['dqn'] + ['--train_freq', '50', '--gradient_steps', '10', '--learning_starts', '200',
                     '--target_update_interval', '7']
# variants (name: the algorithm and its flags): every update kind the learners compose
VARIANTS = {
    'crossq': ('crossq', OFF[:-2] + ['--hid', '[32,32]', '--ac_kwargs:critic_hidden_sizes', '[64,64]']),
    'dqn_double_nstep': ('dqn', DQN + ['--double', 'True', '--nsteps', '3']),
    'dqn_dueling': ('dqn', DQN + ['--dueling', 'True']),
    'dqn_c51': ('dqn', DQN + ['--categorical', 'True']),
    'ppo_joint': ('ppo', RUNS['ppo'] + ['--joint', 'True', '--mb_size', '250', '--train_pi_iters', '4',
                                        '--train_v_iters', '4', '--target_kl', 'None', '--ent_coef', '0.01',
                                        '--adv_norm', 'minibatch', '--max_grad_norm', '0.5']),
    'ppo_lstm': ('ppo', ['--env', 'CartPole-v1', '--epochs', '2', '--steps_per_epoch', '512', '--hid', '[32,32]',
                         '--rnn', 'lstm', '--seq_len', '16', '--mb_size', '128', '--train_pi_iters', '4',
                         '--train_v_iters', '4']),

}
RUNS.update({k: v[1] for k, v in VARIANTS.items()})

def without_time(text:str)->str:
    "`progress.txt` with its Time column removed."
    rows = [l.split('\t') for l in text.splitlines()]
    i = rows[0].index('Time') if 'Time' in rows[0] else None
    return '\n'.join('\t'.join(c for j, c in enumerate(r) if j != i) for r in rows) + '\n'

def run(algo:str, data:Path)->dict:
    t = time.time()
    cmd = [sys.executable, '-m', 'fastrl.run', VARIANTS.get(algo, (algo,))[0], *RUNS[algo], '--seed', '0', '--exp_name', algo,
           '--data_dir', str(data), '--quiet']
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode: raise SystemExit(f"{algo} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    text = without_time((data/algo/f'{algo}_s0'/'progress.txt').read_text())
    return dict(sha256=hashlib.sha256(text.encode()).hexdigest(), progress=text, seconds=round(time.time() - t, 1))

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--algos', nargs='+', default=list(RUNS), choices=list(RUNS),
                   help='algorithms and variants (default: all of them)')
    p.add_argument('--save', help='write the results to this JSON file')
    p.add_argument('--compare', help='compare with the results in this JSON file (exit 1 on any difference)')
    a = p.parse_args()
    with tempfile.TemporaryDirectory() as d:
        res = {algo: run(algo, Path(d)) for algo in a.algos}
    for algo, r in res.items(): print(f"{algo:5} {r['sha256'][:16]}  ({r['seconds']} s)")
    if a.save: Path(a.save).write_text(json.dumps(res, indent=1) + '\n')
    if a.compare:
        old = json.loads(Path(a.compare).read_text())
        diff = [k for k in res if k in old and old[k]['sha256'] != res[k]['sha256']]
        for k in res: print(f"{k:5} {'DIFFERENT' if k in diff else 'identical' if k in old else 'not in ' + a.compare}")
        if diff: sys.exit(1)

if __name__ == '__main__': main()
