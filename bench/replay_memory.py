"""Resident memory of a 1M-transition replay over a run: Pendulum-v1 with random actions on 8 lanes fills
`ExperienceReplay(max_sz=1_000_000)` (a batch of 256 sampled every vector step, as training would) for 1.5M env
transitions, and the process's RSS is read every 100k transitions.

What to expect: the buffer is allocated once, at the first step, from lazily zeroed pages (`ring_zeros`), so the
allocation itself adds almost nothing; RSS grows by the bytes of the rows written while the ring fills (1M rows x
bytes per row) and then stays flat after the ring wraps at 1M: nothing is kept per transition outside it.

    .venv/bin/python bench/replay_memory.py
"""
import json, sys, time
from pathlib import Path
import torch
sys.path.insert(0, str(Path(__file__).parent))
from common import RESULTS_DIR
from fastrl.envs.gym import GymStepper
from fastrl.memory.experience_replay import ExperienceReplay
from fastrl.pipes.core import ListSource

def rss_mb()->float:
    for line in open('/proc/self/status'):
        if line.startswith('VmRSS:'): return int(line.split()[1]) / 1024
    return float('nan')

def main(total=1_500_000, lanes=8, every=100_000):
    torch.set_num_threads(1)
    er = ExperienceReplay(GymStepper(ListSource(['Pendulum-v1']), None, seed=0, num_envs=lanes), bs=256,
                          max_sz=1_000_000)
    rows, it, t0, start = [], iter(er), time.perf_counter(), rss_mb()
    st = er.source_datapipe
    rows.append(dict(transitions=0, rss_mb=start))
    print(f'{0:>9} transitions: RSS {start:7.1f} MB')
    next(it)   # the first vector step allocates the ring
    rows.append(dict(transitions=st.env_steps, stored=len(er.memory), rss_mb=rss_mb()))
    print(f"{st.env_steps:>9} transitions: RSS {rows[-1]['rss_mb']:7.1f} MB (the ring allocated)", flush=True)
    while st.env_steps < total:
        next(it)
        if st.env_steps % every == 0:
            rows.append(dict(transitions=st.env_steps, stored=len(er.memory), rss_mb=rss_mb()))
            print(f"{st.env_steps:>9} transitions: RSS {rows[-1]['rss_mb']:7.1f} MB, stored {len(er.memory)}", flush=True)
    buf = sum(b.numel() * b.element_size() for b in er.memory.buf.values())
    at = {r['transitions']: r['rss_mb'] for r in rows}
    summary = dict(buffer_mb=buf / 2**20, bytes_per_row=buf / er.memory.max_sz,
                   growth_at_allocation_mb=rows[1]['rss_mb'] - at[0], growth_while_filling_mb=at[1_000_000] - at[0],
                   growth_after_full_mb=at[total] - at[1_000_000],
                   seconds=time.perf_counter() - t0)
    print(json.dumps(summary, indent=1))
    RESULTS_DIR.mkdir(exist_ok=True)
    (RESULTS_DIR/'replay_memory.json').write_text(json.dumps(dict(rows=rows, summary=summary), indent=2) + '\n')

if __name__ == '__main__': main()
