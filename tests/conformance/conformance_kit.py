"""What the conformance suite needs from any registered game, written once.

Everything here speaks only the :class:`~parlour.game.Game` / :class:`~parlour.game.Round`
protocol and the kit registry (``parlour.games.KITS``): no game is named, so a game added
to the registry is checked by the whole suite the moment it is registered.
"""

from __future__ import annotations

import random
from typing import Any

from option_variants import option_variants
from parlour import cards
from parlour.game import Game, IllegalMove, Round
from parlour.games import KITS
from parlour.match import Match, Shuffler
from parlour.present import presenter

CODES = frozenset(cards.ALL_CODES)
MAX_MOVES = 5000
"""A round still running after this many moves is reported as one that does not end."""

Variant = tuple[str, int, dict[str, Any]]


def variants(game: Game) -> list[dict[str, Any]]:
    """The game's variants from its declared options: every value of each, and a seeded
    sample of the combinations (:func:`option_variants.option_variants`)."""
    return option_variants(game)


def all_variants() -> list[Variant]:
    """Every registered game x every player count x every option combination."""
    return [(name, players, rules)
            for name, kit in sorted(KITS.items())
            for players in range(kit.game.min_players, kit.game.max_players + 1)
            for rules in variants(kit.game)]


def variant_id(v: Variant) -> str:
    name, players, rules = v
    return "-".join([name, str(players), *(str(x) for x in rules.values())])


def codes_in(obj: Any) -> int:
    """Every card code anywhere in a JSON value, as a mask."""
    if isinstance(obj, str):
        return 1 << cards.from_code(obj) if obj in CODES else 0
    if isinstance(obj, dict):
        out = 0
        for k, v in obj.items():
            out |= codes_in(k) | codes_in(v)
        return out
    if isinstance(obj, list | tuple):
        out = 0
        for v in obj:
            out |= codes_in(v)
        return out
    return 0


# --- the 52-card invariant and what each seat may see ----------------------------------


def check_locations(r: Round) -> None:
    """C-2: ``locations()`` are disjoint and together hold the 52 cards."""
    seen = 0
    for m in r.locations():
        assert seen & m == 0, f"{cards.codes(seen & m)} are in two places"
        seen |= m
    assert seen == cards.FULL_DECK, f"{cards.codes(cards.FULL_DECK & ~seen)} are missing"


class Visibility:
    """Who may see each of a round's locations, learnt from the round as dealt.

    At the deal each hand is a location of its own (found by ``hand(seat)``); every other
    location that holds cards is either shown whole to every seat (public: a table) or
    to none (secret: a stock). Later, a seat's view must show its own hand, no card of
    another hand (FT-10, FA-7) and no card of a secret location, and whatever it shows
    beyond its own hand every seat must see too.
    """

    def __init__(self, r: Round) -> None:
        locs = r.locations()
        self.hand_at = {s: locs.index(r.hand(s)) for s in range(r.players)}
        seen = [codes_in(r.view(s).to_json()) for s in range(r.players)]
        self.secret: set[int] = set()
        for i, m in enumerate(locs):
            if i in self.hand_at.values() or m == 0:
                continue
            if all(v & m == 0 for v in seen):
                self.secret.add(i)
            else:
                assert all(v & m == m for v in seen), (
                    f"location {i} ({cards.codes(m)}) is shown only in part or only to some")

    def check(self, r: Round) -> None:
        locs = r.locations()
        seen = [codes_in(r.view(s).to_json()) for s in range(r.players)]
        everyone = cards.FULL_DECK
        for v in seen:
            everyone &= v
        for s, v in enumerate(seen):
            view = r.view(s)
            if hasattr(view, "hand"):
                assert view.hand == r.hand(s)
            assert v & r.hand(s) == r.hand(s), f"seat {s} does not see its own hand"
            for t, i in self.hand_at.items():
                if t != s:
                    assert v & locs[i] == 0, (
                        f"seat {s} sees {cards.codes(v & locs[i])} of seat {t}'s hand")
            for i in self.secret:
                assert v & locs[i] == 0, f"seat {s} sees {cards.codes(v & locs[i])} (secret)"
            extra = v & ~r.hand(s) & ~everyone
            assert extra == 0, f"only seat {s} sees {cards.codes(extra)}"


# --- whole games ------------------------------------------------------------------------


def random_round(game: Game, players: int, rules: dict[str, Any], seed: int,
                 check: bool = True) -> Match:
    """A one-round match of uniformly random legal moves; with ``check`` every state is
    checked (cards, views, legal moves apply, an illegal one changes nothing)."""
    m = Match.new(game, players, {**rules, "rounds": 1}, shuffler=Shuffler(seed))
    rng = random.Random(seed)
    r = m.rounds[0]
    vis = Visibility(r) if check else None
    for _ in range(MAX_MOVES):
        if check:
            check_locations(r)
            vis.check(r)
        if r.is_over:
            break
        legal = r.legal_moves()
        assert legal, "a seat to move has no legal move"
        assert all(r.why_illegal(mv) is None for mv in legal)
        assert tuple(r.view(r.current_player).legal) == tuple(legal)
        if check:
            before = r.copy()
            for bad in (-1, 1 << 60, "7D"):
                try:
                    r.apply(bad)  # type: ignore[arg-type]
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"{bad!r} was accepted")
                assert r == before and r.locations() == before.locations()
        r.apply(rng.choice(legal))
    assert r.is_over and r.current_player == -1 and r.legal_moves() == []
    assert m.is_over
    return m


def check_score_detail(r: Round) -> None:
    """The itemised score adds up to ``score()`` for every seat (TEAM.md contract)."""
    detail = r.score_detail()
    score = r.score()
    assert detail is not None and score is not None
    assert [s["seat"] for s in detail["seats"]] == list(range(r.players))
    for seat in detail["seats"]:
        assert seat["total"] == score[seat["seat"]]
        assert sum(item["points"] for item in seat["items"]) == seat["total"]
        for item in seat["items"]:  # words from the catalogs, or the game's own
            assert isinstance(item.get("key", item.get("what")), str)
    for seat in presenter(r.game).worded(detail)["seats"]:
        for item in seat["items"]:
            assert isinstance(item["what"], str) and item["what"]


# --- the same round with other hidden cards (for "a bot cannot peek") --------------------


def twin(r: Round, seat: int, rng: random.Random, tries: int = 200) -> Round | None:
    """The round replayed from a deck whose cards unseen by ``seat`` are relabelled, so
    other hands (and any stock) differ while everything ``seat`` sees is the same; None
    when no relabelling that keeps the history legal is found."""
    seen = codes_in(r.view(seat).to_json()) | r.hand(seat)
    hidden = cards.cards_of(cards.FULL_DECK & ~seen)
    if len(hidden) < 2:
        return None
    for attempt in range(tries):
        if attempt < tries // 2:
            shuffled = hidden.copy()
            rng.shuffle(shuffled)
        else:  # late in a round a whole shuffle rarely keeps every pass legal: swap two
            shuffled = hidden.copy()
            i, j = rng.sample(range(len(hidden)), 2)
            shuffled[i], shuffled[j] = shuffled[j], shuffled[i]
        relabel = dict(zip(hidden, shuffled, strict=True))
        deck = [relabel.get(c, c) for c in r.deck]
        other = r.game.new_round(r.rules, r.players, r.dealer, deck)
        try:
            for _, move in r.history:
                other.apply(move)
        except IllegalMove:
            continue
        if other.locations() != r.locations():
            return other
    return None
