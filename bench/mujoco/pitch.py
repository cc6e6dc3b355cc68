"""Does a finished HalfCheetah run of the study run on its back? Replays its final test episodes (the seeding of
`study.final_test`, so the returns are those of its score) and prints, per episode, the return and the torso's mean
pitch (radians) over the episode's second half: near 0 upright, near ±π upside down. The README's note on SB3's
SAC seed 1 comes from

    python bench/mujoco/pitch.py bench/mujoco/data/offpolicy_sac_halfcheetah-v5_sb3/offpolicy_sac_halfcheetah-v5_sb3_s1
"""
import argparse, json, sys
from pathlib import Path
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import study  # noqa: E402

def pitch(d:Path, episodes:int=10):
    ("(return, mean torso pitch over the second half) of the run's final test episodes, replayed (`final_test`'s "
     "seeding); HalfCheetah's observation starts with the torso's height and pitch.")
    from fastrl.experiments.settings import make_env_fn
    cfg = json.loads((d/'config.json').read_text())
    algo, lib = study.algo_lib(d)
    policy, seen = study.run_policy(d, algo, lib, cfg), []
    rets, lens = study.entries.test_episodes(lambda o: (seen.append(float(o[1])), policy(o))[1],
                                             make_env_fn(study.cfg_env(cfg)), episodes, study.final_test_seed(cfg),
                                             cfg['max_ep_len'])
    ends = np.cumsum(lens)
    return [(r, float(np.mean(seen[e - n + n // 2:e]))) for r, n, e in zip(rets, lens, ends)]

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('runs', nargs='+', help='run folders of the study')
    ap.add_argument('--episodes', type=int, default=10)
    a = ap.parse_args()
    for d in map(Path, a.runs):
        for i, (ret, p) in enumerate(pitch(d, a.episodes)):
            print(f"{d.name} episode {i}: return {ret:7.0f}, torso pitch over the second half {p:+.2f} rad")
