"""Every rule variant the batch tests cover (imported by the test modules here)."""

from __future__ import annotations

import itertools

FANTAN_VARIANTS = [
    {"opening": o, "ace": a, "stakes": s, "strict": st}
    for o, a, s, st in itertools.product(("seven-of-diamonds", "any-seven"), ("low", "high"),
                                         ("points", "chips"), (True, False))
]
FANTI_VARIANTS = [
    {"guardian_takes_guardians": g, "ties": t}
    for g, t in itertools.product((True, False), ("none", "shared"))
]


def variant_id(rules: dict) -> str:
    return "-".join(map(str, rules.values()))
