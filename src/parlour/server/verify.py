"""Checking deal commitments: did the server deal the deck it committed to?

At each deal the server publishes ``commit`` = SHA-256(salt + ":" + deck codes); at the
round's end it reveals the deck and the salt. Anyone can recompute the hash. This
module does it for a whole record, round by round, and also checks the record itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from parlour import cards, record
from parlour.match import commitment


@dataclass
class RoundCheck:
    round: int
    status: str  # "ok" | "mismatch" | "unrevealed" | "no commitment" | "bad deck"
    commit: str | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"


@dataclass
class Report:
    rounds: list[RoundCheck] = field(default_factory=list)
    record_error: str | None = None

    @property
    def ok(self) -> bool:
        return self.record_error is None and bool(self.rounds) and all(
            r.ok for r in self.rounds)

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "record_error": self.record_error,
                "rounds": [{"round": r.round, "status": r.status, "commit": r.commit}
                           for r in self.rounds]}


def check_round(k: int, rd: Any) -> RoundCheck:
    """One round's commitment, from its deck and salt."""
    if not isinstance(rd, dict) or "commit" not in rd:
        return RoundCheck(k, "no commitment")
    commit = rd["commit"]
    if "salt" not in rd:
        return RoundCheck(k, "unrevealed", commit)
    try:
        deck = [cards.from_code(c) for c in rd.get("deck", [])]
    except (ValueError, TypeError):
        return RoundCheck(k, "bad deck", commit)
    if not isinstance(rd["salt"], str) or commitment(deck, rd["salt"]) != commit:
        return RoundCheck(k, "mismatch", commit)
    return RoundCheck(k, "ok", commit)


def verify(data: Any) -> Report:
    """Every round's commitment, then the whole record (``record.load``)."""
    report = Report()
    rounds = data.get("rounds") if isinstance(data, dict) else None
    if not isinstance(rounds, list):
        report.record_error = "not a parlour record: no list of rounds"
        return report
    report.rounds = [check_round(i + 1, rd) for i, rd in enumerate(rounds)]
    try:
        record.load(data)
    except record.RecordError as e:
        report.record_error = str(e)
    return report
