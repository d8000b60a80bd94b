"""Player-facing texts of errors and events in English, Russian and Bulgarian."""

from __future__ import annotations

from typing import Any

LANGUAGES = ("en", "ru", "bg")

MESSAGES: dict[str, dict[str, str]] = {
    "edition_file": {
        "en": "{file}: {field}: {problem}",
        "ru": "{file}: {field}: {problem}",
        "bg": "{file}: {field}: {problem}",
    },
    "unknown_edition": {
        "en": "There is no edition {edition!r}; choose one of: {known}.",
        "ru": "Нет издания {edition!r}; выберите одно из: {known}.",
        "bg": "Няма издание {edition!r}; изберете едно от: {known}.",
    },
    "unknown_property": {
        "en": "There is no property {property!r} in the {edition} edition.",
        "ru": "В издании {edition} нет карточки {property!r}.",
        "bg": "В изданието {edition} няма имот {property!r}.",
    },
    "unknown_square": {
        "en": "There is no square {square!r} in the {edition} edition.",
        "ru": "В издании {edition} нет поля {square!r}.",
        "bg": "В изданието {edition} няма поле {square!r}.",
    },
    "unknown_deck": {
        "en": "There is no deck {deck!r}: use chance or community_chest.",
        "ru": "Нет колоды {deck!r}: используйте chance или community_chest.",
        "bg": "Няма тесте {deck!r}: използвайте chance или community_chest.",
    },
    "unknown_card": {
        "en": "There is no card {card!r} in the {deck} deck of the {edition} edition.",
        "ru": "В колоде {deck} издания {edition} нет карточки {card!r}.",
        "bg": "В тестето {deck} на изданието {edition} няма карта {card!r}.",
    },
}


def render(key: str, params: dict[str, Any], language: str) -> str:
    """The text of ``key`` in ``language`` (falling back to English) with ``params`` filled in."""
    texts = MESSAGES.get(key)
    if texts is None:
        detail = ", ".join(f"{k}={v}" for k, v in params.items())
        return f"{key} ({detail})" if detail else key
    template = texts.get(language) or texts["en"]
    try:
        return template.format(**params)
    except (KeyError, IndexError, ValueError):
        return texts["en"].format_map(_Lenient(params))


class _Lenient(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"
