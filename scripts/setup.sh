#!/usr/bin/env bash
# Installs everything parlour needs into .venv (and, as root, the Debian packages the
# browser and PostgreSQL tests use). Safe to run again: it only adds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${PARLOUR_EXTRAS:-dev,rl,ray,postgres}"

if [ "${PARLOUR_SYSTEM_PACKAGES:-1}" = "1" ] && [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
  need=()
  command -v chromium >/dev/null || need+=(chromium)
  # Chinese pages need a CJK font (the browser tests and docs/img/lang-zh-*.png)
  fc-list :lang=zh 2>/dev/null | grep -q . || need+=(fonts-wqy-microhei)
  [ -x /usr/lib/postgresql/*/bin/postgres ] 2>/dev/null || ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 || need+=(postgresql)
  # nginx: the compose file's proxy, run for real by tests/hardening/test_deploy_proxy.py
  command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || need+=(nginx-light)
  # tmux: the terminal seat driven through a real terminal (tests/server/test_server_netclient_tmux.py)
  command -v tmux >/dev/null || need+=(tmux)
  if [ ${#need[@]} -gt 0 ]; then
    echo "setup: installing Debian packages: ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  fi
fi

python3 -m venv .venv 2>/dev/null || true
[ -x .venv/bin/pip ] || python3 -m venv .venv
stamp=".venv/.parlour-installed-$(cat pyproject.toml | sha256sum | cut -c1-16)-${extras//,/_}"
if [ ! -f "$stamp" ]; then
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e ".[${extras}]"
  rm -f .venv/.parlour-installed-*
  touch "$stamp"
fi

# Compile the search and hint kernels into numba's on-disk cache now, so that no one's first
# `hard` move (1 s at most) waits for a compile of several seconds.
.venv/bin/python -c "from parlour.server.work import warm; warm()" \
  || echo "setup: could not pre-compile the search kernels (they compile on first use)"
