"""Every data file the package loads at run time ships in its wheel.

The learned models and card networks are read from their game's folder; a file the
``[tool.setuptools.package-data]`` patterns miss is present in a checkout (and an
editable install) but absent from an installed wheel, where the bot using it fails.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "parlour"
DATA_SUFFIXES = {".npz", ".json", ".js", ".npy"}


def shipped_patterns() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return config["tool"]["setuptools"]["package-data"]["parlour"]


def data_files() -> list[Path]:
    return [p for p in PACKAGE.rglob("*") if p.is_file() and p.suffix in DATA_SUFFIXES
            and "__pycache__" not in p.parts and "static" not in p.parts]


def test_every_game_data_file_is_in_the_package_data() -> None:
    found = data_files()
    assert any(p.name.startswith("cardnet") for p in found)  # the kind once missed
    patterns = shipped_patterns()
    missing = [str(p.relative_to(PACKAGE)) for p in found
               if not any(p.relative_to(PACKAGE).match(pat) for pat in patterns)]
    assert missing == [], f"add these to [tool.setuptools.package-data]: {missing}"
