"""Helpers for the hardening tests: record replay by sequence number, the
acknowledged-moves check, the hidden-card check over captured traffic, and a
temporary PostgreSQL cluster."""

from __future__ import annotations

import glob
import importlib.util
import os
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest


def _server_kit() -> Any:
    """``tests/server/server_kit.py`` (its hidden-card checker), loaded by path: adding
    ``tests/server`` to ``sys.path`` would shadow the root ``conftest``."""
    if "server_kit" not in sys.modules:
        path = Path(__file__).resolve().parents[1] / "server" / "server_kit.py"
        spec = importlib.util.spec_from_file_location("server_kit", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["server_kit"] = module
        spec.loader.exec_module(module)
    return sys.modules["server_kit"]


server_kit = _server_kit()
hidden_cards, mentioned, CODE = server_kit.hidden_cards, server_kit.mentioned, server_kit.CODE

from parlour import record  # noqa: E402
from parlour.loadtest import run_sync  # noqa: E402
from parlour.loadtest.clients import TableRun  # noqa: E402
from parlour.server.db import Store  # noqa: E402


def record_events(data: dict[str, Any]) -> dict[int, tuple[str, int | None, dict[str, Any] | None]]:
    """Each event of a record by sequence number: ``("deal", None, None)`` or
    ``("move", seat, move)`` (the move as a client sends it, without ``seat``)."""
    out: dict[int, tuple[str, int | None, dict[str, Any] | None]] = {}
    seq = 0
    for rd in data["rounds"]:
        seq += 1
        out[seq] = ("deal", None, None)
        for mv in rd["moves"]:
            seq += 1
            move = {k: v for k, v in mv.items() if k != "seat"}
            out[seq] = ("move", mv["seat"], move)
    return out


def match_at(full: Any, seq: int) -> Any:
    """The match as it stood at sequence number ``seq`` (None before the first deal)."""
    n = 0
    for i, r in enumerate(full.rounds):
        n += 1
        if seq <= n + len(r.history):
            if seq < n:
                return record.truncate(full, i - 1, len(full.rounds[i - 1].history))
            return record.truncate(full, i, seq - n)
        n += len(r.history)
    return full


def check_moves(runs: list[TableRun], records: dict[str, dict[str, Any]]) -> dict[str, int]:
    """No move lost, none applied twice, none made up: every move a client saw
    acknowledged is in the final record at that sequence number, and every person's
    move in the record is one that seat sent for the state just before it."""
    acked = sent = recorded = 0
    for run in runs:
        data = records[run.id]  # type: ignore[index]
        events = record_events(data)
        forced = forced_seqs(run, data)
        for seat in run.seats:
            for seq, move in seat.log.acked:
                kind, who, mv = events[seq]
                assert (kind, who, mv) == ("move", seat.seat, move), (run.id, seq, move)
                acked += 1
            intents = {(seq, _key(move)) for seq, move in seat.log.sent}
            sent += len(seat.log.sent)
            for seq, (kind, who, mv) in events.items():
                if kind == "move" and who == seat.seat and seq not in forced:
                    recorded += 1
                    assert (seq - 1, _key(mv)) in intents, (
                        f"table {run.id}: seat {who} never sent {mv} at seq {seq - 1}")
    return {"acked": acked, "sent": sent, "recorded_person_moves": recorded}


def forced_seqs(run: TableRun, data: dict[str, Any]) -> set[int]:
    """Sequence numbers of the server's automatic passes (``by: forced``) in the last
    round, read from the final state's log; earlier rounds' passes count as forced."""
    final = next((s.state for s in run.seats if s.state and s.state["table"]["status"] == "over"),
                 None)
    assert final is not None, f"table {run.id}: no seat saw the end"
    base = sum(1 + len(rd["moves"]) for rd in data["rounds"][:-1]) + 1  # the last deal
    out = {seq for seq, (kind, _, mv) in record_events(data).items()
           if kind == "move" and seq <= base and mv == {"pass": True}}
    moves = [e for e in final["log"] if e.get("kind") == "move"]
    assert len(moves) == len(data["rounds"][-1]["moves"])
    out.update(base + 1 + i for i, e in enumerate(moves) if e.get("by") == "forced")
    return out


def _key(move: dict[str, Any] | None) -> str:
    import json

    return json.dumps(move, sort_keys=True)


def check_events(store: Store, records: dict[str, dict[str, Any]]) -> int:
    """The events table holds each table's events once, numbered 1..N, equal to the
    record's."""
    total = 0
    for tid, data in records.items():
        events = store.events(tid)
        seqs = [e.seq for e in events]
        assert seqs == list(range(1, len(seqs) + 1)), (tid, seqs[:10])
        want = record_events(data)
        assert len(events) == len(want), (tid, len(events), len(want))
        for e in events:
            if e.data.get("kind") == "move":
                move = e.data["move"]
                assert want[e.seq] == ("move", e.data["seat"], move), (tid, e.seq)
            else:
                assert want[e.seq][0] == "deal"
        total += len(events)
    return total


def check_traffic(runs: list[TableRun], records: dict[str, dict[str, Any]]) -> int:
    """Every captured message to a seat names none of the cards hidden from that seat
    at the message's sequence number (other hands; Fanti's undealt deck)."""
    checked = 0
    leaks: list[str] = []
    for run in runs:
        full = record.load(records[run.id])  # type: ignore[index]
        cache: dict[int, Any] = {}
        for seat in run.seats:
            for msg in seat.log.captured:
                seq = msg.get("seq")
                if seq is None:
                    continue
                if seq not in cache:
                    cache[seq] = match_at(full, seq) if seq > 0 else None
                m = cache[seq]
                leak = mentioned(msg, m) & hidden_cards(m, seat.seat)
                if leak:
                    leaks.append(f"{run.id} seat {seat.seat} seq {seq} {msg['type']}: "
                                 f"{sorted(leak)}")
                checked += 1
    assert not leaks, leaks[:5]
    return checked


async def fetch_records(runs: list[TableRun]) -> dict[str, dict[str, Any]]:
    import httpx

    out = {}
    async with httpx.AsyncClient(timeout=30) as http:
        for run in runs:
            data = await run.record(http) if run.id else None
            if data is not None:  # a game that did not finish is reported by the caller
                out[run.id] = data  # type: ignore[index]
    return out


def records_of(runs: list[TableRun]) -> dict[str, dict[str, Any]]:
    return run_sync(fetch_records(runs))


# --- a temporary PostgreSQL cluster ------------------------------------------------


def postgres_bin() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return os.path.dirname(found[-1]) if found else None


class Postgres:
    """A throwaway PostgreSQL cluster on a free 127.0.0.1 port, run as ``postgres``."""

    def __init__(self) -> None:
        bindir = postgres_bin()
        if bindir is None or os.geteuid() != 0 or shutil.which("runuser") is None:
            pytest.skip("PostgreSQL binaries (Debian postgresql) and root are needed")
        pytest.importorskip("psycopg")
        self.bindir = bindir
        self.data = tempfile.mkdtemp(prefix="parlour-pg-")
        shutil.chown(self.data, "postgres")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.as_pg = ["runuser", "-u", "postgres", "--"]
        subprocess.run(self.as_pg + [f"{bindir}/initdb", "-D", self.data, "-A", "trust",
                                     "-U", "parlour"], check=True, capture_output=True)
        self.start()

    @property
    def url(self) -> str:
        return f"postgresql://parlour@127.0.0.1:{self.port}/postgres"

    @property
    def sqlalchemy_url(self) -> str:
        return f"postgresql+psycopg://parlour@127.0.0.1:{self.port}/postgres"

    def start(self) -> None:
        subprocess.run(self.as_pg + [
            f"{self.bindir}/pg_ctl", "-D", self.data, "-w", "-l", f"{self.data}/log", "-o",
            f"-p {self.port} -k {self.data} -c listen_addresses=127.0.0.1 "
            f"-c max_connections=200 -c fsync=off", "start"], check=True, capture_output=True)

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(self.as_pg + [f"{self.bindir}/pg_ctl", "-D", self.data, "-m", mode,
                                     "-w", "stop"], capture_output=True)

    def cleanup(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.data, ignore_errors=True)
