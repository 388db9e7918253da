"""The game record, ``parlour-record/1``: write, read, check and replay.

A record is one JSON object that holds a whole game (see ``docs/records.md``). Reading
is checking: :func:`load` replays every move through the engine and raises
:class:`RecordError` naming the round, the move and the reason at the first thing that
is not exactly as the format says. Nothing is ignored silently.

>>> from parlour import Match, Shuffler, get_game, record
>>> game = Match.new(get_game("fanti"), 2, {"rounds": 1}, ["Ann", "Ben"], Shuffler(7))
>>> while not game.is_over:
...     _ = game.apply(game.current.legal_moves()[0])
>>> data = record.dump(game)
>>> m = record.load(data)            # a Match again, every move checked
>>> record.dump(m) == data and m == game
True
>>> data["format"], data["rounds"][0]["moves"][0]
('parlour-record/1', {'seat': 0, 'play': 'AC', 'take': []})
>>> data["rounds"][0]["moves"][1] = data["rounds"][0]["moves"][0]  # seat 0 again
>>> record.load(data)
Traceback (most recent call last):
    ...
parlour.record.RecordError: round 1, move 2: seat 0 moved, but it was seat 1's turn
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour import cards
from parlour.game import Game
from parlour.games import GAMES
from parlour.match import Commit, Match, commitment
from parlour.options import OptionError

FORMAT = "parlour-record/1"
TOP_KEYS = ("format", "game", "rules", "seats", "rounds", "totals", "winners", "meta")
ROUND_KEYS = ("dealer", "deck", "moves", "score", "commit", "salt")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_HEX = re.compile(r"[0-9a-fA-F]{32,}")


class RecordError(ValueError):
    """A record that breaks the format. ``round`` and ``move`` count from 1 (None: n/a)."""

    def __init__(self, reason: str, round: int | None = None, move: int | None = None):
        self.reason = reason
        self.round = round
        self.move = move
        where = []
        if round is not None:
            where.append(f"round {round}")
        if move is not None:
            where.append(f"move {move}")
        super().__init__(f"{', '.join(where)}: {reason}" if where else reason)


# --- writing ---------------------------------------------------------------------


def dump(match: Match) -> dict[str, Any]:
    """The record of a match, finished or not."""
    rounds = []
    for r, c in zip(match.rounds, match.commits, strict=True):
        entry: dict[str, Any] = {
            "dealer": r.dealer,
            "deck": [cards.code(x) for x in r.deck],
            "moves": r.moves_json(),
        }
        score = r.score()
        if score is not None:
            entry["score"] = score
        if c is not None:
            entry["commit"] = c.commit
            if c.salt is not None:
                entry["salt"] = c.salt
        rounds.append(entry)
    data: dict[str, Any] = {
        "format": FORMAT,
        "game": match.game.name,
        "rules": match.game.options.recorded(match.rules),
        "seats": list(match.seats),
        "rounds": rounds,
    }
    if match.is_over:
        data["totals"] = match.totals
        data["winners"] = match.winners
    if match.meta is not None:
        data["meta"] = match.meta
    return data


def dumps(match: Match) -> str:
    """The record as one line of JSON (ready for a JSON Lines file)."""
    return json.dumps(dump(match), ensure_ascii=False, separators=(",", ":"))


# --- reading and checking ----------------------------------------------------------


def _is_int(v: Any) -> bool:
    return type(v) is int


def _int_list(v: Any, n: int) -> bool:
    return isinstance(v, list) and len(v) == n and all(_is_int(x) for x in v)


def _unknown(obj: dict, allowed: tuple[str, ...]) -> list[str]:
    return [k for k in obj if k not in allowed]


def load(data: Any, upto: tuple[int, int] | None = None) -> Match:
    """Check a record and return its match, replayed to the end.

    With ``upto=(r, k)`` (both from 0), replay stops before move ``k`` of round ``r``,
    after checking the whole record. Raises :class:`RecordError` on the first defect.
    """
    match = _check(data)
    if upto is not None:
        return truncate(match, *upto)
    return match


def truncate(match: Match, round_index: int, move_index: int) -> Match:
    """A copy of ``match`` stopped before move ``move_index`` of round ``round_index``."""
    if not 0 <= round_index < len(match.rounds):
        raise ValueError(f"the game has {len(match.rounds)} rounds")
    src = match.rounds[round_index]
    if not 0 <= move_index <= len(src.history):
        raise ValueError(f"round {round_index + 1} has {len(src.history)} moves")
    out = Match(match.game, match.rules, match.seats, match.first_dealer,
                rounds=list(match.rounds[:round_index]),
                commits=list(match.commits[:round_index + 1]), meta=match.meta)
    r = match.game.new_round(match.rules, match.players, src.dealer, src.deck)
    for _, mv in src.history[:move_index]:
        r.apply(mv)
    out.rounds.append(r)
    return out


def _check(data: Any) -> Match:
    if not isinstance(data, dict):
        raise RecordError("a record must be a JSON object")
    if bad := _unknown(data, TOP_KEYS):
        raise RecordError(f"unknown key(s) {', '.join(map(repr, bad))}")
    for key in ("format", "game", "rules", "seats", "rounds"):
        if key not in data:
            raise RecordError(f"missing key {key!r}")
    if data["format"] != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}, not {data['format']!r}")
    game: Game | None = GAMES.get(data["game"]) if isinstance(data["game"], str) else None
    if game is None:
        raise RecordError(f"game must be one of {', '.join(GAMES)}, not {data['game']!r}")
    seats = data["seats"]
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise RecordError("seats must be a list of names (strings)")
    n = len(seats)
    if not game.min_players <= n <= game.max_players:
        raise RecordError(f"{game.title} takes {game.min_players} to {game.max_players} "
                          f"players, not {n}")
    try:
        rules = game.options.exact(data["rules"])
        game.check_rules(rules, n)
    except OptionError as e:
        raise RecordError(str(e)) from None
    if "meta" in data and not isinstance(data["meta"], dict):
        raise RecordError("meta must be an object")
    rounds = data["rounds"]
    if not isinstance(rounds, list):
        raise RecordError("rounds must be a list")
    if len(rounds) > rules["rounds"]:
        raise RecordError(f"{len(rounds)} rounds recorded, but the rules have {rules['rounds']}")
    first = rounds[0].get("dealer") if rounds and isinstance(rounds[0], dict) else 0
    match = Match(game, rules, list(seats), first if _is_int(first) else 0,
                  meta=data.get("meta"))
    for i, rd in enumerate(rounds):
        if (r := match.current) is not None:
            raise RecordError(f"round {i + 1} follows, but this round's moves do not finish it "
                              f"(seat {r.current_player} is to move)",
                              round=i, move=len(r.history) + 1)
        _check_round(match, rd, i)
    finished = match.is_over
    for key in ("totals", "winners"):
        if finished and key not in data:
            raise RecordError(f"the game is finished but {key!r} is missing")
        if not finished and key in data:
            raise RecordError(f"{key!r} given, but the game is not finished")
    if finished:
        if not _int_list(data["totals"], n):
            raise RecordError(f"totals must be a list of {n} integers")
        if data["totals"] != match.totals:
            raise RecordError(f"totals {data['totals']} differ from the moves' {match.totals}")
        w = data["winners"]
        if not isinstance(w, list) or not all(_is_int(x) for x in w):
            raise RecordError("winners must be a list of seat integers")
        if w != match.winners:
            raise RecordError(f"winners {w} differ from the moves' {match.winners}")
    return match


def _check_round(match: Match, rd: Any, i: int) -> None:
    k = i + 1
    if not isinstance(rd, dict):
        raise RecordError("a round must be an object", round=k)
    if bad := _unknown(rd, ROUND_KEYS):
        raise RecordError(f"unknown key(s) {', '.join(map(repr, bad))}", round=k)
    for key in ("dealer", "deck", "moves"):
        if key not in rd:
            raise RecordError(f"missing key {key!r}", round=k)
    n = match.players
    dealer = rd["dealer"]
    if not _is_int(dealer) or not 0 <= dealer < n:
        raise RecordError(f"dealer must be a seat from 0 to {n - 1}, not {dealer!r}", round=k)
    if i == 0:
        match.first_dealer = dealer
    elif dealer != match.next_dealer:
        raise RecordError(f"dealer {dealer} breaks the rotation: seat {match.next_dealer} "
                          f"deals this round (FA-10, FT-9)", round=k)
    deck = rd["deck"]
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise RecordError("deck must be a list of 52 card codes", round=k)
    try:
        order = [cards.from_code(c) for c in deck]
    except ValueError as e:
        raise RecordError(f"deck: {e}", round=k) from None
    if len(order) != 52 or cards.mask_of(order) != cards.FULL_DECK:
        raise RecordError("deck is not a permutation of the 52 cards", round=k)
    commit = _check_commit(rd, order, k)
    r = match.deal(order, commit)
    moves = rd["moves"]
    if not isinstance(moves, list):
        raise RecordError("moves must be a list", round=k)
    game = match.game
    for j, mv in enumerate(moves):
        at = {"round": k, "move": j + 1}
        if r.is_over:
            how = r.ended()
            raise RecordError("move after the round ended" + (f": {how}" if how else ""), **at)
        if not isinstance(mv, dict):
            raise RecordError("a move must be an object", **at)
        if "seat" not in mv:
            raise RecordError("move lacks 'seat'", **at)
        seat = mv["seat"]
        if not _is_int(seat):
            raise RecordError(f"seat must be an integer, not {seat!r}", **at)
        if seat != r.current_player:
            raise RecordError(f"seat {seat} moved, but it was seat {r.current_player}'s turn",
                              **at)
        try:
            move = game.move_from_json({key: v for key, v in mv.items() if key != "seat"})
        except (ValueError, TypeError) as e:
            raise RecordError(f"malformed move: {e}", **at) from None
        reason = r.why_illegal(move)
        if reason is not None:
            raise RecordError(f"illegal move {game.format_move(move)}: {reason}", **at)
        r.apply(move)
    score = r.score()
    if score is None:
        if "score" in rd:
            raise RecordError(f"score given, but the moves do not finish the round "
                              f"({len(moves)} moves; seat {r.current_player} is to move)",
                              round=k, move=len(moves) + 1)
    else:
        if "score" not in rd:
            raise RecordError("the moves finish the round, but its score is missing", round=k)
        if not _int_list(rd["score"], n):
            raise RecordError(f"score must be a list of {n} integers", round=k)
        if rd["score"] != score:
            raise RecordError(f"score {rd['score']} differs from the moves' {score}", round=k)
        if commit is not None and commit.salt is None:
            raise RecordError("a finished round must reveal the salt of its commit", round=k)


def _check_commit(rd: dict, order: list[int], k: int) -> Commit | None:
    if "salt" in rd and "commit" not in rd:
        raise RecordError("salt given without commit", round=k)
    if "commit" not in rd:
        return None
    c = rd["commit"]
    if not isinstance(c, str) or not _HEX64.fullmatch(c):
        raise RecordError("commit must be 64 lowercase hex digits (SHA-256)", round=k)
    if "salt" not in rd:
        return Commit(c)
    salt = rd["salt"]
    if not isinstance(salt, str) or not _HEX.fullmatch(salt):
        raise RecordError("salt must be a hex string of at least 32 characters", round=k)
    if commitment(order, salt) != c:
        raise RecordError("the deal commitment does not match the deck and salt", round=k)
    return Commit(c, salt)


# --- files -------------------------------------------------------------------------


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ValueError(f"duplicate key {k!r}")
        out[k] = v
    return out


def parse_json(text: str) -> Any:
    """Strict JSON: no NaN or Infinity, no duplicate keys, not nested past Python's
    recursion limit (a record is four levels deep; ``[[[[...`` is refused, not a crash)."""
    try:
        return json.loads(text, parse_constant=_no_constants, object_pairs_hook=_no_duplicates)
    except RecursionError:
        raise ValueError("nested too deeply (arrays or objects inside each other "
                         "thousands of times)") from None


@dataclass
class Entry:
    """One record read from a file: its position, its data (or None) and any error."""

    index: int
    data: Any
    error: str | None = None
    line: int | None = None


def read_entries(path: str | Path) -> Iterator[Entry]:
    """The records in a JSON file (one object, or a list of them) or a JSON Lines file."""
    text = Path(path).read_text(encoding="utf-8")
    stripped = text.strip()
    if not stripped:
        yield Entry(0, None, "the file holds no record")
        return
    whole: Any = None
    try:
        whole = parse_json(stripped)
    except ValueError:
        whole = None
        if "\n" not in stripped:
            try:
                parse_json(stripped)
            except ValueError as e:
                yield Entry(0, None, f"not valid JSON: {e}")
                return
    if isinstance(whole, list):
        if not whole:
            yield Entry(0, None, "the file holds an empty list: no record")
        for i, d in enumerate(whole):
            yield Entry(i, d)
        return
    if whole is not None:
        yield Entry(0, whole)
        return
    index = 0
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            yield Entry(index, parse_json(line), line=lineno)
        except ValueError as e:
            yield Entry(index, None, f"line {lineno}: not valid JSON: {e}", line=lineno)
        index += 1


def check_entry(entry: Entry) -> Match | None:
    """Check one entry in place: sets ``entry.error``; returns the match when valid."""
    if entry.error is not None:
        return None
    try:
        return load(entry.data)
    except RecordError as e:
        entry.error = str(e)
        return None
