"""The sentence the table says: for the ear, in each language, with the right plural forms."""

from __future__ import annotations

import json
import re

import pytest

from banker.board import board_event
from banker.edition import available_editions, load_edition
from banker.ledger import Event
from banker.messages import LANGUAGES, TABLES
from banker.replay import replay_lines
from banker.sim.cli import lineup
from banker.sim.game import Game, accepted_actions
from banker.speech import money, say, square_name
from banker.spoken import has_latin, number_words, spoken_name

START = {"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}}


def said(*lines: dict[str, object], language: str = "en") -> list[str]:
    result = replay_lines([json.dumps(line, ensure_ascii=False) for line in lines], board=True)
    return [say(result.state.edition, events, language) for _, events in result.events]


@pytest.mark.parametrize(("n", "ru", "bg"), [
    (1, "один", "един"), (2, "два", "два"), (11, "одиннадцать", "единадесет"), (21, "двадцать один", "двадесет и един"),
    (105, "сто пять", "сто и пет"), (125, "сто двадцать пять", "сто двадесет и пет"),
    (550, "пятьсот пятьдесят", "петстотин и петдесет"), (1000, "тысяча", "хиляда"),
    (1500, "тысяча пятьсот", "хиляда и петстотин"), (1550, "тысяча пятьсот пятьдесят", "хиляда петстотин и петдесет"),
    (2000, "две тысячи", "две хиляди"), (21000, "двадцать одна тысяча", "двадесет и една хиляди"),
    (1_500_000, "один миллион пятьсот тысяч", "един милион петстотин хиляди"),
])
def test_numbers_in_words(n: int, ru: str, bg: str) -> None:
    assert number_words(n, "ru") == ru
    assert number_words(n, "bg") == bg
    assert number_words(n, "en") == str(n)


def test_numbers_agree_with_the_gender_and_case_of_what_they_count() -> None:
    assert number_words(1, "ru", "f") == "одна"
    assert number_words(1, "ru", "f", accusative=True) == "одну"
    assert number_words(1000, "ru", accusative=True) == "тысячу"
    assert number_words(21000, "ru", accusative=True) == "двадцать одну тысячу"
    assert number_words(2, "bg", "f") == "две"
    assert number_words(1, "bg", "n") == "едно"


@pytest.mark.parametrize(("edition", "amount", "language", "text"), [
    ("us", 550, "en", "550 dollars"), ("us", 1, "en", "1 dollar"),
    ("us", 1, "ru", "один доллар"), ("us", 2, "ru", "два доллара"), ("us", 5, "ru", "пять долларов"),
    ("us", 21, "ru", "двадцать один доллар"), ("us", 1500, "ru", "тысячу пятьсот долларов"),
    ("us", 1, "bg", "един долар"), ("us", 2, "bg", "два долара"), ("us", 550, "bg", "петстотин и петдесет долара"),
    ("uk", 2, "en", "2 pounds"), ("uk", 3, "ru", "три фунта"), ("uk", 1, "bg", "един паунд"),
    # The Moscow edition's amounts are thousands of roubles.
    ("ru", 550, "ru", "пятьсот пятьдесят тысяч рублей"), ("ru", 1, "ru", "тысячу рублей"),
    ("ru", 2, "ru", "две тысячи рублей"), ("ru", 1500, "ru", "один миллион пятьсот тысяч рублей"),
    ("ru", 550, "en", "550 thousand roubles"), ("ru", 1500, "en", "1 million 500 thousand roubles"),
    ("ru", 2, "en", "2000 roubles"), ("ru", 1, "bg", "хиляда рубли"), ("ru", 2, "bg", "две хиляди рубли"),
])
def test_amounts_as_a_voice_reads_them(edition: str, amount: int, language: str, text: str) -> None:
    assert money(load_edition(edition), amount, language) == text


def test_rent_is_said_with_payer_owner_and_amount_subject_first() -> None:
    """The deed was just tapped and shown, and the log names it: the voice leaves it out (about 3 s)."""
    lines = [START, {"action": "buy", "player": "Ann", "property": "park_place"},
             {"action": "rent", "player": "Bob", "property": "park_place"}]
    assert said(*lines)[-1] == "Bob pays Ann 35 dollars rent."
    assert said(*lines, language="ru")[-1] == "Боб платит Энн тридцать пять долларов аренды."
    assert said(*lines, language="bg")[-1] == "Боб плаща на Ан тридесет и пет долара наем."


def test_russian_sentences_put_the_names_and_deeds_in_their_cases() -> None:
    start = {"action": "new_game", "edition": "ru", "players": ["Аня", "Боря"], "rules": {}}
    lines = [start, {"action": "buy", "player": "Аня", "property": "zhitnaya"},
             {"action": "rent", "player": "Боря", "property": "zhitnaya"}]
    assert said(*lines[:2], language="ru")[-1] == "Аня покупает Житную улицу за шестьдесят тысяч."
    assert said(*lines, language="ru")[-1] == "Боря платит Ане две тысячи рублей аренды."


def test_names_are_said_in_the_sentences_alphabet() -> None:
    assert spoken_name("Bob", "ru") == "Боб"
    assert spoken_name("Shirley", "ru") == "Ширли"
    assert spoken_name("Eve", "ru") == "Ив"
    assert spoken_name("Cy", "ru") == "Сай" and spoken_name("Ty", "bg") == "Тай"
    assert spoken_name("Grace", "ru") == "Грейс" and spoken_name("Park Place", "bg") == "Парк Плейс"
    assert spoken_name("Иван", "en") == "Ivan"
    assert spoken_name("Щерьо", "en", "bg") == "Shteryo"
    assert spoken_name("Мария", "ru") == "Мария"
    assert square_name(load_edition("us"), "st_charles", "en") == "Saint Charles Place"
    assert square_name(load_edition("ru"), "arbat", "ru") == "Улица Арбат"
    assert square_name(load_edition("ru"), "arbat", "en") == "Arbat Street"


@pytest.mark.parametrize("edition", available_editions())
@pytest.mark.parametrize("language", ["ru", "bg"])
def test_every_square_has_a_name_without_latin_letters_in_ru_and_bg(edition: str, language: str) -> None:
    ed = load_edition(edition)
    latin = [sq.id for sq in ed.squares if has_latin(square_name(ed, sq.id, language))]
    assert latin == []


def test_an_undo_says_what_it_undid() -> None:
    lines = [START, {"action": "buy", "player": "Ann", "property": "baltic"}, {"action": "undo"}]
    assert said(*lines)[-1] == "Undone: Ann buys Baltic Avenue for 60."
    assert said(*lines, language="ru")[-1] == "Отмена. Энн покупает Балтик-авеню за шестьдесят."


def test_a_bankruptcy_says_who_receives_the_deeds_in_one_sentence() -> None:
    lines = [START, {"action": "buy", "player": "Bob", "property": "oriental"},
             {"action": "buy", "player": "Bob", "property": "vermont"},
             {"action": "pay", "player": "Bob", "amount": 5000, "to": "Ann"}, {"action": "bankrupt", "player": "Bob"}]
    text = said(*lines)[-1]
    assert "Ann receives Oriental Avenue and Vermont Avenue." in text
    assert text.startswith("Bob is bankrupt, owing 5000 dollars.")


def test_an_event_without_a_sentence_of_its_own_is_said_with_its_log_text(monkeypatch: pytest.MonkeyPatch) -> None:
    for language in LANGUAGES:
        monkeypatch.delitem(TABLES[language], "say_salary")
    edition = load_edition("us")
    event = Event("salary", {"player": "Ann", "amount": 200})
    assert say(edition, [event], "en") == "Ann collects the salary: 200 dollars."
    assert say(edition, [event], "ru") == "Энн получает зарплату: двести долларов."


def self_played_events(seed: int, edition: str) -> list[tuple[Event, ...]]:
    game = Game(seed, lineup(seed, 3), edition, check=False)
    game.play(max_turns=150)
    result = replay_lines([a.to_line() for a in accepted_actions(game.log)], board=True)
    return [events for _, events in result.events]


@pytest.mark.parametrize("edition", available_editions())
@pytest.mark.parametrize("seed", [1, 2])
def test_every_self_played_action_is_said_cleanly_in_every_language(edition: str, seed: int) -> None:
    ed = load_edition(edition)
    everything = self_played_events(seed, edition)
    for language in LANGUAGES:
        for events in everything:
            text = say(ed, events, language)
            assert text.strip(), events
            assert ".." not in text and "{" not in text and "(s)" not in text, text
            assert not re.search(r"\b[a-z]+_[a-z_]+\b", text), text  # no identifier
            assert "$" not in text and "руб." not in text, text
            if language != "en":
                assert not has_latin(text), text


def test_the_board_event_is_not_said() -> None:
    edition = load_edition("us")
    assert say(edition, [Event("board", {"moves": []})], "en") == ""
    state_lines = replay_lines([json.dumps(START)], keep_states=True)
    event = board_event(None, state_lines.state, state_lines.actions[0])
    assert event.params == {"moves": []}
