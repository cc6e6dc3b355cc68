#!/usr/bin/env bash
# Screenshots of the built docs site in headless Chromium (apt-get install chromium): the home page, an algorithm
# page and an API entry, into _docs/screens/. Build the site first (bash scripts/docs.sh).
#   bash scripts/screenshots.sh [SITE_DIR]
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SITE="$(realpath "${1:-$ROOT/_docs/site}")"
OUT="$ROOT/_docs/screens"; mkdir -p "$OUT"
CHROME="$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)"
[ -n "$CHROME" ] || { echo "screenshots: no chromium here (apt-get install chromium)" >&2; exit 2; }
shot() {   # shot NAME URL
    "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1000 \
        --screenshot="$OUT/$1.png" "$2" >/dev/null 2>&1
    echo "$OUT/$1.png"
}
shot home "file://$SITE/index.html"
shot algorithm "file://$SITE/36_algos.td3.html"
shot dqn "file://$SITE/38_algos.dqn.html#benchmark"
shot page "file://$SITE/07_agents.core.html"
shot api "file://$SITE/api/fastrl.experiments.policy.html#fastrl.experiments.policy.Policy"
shot search "file://$SITE/search.html?q=replay"
