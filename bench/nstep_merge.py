"""n-step merging: FirstLastMerger through NSkippers to its NStepper (merged from the ring) against the same chain
with a foreign pipe between (windows built, then merge_window): microseconds per env step, and whether the transitions
are bit-identical. `.venv/bin/python bench/nstep_merge.py` (~1 min)."""
import time, torch
from fastrl.envs.gym import NStepper, FirstLastMerger, NSkipper, GymStepper
from fastrl.pipes.core import ListSource, Pipe
class Pass(Pipe):
    def __init__(self, s): self.source_datapipe = s
    def __iter__(self): yield from self.source_datapipe
for lanes in (1, 8):
    steps = list(GymStepper(ListSource(['Pendulum-v1' if lanes == 1 else 'CartPole-v1']), seed=0, num_envs=lanes, n=3000))
    for n, k in ((2, 2), (3, 2), (3, 3)):
        res = {}
        for name, mk in (('ring', lambda: FirstLastMerger(NSkipper(NStepper(ListSource(steps), n), k), 0.99)),
                         ('windows', lambda: FirstLastMerger(Pass(NSkipper(NStepper(ListSource(steps), n), k)), 0.99))):
            best = 1e9
            for _ in range(3):
                t = time.perf_counter(); out = list(mk()); best = min(best, time.perf_counter() - t)
            res[name] = (best / len(steps) * 1e6, out)
        a, b = res['ring'][1], res['windows'][1]
        same = len(a) == len(b) and all(all((x is None and y is None) or torch.equal(x, y) for x, y in zip(u, v)) for u, v in zip(a, b))
        print(f"lanes {lanes} nsteps {n} nskips {k}: ring {res['ring'][0]:.1f} us/step, windows {res['windows'][0]:.1f} us/step, identical: {same} ({len(a)} batches)")
