#!/bin/sh
# The container's entry (Dockerfile, docker-compose.yml): `parlour serve` configured by
# PARLOUR_* variables (docs/deploy.md, "Containers"), as the process the engine signals,
# so SIGTERM reaches the server itself and it says "reconnect" to every client.
set -eu
# Inside a container the server must listen beyond loopback; the proxy is its only peer.
: "${PARLOUR_HOST:=0.0.0.0}"
: "${PARLOUR_PORT:=8000}"
export PARLOUR_HOST PARLOUR_PORT
case "${1:-}" in
  "" | -*) exec parlour serve "$@" ;;   # options only: they go to serve
  *) exec "$@" ;;                       # another command: parlour admin ..., sh
esac
