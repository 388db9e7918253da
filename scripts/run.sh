#!/usr/bin/env bash
# The main job: installs parlour, then serves the web tables (the address is printed).
set -euo pipefail
cd "$(dirname "$0")/.."
PARLOUR_SYSTEM_PACKAGES=0 PARLOUR_EXTRAS="${PARLOUR_EXTRAS:-dev}" bash scripts/setup.sh
exec .venv/bin/parlour serve "$@"  # prints the address to open, e.g. http://localhost:8000/
