"""The language and card-name style a player reads the games in (the ``game`` catalogs).

What a presenter writes — card names, score details, round results, pass notes, the
rules — comes from the ``game`` message catalogs (:mod:`parlour.i18n`) in the language
and naming style of :func:`current`. The terminal sets them once from ``--lang`` and
``--card-names``; the server sets them for the request it answers (:func:`speaking`), so
a presenter never takes a language argument through every drawing method.

Card names come in two styles (``parlour_cards`` on the page, ``--card-names`` in the
terminal): ``game``, the game's own names (Guardian, Mystic, Scout; Leaf and Star), and
``classic`` (Jack, Queen, King; clubs and diamonds), in every language. The catalog keys
are ``card.rank.{R}.{style}`` (``R`` the rank as in a card code: ``A``, ``2`` .. ``10``,
``J``, ``Q``, ``K``), ``card.suit.{suit}.{style}`` (``clubs``, ``diamonds``, ``hearts``,
``spades``) and ``card.name.{style}`` (with ``{rank}`` and ``{suit}``).

>>> from parlour import cards
>>> with speaking("en", "classic"):
...     card_name(cards.from_code("JD"))
'Jack of diamonds'
>>> card_name(cards.from_code("2C"))
'Leaf 2'
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from parlour import cards
from parlour.cards import Card
from parlour.i18n import LANGUAGES, format_number, language, t

CARD_STYLES = ("game", "classic")
"""The card-name styles: the game's own names (the default) or the classic ones."""
SUIT_KEYS = ("clubs", "diamonds", "hearts", "spades")
"""A suit's part of a catalog key, in suit order (clubs, diamonds, hearts, spades)."""


@dataclass(frozen=True)
class Speech:
    """A reader's language (a code of :data:`parlour.i18n.LANGUAGES`) and card names."""

    lang: str = "en"
    cards: str = "game"


_CURRENT: ContextVar[Speech] = ContextVar("parlour_speech", default=Speech())  # noqa: B039 (frozen)


def current() -> Speech:
    return _CURRENT.get()


def use(lang: str = "en", card_style: str = "game") -> None:
    """Speak ``lang`` with ``card_style`` names from now on (the terminal, once)."""
    _CURRENT.set(Speech(check_lang(lang), check_style(card_style)))


@contextlib.contextmanager
def speaking(lang: str = "en", card_style: str = "game") -> Iterator[Speech]:
    """Speak ``lang`` with ``card_style`` names inside the block (a server request)."""
    token = _CURRENT.set(Speech(check_lang(lang), check_style(card_style)))
    try:
        yield _CURRENT.get()
    finally:
        _CURRENT.reset(token)


def check_lang(lang: str) -> str:
    """The code of a language parlour speaks (``fa``, ``zh``, ``en-XA``...); ValueError
    naming the choices for anything else."""
    found = language(lang)
    if found is None:
        raise ValueError(f"no language {lang!r}: choose from {', '.join(LANGUAGES)}")
    return found.code


def check_style(style: str) -> str:
    if style not in CARD_STYLES:
        raise ValueError(f"card names are {' or '.join(CARD_STYLES)}, not {style!r}")
    return style


def lang_from_env(environ: Any = None) -> str:
    """The terminal's language from ``LC_ALL`` then ``LANG`` (``fa_IR.UTF-8`` -> ``fa``);
    English when neither names a language parlour speaks."""
    env = os.environ if environ is None else environ
    for var in ("LC_ALL", "LANG"):
        value = (env.get(var) or "").split(".")[0].split("@")[0]
        code = value.replace("_", "-").split("-")[0].lower()
        if code in LANGUAGES:
            return code
    return "en"


def say(key: str, /, *, count: int | None = None, **params: Any) -> str:
    """The ``game`` catalog's words for ``key`` in the current language; ``count`` picks
    the plural form and is given to the words as ``{count}``."""
    return t(_CURRENT.get().lang, key, domain="game", count=count, **params)


def tell(key: str, /, *, count: int | None = None, **params: Any) -> str:
    """The ``terminal`` catalog's words for ``key`` in the current language (what
    ``parlour play`` itself says around the game's words)."""
    return t(_CURRENT.get().lang, key, domain="terminal", count=count, **params)


def number(x: int | float) -> str:
    """A number written the current language's way."""
    return format_number(_CURRENT.get().lang, x)


def rank_name(rank: int) -> str:
    style = _CURRENT.get().cards
    return say(f"card.rank.{cards.RANKS[rank]}.{style}")


def suit_name(suit: int) -> str:
    style = _CURRENT.get().cards
    return say(f"card.suit.{SUIT_KEYS[suit]}.{style}")


def card_name(c: Card) -> str:
    """A card's full name in the current language and style: ``Leaf 2``, ``Jack of
    diamonds``, ``برگ ۲``..."""
    style = _CURRENT.get().cards
    return say(f"card.name.{style}", rank=rank_name(cards.rank_of(c)),
               suit=suit_name(cards.suit_of(c)))


def listing(items: Sequence[str]) -> str:
    """Words listed the current language's way: ``A``, ``A and B``, ``A, B and C``."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return say("list.pair", first=say("list.join").join(items[:-1]), last=items[-1])
