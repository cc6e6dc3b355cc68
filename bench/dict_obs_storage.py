"""Dict observations in the replay: fastrl's packed byte rows (`fastrl.envs.packed`) against a tensordict `TensorDict`
per step, the alternative issue 35 asked us to measure.

A robot-like Dict observation (a 64x64x3 uint8 camera, 7 float32 joints, a Discrete(3) mode) from 8 lanes. Each
way, the same work: 5000 vector steps written into a 40k-row replay (from the lanes' observations as the vector
env gives them: packed rows for fastrl, a dict of batched arrays for tensordict), then 2000 batches of 256 rows
sampled and handed to a network as one float tensor per key. Median of 5 interleaved repeats, one torch thread.

    OMP_NUM_THREADS=1 .venv/bin/python bench/dict_obs_storage.py --out bench/results/dict_obs_storage.json
"""
import argparse, json, time
import numpy as np, torch, gymnasium as gym

from fastrl.envs.packed import PackedBox, pack, unpack

SPACE = gym.spaces.Dict(cam=gym.spaces.Box(0, 255, (64, 64, 3), np.uint8), joints=gym.spaces.Box(-1, 1, (7,), np.float32),
                        mode=gym.spaces.Discrete(3))
LANES, STEPS, CAP, BATCHES, BS = 8, 5000, 40_000, 2000, 256


def observations(n):
    "n vector steps of LANES lanes: dicts of batched arrays (as gymnasium's vector env gives them)."
    SPACE.seed(0)
    one = [SPACE.sample() for _ in range(64)]
    return [{k: np.stack([one[(i * LANES + j) % 64][k] for j in range(LANES)]) for k in SPACE.spaces} for i in range(n)]


def as_float(parts): return {k: v.float() for k, v in parts.items()}


def run_packed(obs):
    pb = PackedBox(SPACE)
    # the lanes pack their own observation (PackObservation, in each env): counted here
    t0 = time.perf_counter()
    buf, i = torch.zeros(CAP, pb.shape[0], dtype=torch.uint8), 0
    for o in obs:
        rows = np.stack([pack({k: o[k][j] for k in o}, pb) for j in range(LANES)])
        buf[i:i + LANES] = torch.as_tensor(rows); i = (i + LANES) % CAP
    write = time.perf_counter() - t0
    g = torch.Generator().manual_seed(0)
    t0 = time.perf_counter()
    for _ in range(BATCHES): x = as_float(unpack(buf[torch.randint(0, min(STEPS * LANES, CAP), (BS,), generator=g)], pb))
    return write, time.perf_counter() - t0, buf.numel() * buf.element_size() / CAP


def run_tensordict(obs):
    from tensordict import TensorDict
    t0 = time.perf_counter()
    first = TensorDict({k: torch.as_tensor(v) for k, v in obs[0].items()}, batch_size=[LANES])
    buf = TensorDict({k: torch.zeros(CAP, *v.shape[1:], dtype=v.dtype) for k, v in first.items()}, batch_size=[CAP])
    i = 0
    for o in obs:
        buf[i:i + LANES] = TensorDict({k: torch.as_tensor(v) for k, v in o.items()}, batch_size=[LANES]); i = (i + LANES) % CAP
    write = time.perf_counter() - t0
    g = torch.Generator().manual_seed(0)
    t0 = time.perf_counter()
    for _ in range(BATCHES): x = as_float(dict(buf[torch.randint(0, min(STEPS * LANES, CAP), (BS,), generator=g)].items()))
    return write, time.perf_counter() - t0, sum(v.numel() * v.element_size() for v in buf.values()) / CAP


if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--repeats', type=int, default=5); p.add_argument('--out')
    a = p.parse_args()
    torch.set_num_threads(1)
    obs = observations(STEPS)
    res = {'packed': [], 'tensordict': []}
    for _ in range(a.repeats):
        for name, f in (('packed', run_packed), ('tensordict', run_tensordict)): res[name].append(f(obs))
    med = {n: [float(np.median([r[k] for r in rs])) for k in range(3)] for n, rs in res.items()}
    rows = {n: dict(write_us_per_vector_step=m[0] / STEPS * 1e6, sample_us_per_batch=m[1] / BATCHES * 1e6, bytes_per_row=m[2])
            for n, m in med.items()}
    for n, r in rows.items(): print(f"{n:11s} write {r['write_us_per_vector_step']:7.1f} us/vector step   sample {r['sample_us_per_batch']:7.1f} us/batch   {r['bytes_per_row']:.0f} B/row")
    ratio = {k: rows['packed'][k] / rows['tensordict'][k] for k in rows['packed']}
    print('packed / tensordict:', {k: round(v, 3) for k, v in ratio.items()})
    if a.out:
        import tensordict
        json.dump(dict(rows=rows, packed_over_tensordict=ratio, tensordict=tensordict.__version__, torch=torch.__version__,
                       lanes=LANES, steps=STEPS, cap=CAP, batches=BATCHES, bs=BS), open(a.out, 'w'), indent=1)
