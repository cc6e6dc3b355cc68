"""Replay rows with every step field against the learned fields alone (`learned_fields`): bytes per row over the raw
transition (state, action, next state, reward, flag), and microseconds per `add` of one lane and per `sample(100)`
from a 100k-row buffer. `.venv/bin/python bench/replay_fields.py` (~30 s)."""
import time, torch
from fastrl.core import SimpleStep
from fastrl.memory.experience_replay import ReplayStorage, learned_fields

def env_step(obs, act, lanes=1):
    r = lambda *s, dt=torch.float32: torch.randn(lanes, *s).to(dt)
    return SimpleStep(state=r(obs), action=r(act), next_state=r(obs), reward=r(), terminated=r(dt=torch.bool),
                      truncated=r(dt=torch.bool), total_reward=r(), env_id=r(dt=torch.long), proc_id=r(dt=torch.long),
                      step_n=r(dt=torch.long), episode_n=r(dt=torch.long), n_steps=torch.ones(lanes, dtype=torch.long))

for task, (o, a) in {'Pendulum': (3, 1), 'Hopper': (11, 3), 'HalfCheetah': (17, 6)}.items():
    raw, res = (2 * o + a + 1) * 4 + 1, {}
    for name, f in (('every field', None), ('learned', learned_fields(1))):
        st, step = ReplayStorage(100_000, fields=f), env_step(o, a)
        t = time.perf_counter()
        for _ in range(20000): st.add(step)
        add = (time.perf_counter() - t) / 20000 * 1e6
        g = torch.Generator().manual_seed(0); t = time.perf_counter()
        for _ in range(5000): st.sample(100, generator=g)
        res[name] = (sum(b[0].numel() * b.element_size() for b in st.buf.values()) / raw, add,
                     (time.perf_counter() - t) / 5000 * 1e6)
    print(f"{task:12}" + '  '.join(f"{k}: {r[0]:.3f}x raw, add {r[1]:.1f} us, sample {r[2]:.1f} us" for k, r in res.items()))
