"""Does a finished HalfCheetah run of the study run on its back? Replays its deterministic policy and prints, per
episode, the return and the torso's mean pitch (`qpos[2]`, radians) over the episode's second half: near 0 upright,
near ±π upside down. The README's note on SB3's SAC seed 1 comes from

    python bench/mujoco/pitch.py bench/mujoco/data/offpolicy_sac_halfcheetah-v5_sb3/offpolicy_sac_halfcheetah-v5_sb3_s1
"""
import argparse, json, sys
from pathlib import Path
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import study  # noqa: E402

def pitch(d:Path, episodes:int=5, seed:int=1000):
    "(return, mean torso pitch over the second half) of `episodes` deterministic episodes, envs seeded from `seed`."
    from fastrl.experiments.settings import make_env_fn
    cfg = json.loads((d/'config.json').read_text())
    algo, _, lib = d.parent.name.split('_')[1:4]
    policy, env = study.run_policy(d, algo, lib, cfg), make_env_fn(study.cfg_env(cfg))()
    out = []
    for ep in range(episodes):
        o, _ = env.reset(seed=seed + ep)
        ret, pitches = 0.0, []
        for _ in range(cfg['max_ep_len']):
            o, r, term, trunc, _ = env.step(policy(o))
            ret += float(r); pitches.append(float(env.unwrapped.data.qpos[2]))
            if term or trunc: break
        out.append((ret, float(np.mean(pitches[len(pitches) // 2:]))))
    return out

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('runs', nargs='+', help='run folders of the study')
    ap.add_argument('--episodes', type=int, default=5)
    a = ap.parse_args()
    for d in map(Path, a.runs):
        for i, (ret, p) in enumerate(pitch(d, a.episodes)):
            print(f"{d.name} episode {i}: return {ret:7.0f}, torso pitch over the second half {p:+.2f} rad")
