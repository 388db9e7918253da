"""Every catalog against English: the same keys, the same placeholders, and the plural
categories its language needs (CLDR through Babel)."""

from __future__ import annotations

import string

import pytest
from babel import Locale

from parlour.i18n import DEFAULT, DOMAINS, LANGUAGES
from parlour.i18n.catalogs import CATALOGS, catalog_path, messages

OTHERS = [code for code in LANGUAGES if code != DEFAULT]
CASES = [(code, domain) for code in OTHERS for domain in DOMAINS]


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a text; anything else (``{0}``, ``{x:>3}``, ``{a.b}``)
    fails, since the page substitutes plain names only."""
    names = set()
    for _, field, spec, conversion in string.Formatter().parse(text):
        if field is None:
            continue
        assert field.isidentifier() and not spec and not conversion, \
            f"placeholder {{{field}}} in {text!r} is not a plain name"
        names.add(field)
    return names


def categories(code: str) -> set[str]:
    """The CLDR plural categories a language tells apart ('other' is always one)."""
    return set(Locale.parse(LANGUAGES[code].babel_code).plural_form.tags) | {"other"}


def split(keys) -> tuple[set[str], dict[str, set[str]]]:
    """Plain keys, and plural bases -> the categories present."""
    plain, plural = set(), {}
    for key in keys:
        base, sep, cat = key.partition("#")
        if sep:
            plural.setdefault(base, set()).add(cat)
        else:
            plain.add(key)
    return plain, plural


def test_every_language_has_its_folder_and_catalogs():
    folders = {p.name for p in CATALOGS.iterdir() if p.is_dir()}
    assert folders == set(LANGUAGES)
    for code in LANGUAGES:
        for domain in DOMAINS:
            assert catalog_path(code, domain).is_file(), (code, domain)
        assert (CATALOGS / code / "GLOSSARY.md").is_file()


@pytest.mark.parametrize("domain", DOMAINS)
def test_english_is_complete_and_well_formed(domain):
    english = messages(DEFAULT, domain)
    plain, plural = split(english)
    for key, text in english.items():
        assert text.strip(), f"{key} is empty in English"
        placeholders(text)
    for base, cats in plural.items():
        assert base not in plain, f"{base} is both a plain and a plural key"
        assert cats == categories(DEFAULT), f"{base}: English needs #one and #other"
        names = {c: placeholders(english[f"{base}#{c}"]) - {"count"} for c in cats}
        assert len({frozenset(v) for v in names.values()}) == 1, (base, names)


@pytest.mark.parametrize(("code", "domain"), CASES)
def test_catalog_matches_english(code, domain):
    english, theirs = messages(DEFAULT, domain), messages(code, domain)
    en_plain, en_plural = split(english)
    plain, plural = split(theirs)
    assert sorted(en_plain - plain) == [], f"{code}/{domain}.po lacks these keys"
    assert sorted(plain - en_plain) == [], f"{code}/{domain}.po has keys English lacks"
    for key in en_plain:
        assert placeholders(theirs[key]) == placeholders(english[key]), (code, key)
    assert sorted(set(plural) - set(en_plural)) == [], f"{code}: plural keys English lacks"
    need = categories(code)
    for base in en_plural:
        have = plural.get(base, set())
        assert need <= have, f"{code}/{domain}: {base} lacks #{sorted(need - have)}"
        assert have <= need, f"{code}/{domain}: {base} has #{sorted(have - need)}"
        want = placeholders(english[f"{base}#other"]) - {"count"}
        for cat in have:
            assert placeholders(theirs[f"{base}#{cat}"]) - {"count"} == want, (code, base, cat)


@pytest.mark.parametrize("code", OTHERS)
def test_headers_name_the_language(code):
    for domain in DOMAINS:
        head = catalog_path(code, domain).read_text(encoding="utf-8")[:300]
        assert f'"Language: {code}\\n"' in head, (code, domain)
