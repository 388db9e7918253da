"""The image's HEALTHCHECK: exit 0 when this container's server answers /readyz with 200.

Plain Python (the slim image has no curl). /readyz is 503 while the database does not
answer or the bot workers are starting (docs/deploy.md, "Checks for an operator"). The
request names the public host, since the server answers no other host name.
"""

import os
import sys
import urllib.request
from urllib.parse import urlsplit

port = os.environ.get("PARLOUR_PORT", "8000")
hosts = [h.strip() for h in os.environ.get("PARLOUR_ALLOWED_HOSTS", "").split(",") if h.strip()]
host = hosts[0] if hosts and hosts[0] != "*" else (
    urlsplit(os.environ.get("PARLOUR_PUBLIC_URL", "")).hostname or "127.0.0.1")
request = urllib.request.Request(f"http://127.0.0.1:{port}/readyz", headers={"Host": host})
try:
    with urllib.request.urlopen(request, timeout=3) as r:
        sys.exit(0 if r.status == 200 else 1)
except Exception:  # noqa: BLE001 -- any failure is "not ready"
    sys.exit(1)
