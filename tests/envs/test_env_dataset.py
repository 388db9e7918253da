"""``parlour dataset``: records as (observation, mask, action, seat, return) arrays,
loaded back and checked against the records (docs/research.md, "Datasets")."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from parlour import record
from parlour.cli import commands  # noqa: F401  (registers the commands)
from parlour.cli.app import app
from parlour.envs import dataset
from parlour.envs.encoding import codec_for
from parlour.envs.observation import encoder_for
from parlour.envs.session import game_result
from parlour.match import Match


def _simulate(path: Path, game: str, players: int, games: int, rounds: int, bots: str) -> None:
    result = CliRunner().invoke(app, ["simulate", game, "-n", str(players), "--games",
                                      str(games), "--rule", f"rounds={rounds}", "--bots", bots,
                                      "--seed", "5", "--out", str(path), "--json"])
    assert result.exit_code == 0, result.output


def _check_against_records(folder: Path, records: Path) -> int:
    """Every game of the dataset, decoded back move by move, is its record; returns rows."""
    d = dataset.load(folder)
    matches = [record.load(json.loads(line)) for line in records.read_text().splitlines()]
    assert d.schema["games"] == len(matches) == len(d.games)
    codec = codec_for(d.schema["game"])
    enc = encoder_for(d.schema["game"], d.schema["players"], d.schema["observation"] == "infostate")
    assert d.obs.shape == (len(d), enc.size) and d.mask.shape == (len(d), codec.num_actions)
    i = 0
    for g, full in enumerate(matches):
        assert d.games[g]["totals"] == full.totals and d.games[g]["winners"] == full.winners
        result = game_result(full)
        m = Match(full.game, full.rules, list(full.seats), full.first_dealer)
        for k, done in enumerate(full.rounds):
            rnd = m.deal(done.deck)
            for seat, move in done.history:
                pending, made = None, None
                while made is None:  # the rows of one move, decoded as the env would
                    assert d.game[i] == g and d.round[i] == k and d.seat[i] == seat
                    assert d.mask[i, d.action[i]]
                    legal = np.zeros(codec.num_actions, bool)
                    legal[codec.legal_actions(rnd, pending)] = True
                    assert (d.mask[i] == legal).all()
                    assert (d.obs[i] == enc.encode(m, seat, pending)).all()
                    assert d.ret[i] == pytest.approx(result[seat])
                    pending, made = codec.decode(rnd, pending, int(d.action[i]))
                    i += 1
                assert made == move
                m.apply(move)
    assert i == len(d)
    return i


def test_a_dataset_of_1000_rounds_is_its_records(tmp_path) -> None:
    records = tmp_path / "sim.jsonl"
    _simulate(records, "fantan", 4, 250, 4, "greedy")  # 1,000 rounds
    result = CliRunner().invoke(app, ["dataset", str(records), "--out", str(tmp_path / "d"),
                                      "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)
    assert summary["games"] == 250 and summary["skipped_in_play"] == 0
    assert _check_against_records(tmp_path / "d", records) == summary["rows"] > 40_000
    d = dataset.load(tmp_path / "d")
    assert d.field("hand").shape == (len(d), 52)
    # zero-sum results: every game's seats add to 0 (one row per seat is enough to see it)
    assert abs(float(np.mean(d.ret))) < 0.2


def test_fanti_infostate_and_a_tournament_records_file(tmp_path) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(app, ["tournament", "fanti", "--players", "3", "--bots",
                                      "heuristic,random", "--games", "4", "--out", str(out)])
    assert result.exit_code == 0, result.output
    summary = dataset.build([out / "records.jsonl"], tmp_path / "d", "infostate")
    assert summary["observation"] == "infostate" and summary["games"] == 12
    _check_against_records(tmp_path / "d", out / "records.jsonl")


def test_games_in_play_are_left_out_and_bad_input_writes_nothing(tmp_path) -> None:
    records = tmp_path / "sim.jsonl"
    _simulate(records, "fantan", 3, 3, 1, "random")
    lines = records.read_text().splitlines()
    cut = record.truncate(record.load(json.loads(lines[0])), 0, 10)
    (tmp_path / "mixed.jsonl").write_text("\n".join([*lines, record.dumps(cut)]) + "\n")
    summary = dataset.build([tmp_path / "mixed.jsonl"], tmp_path / "d")
    assert summary["games"] == 3 and summary["skipped_in_play"] == 1
    (tmp_path / "bad.jsonl").write_text(lines[0] + "\n{\"format\": 1}\n")
    fanti = tmp_path / "fanti.jsonl"
    _simulate(fanti, "fanti", 3, 1, 1, "random")
    for args, words in (([str(tmp_path / "bad.jsonl")], "record 2 (line 2)"),
                        ([str(records), str(fanti)], "one game at one table size"),
                        ([str(tmp_path / "none.jsonl")], "no record file"),
                        ([str(records), "--observation", "pixels"], "observation must be")):
        result = CliRunner().invoke(app, ["dataset", *args, "--out", str(tmp_path / "no")])
        assert result.exit_code == 2 and words in result.output, result.output
        assert not (tmp_path / "no").exists()


def test_parquet_beside_numpy_loads_back_the_same_rows(tmp_path) -> None:
    """``--parquet``: rows.parquet holds every column of the numpy files, the schema in its
    metadata; load_parquet gives the same arrays (and refuses a table that is not one)."""
    records = tmp_path / "sim.jsonl"
    _simulate(records, "fanti", 2, 3, 1, "random")
    result = CliRunner().invoke(app, ["dataset", str(records), "--out", str(tmp_path / "d"),
                                      "--parquet", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["parquet"] == "rows.parquet"
    a, b = dataset.load(tmp_path / "d"), dataset.load_parquet(tmp_path / "d")
    assert b.schema["rows"] == len(a) == len(b) and b.games == a.games
    for k in dataset.COLUMNS:
        x, y = getattr(a, k), getattr(b, k)
        assert x.dtype == y.dtype and x.shape == y.shape and (x == y).all(), k
    import pyarrow as pa
    import pyarrow.parquet as pq
    pq.write_table(pa.table({"x": [1]}), tmp_path / "other.parquet")
    with pytest.raises(dataset.DatasetError, match="not a"):
        dataset.load_parquet(tmp_path / "other.parquet")
