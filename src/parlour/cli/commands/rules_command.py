"""``parlour rules [GAME] [ID]``: the rules of a game, or one ruling by its id.

Error messages cite ruling ids (``cannot pass while holding a playable card (FT-5)``);
this command says what they mean, in the words of :mod:`parlour.rulebook`. With
``--lang`` the rules, the options, the headings and the labels come from the catalogs
(``game`` and ``terminal``); the rulings' own titles and texts are the English
reference (docs/cli.md says why), and their heading says so.
"""

from __future__ import annotations

import re
from typing import Annotated

import typer
from rich.console import Group
from rich.markdown import Markdown
from rich.table import Table
from rich.text import Text

from parlour import cards, rulebook, speech
from parlour.cli.app import app
from parlour.cli.common import (
    UsageError,
    card_names_option,
    complete_game,
    lang_option,
    speak,
    stdout,
    usage_errors,
)
from parlour.game import Game
from parlour.games import GAMES, get_kit
from parlour.i18n import catalog_json
from parlour.present import presenter


def _complete_id(ctx: typer.Context, incomplete: str) -> list[str]:
    game = ctx.params.get("game")
    ids = list(rulebook.rulings(game if game in GAMES else None))
    if game not in GAMES:
        ids = [i for g in GAMES for i in rulebook.rulings(g)]
    return [i for i in dict.fromkeys(ids) if i.lower().startswith(incomplete.lower())]


def _ruling(game: str | None, key: str, ruling: rulebook.Ruling) -> Group:
    where = GAMES[game].title if game else speech.tell("rules.where.every")
    head = Text(f"{key} ", style="bold cyan").append(ruling.title, style="bold")
    head.append(f"  ({where})", style="dim")
    if speech.current().lang != "en":  # the rulings are the English reference text
        head.append(" " + speech.tell("rules.in_english"), style="dim")
    return Group(head, Text(ruling.text))


def _worded_rules(g: Game) -> Markdown:
    """The game's rules from the ``game`` catalog (the web rules page's words) in the
    current language and card names."""
    shown = presenter(g)
    params: dict[str, str] = dict(shown.rules_params())
    lines = []
    for kind, key in shown.rules_outline():
        text = speech.say(key, **{**params, **_card_params(key)})
        mark = "# " if not lines else {"h": "## ", "li": "- "}.get(kind, "")
        lines.append(mark + text)
    return Markdown("\n\n".join(lines))


def _card_params(key: str) -> dict[str, str]:
    """``{c2C}``-style placeholders of a catalog text: the card's name."""
    words = catalog_json(speech.current().lang, "game").get(key) or ""
    return {m: speech.card_name(cards.from_code(m[1:]))
            for m in re.findall(r"\{(c(?:10|[2-9AJQK])[CDHS])\}", words)}


def _first_lines(g: Game) -> str:
    """A game in a line: its rulebook's first paragraph in English, else the front
    page's words for it (``GAME.blurb``), else how many play."""
    lang = speech.current().lang
    first = rulebook.summary(g.name).split("\n\n")[0].replace("\n", " ") if lang == "en" else ""
    if not first and f"{g.name}.blurb" in catalog_json(lang, "game"):
        first = speech.say(f"{g.name}.blurb")
    return first or speech.tell("rules.players", min=speech.number(g.min_players),
                                max=speech.number(g.max_players))


def _options(game: str) -> Table:
    g = GAMES[game]
    t = Table(title=speech.tell("rules.options.title"), title_justify="left", box=None,
              pad_edge=False, padding=(0, 2))
    t.add_column(speech.tell("rules.options.key"), style="bold")
    t.add_column(speech.tell("rules.options.values"))
    t.add_column(speech.tell("rules.options.what"))
    # Another language gets the web form's words for each option and choice (the
    # ``game`` catalog's opts.GAME.OPTION.* keys) beside the KEY and VALUE to type.
    lang = speech.current().lang
    known = catalog_json(lang, "game") if lang != "en" else {}
    params = dict(presenter(g).rules_params())  # the card words ({guardian}) in --card-names

    def word(key: str) -> str | None:
        return speech.say(key, **params) if key in known else None

    for o in g.options:
        at = f"opts.{game}.{o.name}"
        values = o.describe()
        if o.kind is int and o.minimum is not None and not o.choices:
            values = speech.tell("rules.options.integer", min=speech.number(o.minimum))
        if o.choices and known:
            values = " | ".join(_chosen(c, word(f"{at}.{_typed(c)}")) for c in o.choices)
        label, explained = word(f"{at}.label"), word(f"{at}.help")
        t.add_row(o.name, values, f"{label}: {explained}" if label and explained
                  else explained or o.help)
    return t


def _typed(value: object) -> str:
    """A choice as typed after ``--rule KEY=`` (``true``, ``seven-of-diamonds``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _chosen(value: object, word: str | None) -> str:
    return f"{_typed(value)} ({word})" if word else _typed(value)


@app.command("rules")
def rules_command(
    game: Annotated[str | None, typer.Argument(
        metavar="[GAME]", help="fanti or fantan (all games when left out).",
        autocompletion=complete_game, show_default=False)] = None,
    ruling: Annotated[str | None, typer.Argument(
        metavar="[ID]", help="A ruling id such as FA-6 or FT-8 (as error messages cite them).",
        autocompletion=_complete_id, show_default=False)] = None,
    lang: Annotated[str | None, lang_option()] = None,
    card_names: Annotated[str, card_names_option()] = "game",
) -> None:
    """Show the rules of a game, or one ruling by its id.

    parlour rules: the games; parlour rules fanti: Fanti's rules, options and rulings; parlour rules FT-8 or parlour rules fantan FT-8: one ruling.
    """
    out = stdout()
    with usage_errors():
        speak(lang, card_names)
        if game is not None and ruling is None and game.strip().lower() not in GAMES:
            found = rulebook.find(game)
            if found is None:
                try:
                    get_kit(game)
                except ValueError:
                    raise UsageError(speech.tell("rules.error.neither", typed=repr(game),
                                                 games=", ".join(GAMES))) from None
            else:
                out.print(_ruling(*found))
                return
        name = get_kit(game).name if game is not None else None
        if ruling is not None:
            found = rulebook.find(ruling, name)
            if found is None:
                ids = ", ".join(rulebook.rulings(name))
                raise UsageError(speech.tell("rules.error.no_ruling_in", ruling=repr(ruling),
                                             game=GAMES[name].title, ids=ids) if name else
                                 speech.tell("rules.error.no_ruling", ruling=repr(ruling), ids=ids))
            out.print(_ruling(*found))
            return
    if name is None:
        for g in GAMES.values():
            out.print(Text(f"{g.title} ", style="bold").append(f"(parlour rules {g.name})",
                                                               style="dim"))
            out.print(_first_lines(g))
            out.print()
        out.print(Text(speech.tell("rules.every_game"), style="bold"))
        out.print(rulebook.SEATS)
        for key, r in rulebook.COMMON.items():
            out.print(Text(f"{key} ", style="bold cyan").append(r.title, style="bold")
                      .append(f": {r.text}"))
        return
    g = GAMES[name]
    if speech.current().lang != "en" and presenter(g).rules_outline():
        out.print(_worded_rules(g))  # the rules page's words, in --lang
    else:
        out.print(Markdown(f"# {g.title}\n\n" + (rulebook.summary(name) or "")))
    out.print()
    out.print(_options(name))
    out.print()
    out.print(Text(speech.tell("rules.rulings"), style="bold"))
    for key, r in rulebook.rulings(name).items():
        out.print(Text(f"{key} ", style="bold cyan").append(r.title, style="bold")
                  .append(f": {r.text}"))
