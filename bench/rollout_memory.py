"""Memory of an on-policy rollout (issue 18): RSS growth while PPO's CartPole env pipe, as `ppo` builds it, fills the
learner's `AdvantageBuffer` with one epoch, measured when the epoch's `Rollout` comes out (the moment the most of an
epoch is held), at 1k and 32k steps per epoch, each in a fresh process. Bytes per step = the growth between the
two sizes / 31k: what one more step of an epoch costs.

    python bench/rollout_memory.py            # prints MB held at each size and bytes per step
"""
import subprocess, sys, tempfile

CHILD = r'''
import gc, os, sys, tempfile
from fastrl.experiments.core import Experiment
from fastrl.algos.onpolicy import onpolicy_setup
from fastrl.agents.policies import MLPActorCritic
from fastrl.memory.advantage_buffer import AdvantageBuffer, is_rollout
def rss(): return int(open('/proc/self/statm').read().split()[1]) * os.sysconf('SC_PAGE_SIZE')
n = int(sys.argv[1])
exp = Experiment(dict(seed=0), output_dir=tempfile.mkdtemp(), show=False)
ac, agent, dls = onpolicy_setup(exp, 'CartPole-v1', MLPActorCritic, {}, n, 500, 1, 'ppo')
it = iter(AdvantageBuffer(dls[0], ac, steps_per_epoch=n)); gc.collect(); r0 = rss()
item = next(o for o in it if is_rollout(o))
gc.collect(); print(type(item).__name__, rss() - r0)
'''

def held(n:int)->tuple:
    out = subprocess.run([sys.executable, '-c', CHILD, str(n)], capture_output=True, text=True, check=True,
                         cwd=tempfile.mkdtemp()).stdout.split()
    return out[-2], int(out[-1])

if __name__ == '__main__':
    (kind, a), (_, b) = held(1000), held(32000)
    print(f"epoch item: {kind}; held 1k steps: {a / 2**20:.1f} MB, 32k steps: {b / 2**20:.1f} MB; "
          f"{(b - a) / 31000:.0f} bytes per step")
