"""Computer players. Every bot sees only its seat's view (FT-10, FA-7), never the state.

>>> from parlour.bots import make_bot
>>> bot = make_bot("greedy", "fantan", seed=1)
>>> move = bot.choose(round.view(round.current_player))   # doctest: +SKIP
"""

from parlour.bots.base import Bot
from parlour.bots.registry import bot_names, make_bot

__all__ = ["Bot", "bot_names", "make_bot"]
