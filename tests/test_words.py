"""Words, never identifiers: every text and every action name in all three languages reads as words."""

from __future__ import annotations

import re
import string

import pytest

from banker.actions import ACTION_TYPES
from banker.edition import load_edition
from banker.inflect import word
from banker.messages import LANGUAGES, TABLES, plural_form, render
from banker.text import describe_action_json

IDENTIFIER = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
"""A ``snake_case`` token: a key or an action's name that reached a person."""
LATIN_WORD = re.compile(r"\b[A-Za-z]{2,}\b")
ALLOWED_LATIN = frozenset({"OK", "QR", "PIN", "Wi", "Fi", "NFC", "SPI", "UID", "ID", "I²C", "SSD", "SH", "OLED",
                           "GO", "USB", "SD", "HTTP", "API", "JSON", "SQLite", "MISO", "VersionReg", "RxGain",
                           "RFCfgReg", "dB", "kHz", "MHz", "ms", "espeak", "ng", "ALSA", "I2S", "MAX", "Pi",
                           "NTAG", "SVG", "CSV", "PNG", "URL", "https", "http", "www", "toml", "table", "action",
                           "player", "players", "property", "amount", "to", "from", "give", "take", "cash",
                           "properties", "jail_cards", "levels", "seed", "rules", "edition", "deal", "flat",
                           "percent", "bank", "pot", "UTF", "English", "banker", "check", "demo", "db", "games",
                           "hardware", "speaker"})
"""Latin words a Russian or Bulgarian text may hold: abbreviations and names of parts, a command to type
(``banker check``), a language's own name, and the JSON fields and values an action's refusal names."""
# Engine messages that name a script's or a request's own fields and values (the people who read them
# write JSON), and texts of the command line: they may show identifiers.
IDENTIFIERS_ALLOWED = re.compile(
    r"^(unknown_|missing_|bad_|json_|not_an_object|duplicate_key|too_deep|text_|number_too_long|amount_too_large"
    r"|levels_empty|card_no_choice|dice_needed|advisor_|web_idempotency|web_api_|web_bad_|table_check_|cli_"
    r"|journal_|edition_|rules_|rule_)")


def sample(key: str, template: str) -> dict[str, object]:
    values: dict[str, object] = {}
    for _, field, _, _ in string.Formatter().parse(template):
        if field:
            values[field.split(".")[0].split("[")[0]] = 2 if field == "count" else "7"
    return values


def texts() -> list[tuple[str, str, str]]:
    out = []
    for language in LANGUAGES:
        for key, template in TABLES[language].items():
            forms = template.values() if isinstance(template, dict) else [template]
            for form in forms:
                out.append((language, key, str(form)))
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_text_reads_as_words(language: str) -> None:
    problems = []
    for lang, key, template in texts():
        if lang != language:
            continue
        shown = template.format_map({k: word(v, k, language) for k, v in sample(key, template).items()}) if (
            "{" in template) else template
        if "(s)" in shown or "(ies)" in shown:
            problems.append(f"{key}: a (s) plural: {shown}")
        if ".." in shown.replace("...", "") or ".." in render(key, {**sample(key, template), "amount": "7 руб."},
                                                            language).replace("...", ""):
            problems.append(f"{key}: a doubled full stop: {shown}")
        if IDENTIFIER.search(shown) and not IDENTIFIERS_ALLOWED.match(key):
            problems.append(f"{key}: an identifier: {IDENTIFIER.search(shown)}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_action_has_a_name_in_words(language: str) -> None:
    edition = load_edition("us")
    for name in ACTION_TYPES:
        data = {"action": name, "player": "Ann", "property": "baltic", "amount": 60, "to": "Bob", "from": "Ann",
                "square": "income_tax", "deck": "chance", "card": edition.decks["chance"][0].id,
                "players": ["Ann", "Bob"], "building": "house", "levels": {"baltic": 2}}
        text = describe_action_json(edition, data, language)
        assert text and not IDENTIFIER.search(text) and "action_" not in text, (name, text)
        assert render("action_" + name, {}, language) != "action_" + name, f"action_{name} has no {language} text"


@pytest.mark.parametrize("language", ["ru", "bg"])
def test_no_english_in_russian_or_bulgarian(language: str) -> None:
    found = [(key, word) for lang, key, template in texts() if lang == language and not IDENTIFIERS_ALLOWED.match(key)
             for word in LATIN_WORD.findall(re.sub(r"\{[^}]*\}", "", template)) if word not in ALLOWED_LATIN]
    assert not found


def test_plural_forms_follow_the_language() -> None:
    assert render("table_basis_houses", {"count": 1}, "en") == "1 house"
    assert render("table_basis_houses", {"count": 3}, "en") == "3 houses"
    assert render("level_houses", {"count": 2}, "ru") == "2 дома" and render("level_houses", {"count": 5}, "ru") == (
        "5 домов")
    assert plural_form("ru", 21) == "one"


def test_an_amount_ending_in_a_full_stop_ends_the_sentence_once() -> None:
    assert render("event_undone", {"action": "7 руб."}, "ru") == "Отменено: 7 руб."
