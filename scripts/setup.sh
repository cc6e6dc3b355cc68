#!/usr/bin/env bash
# Create/refresh the project venv at <repo>/.venv. Idempotent: the installs are skipped when the
# venv already holds an editable fastrl install of this checkout and pyproject.toml is unchanged.
#   FASTRL_EXTRAS=...  the extras to install, comma-separated (default: dev, what the tests need; scripts/main.sh
#                      asks for video alone: the main job needs torch, gymnasium and an MP4 encoder, not EnvPool & co)
#   FASTRL_BENCH=1     also install the `bench` extra (stable-baselines3)
#   PYTHON=...         interpreter used to create the venv (default: python3)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
VENV="$ROOT/.venv"
PY="$VENV/bin/python"
STAMP="$VENV/.fastrl-stamp"
TORCH_SPEC="torch==2.13.0"   # CPU build; must go in before fastrl so pip doesn't pick a CUDA torch
BENCH="${FASTRL_BENCH:-0}"; [ "$BENCH" = 1 ] || BENCH=0
EXTRAS="${FASTRL_EXTRAS:-dev}"; [ "$BENCH" = 1 ] && EXTRAS="$EXTRAS,bench"
# the extras `dev` brings with it (pyproject.toml's dev list holds their packages)
DEV_HAS="video,atari,envpool,tensorboard,export,docs,tune,wandb"
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1

log() { echo "setup: $*" >&2; }
# run quietly, saying every 15 s that it still runs; on failure show everything the command printed
quiet() {
    local out pid t=0
    out="$(mktemp)"
    "$@" >"$out" 2>&1 &
    pid=$!
    while kill -0 "$pid" 2>/dev/null; do
        sleep 1; t=$((t + 1))
        if [ $((t % 15)) = 0 ]; then log "  ... still at it ($t s)"; fi
    done
    if ! wait "$pid"; then
        cat "$out" >&2; rm -f "$out"
        log "FAILED: $*"
        return 1
    fi
    rm -f "$out"
}

if [ ! -x "$PY" ] || ! "$PY" -c 'import sys' >/dev/null 2>&1; then
    [ -e "$VENV" ] && { log "removing broken venv at $VENV"; rm -rf "$VENV"; }
    log "creating venv at $VENV (first run: the installs below take 2 to 4 minutes)"
    "${PYTHON:-python3}" -m venv "$VENV"
    quiet "$PY" -m pip install -q --upgrade pip
fi

want="$(sha256sum pyproject.toml | cut -d' ' -f1) $TORCH_SPEC"

# the extras the stamp records (a stamp from before FASTRL_EXTRAS said bench=0/1 of a dev install)
stamp_extras() { sed -n 2p "$STAMP" | sed 's/^bench=0$/dev/; s/^bench=1$/dev,bench/; s/^extras=//'; }

up_to_date() {
    [ -f "$STAMP" ] || return 1
    [ "$(sed -n 1p "$STAMP")" = "$want" ] || return 1
    # every extra asked for is installed (or comes with dev), whatever else is
    local have want_x
    have=",$(stamp_extras),"
    case "$have" in *,dev,*) have="$have$DEV_HAS,";; esac
    for want_x in ${EXTRAS//,/ }; do case "$have" in *",$want_x,"*) ;; *) return 1;; esac; done
    # fastrl must resolve to this checkout from outside it (i.e. through the editable install), and
    # torch must be the pinned version; checked without importing either
    local got
    got="$(cd / && "$PY" -c 'import importlib.util as u, importlib.metadata as m, os
print(os.path.dirname(os.path.realpath(u.find_spec("fastrl").origin)), m.version("torch").split("+")[0])' 2>/dev/null)" || return 1
    [ "$got" = "$(realpath "$ROOT/fastrl") ${TORCH_SPEC#torch==}" ]
}

if up_to_date; then exit 0; fi

# what is installed already stays installed: the stamp keeps the union
had=""
if [ -f "$STAMP" ] && [ "$(sed -n 1p "$STAMP")" = "$want" ]; then had="$(stamp_extras)"; fi
extras="$(printf '%s' "$had,$EXTRAS" | tr ',' '\n' | sed '/^$/d' | sort -u | paste -sd, -)"
rm -f "$STAMP"
log "installing $TORCH_SPEC (the CPU build, about 200 MB: 1 to 3 minutes)"
quiet "$PY" -m pip install "$TORCH_SPEC"
log "installing fastrl[$extras] (editable) and its dependencies (about 1 minute)"
quiet "$PY" -m pip install -e ".[$extras]"
printf '%s\nextras=%s\n' "$want" "$extras" > "$STAMP"
log "done"
