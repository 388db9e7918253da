"""Looking words up: ``t()`` for Python, ``catalog_json()`` for the page, CLDR plural and
number rules through Babel."""

from __future__ import annotations

import logging
import os
import string
from functools import cache

from babel import Locale
from babel.numbers import format_decimal

from parlour.i18n.catalogs import messages
from parlour.i18n.languages import DEFAULT, PSEUDO, language
from parlour.i18n.pseudo import pseudo

DOMAINS = ("web", "game", "terminal")
log = logging.getLogger(__name__)


class MissingKey(KeyError):
    """A key (or a placeholder's value) that not even English has: a bug in the code."""


def strict() -> bool:
    """Tests set PARLOUR_I18N_STRICT=1 (tests/conftest.py): a missing key raises there;
    a player is shown nothing rather than a key."""
    return os.environ.get("PARLOUR_I18N_STRICT") == "1"


def _code(lang: str | None) -> str:
    found = language(lang)
    return found.code if found is not None else DEFAULT


@cache
def _locale(code: str) -> Locale:
    found = language(code)
    return Locale.parse(found.babel_code if found is not None else DEFAULT)


def plural_category(lang: str, n: float) -> str:
    """CLDR's plural category of ``n`` in ``lang``: zero, one, two, few, many or other."""
    return _locale(_code(lang)).plural_form(abs(n))


def format_number(lang: str, x: float) -> str:
    """A number with the language's separators (Latin digits, as the cards show them;
    the page does the same with Intl.NumberFormat and numberingSystem "latn")."""
    return format_decimal(x, locale=_locale(_code(lang)))


@cache
def catalog_json(lang: str, domain: str) -> dict[str, str]:
    """Every key of ``domain`` in ``lang``, English where ``lang`` has none: what the page
    gets, so it can never show a key. en-XA is English run through ``pseudo``."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}")
    code = _code(lang)
    english = messages(DEFAULT, domain)
    if code == PSEUDO.code:
        return {k: pseudo(v) for k, v in english.items()}
    out = dict(english)
    if code != DEFAULT:
        out.update(messages(code, domain))
    return out


class _Params(dict):
    def __missing__(self, name: str) -> str:
        if strict():
            raise MissingKey(f"placeholder {{{name}}} has no value")
        return "…"


_FORMATTER = string.Formatter()


def t(lang: str | None, key: str, /, *, domain: str = "web", count: float | None = None,
      **params: object) -> str:
    """The text of ``key`` in ``lang`` (English if ``lang`` lacks it) with ``{name}``
    placeholders filled from ``params``. With ``count``, the key's plural entry
    (``key#one``, ``key#other``...) for that number; ``{count}`` is the number formatted."""
    words = catalog_json(_code(lang), domain)
    if count is not None:
        params.setdefault("count", format_number(_code(lang), count))
        chosen = f"{key}#{plural_category(_code(lang), count)}"
        key = chosen if chosen in words else f"{key}#other"
    text = words.get(key)
    if text is None:
        if strict():
            raise MissingKey(f"{domain}:{key} is in no catalog (not even English)")
        log.warning("i18n: no text for %s:%s", domain, key)
        return ""
    if "{" not in text:
        return text
    return _FORMATTER.vformat(text, (), _Params(params))
