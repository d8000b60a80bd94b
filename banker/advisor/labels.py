"""Headings and names the advisor prints, in English, Russian and Bulgarian."""

from __future__ import annotations

import math

from banker.advisor.payback import Step

LANGUAGES = ("en", "ru", "bg")

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "title": "Advisor: {edition}",
        "jail_short": "jail: short stay (pay or use a card at once)",
        "jail_long": "jail: long stay (throw for a double up to three times)",
        "fine_pay": "\"fine or Chance\": pay the fine",
        "fine_draw": "\"fine or Chance\": take a Chance",
        "short_game": "short game: hotel after 3 houses",
        "landing_title": "Long-run share of throws ending on each square",
        "throws_per_turn": "Throws per turn: {value}",
        "square": "Square",
        "share": "Share",
        "in_jail": "In jail",
        "visiting": "Just visiting",
        "matrix_title": "Opponent throws to earn back each step (whole group owned; a step is one more "
                        "building on every street of the group)",
        "group_title": "Payback by group",
        "deed_title": "Payback by deed (alone: without its group; the other steps: with the whole group)",
        "group": "Group",
        "deed": "Deed",
        "step": "Step",
        "cost": "Cost",
        "total_cost": "Total",
        "rent": "Rent/throw",
        "gain": "Gain/throw",
        "payback": "Throws",
        "alone": "alone",
        "map_title": "Where the throws end",
        "map_scale": "share of throws",
        "map_top": "Most often",
        "map_off_scale": "in jail: off the scale",
    },
    "ru": {
        "title": "Советник: {edition}",
        "jail_short": "тюрьма: короткая (сразу заплатить или сдать карточку)",
        "jail_long": "тюрьма: долгая (до трёх бросков на дубль)",
        "fine_pay": "«штраф или Шанс»: платить штраф",
        "fine_draw": "«штраф или Шанс»: тянуть Шанс",
        "short_game": "короткая игра: отель после 3 домов",
        "landing_title": "Доля бросков, заканчивающихся на каждом поле (в среднем за долгую игру)",
        "throws_per_turn": "Бросков за ход: {value}",
        "square": "Поле",
        "share": "Доля",
        "in_jail": "В тюрьме",
        "visiting": "Просто посетитель",
        "matrix_title": "Бросков соперника до окупаемости шага (вся группа у одного владельца; шаг — "
                        "ещё одно здание на каждой улице группы)",
        "group_title": "Окупаемость по группам",
        "deed_title": "Окупаемость по карточкам (отдельно: без группы; остальное: с целой группой)",
        "group": "Группа",
        "deed": "Карточка",
        "step": "Шаг",
        "cost": "Цена",
        "total_cost": "Всего",
        "rent": "Рента/бросок",
        "gain": "Прирост",
        "payback": "Бросков",
        "alone": "отдельно",
        "map_title": "Где заканчиваются броски",
        "map_scale": "доля бросков",
        "map_top": "Чаще всего",
        "map_off_scale": "в тюрьме: вне шкалы",
    },
    "bg": {
        "title": "Съветник: {edition}",
        "jail_short": "затвор: кратък престой (плащане или карта веднага)",
        "jail_long": "затвор: дълъг престой (до три хвърляния за чифт)",
        "fine_pay": "„глоба или Шанс“: плащане на глобата",
        "fine_draw": "„глоба или Шанс“: теглене на Шанс",
        "short_game": "кратка игра: хотел след 3 къщи",
        "landing_title": "Дял на хвърлянията, завършващи на всяко поле (в дългосрочен план)",
        "throws_per_turn": "Хвърляния на ход: {value}",
        "square": "Поле",
        "share": "Дял",
        "in_jail": "В затвора",
        "visiting": "На посещение",
        "matrix_title": "Хвърляния на противник до изплащане на всяка стъпка (цялата група у един "
                        "собственик; стъпка — още една сграда на всяка улица от групата)",
        "group_title": "Изплащане по групи",
        "deed_title": "Изплащане по имоти (самостоятелно: без групата; другите стъпки: с цялата група)",
        "group": "Група",
        "deed": "Имот",
        "step": "Стъпка",
        "cost": "Цена",
        "total_cost": "Общо",
        "rent": "Наем/хвърляне",
        "gain": "Прираст",
        "payback": "Хвърляния",
        "alone": "самостоятелно",
        "map_title": "Къде завършват хвърлянията",
        "map_scale": "дял на хвърлянията",
        "map_top": "Най-често",
        "map_off_scale": "в затвора: извън скалата",
    },
}

GROUPS: dict[str, dict[str, str]] = {
    "en": {"brown": "Brown", "light_blue": "Light blue", "pink": "Pink", "orange": "Orange", "red": "Red",
           "yellow": "Yellow", "green": "Green", "dark_blue": "Dark blue", "railroad": "Railroads",
           "utility": "Utilities"},
    "ru": {"brown": "Коричневые", "light_blue": "Голубые", "pink": "Розовые", "orange": "Оранжевые",
           "red": "Красные", "yellow": "Жёлтые", "green": "Зелёные", "dark_blue": "Синие",
           "railroad": "Железные дороги", "utility": "Предприятия"},
    "bg": {"brown": "Кафяви", "light_blue": "Светлосини", "pink": "Розови", "orange": "Оранжеви",
           "red": "Червени", "yellow": "Жълти", "green": "Зелени", "dark_blue": "Тъмносини",
           "railroad": "Гари", "utility": "Комунални"},
}

_STEP_WORDS: dict[str, dict[str, tuple[str, str, str]]] = {
    # one, few (2-4), many: enough for the counts the tables show.
    "en": {"house": ("house", "houses", "houses"), "railroad": ("railroad", "railroads", "railroads"),
           "utility": ("utility", "utilities", "utilities")},
    "ru": {"house": ("дом", "дома", "домов"), "railroad": ("дорога", "дороги", "дорог"),
           "utility": ("предприятие", "предприятия", "предприятий")},
    "bg": {"house": ("къща", "къщи", "къщи"), "railroad": ("гара", "гари", "гари"),
           "utility": ("предприятие", "предприятия", "предприятия")},
}
_SINGLE_STEPS: dict[str, dict[str, str]] = {
    "en": {"deeds": "deeds", "hotel": "hotel"},
    "ru": {"deeds": "участки", "hotel": "отель"},
    "bg": {"deeds": "имоти", "hotel": "хотел"},
}


def language_of(language: str) -> str:
    return language if language in LANGUAGES else "en"


def text(key: str, language: str, **params: object) -> str:
    template = TEXTS[language_of(language)].get(key) or TEXTS["en"][key]
    return template.format(**params) if params else template


def group_name(group: str, language: str) -> str:
    return GROUPS[language_of(language)].get(group, group)


def step_name(step: Step, language: str) -> str:
    """"2 houses", "hotel", "3 railroads" ... in ``language``."""
    language = language_of(language)
    if step.kind in _SINGLE_STEPS[language]:
        return _SINGLE_STEPS[language][step.kind]
    one, few, many = _STEP_WORDS[language][step.kind]
    word = one if step.level == 1 else few if 2 <= step.level <= 4 else many
    return f"{step.level} {word}"


def percent(share: float, language: str, digits: int = 2) -> str:
    """A share as a percentage, with a decimal comma in Russian and Bulgarian."""
    value = f"{share * 100:.{digits}f}"
    if language_of(language) != "en":
        value = value.replace(".", ",")
    return value + "%"


def number(value: float, language: str, digits: int = 1) -> str:
    if math.isinf(value):
        return "-"
    formatted = f"{value:.{digits}f}"
    return formatted.replace(".", ",") if language_of(language) != "en" else formatted
