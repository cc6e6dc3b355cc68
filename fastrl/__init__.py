__version__ = "0.0.1"

# `from fastrl import ppo`, as Spinning Up's `from spinup import ppo`: the entry functions of `fastrl.algos` (its
# `ALGO_MODULES`, the one list), imported when first asked for: `import fastrl` alone, as the command line does,
# imports no torch. This file is not generated.
def __getattr__(name):
    if not name.startswith('_'):
        from .algos import ALGO_MODULES, get_algo
        if name in ALGO_MODULES: return get_algo(name)
    raise AttributeError(f"module 'fastrl' has no attribute {name!r}")
