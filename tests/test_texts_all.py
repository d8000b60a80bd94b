"""Every text of the catalogue, filled in with a played game's values (``banker texts``), reads as a person
writes it in each language: no placeholder left, no identifier, a capital where a sentence starts, and no
Latin word in a Russian or Bulgarian line but the names of the players and deeds."""

from __future__ import annotations

import re

import pytest

from banker.messages import LANGUAGES, TABLES
from banker.samples import played, rendered
from banker.text import deed_name
from tests.test_words import ALLOWED_LATIN, IDENTIFIERS_ALLOWED

PLACEHOLDER = re.compile(r"\{[a-z_]+(?:![rs])?(?::[a-z]+)?\}")
IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
LATIN_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
SENTENCE_END = re.compile(r"(?<!\bруб)(?<!\bтыс)(?<!\bхил)[.!?»“”]$")
"""The end of a sentence (not the full stop of an abbreviation that ends an amount: "1 500 тыс. руб.")."""


def names(language: str) -> set[str]:
    """The words of the game's names (players, deeds, squares, decks, the edition): Latin ones may stand in a
    Cyrillic line."""
    edition, values, _ = played(language)
    found = {*values["players"], edition.name, *(p.name for p in edition.properties), *(s.name for s in
             edition.squares), *edition.deck_names.values()}
    return {word for name in found for word in LATIN_WORD.findall(name)}


@pytest.fixture(scope="module", params=LANGUAGES)
def texts(request: pytest.FixtureRequest) -> tuple[str, list[tuple[str, str]]]:
    return request.param, rendered(request.param)


def test_every_key_is_rendered(texts: tuple[str, list[tuple[str, str]]]) -> None:
    language, lines = texts
    assert [key for key, _ in lines] == sorted(TABLES[language]) and len(lines) > 1000
    assert all(text.strip() for _, text in lines)


def test_no_placeholder_is_left(texts: tuple[str, list[tuple[str, str]]]) -> None:
    _, lines = texts
    left = [(key, text) for key, text in lines if PLACEHOLDER.search(text)]
    assert left == []


def test_no_identifier_reaches_a_person(texts: tuple[str, list[tuple[str, str]]]) -> None:
    _, lines = texts
    found = [(key, IDENTIFIER.findall(text)) for key, text in lines
             if IDENTIFIER.search(text) and not IDENTIFIERS_ALLOWED.match(key)]
    assert found == []


def test_a_sentence_starts_with_a_capital(texts: tuple[str, list[tuple[str, str]]]) -> None:
    _, lines = texts
    lower = [(key, text) for key, text in lines if SENTENCE_END.search(text.rstrip())
             and " " in text.strip() and text[:1].isalpha() and text[:1].islower()]
    assert lower == []


@pytest.mark.parametrize("language", ["ru", "bg"])
def test_a_cyrillic_line_has_no_latin_word_but_a_name(language: str) -> None:
    allowed = ALLOWED_LATIN | names(language)
    found = [(key, word) for key, text in rendered(language) if not IDENTIFIERS_ALLOWED.match(key)
             for word in LATIN_WORD.findall(text) if word not in allowed]
    assert found == []


def test_the_checks_catch_what_they_look_for() -> None:
    assert PLACEHOLDER.search("Ann pays {amount}.") and IDENTIFIER.search("Ann pays (jail_fine).")
    assert SENTENCE_END.search("ann pays.") and LATIN_WORD.findall("Аня платит (transfer).") == ["transfer"]
    assert not SENTENCE_END.search("не хватает 1 500 тыс. руб.")


def test_a_trade_sample_names_what_changes_hands(texts: tuple[str, list[tuple[str, str]]]) -> None:
    # A trade's sides are the game's own bundles, not a number standing in for them ("3 for 3").
    language, lines = texts
    edition, values, _ = played(language)
    deed = values["give"]["properties"][0]
    shown = dict(lines)
    assert deed_name(edition, deed, language).split()[-1][:4] in shown["event_trade_proposed"]
    assert not re.search(r"\b3\b", shown["event_trade_proposed"])
