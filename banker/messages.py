"""Every player-facing text in English, Russian and Bulgarian: one catalogue, loaded once.

The catalogue is ``banker/catalogue/<language>.toml``. Its sections are the engine's messages (the keys of
:class:`banker.errors.BankerError` and ``"event_" + kind`` of events), the labels (small words that fill
them in: accounts, buildings, reasons), and the texts of the table's screens (``table_…``), the phone
page (``web_…``) and the advisor (``advisor_…``): a section's name is the prefix of its keys. A text that
depends on a number is a table of plural forms, chosen by the parameter ``count``.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

from banker.inflect import Word, word

LANGUAGES = ("en", "ru", "bg")
"""The languages of the banker, in the order they are offered."""

UNPREFIXED = ("engine",)
"""Catalogue sections whose keys are used as they are; the others are prefixed with their name and "_"."""

Template = str | dict[str, str]
"""A text, or its plural forms ("one", "few", "many", "other")."""


def plural_form(language: str, count: int) -> str:
    """The plural category of ``count`` in ``language`` (the CLDR rules for whole numbers)."""
    n = abs(count)
    if language == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


PLURAL_FORMS: dict[str, frozenset[str]] = {"en": frozenset({"one", "other"}), "ru": frozenset({"one", "few", "many"}),
                                           "bg": frozenset({"one", "other"})}


def _load(language: str) -> tuple[dict[str, Template], dict[str, str]]:
    data = tomllib.loads(resources.files("banker").joinpath("catalogue", f"{language}.toml").read_text("utf-8"))
    texts: dict[str, Template] = {}
    labels: dict[str, str] = dict(data.pop("labels"))
    for section, table in data.items():
        prefix = "" if section in UNPREFIXED else section + "_"
        for key, text in table.items():
            full = prefix + key
            if full in texts:
                raise ValueError(f"{language}: the text {full!r} is given twice in the catalogue")
            texts[full] = text
    return texts, labels


def _load_all() -> tuple[dict[str, dict[str, Template]], dict[str, dict[str, str]]]:
    tables: dict[str, dict[str, Template]] = {}
    labels: dict[str, dict[str, str]] = {}
    for language in LANGUAGES:
        tables[language], labels[language] = _load(language)
    return tables, labels


TABLES, LABELS = _load_all()
EN = TABLES["en"]
EN_LABELS = LABELS["en"]


def label(word: str, language: str) -> str:
    """A small word (an account, a building, a reason) in ``language``; the word itself if unknown."""
    return LABELS.get(language, EN_LABELS).get(word) or EN_LABELS.get(word, word)


def template(key: str, language: str, count: int | None = None) -> str | None:
    """The text of ``key`` in ``language`` (English when missing); a plural text's form for ``count``."""
    found = TABLES.get(language, EN).get(key)
    if found is None:
        found = EN.get(key)
        language = "en"
    if isinstance(found, dict):
        form = plural_form(language, count if count is not None else 0)
        return found.get(form) or found.get("other") or found.get("many") or next(iter(found.values()))
    return found


def render(key: str, params: dict[str, Any], language: str) -> str:
    """The text of ``key`` in ``language`` (falling back to English) with ``params`` filled in; a text
    parameter can be asked for in a case or with an article (``{to:dat}``, :mod:`banker.inflect`)."""
    params = {k: word(_localize(k, v, language), k, language) for k, v in params.items()}
    count = params.get("count")
    text = template(key, language, count if isinstance(count, int) and not isinstance(count, bool) else None)
    if text is None:
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        return f"{key} ({detail})" if detail else key
    try:
        out = text.format(**params)
    except (KeyError, IndexError, ValueError):
        out = text.format_map(_Lenient(params))

    for value in params.values():
        # An amount that ends in an abbreviation's full stop ("550 руб.") ends the sentence too: one stop.
        if isinstance(value, str) and value.endswith(".") and value + "." in out:
            out = out.replace(value + ".", value)
    return out


ACCOUNT_KEYS = frozenset({"owner", "creditor", "to"})
WORD_KEYS = frozenset({"building", "what", "got", "expected", "problem", "file"})


def _localize(key: str, value: Any, language: str) -> Any:
    """Accounts ("bank", "pot") and small words ("house", "bid") inside a message, in its language."""
    if not isinstance(value, str):
        return value
    if key in ACCOUNT_KEYS and value in ("bank", "pot", "creditors"):
        return Word(label(value, language), "word", language)
    if key in WORD_KEYS and value in EN_LABELS:
        return label(value, language)
    return value


class _Missing(str):
    """A parameter a text names but was not given: shown as its placeholder, whatever form it asks for."""

    def __format__(self, spec: str) -> str:
        return "{" + str(self) + (":" + spec if spec else "") + "}"


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return _Missing(key)
