#!/usr/bin/env bash
# The main job: installs parlour, then starts a game of Fan Tan against the computer.
set -euo pipefail
cd "$(dirname "$0")/.."
PARLOUR_SYSTEM_PACKAGES=0 PARLOUR_EXTRAS="${PARLOUR_EXTRAS:-dev}" bash scripts/setup.sh
exec .venv/bin/parlour play fantan "$@"
