"""Every module in this package registers its command(s) on :data:`parlour.cli.app.app`.

A new command is a new module here; nothing else needs editing.
"""

import importlib
import pkgutil

for _info in sorted(pkgutil.iter_modules(__path__), key=lambda i: i.name):
    importlib.import_module(f"{__name__}.{_info.name}")
