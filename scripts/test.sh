#!/usr/bin/env bash
# The test command: installs everything, then runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
.venv/bin/ruff check src tests
exec .venv/bin/python -m pytest -n 2 "$@"
