"""Fan Tan's rules in plain words, ruling by ruling (FT-1 .. FT-12), for ``parlour rules``.

Written for players from what the engine (``rules.py``) does; the options named here
are the ``--rule`` keys.
"""

from parlour.rulebook import Ruling

SUMMARY = """\
Fan Tan (also Sevens or Parliament) is a shedding game for 3 to 8 players: be the first
to get rid of your cards. The whole deck is dealt. Each suit is built into a row on the
table, starting from its 7 and growing one card at a time down and up.

On your turn you play one card that fits: a 7 starts its row, any other card must be
next to an end of its suit's row. If nothing fits you pass, which costs you. The round
ends when someone plays their last card.

With penalty points (the default) every pass and every card left in your hand costs a
point, the winner of the round scores no points, and the lowest total wins. With chips, passes
and antes go into a pot, losers pay the winner a chip per card left, the winner takes
the pot, and the highest balance wins."""

RULINGS = {
    "FT-1": Ruling("Players and the deal",
                   "3 to 8 players. The whole deck is dealt one card at a time, starting with "
                   "the player after the dealer and going clockwise. When 52 does not divide "
                   "evenly, the players dealt to first hold one card more."),
    "FT-2": Ruling("The rows",
                   "There is one row per suit. A row starts with its 7 and grows one rank at a "
                   "time below and above, always one unbroken run. The Ace is the lowest card "
                   "(option ace=low, A 2 .. K) or the highest (ace=high, 2 .. K A)."),
    "FT-3": Ruling("What you may play",
                   "A 7 whose row has not started, or the card just below the bottom or just "
                   "above the top of a started row, in the same suit. One card a turn."),
    "FT-4": Ruling("Who opens",
                   "With opening=seven-of-diamonds (the default) whoever holds the 7 of diamonds "
                   "must play it as the very first move, and play goes on clockwise from them. "
                   "With opening=any-seven the player after the dealer starts; until a row is "
                   "started only 7s may be played, and a player without one passes."),
    "FT-5": Ruling("Passing",
                   "With strict=true (the default) you pass exactly when nothing in your hand "
                   "fits, and you must play when something does. With strict=false you may also "
                   "pass while holding a card that fits (holding it back), which is fined at the "
                   "end of the round (FT-8). Every pass costs its price, and the turn moves on."),
    "FT-6": Ruling("The end of a round",
                   "The round ends the moment someone plays their last card; that player wins "
                   "the round."),
    "FT-7": Ruling("Stakes",
                   "Penalty points (stakes=points, the default): every pass costs 1 point and "
                   "every card left in a losing hand 1 point; the winner of the round scores no "
                   "points, whatever they passed. Losers left with 2, 5 and 9 cards who passed once "
                   "each score 3, 6 and 10. The lowest total wins. Chips (stakes=chips): "
                   "everyone puts 1 chip in the pot at the deal, and a player dealt a card fewer "
                   "than the most puts in 1 more; each pass puts 1 chip in the pot; at the end "
                   "every loser pays the winner 1 chip per card left and the winner takes the "
                   "pot. No chip is made or lost: a round's gains and losses add up to 0. The "
                   "highest balance wins."),
    "FT-8": Ruling("Fines for holding back",
                   "Only with strict=false. At the end of the round, when every hand is shown, "
                   "each pass made while a card fitted is fined. Points: 3 more points, except "
                   "for the round's winner, who scores no points. Chips: 3 chips into the pot (so a "
                   "winner's own fine comes back with the pot), and for each 7 that could have "
                   "been played at that pass, 5 chips to the player who held that suit's 6 and "
                   "5 chips to the one who held its 8 at the time (nothing is paid for a card "
                   "the offender held itself)."),
    "FT-9": Ruling("A game",
                   "A game has as many rounds as players unless the option rounds says "
                   "otherwise, so everyone deals once. The first dealer is drawn at random and "
                   "the deal moves one seat clockwise each round. Points: the lowest total wins; "
                   "chips: the highest; equal best totals share the win. In a one-round game "
                   "the round's winner wins the game."),
    "FT-10": Ruling("What you see",
                    "Everything on the table and every pass is public. You see your own hand and "
                    "how many cards everyone else holds, never their cards."),
    "FT-11": Ruling("A round nobody will finish",
                    "Only with strict=false. When every player has passed twice running with "
                    "no card played (two full circles of passes), the round ends at once, "
                    "blocked, and nobody wins it. Points: everyone scores a loser's points "
                    "(passes, cards left, fines). Chips: antes, passes and fines go into the pot "
                    "and held-back 7s are paid for as usual, nobody pays for cards left, and "
                    "the pot is shared equally by the players who never held back (by everyone "
                    "if all did), odd chips to those first after the dealer. In a one-round "
                    "game the best total then wins. With strict=true this cannot happen."),
    "FT-12": Ruling("The small pack, for research",
                    "With pack=small a round is dealt from six cards only: the 6, 7 and 8 of "
                    "clubs and of diamonds. The deck is still shuffled whole; those six are "
                    "dealt in the order they come, one at a time from the dealer's left, and "
                    "the rest are set aside unseen. Every other rule is unchanged. It is "
                    "small enough for a computer to solve the game exactly."),
}
