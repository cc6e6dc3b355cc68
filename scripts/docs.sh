#!/usr/bin/env bash
# The documentation site: run every notebook (the test suite) keeping the executed copies, then render them
# with Sphinx (the README as the home page), then check its links. Open _docs/site/index.html. Arguments go to scripts/run_nbs.py.
#   bash scripts/docs.sh                 # all notebooks: tests and site (about as long as the test suite)
#   bash scripts/docs.sh --executed-only # render from _docs/executed as they are (e.g. after CI's test run)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
bash scripts/setup.sh
if [ "${1:-}" != "--executed-only" ]; then
    .venv/bin/python scripts/run_nbs.py --executed _docs/executed "$@"
fi
.venv/bin/python scripts/build_docs.py _docs/executed _docs/site
exec .venv/bin/python scripts/check_site.py _docs/site
