"""Text pictures of a game in play, for ``render_mode="ansi"``.

A picture shows what is public (FT-10, FA-7) and the hand of one seat: the seat to
move, as a card table would show it to the player whose turn it is. It never shows
any other hand.
"""

from __future__ import annotations

from parlour import cards
from parlour.games.fantan.rules import rows_json
from parlour.match import Match


def _hand(match: Match, seat: int) -> str:
    rnd = match.rounds[-1]
    return " ".join(match.game.card_name(c) if match.game.name == "fanti" else cards.code(c)
                    for c in sorted(cards.iter_cards(rnd.hand(seat)), key=cards.sort_key_by_suit))


def render_text(match: Match | None, seat: int | None = None) -> str:
    """The public table and the hand of ``seat`` (default: the seat to move)."""
    if match is None or not match.rounds:
        return "(no game)"
    rnd = match.rounds[-1]
    n = match.players
    if seat is None:
        seat = rnd.current_player
    head = (f"{match.game.title}, round {len(match.rounds)}/{match.rules['rounds']}, "
            f"dealer seat {rnd.dealer}, totals {match.totals}")
    lines = [head]
    view = rnd.view(max(seat, 0))
    if match.game.name == "fantan":
        for suit, row in rows_json(view.table, view.rules["ace"] == "high").items():
            lines.append(f"  {suit}: {' '.join(row) if row else '-'}")
        lines.append("  cards in hand: " + ", ".join(
            f"seat {s} {view.hand_counts[s]} (passes {view.passes[s]})" for s in range(n)))
    else:
        table = " ".join(match.game.card_name(c) for c in cards.iter_cards(view.table))
        lines.append(f"  table: {table or '-'}")
        lines.append("  collected: " + ", ".join(
            f"seat {s} {view.piles[s].bit_count()}" for s in range(n))
            + f"; deck left {view.deck_left}")
    if rnd.is_over:
        lines.append(f"  round over, score {rnd.score()}")
    elif seat >= 0:
        lines.append(f"  seat {seat} to move, holding: {_hand(match, seat)}")
    return "\n".join(lines)
