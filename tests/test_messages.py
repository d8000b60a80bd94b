"""Every text exists in every language, with the same placeholders, and can be filled in."""

from __future__ import annotations

import string

import pytest

from banker.messages import EN, EN_LABELS, LABELS, LANGUAGES, TABLES, render

TRANSLATIONS = [language for language in LANGUAGES if language != "en"]


def placeholders(template: str) -> set[tuple[str, str | None, str | None]]:
    """The (name, conversion, format spec) of every replacement field in ``template``."""
    return {
        (name, conversion, spec)
        for _, name, spec, conversion in string.Formatter().parse(template)
        if name is not None
    }


def dummy_params(template: str) -> dict[str, str]:
    return {name: f"<{name}>" for name, _, _ in placeholders(template)}


def test_every_language_has_a_table() -> None:
    assert set(TABLES) == set(LANGUAGES)
    assert set(LABELS) == set(LANGUAGES)


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_all_keys_present(language: str) -> None:
    table = TABLES[language]
    assert sorted(set(EN) - set(table)) == []
    assert sorted(set(table) - set(EN)) == []


@pytest.mark.parametrize("language", TRANSLATIONS)
def test_all_labels_present(language: str) -> None:
    labels = LABELS[language]
    assert sorted(set(EN_LABELS) - set(labels)) == []
    assert sorted(set(labels) - set(EN_LABELS)) == []
    assert all(text.strip() for text in labels.values())


@pytest.mark.parametrize("language", TRANSLATIONS)
@pytest.mark.parametrize("key", sorted(EN))
def test_same_placeholders(language: str, key: str) -> None:
    assert placeholders(TABLES[language][key]) == placeholders(EN[key])


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", sorted(EN))
def test_template_formats(language: str, key: str) -> None:
    template = TABLES[language][key]
    text = template.format(**dummy_params(EN[key]))
    assert text.strip()
    assert render(key, dummy_params(EN[key]), language) == text
