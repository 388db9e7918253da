"""Reading the ``.po`` catalogs (Babel's reader, cached; no compile step)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

CATALOGS = Path(__file__).resolve().parent / "catalogs"


def catalog_path(code: str, domain: str) -> Path:
    return CATALOGS / code / f"{domain}.po"


@cache
def messages(code: str, domain: str) -> dict[str, str]:
    """key -> text of one language's catalog; untranslated (empty) and fuzzy entries are
    left out, so they fall back to English. A missing file is an empty catalog."""
    path = catalog_path(code, domain)
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        catalog = read_po(f, domain=domain)
    out: dict[str, str] = {}
    for message in catalog:
        key, text = message.id, message.string
        if not key or not isinstance(key, str) or not isinstance(text, str):
            continue
        if text and not message.fuzzy:
            out[key] = text
    return out
