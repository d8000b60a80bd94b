"""Every text exists in every language, with the same placeholders, and can be filled in."""

from __future__ import annotations

import string

import pytest

from banker.inflect import CASES, word
from banker.messages import EN, EN_LABELS, LABELS, LANGUAGES, PLURAL_FORMS, TABLES, Template, plural_form, render

TRANSLATIONS = [language for language in LANGUAGES if language != "en"]


def placeholders(template: Template) -> set[tuple[str, str | None, str | None]]:
    """The (name, conversion, format spec) of every replacement field in ``template`` (all its forms)."""
    forms = template.values() if isinstance(template, dict) else [template]
    return {
        (name, conversion, spec)
        for form in forms
        for _, name, spec, conversion in string.Formatter().parse(form)
        if name is not None
    }


def dummy_params(template: Template) -> dict[str, object]:
    params: dict[str, object] = {name: f"<{name}>" for name, _, _ in placeholders(template)}
    if isinstance(template, dict):
        params["count"] = 3
    return params


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
    """The same names in every language; the form asked of each (a case, an article) is the language's own."""
    assert {(name, conversion) for name, conversion, _ in placeholders(TABLES[language][key])} == {
        (name, conversion) for name, conversion, _ in placeholders(EN[key])}


FORMS = {"": LANGUAGES, "cap": LANGUAGES, "def": ("bg",), **{case: ("ru",) for case in CASES}}
"""The forms a placeholder may ask for (banker.inflect), and the languages that have them."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_form_asked_for_is_one_the_language_has(language: str) -> None:
    wrong = [(key, name, spec) for key, template in TABLES[language].items()
             for name, _, spec in placeholders(template) if language not in FORMS.get(spec or "", ())]
    assert wrong == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_texts_have_every_form_of_their_language(language: str) -> None:
    wrong = {key: sorted(text) for key, text in TABLES[language].items()
             if isinstance(text, dict) and set(text) != PLURAL_FORMS[language]}
    assert wrong == {}
    assert isinstance(EN["advisor_step_house"], dict)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", sorted(EN))
def test_template_formats(language: str, key: str) -> None:
    template = TABLES[language][key]
    params = dummy_params(EN[key])
    form = template[plural_form(language, 3)] if isinstance(template, dict) else template
    text = form.format(**{name: word(value, name, language) for name, value in params.items()})
    assert text.strip()
    assert render(key, params, language) == text


@pytest.mark.parametrize(("language", "counts"), [
    ("en", {1: "one", 2: "other", 0: "other", 21: "other"}),
    ("ru", {1: "one", 21: "one", 11: "many", 2: "few", 4: "few", 12: "many", 14: "many", 22: "few", 5: "many",
            0: "many", 111: "many", 101: "one"}),
    ("bg", {1: "one", 2: "other", 21: "other", 0: "other"}),
])
def test_plural_rules(language: str, counts: dict[int, str]) -> None:
    assert {n: plural_form(language, n) for n in counts} == counts


def test_plural_text_picks_the_form_by_count() -> None:
    assert render("advisor_step_house", {"count": 1}, "ru") == "1 дом"
    assert render("advisor_step_house", {"count": 3}, "ru") == "3 дома"
    assert render("advisor_step_house", {"count": 5}, "ru") == "5 домов"
    assert render("advisor_step_house", {"count": 21}, "ru") == "21 дом"
    assert render("advisor_step_house", {"count": 1}, "en") == "1 house"
    assert render("advisor_step_house", {"count": 2}, "en") == "2 houses"
