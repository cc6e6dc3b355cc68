"""What image replay and replay checkpoints cost (issue 34), measured in this process.

python bench/image_replay.py --out bench/results/image_replay.json [--rows 1000000]

- atari: a 1M-transition Atari replay (4x84x84 uint8 stacks, one lane, 1000-step episodes) in `FrameStorage`,
  as RSS growth against the bytes of its 1M 84x84 frames (7.06 GB); the plain `ReplayStorage` cost is computed.
- checkpoint: a 1M-row HalfCheetah replay (17-dim obs, 6-dim action) saved the old way (the whole replay copied
  into checkpoint.pt) and the new way (a chunk of the rows added since the last save), per save: seconds, bytes
  written and peak RSS over the run's RSS; and the bytes a 1M-step run (a save every 4000 steps) writes in all.
"""
import argparse, json, os, resource, tempfile, time
from pathlib import Path
import torch
from fastrl.core import SimpleStep
from fastrl.memory.experience_replay import ReplayStorage, learned_fields
from fastrl.memory.frames import FrameStorage
from fastrl.experiments.checkpoint import _storage_state, save_checkpoint
from fastrl.experiments.replay_files import replay_files

def rss()->int: return int(open('/proc/self/statm').read().split()[1]) * os.sysconf('SC_PAGE_SIZE')
def reset_peak(): open('/proc/self/clear_refs', 'w').write('5')
def peak()->int:
    for l in open('/proc/self/status'):
        if l.startswith('VmHWM'): return int(l.split()[1]) * 1024

def atari(rows:int)->dict:
    frame, k, ep = 84 * 84, 4, 1000
    before = rss()
    st = FrameStorage(rows)
    g = torch.Generator().manual_seed(0)
    pool = torch.randint(0, 256, (64, 84, 84), dtype=torch.uint8, generator=g)   # frames drawn from a pool: no RNG cost
    stack, t0, n = None, time.time(), 0
    while n < rows:
        for t in range(min(ep, rows - n)):
            if t == 0: stack = [pool[n % 64]] * k
            new = stack[1:] + [pool[(n * 7 + t) % 64]]
            st.add(SimpleStep(state=torch.stack(stack)[None], next_state=torch.stack(new)[None],
                              action=torch.zeros(1, dtype=torch.long), reward=torch.zeros(1),
                              terminated=torch.tensor([t == ep - 1]), env_id=torch.zeros(1, dtype=torch.long)))
            stack = new; n += 1
    secs = time.time() - t0
    grown, frames_bytes = rss() - before, rows * frame
    s = st.sample(32)   # it samples
    assert s.state.shape == (32, 4, 84, 84)
    return dict(rows=rows, frames_written=st.seq, frame_ring=st.fcap, rss_growth_gb=grown / 1e9,
                frames_gb=frames_bytes / 1e9, ratio=grown / frames_bytes, plain_storage_gb=rows * 2 * k * frame / 1e9,
                add_us_per_row=secs / rows * 1e6)

def checkpoint(rows:int, per_save:int=4000, saves:int=5)->dict:
    obs, act = 17, 6
    st = ReplayStorage(rows, fields=learned_fields(1))
    def fill(n):
        for i in range(0, n, per_save):
            b = min(per_save, n - i)
            st.add(SimpleStep(state=torch.randn(b, obs), next_state=torch.randn(b, obs), action=torch.randn(b, act),
                              reward=torch.randn(b), terminated=torch.zeros(b, dtype=torch.bool)))
    fill(rows)
    out, d = {}, Path(tempfile.mkdtemp(dir=os.environ.get('BENCH_TMP')))
    for how in ('whole', 'chunks'):
        secs, written, peaks = [], [], []
        for i in range(saves):
            fill(per_save)
            base, du0 = rss(), sum(f.stat().st_size for f in d.rglob('*') if f.is_file())
            reset_peak(); t0 = time.time()
            if how == 'whole':
                save_checkpoint({'replay': _storage_state(st)}, d/'whole.pt')
                w = (d/'whole.pt').stat().st_size
            else:
                with replay_files(d) as rf:
                    sd = _storage_state(st); save_checkpoint({'replay': sd}, d/'chunks.pt'); rf.commit()
                w = sum(f.stat().st_size for f in (d/'replay').rglob('*') if f.is_file() and
                        f.parent.name == sd['chunks']['rows']['chunks'][-1]['name']) + (d/'chunks.pt').stat().st_size
            secs.append(time.time() - t0); peaks.append((peak() - base) / base); written.append(w)
        out[how] = dict(save_s=sorted(secs)[len(secs) // 2], bytes_per_save=written[-1],
                        peak_over_run_rss=max(peaks), first_save_bytes=written[0])
    row = sum(b[0].numel() * b.element_size() for b in st.buf.values())
    steps = 1_000_000
    # the old way writes the filled replay at every save; the new one each row once (bases: none within 2x the replay)
    out['run_1M_steps_gb'] = dict(whole=sum(min(t, rows) * row for t in range(per_save, steps + 1, per_save)) / 1e9,
                                  chunks=steps * row / 1e9)
    out['replay_gb'] = rows * row / 1e9
    return out

if __name__ == '__main__':
    p = argparse.ArgumentParser(); p.add_argument('--out'); p.add_argument('--rows', type=int, default=1_000_000)
    p.add_argument('--parts', default='checkpoint,atari')
    a = p.parse_args()
    torch.set_num_threads(1)
    res = {}
    for part in a.parts.split(','):
        res[part] = (atari if part == 'atari' else checkpoint)(a.rows); print(part, json.dumps(res[part], indent=1), flush=True)
    if a.out: Path(a.out).write_text(json.dumps(res, indent=1))
