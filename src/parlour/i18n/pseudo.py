"""en-XA: English accented and made ~40% longer, generated from the English catalogs.

Layout tests run the pages in it: text that does not fit, or words that never went
through a catalog (they stay plain ASCII), show at once.
"""

from __future__ import annotations

import re

ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
PLACEHOLDER = re.compile(r"(\{[A-Za-z_][A-Za-z0-9_]*\})")
PAD = "ļöŕéɱ îƥšûɱ đöļöŕ šîţ àɱéţ çöñšéçţéţûŕ"


def pseudo(text: str) -> str:
    """``Hint`` -> ``[Ĥîñţ ļö]``: placeholders kept as they are, ~40% more letters."""
    parts = PLACEHOLDER.split(text)
    body = "".join(p if i % 2 else p.translate(ACCENTS) for i, p in enumerate(parts))
    extra = max(1, round(len(text) * 0.4) - 2)
    pad = (PAD * (extra // len(PAD) + 1))[:extra].strip()
    return f"[{body} {pad}]" if pad else f"[{body}]"
