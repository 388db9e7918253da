"""Fanti's rules in plain words, ruling by ruling (FA-1 .. FA-11), for ``parlour rules``.

Written for players from what the engine (``rules.py``) does; the options named here
are the ``--rule`` keys.
"""

from parlour.rulebook import Ruling

SUMMARY = """\
Fanti is a fishing game for 2 to 4 players: you play a card from your hand and, if it
can, it collects cards from the table; at the end of each round points go to whoever
collected most. Four cards lie face up on the table; everyone holds four, and when all
hands are empty four more are dealt to each player until the deck is gone.

A number card (Ace to 10) collects table cards whose values add up with it to 11; an Ace
may instead take one Ace. A Scout (K) takes one Scout and a Mystic (Q) one Mystic. A
Guardian (J) sweeps the table of everything but Scouts and Mystics. If your card can
collect, it must; if it cannot, it stays on the table.

Each round: 2 points for most cards, 1 for most Leaf (clubs) cards, 1 for Leaf 2 and 1 for
Star 10. Five rounds make a game (option rounds); the highest total wins."""

RULINGS = {
    "FA-1": Ruling("Card names",
                   "The deck is the ordinary one with its own names: the Jack is the Guardian, "
                   "the Queen the Mystic and the King the Scout; clubs are Leaf cards (🍃) and "
                   "diamonds Star cards (★). You see the names; records keep the usual codes, "
                   "so 2C is Leaf 2 and 10D is Star 10. When typing, G, M and S stand for "
                   "Guardian, Mystic and Scout, and 🍃 and ★ for the two suits."),
    "FA-2": Ruling("Players and values",
                   "2, 3 or 4 players. For making 11 an Ace counts 1 and the cards 2 to 10 "
                   "count their number; Guardians, Mystics and Scouts count nothing."),
    "FA-3": Ruling("The deal",
                   "The first four cards of the deck go face up on the table. Then everyone gets "
                   "four cards, one at a time, starting with the player after the dealer. "
                   "Whenever every hand is empty and cards remain, everyone gets four more the "
                   "same way; nothing more goes to the table. The 48 cards come out even for "
                   "2, 3 or 4 players."),
    "FA-4": Ruling("Turns",
                   "The player after the dealer starts, and play goes clockwise, straight on "
                   "across the new deals. On your turn you play exactly one card from your hand. "
                   "There is no passing."),
    "FA-5": Ruling("What a card collects",
                   "A number card from 2 to 10 collects any group of valued table cards (Aces "
                   "and numbers) that adds up with it to exactly 11: a 5 takes a 6, or a 2 and a "
                   "4. An Ace does the same with groups worth 10, or takes a single Ace. A Scout "
                   "takes one Scout and a Mystic takes one Mystic. A Guardian sweeps everything "
                   "on the table except Scouts and Mystics, other Guardians included; with the "
                   "option guardian_takes_guardians=false it leaves Guardians too. A Guardian "
                   "on a table with nothing it may take takes nothing."),
    "FA-6": Ruling("Collecting is compulsory",
                   "If the card you play can collect, it collects; you cannot lay it down "
                   "instead. When it can collect in several ways (other groups, another Ace, "
                   "another Scout or Mystic, even the same ranks in other suits) you choose "
                   "one. Only a card that can collect nothing is put on the table."),
    "FA-7": Ruling("Your pile is public",
                   "The card you played and the cards it collected go together onto your pile. "
                   "Every pile is open to everyone: all players see what each collected."),
    "FA-8": Ruling("The end of a round",
                   "A round ends when the deck and every hand are empty. Whatever is still on "
                   "the table goes to the player who collected last; if nobody collected in the "
                   "whole round, it goes to nobody."),
    "FA-9": Ruling("Scoring a round",
                   "2 points to the player with the most cards, 1 point to the player with the "
                   "most Leaf cards, 1 point to whoever has Leaf 2 and 1 point to whoever has "
                   "Star 10. When players tie for the most cards or the most Leaf cards, that "
                   "bonus goes to nobody; with the option ties=shared every tied player gets it."),
    "FA-10": Ruling("A game",
                    "A game is 5 rounds (option rounds). The first dealer is drawn at random and "
                    "the deal then moves one seat clockwise each round. The highest total wins; "
                    "equal highest totals share the win."),
    "FA-11": Ruling("The small pack, for research",
                    "With pack=small a round is dealt from six cards only: the Ace, 10 and "
                    "Guardian of Leaf and of Star, for two players. The deck is still shuffled "
                    "whole; those six are dealt in the order they come and the rest are set "
                    "aside unseen: 2 face up to the table, then 2 to each player, one deal. "
                    "Every other rule is unchanged. It is small enough for a computer to "
                    "solve the game exactly."),
}
