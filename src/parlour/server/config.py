"""Where ``parlour serve`` takes each setting from: an option, the environment, a file.

One resolver for every setting of :class:`~parlour.server.settings.Settings` and the
few that only ``serve`` has (:class:`Listen`). A value given as an option (or with
``--set``) wins over a ``PARLOUR_*`` environment variable, which wins over the TOML file
named by ``--config`` or ``PARLOUR_CONFIG``, which wins over the default. Option
defaults are ``None`` in the command, so they never hide the environment (they did:
``PARLOUR_DB`` was ignored). Every value goes through :meth:`Settings.set`, so a bad one
is refused in the same words whichever source it came from, naming that source.
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.server.settings import Settings, db_url_for

ENV_ALIASES = {"PARLOUR_DB": "db_url", "PARLOUR_ORIGINS": "allowed_origins"}
"""Environment names kept from before every setting had its own ``PARLOUR_<NAME>``."""
FILE_ALIASES = {"db": "db_url", "origins": "allowed_origins"}
SECRET_WORDS = ("secret", "private", "token", "password", "credential")
"""A text setting whose name holds one of these is printed as ``***`` (never its value)."""


@dataclass
class Listen:
    """What only ``serve`` needs: where to listen, and how."""

    host: str = "127.0.0.1"
    port: int = 8000
    listeners: int = 8
    ws_deflate: bool = False


@dataclass
class Resolved:
    settings: Settings
    listen: Listen
    sources: dict[str, str]
    """Setting name -> where its value came from, for every value not left at default."""
    raw_db: str | None
    """The database as given (a plain path is a SQLite file to check), if given."""


class ConfigError(ValueError):
    """A bad value or file, in one line naming where it came from."""


def _set(target: Any, name: str, text: str) -> None:
    Settings.set(target, name, text)  # the same parsing and checks for both dataclasses


def _text(value: Any) -> str:
    """A TOML (or option) value as the text :meth:`Settings.set` parses."""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, list | tuple):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        raise ValueError("a table is not a setting's value")
    return str(value)


def read_file(path: Path) -> dict[str, Any]:
    """The TOML config file's settings (flat ``name = value`` pairs)."""
    try:
        with path.open("rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise ConfigError(f"cannot read the config file {path}: {e.strerror or e}") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"the config file {path} is not valid TOML: {e}") from None
    return data


def resolve(options: Mapping[str, Any], env: Mapping[str, str],
            config: str | None = None, sets: Mapping[str, str] | None = None) -> Resolved:
    """Settings from ``options`` (name -> value, ``None`` when not given) and ``sets``
    (``--set NAME=VALUE``), ``env`` and the config file (``config``, else
    ``PARLOUR_CONFIG``), in that order of precedence."""
    settings, listen = Settings(), Listen()
    names = {f.name: settings for f in dataclasses.fields(Settings)}
    names.update({f.name: listen for f in dataclasses.fields(Listen)})
    sources: dict[str, str] = {}
    raw_db: str | None = None

    def apply(name: str, value: Any, source: str) -> None:
        nonlocal raw_db
        if name not in names:
            raise ConfigError(f"no setting {name!r} ({source}); the settings are listed "
                              f"in docs/hardening.md and docs/deploy.md")
        try:
            text = _text(value)
            if name == "db_url":
                raw_db = text
                text = db_url_for(text)
            _set(names[name], name, text)
            _check(names[name], name)
        except ValueError as e:
            raise ConfigError(f"{e} ({source})") from None
        sources[name] = source

    path = config or env.get("PARLOUR_CONFIG") or None
    if path:
        where = f"the config file {path}"
        for key, value in read_file(Path(path)).items():
            apply(FILE_ALIASES.get(key, key), value, where)
    for name in names:
        key = "PARLOUR_" + name.upper()
        if env.get(key, "") != "":
            apply(name, env[key], f"the environment variable {key}")
    for key, name in ENV_ALIASES.items():
        if env.get(key, "") != "":
            apply(name, env[key], f"the environment variable {key}")
    for name, value in options.items():
        if value is not None and value != []:
            apply(name, value, f"the option --{name.replace('_', '-')}")
    for name, value in (sets or {}).items():
        apply(name, value, f"the option --set {name}")
    for name in [n for n in sources if getattr(names[n], n) == getattr(
            Settings() if names[n] is settings else Listen(), n)]:
        del sources[name]  # given, but the default: nothing to say
    return Resolved(settings, listen, sources, raw_db)


def _check(target: Any, name: str) -> None:
    """The bounds :meth:`Settings.set` does not know."""
    value = getattr(target, name)
    if name == "port" and not 1 <= value <= 65535:
        raise ValueError(f"setting port: {value} is not a port (1 to 65535)")
    if name == "listeners" and not 1 <= value <= 64:
        raise ValueError(f"setting listeners: {value} is not between 1 and 64")
    if name == "public_url":
        if value and not value.startswith(("http://", "https://")):
            raise ValueError("setting public_url: must start with http:// or https://")
        target.public_url = value.rstrip("/")


def hidden(name: str, value: Any) -> bool:
    return isinstance(value, str) and any(word in name for word in SECRET_WORDS)


def shown_value(name: str, value: Any) -> str:
    """A setting's value fit to print: secrets as ``***``, a database without password."""
    if hidden(name, value):
        return "***"
    if name == "db_url":
        from parlour.server.db import shown_url
        return shown_url(value)
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ",".join(value) or "(none)"
    return f"{value:g}" if isinstance(value, float) else str(value)


def report(resolved: Resolved) -> list[str]:
    """One line per setting not at its default: its value and where it came from."""
    out = []
    for name, source in sorted(resolved.sources.items()):
        target = resolved.listen if name in {f.name for f in dataclasses.fields(Listen)} \
            else resolved.settings
        out.append(f"{name} = {shown_value(name, getattr(target, name))}  (from {source})")
    return out
