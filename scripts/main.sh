#!/usr/bin/env bash
# The main job: set up the venv, then train DDPG on Pendulum. Arguments go to the example module
# (try `bash scripts/main.sh --help`).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# only what the main job needs: torch, gymnasium and an MP4 encoder (the test command adds the dev extra)
FASTRL_EXTRAS="${FASTRL_EXTRAS:-video}" bash scripts/setup.sh
exec .venv/bin/python -m fastrl.examples.ddpg_pendulum "$@"
