"""CPU seconds per update (forward, backward, fused Adam step) of a small MLP with fastrl's direct call of torch's fused
Adam kernel (`optimizer_step`) against `opt.step()`: the measurement that keeps the private path (issue 33).

    .venv/bin/python bench/adam_step.py    # ~30 s
"""
import torch, time, statistics
from torch import nn
from fastrl.learner.core import make_optimizer, optimizer_step, zero_grad
torch.set_num_threads(1)
def block(direct, n, hidden):
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(4, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(), nn.Linear(hidden, 1))
    opt = make_optimizer(m.parameters(), 1e-3); x = torch.randn(256, 4)
    for _ in range(50): zero_grad(opt); m(x).pow(2).mean().backward(); optimizer_step(opt) if direct else opt.step()
    c = time.process_time()
    for _ in range(n): zero_grad(opt); m(x).pow(2).mean().backward(); optimizer_step(opt) if direct else opt.step()
    return (time.process_time() - c) / n * 1e6
for hidden in (64, 256):
    d, s = [], []
    for _ in range(6): d.append(block(True, 400, hidden)); s.append(block(False, 400, hidden))
    print(f"hidden {hidden}: direct {statistics.median(d):.0f} us, opt.step {statistics.median(s):.0f} us per update (CPU time, median of 6 blocks); opt.step/direct {statistics.median(s)/statistics.median(d):.3f}")
