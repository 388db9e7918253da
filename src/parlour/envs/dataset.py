"""Records as learning data: (observation, mask, action, seat, return) arrays.

>>> import json, shutil, tempfile
>>> from pathlib import Path
>>> from parlour import Match, Shuffler, get_game, record
>>> from parlour.envs import dataset
>>> game = Match.new(get_game("fanti"), 2, {"rounds": 1}, shuffler=Shuffler(3))
>>> while not game.is_over:
...     _ = game.apply(game.current.legal_moves()[0])
>>> here = Path(tempfile.mkdtemp())
>>> _ = (here / "records.jsonl").write_text(json.dumps(record.dump(game)))
>>> summary = dataset.build([here / "records.jsonl"], here / "data")  # or: parlour dataset
>>> d = dataset.load(here / "data")
>>> d.obs.shape[0] == d.mask.shape[0] == len(d.action) == len(d.ret) > 0
True
>>> shutil.rmtree(here)

Every finished game record (``parlour tournament --out``, ``parlour simulate --out``, a
table's record: docs/records.md) is replayed move by move through the environments'
own encodings (:mod:`.encoding`, :mod:`.observation`), so a row is exactly what a
PettingZoo or Gymnasium agent in that seat saw and did: one row per **action id** (a
Fanti play that takes several actions gives several rows, as in the environments). A
record of a game still in play is left out and counted (``skipped``). One dataset holds
one game at one table size (the observation size depends on both); rule variants may
mix (the observation carries the rules).

The folder (format ``parlour-dataset/1``; ``schema.json`` says it all again):

============== ================= ===========================================================
file           dtype, shape      meaning
============== ================= ===========================================================
``obs.npy``    float32 (N, size) the acting seat's observation before the action
                                 (``observation="vector"`` or ``"infostate"``; layout in
                                 ``schema.json`` and docs/research.md)
``mask.npy``   bool (N, A)       the legal action ids then
``action.npy`` int16 (N,)        the action id taken
``seat.npy``   int8 (N,)         the acting seat
``ret.npy``    float32 (N,)      the seat's return: the game's zero-sum result (the
                                 environments' ``reward="result"``: a sole winner +1, each
                                 loser -1/(n-1), shared wins split)
``score.npy``  float32 (N,)      the seat's signed score of the round (more is better:
                                 Fan Tan points negated), the ``reward="score"`` scheme
``game.npy``   int32 (N,)        which game (index into ``games.jsonl``)
``round.npy``  int16 (N,)        the round of that game (0-based)
``step.npy``   int32 (N,)        the action's index in its round
``games.jsonl`` one line a game  source file, its index there, rules, seats, totals,
                                 winners, ``meta`` (e.g. the arena's bots and seeds)
``rows.parquet`` one row an action the same columns in one Parquet table (``parquet=True``,
                                 ``parlour dataset --parquet``): ``obs`` and ``mask`` as
                                 fixed-size lists of float32 / bool, the others as above;
                                 the schema's JSON in the table's metadata key
                                 ``parlour``. :func:`load_parquet` reads it back.
============== ================= ===========================================================
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from parlour import record
from parlour.envs.encoding import codec_for
from parlour.envs.observation import encoder_for
from parlour.envs.session import OBSERVATIONS, game_result, signed_score
from parlour.match import Match

FORMAT = "parlour-dataset/1"
COLUMNS: dict[str, tuple[str, str]] = {
    "obs": ("float32", "the acting seat's observation before the action"),
    "mask": ("bool", "the legal action ids then"),
    "action": ("int16", "the action id taken"),
    "seat": ("int8", "the acting seat"),
    "ret": ("float32", "the seat's zero-sum game result (reward='result')"),
    "score": ("float32", "the seat's signed round score, more is better (reward='score')"),
    "game": ("int32", "index of the game in games.jsonl"),
    "round": ("int16", "round of the game, 0-based"),
    "step": ("int32", "index of the action in its round"),
}


class DatasetError(ValueError):
    """Records that cannot make one dataset, in words."""


def replay(full: Match, observation: str = "vector") -> Iterator[dict[str, Any]]:
    """The rows of one finished match: each action id of each move, with what the
    acting seat saw before it (module docstring)."""
    game = full.game
    codec = codec_for(game.name)
    enc = encoder_for(game.name, full.players, observation == "infostate")
    result = game_result(full)
    m = Match(game, full.rules, list(full.seats), full.first_dealer)
    for k, done in enumerate(full.rounds):
        rnd = m.deal(done.deck)
        signed = signed_score(m, done.score() or [0] * full.players)
        step = 0
        for seat, move in done.history:
            pending = None
            for action in codec.encode(rnd, move):
                mask = np.zeros(codec.num_actions, np.bool_)
                mask[codec.legal_actions(rnd, pending)] = True
                yield {"obs": enc.encode(m, seat, pending), "mask": mask, "action": action,
                       "seat": seat, "ret": result[seat], "score": signed[seat],
                       "round": k, "step": step}
                pending, made = codec.decode(rnd, pending, action)
                step += 1
            assert made == move, "the codec's path gives back the move"
            m.apply(move)


def _matches(paths: Sequence[str | Path]) -> Iterator[tuple[str, int, Match | None, str | None]]:
    for path in paths:
        try:
            entries = list(record.read_entries(path))
        except OSError as e:
            raise DatasetError(f"cannot read {path}: {e.strerror or e}") from None
        except UnicodeDecodeError:
            raise DatasetError(f"{path} is not a text file of records") from None
        for entry in entries:
            match = record.check_entry(entry)
            where = f"{path} record {entry.index + 1}" + (
                f" (line {entry.line})" if entry.line else "")
            yield str(path), entry.index, match, (f"{where}: {entry.error}" if entry.error
                                                  else None)


def collect(paths: Sequence[str | Path]) -> tuple[list[tuple[str, int, Match]], int]:
    """The finished games of ``paths`` and how many games still in play were left out;
    :class:`DatasetError` in words for a bad record or a mix of games or table sizes."""
    games: list[tuple[str, int, Match]] = []
    skipped = 0
    for path, index, match, error in _matches(paths):
        if error is not None:
            raise DatasetError(error)
        assert match is not None
        if not match.is_over:
            skipped += 1  # a game still in play never enters a dataset
            continue
        games.append((path, index, match))
    if not games:
        raise DatasetError("no finished game in " + ", ".join(map(str, paths)))
    kinds = {(m.game.name, m.players) for _p, _i, m in games}
    if len(kinds) > 1:
        listed = ", ".join(f"{g} with {n} players" for g, n in sorted(kinds))
        raise DatasetError(f"one dataset holds one game at one table size; these records "
                           f"have {listed}: make one dataset of each")
    return games, skipped


def build(paths: Sequence[str | Path], out: str | Path,
          observation: str = "vector", parquet: bool = False) -> dict[str, Any]:
    """Write the dataset of the finished games in ``paths`` to the folder ``out`` (and
    ``rows.parquet`` with ``parquet``); returns the summary (also in ``schema.json``). A
    bad record is refused in words (:class:`DatasetError`) before anything is written."""
    check_observation(observation)
    games, skipped = collect(paths)
    return write(games, skipped, out, observation, paths, parquet)


def check_observation(observation: str) -> None:
    if observation not in OBSERVATIONS:
        raise DatasetError(f"observation must be one of {', '.join(OBSERVATIONS)}, "
                           f"not {observation!r}")


def write(games: list[tuple[str, int, Match]], skipped: int, out: str | Path,
          observation: str, paths: Sequence[str | Path], parquet: bool = False
          ) -> dict[str, Any]:
    """Replay ``games`` (from :func:`collect`) and write the folder ``out``."""
    columns: dict[str, list[Any]] = {k: [] for k in COLUMNS}
    for g, (_path, _index, match) in enumerate(games):
        for row in replay(match, observation):
            for k, v in row.items():
                columns[k].append(v)
            columns["game"].append(g)
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, np.ndarray] = {}
    for k, (dtype, _doc) in COLUMNS.items():
        data = (np.stack(columns[k]).astype(dtype) if k in ("obs", "mask")
                else np.asarray(columns[k], dtype=dtype))
        np.save(folder / f"{k}.npy", data)
        arrays[k] = data
    with (folder / "games.jsonl").open("w", encoding="utf-8") as f:
        for path, index, m in games:
            f.write(json.dumps({"source": path, "index": index, "rules": m.rules,
                                "seats": m.seats, "first_dealer": m.first_dealer,
                                "totals": m.totals, "winners": m.winners,
                                "meta": m.meta}) + "\n")
    first = games[0][2]
    name, players = first.game.name, first.players
    enc = encoder_for(name, players, observation == "infostate")
    summary = {
        "format": FORMAT, "game": name, "players": players, "observation": observation,
        "rows": len(columns["action"]), "games": len(games), "skipped_in_play": skipped,
        "num_actions": codec_for(name).num_actions, "obs_size": enc.size,
        "layout": [{"name": f.name, "offset": enc.offsets[f.name], "shape": list(f.shape),
                    "meaning": f.doc} for f in enc.fields],
        "columns": {k: {"file": f"{k}.npy", "dtype": d, "meaning": doc}
                    for k, (d, doc) in COLUMNS.items()},
        "sources": [str(p) for p in paths],
    }
    if parquet:
        summary["parquet"] = PARQUET_FILE
        write_parquet(arrays, summary, folder / PARQUET_FILE)
    (folder / "schema.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return summary


PARQUET_FILE = "rows.parquet"


def write_parquet(arrays: dict[str, np.ndarray], schema: dict[str, Any], path: Path) -> None:
    """The columns as one Parquet table: ``obs`` and ``mask`` as fixed-size lists (one
    list a row), the schema's JSON in the metadata key ``parlour``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols = {}
    for k, data in arrays.items():
        if data.ndim == 2:
            flat = pa.array(data.reshape(-1))
            cols[k] = pa.FixedSizeListArray.from_arrays(flat, data.shape[1])
        else:
            cols[k] = pa.array(data)
    table = pa.table(cols).replace_schema_metadata({"parlour": json.dumps(schema)})
    pq.write_table(table, path)


def load_parquet(path: str | Path) -> Dataset:
    """A ``rows.parquet`` (:func:`write_parquet`) as a :class:`Dataset`, every column a
    numpy array of the numpy files' dtype and shape; ``games`` from the ``games.jsonl``
    beside it, if there is one."""
    import pyarrow.parquet as pq

    file = Path(path)
    if file.is_dir():
        file = file / PARQUET_FILE
    try:
        table = pq.read_table(file)
    except (OSError, ValueError) as e:
        raise DatasetError(f"{file} holds no Parquet dataset: {e}") from None
    meta = table.schema.metadata or {}
    if b"parlour" not in meta:
        raise DatasetError(f"{file} is not a {FORMAT} Parquet table")
    schema = json.loads(meta[b"parlour"])
    arrays: dict[str, np.ndarray] = {}
    for k, (dtype, _doc) in COLUMNS.items():
        col = table.column(k).combine_chunks()
        if k in ("obs", "mask"):
            width = col.type.list_size
            arrays[k] = col.values.to_numpy(zero_copy_only=False).astype(dtype).reshape(-1, width)
        else:
            arrays[k] = col.to_numpy(zero_copy_only=False).astype(dtype)
    games_file = file.parent / "games.jsonl"
    games = ([json.loads(line) for line in games_file.read_text(encoding="utf-8").splitlines()
              if line] if games_file.is_file() else [])
    return Dataset(schema=schema, games=games, **arrays)


@dataclass
class Dataset:
    """A dataset folder loaded back: every column a numpy array (memory-mapped)."""

    schema: dict[str, Any]
    obs: np.ndarray
    mask: np.ndarray
    action: np.ndarray
    seat: np.ndarray
    ret: np.ndarray
    score: np.ndarray
    game: np.ndarray
    round: np.ndarray
    step: np.ndarray
    games: list[dict[str, Any]]

    def __len__(self) -> int:
        return int(self.action.shape[0])

    def field(self, name: str) -> np.ndarray:
        """One observation field of every row, shaped (N, *shape) (``schema.json``)."""
        f = next((f for f in self.schema["layout"] if f["name"] == name), None)
        if f is None:
            raise KeyError(f"no observation field {name!r}")
        size = int(np.prod(f["shape"]))
        return self.obs[:, f["offset"]:f["offset"] + size].reshape(-1, *f["shape"])


def load(folder: str | Path, mmap: bool = True) -> Dataset:
    """A dataset written by :func:`build` (``parlour dataset``)."""
    path = Path(folder)
    try:
        schema = json.loads((path / "schema.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise DatasetError(f"{path} holds no dataset (schema.json: {e})") from None
    if schema.get("format") != FORMAT:
        raise DatasetError(f"{path} is not a {FORMAT} dataset")
    arrays = {k: np.load(path / f"{k}.npy", mmap_mode="r" if mmap else None)
              for k in COLUMNS}
    games = [json.loads(line) for line in
             (path / "games.jsonl").read_text(encoding="utf-8").splitlines() if line]
    return Dataset(schema=schema, games=games, **arrays)


def rows(data: Dataset) -> Iterable[dict[str, Any]]:
    """The rows one by one, as :func:`replay` gives them (for checks and small data)."""
    for i in range(len(data)):
        yield {k: getattr(data, k)[i] for k in COLUMNS}
