__version__ = "0.0.1"

# `from fastrl import ppo`, as Spinning Up's `from spinup import ppo`: the entry functions of `fastrl.algos`, imported
# when first asked for (`import fastrl` alone, as the command line does, imports no torch). This file is not generated.
_ALGOS = ('vpg', 'trpo', 'ppo', 'ddpg', 'td3', 'sac', 'crossq', 'dqn')

def __getattr__(name):
    if name in _ALGOS:
        from .algos import get_algo
        return get_algo(name)
    raise AttributeError(f"module 'fastrl' has no attribute {name!r}")
