"""Every text of the phone page exists in English, Russian and Bulgarian with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from banker.messages import LANGUAGES, TABLES, Template, render

TEXTS = {language: {k: v for k, v in TABLES[language].items() if k.startswith("web_")} for language in LANGUAGES}
EN = TEXTS["en"]

TEMPLATES = Path(__file__).parents[2] / "webui" / "templates"
SOURCES = Path(__file__).parents[2] / "webui"


def placeholders(template: Template) -> set[str]:
    forms = template.values() if isinstance(template, dict) else [template]
    return {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name is not None}


@pytest.mark.parametrize("language", LANGUAGES)
def test_same_keys_in_every_language(language: str) -> None:
    assert sorted(set(EN) ^ set(TEXTS[language])) == []


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
@pytest.mark.parametrize("key", sorted(EN))
def test_same_placeholders(language: str, key: str) -> None:
    assert placeholders(TEXTS[language][key]) == placeholders(EN[key])
    params: dict[str, object] = {name: f"<{name}>" for name in placeholders(EN[key])}
    if isinstance(EN[key], dict):
        params["count"] = 3
    text = render(key, params, language)
    assert text.strip() and "{" not in text


def test_translations_are_translated() -> None:
    same = [k for k in EN if EN[k] == TEXTS["ru"][k] and re.search("[a-z]{4}", re.sub(r"\{\w+\}", "", EN[k]))
            and not k.startswith("web_lang")]
    assert same == []
    assert all(re.search("[а-яА-Я]", TEXTS["ru"][k]) for k in ("web_join_title", "web_build", "web_turn"))
    assert all(re.search("[а-яА-Я]", TEXTS["bg"][k]) for k in ("web_join_title", "web_build", "web_turn"))


def test_every_key_used_exists() -> None:
    used: set[str] = set()
    for path in [*TEMPLATES.glob("*.html"), *SOURCES.glob("*.py")]:
        used |= set(re.findall(r"""["'](web_[a-z_]+[a-z])["']""", path.read_text(encoding="utf-8")))
    prefixes = {key for key in used if key.endswith("_")}
    assert sorted(used - prefixes - set(EN)) == []
