"""Texts of the advisor's errors in English, Russian and Bulgarian (to be merged into banker.messages)."""

from __future__ import annotations

from banker.errors import BankerError

MESSAGES: dict[str, dict[str, str]] = {
    "advisor_bad_option": {
        "en": "The advisor cannot use {option}: {problem}.",
        "ru": "Советник не может использовать {option}: {problem}.",
        "bg": "Съветникът не може да използва {option}: {problem}.",
    },
    "advisor_bad_chain": {
        "en": "The board's movement cannot be solved: {problem}.",
        "ru": "Движение по полю не удаётся рассчитать: {problem}.",
        "bg": "Движението по дъската не може да се изчисли: {problem}.",
    },
    "advisor_unknown_player": {
        "en": "There is no player {player!r}; the players are: {players}.",
        "ru": "Нет игрока {player!r}; игроки: {players}.",
        "bg": "Няма играч {player!r}; играчите са: {players}.",
    },
}


def describe(error: BankerError, language: str) -> str:
    """The error's text in ``language``, also for the advisor's keys before they join banker.messages."""
    texts = MESSAGES.get(error.key)
    if texts is None:
        return error.translated(language)
    try:
        return (texts.get(language) or texts["en"]).format(**error.params)
    except (KeyError, IndexError, ValueError):
        return str(error)
