"""Protocol messages as pydantic models: what clients may send, and the HTTP bodies.

Every client message is a JSON object with a ``type``; unknown types, unknown keys
and wrong types are rejected (``extra="forbid"``, strict types: ``"5"`` is not a
sequence number). See ``docs/protocol.md`` for the whole protocol.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

Name = Annotated[str, Field(max_length=24)]
Secret = Annotated[str, Field(min_length=1, max_length=128)]


class _Msg(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Msg):
    """The first message of every connection: a seat token or a spectator key."""

    type: Literal["hello"]
    table: Annotated[str, Field(min_length=1, max_length=32)]
    token: Secret | None = None
    watch: Secret | None = None
    seq: int | None = None
    """The last sequence number the client saw (informational: a whole state follows)."""


class MoveMsg(_Msg):
    """Play a move. ``seq`` is the sequence number of the state the move answers."""

    type: Literal["move"]
    seq: Annotated[int, Field(ge=0)]
    move: dict[str, Any]


class HintMsg(_Msg):
    type: Literal["hint"]
    seq: Annotated[int, Field(ge=0)]


class StartMsg(_Msg):
    type: Literal["start"]


class RematchMsg(_Msg):
    type: Literal["rematch"]


class ReleaseMsg(_Msg):
    """The host frees a claimed seat before the start (its holder is told and leaves)."""

    type: Literal["release"]
    seat: Annotated[int, Field(ge=0, le=7)]


class LeaveMsg(_Msg):
    """Leave the table: before the start the seat is freed; during the game a stand-in
    bot plays it to the end."""

    type: Literal["leave"]


class PingMsg(_Msg):
    type: Literal["ping"]


class SyncMsg(_Msg):
    """Ask for the whole state again (a ``snapshot``): after a delta whose version ``v``
    does not follow the one held."""

    type: Literal["sync"]


class BackMsg(_Msg):
    """Take the seat back from the stand-in bot that plays it after a timeout."""

    type: Literal["back"]


class RematchAnswerMsg(_Msg):
    """Accept or decline the rematch on offer (server/cardroom.py)."""

    type: Literal["rematch_answer"]
    accept: bool


class RematchFillMsg(_Msg):
    """The host fills declined seats of a rematch: with the computer or open seats."""

    type: Literal["rematch_fill"]
    with_: Literal["bot", "open"] = Field(alias="with")


class ReopenMsg(_Msg):
    """The host opens a seat the computer plays (or never connected) to a new person."""

    type: Literal["reopen"]
    seat: Annotated[int, Field(ge=0, le=7)]


class ChatMsg(_Msg):
    """A line of table chat: plain text, never markup, never part of the record."""

    type: Literal["chat"]
    text: Annotated[str, Field(min_length=1, max_length=1000)]


ClientMessage = Annotated[
    Hello | MoveMsg | HintMsg | StartMsg | RematchMsg | PingMsg | BackMsg | ReleaseMsg
    | LeaveMsg | RematchAnswerMsg | RematchFillMsg | ReopenMsg | ChatMsg | SyncMsg,
    Field(discriminator="type"),
]
_client = TypeAdapter(ClientMessage)


class ReviewBody(BaseModel):
    """Review one seat's moves in one round: of a finished table, or of a record."""

    model_config = ConfigDict(extra="forbid")

    table: Annotated[str, Field(max_length=32)] | None = None
    record: dict[str, Any] | None = None
    round: Annotated[int, Field(ge=1, le=10_000)]
    seat: Annotated[int, Field(ge=0, le=7)]


class BadMessage(ValueError):
    """A client message that is not valid JSON or not one of the protocol's messages."""


def parse_client(text: str) -> Any:
    """The message in ``text``, or :class:`BadMessage` naming every problem."""
    try:
        return _client.validate_json(text)
    except ValidationError as e:
        problems = []
        for err in e.errors()[:5]:
            where = ".".join(str(p) for p in err["loc"]) or "message"
            problems.append(f"{where}: {err['msg']}")
        raise BadMessage("; ".join(problems)) from None


# --- HTTP bodies -------------------------------------------------------------------


class SeatSpec(_Msg):
    """One seat of a new table: a person (``name`` optional) or a bot of a level."""

    kind: Literal["person", "bot"]
    bot: Annotated[str, Field(max_length=32)] | None = None
    name: Name | None = None


class TestOptions(_Msg):
    """Only honoured by a server built with ``testing=True``: fixed decks and seeds."""

    seed: int | None = None
    decks: list[list[str]] | None = None
    dealer: int | None = None


class CreateTable(BaseModel):
    """A new table. ``rules`` holds JSON-typed option values (``{"rounds": 1}``)."""

    model_config = ConfigDict(extra="forbid")

    game: Annotated[str, Field(max_length=16)]
    players: Annotated[int, Field(ge=2, le=8)]
    rules: dict[str, Any] = Field(default_factory=dict)
    seats: list[SeatSpec] | None = None
    """One per seat; default: the creator in seat 0, bots elsewhere."""
    name: Name = ""
    """The creator's display name (the first person seat)."""
    timer: Annotated[int, Field(ge=5, le=3600)] | None = None
    """Seconds per turn; ``null``: no turn timer (the default)."""
    days: Literal[1, 3, 7] | None = None
    """A correspondence game: days for each move (1, 3 or 7; not with ``timer``).
    Absent players keep their seat until their days run out; then the stand-in plays
    that move, as for ``timer``."""
    standin: Annotated[str, Field(max_length=32)] | None = None
    """The bot that plays for a seat that timed out or left (default: a medium bot)."""
    hints: bool = True
    """Whether seated players may ask for hints (a few a round)."""
    test: TestOptions | None = None
    public: bool = False
    """List the table on the front page: anyone may take a free seat or watch."""
    rated: bool = False
    """The game changes its players' ratings (every seat must be a person's)."""


class JoinTable(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: Secret
    name: Name = ""


class Joined(BaseModel):
    """A seat (with its token: keep it, it is shown once) or a spectator pass."""

    table: str
    role: Literal["seat", "spectator"]
    seat: int | None = None
    token: str | None = None
    watch: str | None = None
    invite_url: str | None = None
    watch_url: str
    table_url: str
    rejoin_url: str | None = None
    """The seat's personal rejoin link: it gives the seat back on any device; shown once."""
