"""Every word a player reads, in their language: message catalogs read with Babel.

Catalogs are gettext ``.po`` files, ``catalogs/{lang}/{domain}.po``, whose msgid is a
dotted key (``room.hint.button``) and msgstr the text. Placeholders are ``{name}``;
plural keys carry one entry per CLDR category (``hand.cards#one``, ``hand.cards#other``,
``#few``...). English is the source and the fallback: a key missing in a language
shows its English text, never the key. See docs/architecture.md ("Languages").
"""

from __future__ import annotations

from parlour.i18n.languages import DEFAULT, LANGUAGES, PSEUDO, Language, language
from parlour.i18n.negotiate import negotiate
from parlour.i18n.translate import (
    DOMAINS,
    MissingKey,
    catalog_json,
    format_number,
    plural_category,
    t,
)

__all__ = [
    "DEFAULT", "DOMAINS", "LANGUAGES", "PSEUDO", "Language", "MissingKey", "catalog_json",
    "format_number", "language", "negotiate", "plural_category", "t",
]
