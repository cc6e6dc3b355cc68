#!/usr/bin/env bash
# The whole test suite: set up the venv, then run every notebook in nbs/ as a test.
# Extra arguments go to scripts/run_nbs.py, e.g.:
#   bash scripts/test.sh --flags slow            # include `#| slow` cells
#   bash scripts/test.sh nbs/00_core.ipynb       # a subset
#   bash scripts/test.sh --n-workers 1
# Ends with the line `notebooks: N passed, M failed`; exits non-zero if any notebook failed.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh
exec .venv/bin/python scripts/run_nbs.py "$@"
