"""Every code block of docs/research.md runs (issue #35): the ``python`` blocks in order in
one namespace, the shell blocks of ``parlour ...`` commands as subprocesses with small
sizes (``--games 2``); a block that is not run says why just above it in the doc
(``<!-- not run: REASON -->``)."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

DOC = Path(__file__).resolve().parents[2] / "docs" / "research.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```\n", re.S | re.M)
NOT_RUN = re.compile(r"<!-- not run: (.+?) -->\s*$")


def blocks() -> list[tuple[int, str, str, str | None]]:
    """``(line, kind, code, reason not run)`` of every fenced block, in order."""
    text = DOC.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        before = text[:m.start()].rstrip("\n").splitlines()
        marker = NOT_RUN.search(before[-1]) if before else None
        out.append((text.count("\n", 0, m.start()) + 1, m.group(1), m.group(2),
                    marker.group(1) if marker else None))
    return out


def _commands(code: str) -> list[list[str]]:
    """A shell block's ``parlour`` lines (``$ `` prompts and comments dropped), with every
    ``--games N`` cut to 2; None for a line that is not a parlour command."""
    cmds = []
    for raw in code.replace("\\\n", " ").splitlines():
        line = raw.split(" #")[0].strip().removeprefix("$ ").strip()
        if not line or line.startswith("#"):
            continue
        words = shlex.split(line)
        if words[0] != "parlour":
            raise AssertionError(f"not a parlour command: {line!r}")
        words = [w for w in words]
        for i, w in enumerate(words[:-1]):
            if w == "--games":
                words[i + 1] = "2"
        cmds.append([sys.executable, "-m", "parlour", *words[1:]])
    return cmds


def test_every_block_is_run_or_says_why_not():
    for line, kind, code, reason in blocks():
        if kind == "python" or reason:
            continue
        try:
            _commands(code)
        except AssertionError as e:
            pytest.fail(f"docs/research.md line {line}: {e}; run it or mark it "
                        "<!-- not run: REASON -->")


def test_the_research_doc_code_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    namespace: dict = {"__name__": "research_doc"}
    ran = 0
    for line, kind, code, reason in blocks():
        if reason:
            continue
        if kind == "python":
            exec(compile(code, f"docs/research.md:{line}", "exec"), namespace)  # noqa: S102
        else:
            for cmd in _commands(code):
                done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
                assert done.returncode == 0, (line, cmd, done.stdout, done.stderr)
        ran += 1
    assert ran >= 6
