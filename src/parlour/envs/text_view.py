"""Text pictures of a game in play, for ``render_mode="ansi"``.

A picture shows what is public (FT-10, FA-7) and the hand of one seat: the seat to
move, as a card table would show it to the player whose turn it is. It never shows
any other hand.
"""

from __future__ import annotations

from parlour import cards
from parlour.envs.kit import env_parts
from parlour.match import Match


def _hand(match: Match, seat: int) -> str:
    rnd = match.rounds[-1]
    name = env_parts(match.game.name).card_text
    return " ".join(name(c) for c in sorted(cards.iter_cards(rnd.hand(seat)),
                                            key=cards.sort_key_by_suit))


def render_text(match: Match | None, seat: int | None = None) -> str:
    """The public table and the hand of ``seat`` (default: the seat to move)."""
    if match is None or not match.rounds:
        return "(no game)"
    rnd = match.rounds[-1]
    if seat is None:
        seat = rnd.current_player
    head = (f"{match.game.title}, round {len(match.rounds)}/{match.rules['rounds']}, "
            f"dealer seat {rnd.dealer}, totals {match.totals}")
    lines = [head]
    view = rnd.view(max(seat, 0))
    lines += env_parts(match.game.name).table_lines(view)
    if rnd.is_over:
        lines.append(f"  round over, score {rnd.score()}")
    elif seat >= 0:
        lines.append(f"  seat {seat} to move, holding: {_hand(match, seat)}")
    return "\n".join(lines)
