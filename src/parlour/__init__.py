"""parlour: Fanti and Fan Tan -- rules engines, records, bots, and a place to play them.

The core is small: :mod:`parlour.cards` (cards as integers and bit masks),
:mod:`parlour.game` (the interface every game implements), one module per game
(:mod:`parlour.games.fanti.rules`, :mod:`parlour.games.fantan.rules`), :mod:`parlour.match` (rounds, dealer
rotation, totals) and :mod:`parlour.record` (the ``parlour-record/1`` format).
"""

from parlour.game import PASS, Game, IllegalMove, Move, Round, move_card, move_take, play
from parlour.games import GAMES, get_game
from parlour.match import Match, Shuffler

__version__ = "0.1.0"

__all__ = [
    "GAMES", "PASS", "Game", "IllegalMove", "Match", "Move", "Round", "Shuffler",
    "get_game", "move_card", "move_take", "play", "__version__",
]
