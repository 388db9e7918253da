"""The Ray backend (issue #36 item 7, finding 4): the same results as the local run,
games in batches sized to the work and streamed back, ``simulate --backend ray``, and
a cluster with Ray's token authentication joined with nothing but its token file.

Ray is in the ``ray`` extra that scripts/setup.sh installs; without it these tests skip.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from parlour.arena import ray_backend
from parlour.arena.jobs import run_job
from parlour.arena.tournament import Tournament
from parlour.simulate import SimConfig, run_chunks

ray = pytest.importorskip("ray", reason="Ray is not installed (the 'ray' extra)")

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def test_small_tournament_on_local_ray_matches_local(local_ray):
    t = Tournament("fantan", 3, ["heuristic", "random"], 6, seed=6)
    local = t.run()
    on_ray = t.run(backend="ray")
    assert on_ray.summary() == local.summary()
    assert on_ray.records() == local.records()


def test_simulate_on_ray_gives_the_local_records(local_ray):
    config = SimConfig("fanti", 2, 40, 5, ("greedy", "random"), {}, "step")
    local = [r for ch in run_chunks(config) for r in ch.records()]
    seen: list[int] = []
    on_ray = [r for ch in ray_backend.simulate_chunks(config, progress=seen.append)
              for r in ch.records()]
    assert on_ray == local
    assert sum(seen) == 40


def test_cheap_games_share_a_task_and_slow_ones_go_one_by_one(local_ray):
    t = Tournament("fantan", 4, ["random"], 25, seed=1)
    jobs = t.jobs()
    work = functools.partial(ray_backend._each, run_job)

    def ranges(task_seconds: float) -> list[tuple[int, int]]:
        return sorted((a, b) for a, b, _ in ray_backend.stream(
            len(jobs), work, jobs, task_seconds=task_seconds))

    cheap = ranges(10.0)  # ten seconds of random-bot games is every game left
    assert len(cheap) < len(jobs) / 4, cheap
    assert max(b - a for a, b in cheap) > 1
    slow = ranges(1e-9)  # every game costs more than a task should: one per task
    assert slow == [(i, i + 1) for i in range(len(jobs))]
    for got in (cheap, slow):  # every game once, none twice
        assert [i for a, b in got for i in range(a, b)] == list(range(len(jobs)))


def test_range_sizes():
    assert ray_backend.range_size(None, 1000, 4) == 1  # the first wave measures
    assert ray_backend.range_size(0.001, 10_000, 2, task_seconds=1.0) == 1000
    assert ray_backend.range_size(0.001, 1000, 2, task_seconds=1.0) == 250  # even shares
    assert ray_backend.range_size(5.0, 1000, 2, task_seconds=1.0) == 1  # slow bots
    assert ray_backend.range_size(0.0, 3, 8) == 1


def test_a_token_at_hand_turns_token_mode_on(tmp_path, monkeypatch):
    for var in ("RAY_AUTH_MODE", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert ray_backend.token_source() is None
    (tmp_path / ".ray").mkdir()
    (tmp_path / ".ray" / "auth_token").write_text("t" * 64)
    assert ray_backend.token_source() == str(tmp_path / ".ray" / "auth_token")
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")  # said outright: left as it is
    ray_backend.enable_token_auth()
    assert os.environ["RAY_AUTH_MODE"] == "disabled"
    monkeypatch.setenv("RAY_AUTH_TOKEN_PATH", str(tmp_path / "missing"))
    with pytest.raises(ConnectionError, match="cannot read RAY_AUTH_TOKEN_PATH"):
        ray_backend.token_source()  # Ray itself would abort the process


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_a_token_cluster_is_joined_with_its_token_file(tmp_path):
    """Finding 4: a cluster started with ``RAY_AUTH_MODE=token`` refused a driver that
    had the token file but no ``RAY_AUTH_MODE``, and the CLI said no cluster answered."""
    bindir = Path(sys.executable).parent
    home, stranger = tmp_path / "home", tmp_path / "stranger"
    home.mkdir()
    stranger.mkdir()
    base = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env = {**base, "HOME": str(home)}
    subprocess.run([bindir / "ray", "get-auth-token", "--generate"], env=env, check=True,
                   capture_output=True, timeout=120)
    short = Path(f"/tmp/pray{os.getpid()}")  # Ray's socket paths must stay short

    def start_head() -> tuple[subprocess.Popen, int]:
        port = _free_port()
        return subprocess.Popen(
            [bindir / "ray", "start", "--head", "--num-cpus", "1", "--port", str(port),
             "--node-ip-address", "127.0.0.1", "--include-dashboard=false",
             "--disable-usage-stats", "--ray-client-server-port", str(_free_port()),
             "--temp-dir", str(short), "--block"],
            # a loaded machine registers the raylet slowly: give it time
            env={**env, "RAY_AUTH_MODE": "token", "RAY_raylet_start_wait_time_s": "300"},
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True), port

    head, port = start_head()
    try:
        args = [sys.executable, "-m", "parlour", "simulate", "fanti", "-n", "2", "-g", "12",
                "--seed", "3", "--json"]
        local = subprocess.run(args, env=base, capture_output=True, text=True, timeout=120)
        assert local.returncode == 0, local.stderr
        deadline, restarts = time.monotonic() + 240, 1
        while True:  # the head node answers once it has started
            address = ["--backend", "ray", "--ray-address", f"127.0.0.1:{port}"]
            joined = subprocess.run(args + address, env=env, capture_output=True, text=True,
                                    timeout=180)
            if joined.returncode == 0 or time.monotonic() > deadline:
                break
            if head.poll() is not None and restarts:  # Ray's start timed out: once more
                restarts -= 1
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(head.pid, signal.SIGKILL)  # what the failed start left
                head, port = start_head()
        assert joined.returncode == 0, joined.stderr[-2000:]
        assert joined.stdout == local.stdout  # the same games, on the cluster
        refused = subprocess.run(args + address, env={**base, "HOME": str(stranger)},
                                 capture_output=True, text=True, timeout=180)
        assert refused.returncode == 2
        last = refused.stderr.strip().splitlines()[-1]
        assert "or it refused us" in last and "auth_token" in last and "Traceback" not in refused.stderr
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(head.pid, signal.SIGTERM)
        try:
            head.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(head.pid, signal.SIGKILL)
            head.wait(10)
        shutil.rmtree(short, ignore_errors=True)
