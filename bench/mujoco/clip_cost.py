"""What clipping a MuJoCo action to its bounds changes (issue 38): the same alternating action of size 1 and of size 3
from the same seeded state, 50 steps or until the episode ends. MuJoCo clamps the control to the actuators' range
(`ctrllimited`), so the states are the same; the -v5 envs charge the control cost on the action as given, so only the
reward differs: an unclipped score can only be lower than the clipped one.

    python bench/mujoco/clip_cost.py      # writes bench/results/mujoco/clip_cost.json
"""
import json
from pathlib import Path
import numpy as np, gymnasium as gym

def play(name:str, size:float, steps:int=50)->tuple:
    "(last observation, return, steps) of the alternating action of `size` on env `name` seeded 0."
    env = gym.make(name); o, _ = env.reset(seed=0); ret, n = 0., 0
    for t in range(steps):
        o, r, term, trunc, _ = env.step(np.full(env.action_space.shape, size * (1 if t % 2 else -1), np.float32))
        ret, n = ret + float(r), n + 1
        if term or trunc: break
    env.close()
    return o, ret, n

if __name__ == '__main__':
    out = {}
    for name in ('HalfCheetah-v5', 'Hopper-v5', 'Walker2d-v5'):
        (o1, r1, n1), (o3, r3, n3) = play(name, 1.), play(name, 3.)
        out[name] = dict(same_states=bool(np.array_equal(o1, o3) and n1 == n3), steps=n1,
                         return_at_bound=r1, return_at_3x_unclipped=r3)
        print(name, out[name])
    p = Path(__file__).resolve().parents[1]/'results'/'mujoco'/'clip_cost.json'
    p.write_text(json.dumps(out, indent=1) + '\n')
