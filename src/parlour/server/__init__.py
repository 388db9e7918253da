"""The online tables: a FastAPI app with a WebSocket protocol, a database and a page.

>>> from parlour.server import create_app, Settings
>>> app = create_app(Settings(db_url="sqlite:///tables.sqlite3"))   # doctest: +SKIP

See ``docs/protocol.md`` (the protocol) and ``docs/web.md`` (the page).
"""

from parlour.server.app import create_app
from parlour.server.settings import Settings

__all__ = ["Settings", "create_app"]
