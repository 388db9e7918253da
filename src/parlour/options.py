"""Rule options: each game declares its options once, and this module validates them.

The same declaration serves the record reader (exact JSON types), the command line
(``--rule KEY=VALUE`` strings), the web form and the research environments, so an
option is spelled, defaulted and checked in one place.

>>> from parlour.options import Option, OptionSet
>>> rules = OptionSet(Option("rounds", int, 5, minimum=1),
...                   Option("ties", str, "none", choices=("none", "shared")))
>>> rules.resolve(2, {"rounds": 3})
{'rounds': 3, 'ties': 'none'}
>>> rules.parse_pairs(["ties=shared"])
{'ties': 'shared'}
>>> rules.resolve(2, {"rounds": True})  # JSON types are exact: true is not 1
Traceback (most recent call last):
    ...
parlour.options.OptionError: rule 'rounds' must be integer >= 1, not true
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


class OptionError(ValueError):
    """A rule option that is unknown, of the wrong type or out of range."""


@dataclass(frozen=True)
class Option:
    """One rule option: its name, its allowed values (``choices``) or type, its default.

    ``default`` may be a function of the player count (Fan Tan ``rounds``).
    """

    name: str
    kind: type  # int, bool or str
    default: Any | Callable[[int], Any]
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    help: str = ""
    optional: bool = False
    """Declared after the record format: a record may leave it out, meaning its default,
    and a record is written without it at its default (so those records read the same
    everywhere, docs/research.md "Solvable variants")."""
    compiled: bool = True
    """Whether the compiled kernels (batch, lock-step, vector, search) serve the values
    other than the default; where not, they refuse those rules (:meth:`OptionSet.
    compiled_refusal`) and the Python engine plays them."""
    research: bool = False
    """A research variant (docs/research.md): its own tests cover it, and the sweeps over
    every option value (tests/option_variants.py) leave it at its default."""

    def default_for(self, players: int) -> Any:
        return self.default(players) if callable(self.default) else self.default

    def describe(self) -> str:
        if self.choices:
            return " | ".join(_show(c) for c in self.choices)
        if self.kind is int:
            return f"integer >= {self.minimum}" if self.minimum is not None else "integer"
        return self.kind.__name__

    def check(self, value: Any) -> Any:
        """Validate a JSON value with exact types (``true`` is not ``1``)."""
        if type(value) is not self.kind:
            raise OptionError(
                f"rule {self.name!r} must be {self.describe()}, not {_show(value)}"
            )
        if self.choices and value not in self.choices:
            raise OptionError(
                f"rule {self.name!r} must be {self.describe()}, not {_show(value)}"
            )
        if self.minimum is not None and value < self.minimum:
            raise OptionError(
                f"rule {self.name!r} must be {self.describe()}, not {_show(value)}"
            )
        return value

    def parse(self, text: str) -> Any:
        """Validate a value typed on the command line or in a form."""
        t = text.strip()
        if self.kind is bool:
            low = t.lower()
            if low in ("true", "yes", "on", "1"):
                return True
            if low in ("false", "no", "off", "0"):
                return False
            raise OptionError(f"rule {self.name!r} must be true | false, not {text!r}")
        if self.kind is int:
            try:
                value = int(t)
            except ValueError:
                raise OptionError(
                    f"rule {self.name!r} must be {self.describe()}, not {text!r}"
                ) from None
            return self.check(value)
        return self.check(t.lower())


def _show(v: Any) -> str:
    if isinstance(v, str):
        return f'"{v}"'
    if v is True or v is False:
        return "true" if v else "false"
    return repr(v)


class OptionSet:
    """The options of one game, in declaration order."""

    def __init__(self, *options: Option) -> None:
        self.options = {o.name: o for o in options}

    def __iter__(self):
        return iter(self.options.values())

    def names(self) -> list[str]:
        return list(self.options)

    def help(self) -> str:
        return ", ".join(f"{o.name}={o.describe()}" for o in self)

    def _get(self, key: str) -> Option:
        try:
            return self.options[key]
        except KeyError:
            raise OptionError(
                f"unknown rule {key!r}; valid rules: {self.help()}"
            ) from None

    def defaults(self, players: int) -> dict[str, Any]:
        return {o.name: o.default_for(players) for o in self}

    def resolve(self, players: int, given: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Defaults overlaid with ``given`` (JSON-typed values), every key checked."""
        rules = self.defaults(players)
        for key, value in (given or {}).items():
            rules[key] = self._get(key).check(value)
        return rules

    def exact(self, given: Any) -> dict[str, Any]:
        """Validate a complete rules object, as a record holds it: every key, no other."""
        if not isinstance(given, dict):
            raise OptionError("rules must be an object")
        for key in given:
            self._get(key)
        missing = [k for k, o in self.options.items() if k not in given and not o.optional]
        if missing:
            raise OptionError(f"rules lack {', '.join(missing)}")
        return {k: o.check(given[k]) if k in given else o.default for k, o in self.options.items()}

    def compiled_refusal(self, rules: Mapping[str, Any]) -> str | None:
        """Why the compiled kernels cannot play ``rules``, in plain words, or None."""
        for o in self:
            if not o.compiled and o.name in rules and rules[o.name] != o.default_for(0):
                return (f"the compiled engines play only {o.name}={_show(o.default)}, "
                        f"not {o.name}={_show(rules[o.name])}: use the step engine")
        return None

    def recorded(self, rules: Mapping[str, Any]) -> dict[str, Any]:
        """``rules`` as a record holds them: every option but an optional one at its
        default (:attr:`Option.optional`)."""
        return {k: v for k, v in rules.items()
                if not (k in self.options and self.options[k].optional
                        and v == self.options[k].default)}

    def parse_pairs(self, pairs: list[str] | None) -> dict[str, Any]:
        """``["rounds=3", "ace=high"]`` to ``{"rounds": 3, "ace": "high"}``."""
        out: dict[str, Any] = {}
        for pair in pairs or []:
            for item in pair.split(","):
                if not item.strip():
                    continue
                if "=" not in item:
                    raise OptionError(f"rule {item!r} must be KEY=VALUE; valid rules: {self.help()}")
                key, _, value = item.partition("=")
                key = key.strip().replace("-", "_")
                out[key] = self._get(key).parse(value)
        return out
