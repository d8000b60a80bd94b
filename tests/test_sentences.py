"""What a family reads in the log and hears from the table, in English, Russian and Bulgarian: subject
first, names and deeds in their cases, a trade with what changes hands, log lines that say what happened."""

from __future__ import annotations

import json
from typing import Any

import pytest

from banker.inflect import definite, inflected
from banker.replay import replay_lines
from banker.speech import say
from banker.text import log_lines

PLAYERS = {"en": ["Ann", "Bob"], "ru": ["Аня", "Боря"], "bg": ["Ана", "Боби"]}


def play(edition: str, language: str, *lines: dict[str, Any], rules: dict[str, Any] | None = None,
         ) -> tuple[list[str], str, str]:
    """The log, the sentence and the short sentence of the last line, with the language's players
    ("A" and "B" in the lines)."""
    names = PLAYERS[language]
    cast = {"A": names[0], "B": names[1]}
    script = [json.dumps({"action": "new_game", "edition": edition, "players": names, "rules": rules or {}})]
    for line in lines:
        script.append(json.dumps({k: cast.get(v, v) if isinstance(v, str) else v for k, v in line.items()},
                                 ensure_ascii=False))
    result = replay_lines(script, board=True)
    state, events = result.state, result.events[-1][1]
    log = log_lines(state.edition, [e for e in events if e.kind != "board"], language)
    return log, say(state.edition, events, language), say(state.edition, events, language, short=True)


BUY = {"action": "buy", "player": "A", "property": "zhitnaya"}
RENT = {"action": "rent", "player": "B", "property": "zhitnaya"}


@pytest.mark.parametrize(("language", "log", "said"), [
    ("en", "Bob pays Ann 2 thousand roubles rent for Zhitnaya Street.", "Bob pays Ann 2000 roubles rent."),
    ("ru", "Боря платит Ане 2 тыс. руб. за Житную улицу.", "Боря платит Ане две тысячи рублей аренды."),
    ("bg", "Боби плаща на Ана 2 хил. рубли наем за Житная улица.", "Боби плаща на Ана две хиляди рубли наем."),
])
def test_rent_is_said_subject_first_with_the_names_in_their_cases(language: str, log: str, said: str) -> None:
    lines, sentence, _ = play("ru", language, BUY, RENT)
    assert lines == [log] and sentence == said


@pytest.mark.parametrize(("language", "log"), [
    ("en", "Ann buys Zhitnaya Street for 60 thousand roubles."),
    ("ru", "Аня покупает Житную улицу за 60 тыс. руб."),
    ("bg", "Ана купува Житная улица за 60 хил. рубли."),
])
def test_the_moscow_edition_reads_in_the_readers_language(language: str, log: str) -> None:
    assert play("ru", language, BUY)[0] == [log]


@pytest.mark.parametrize(("language", "log", "said"), [
    ("en", "Ann gives Bob Zhitnaya Street; Bob gives Ann 100 thousand roubles.",
     "Ann gives Bob Zhitnaya Street; Bob gives Ann 100 thousand roubles."),
    ("ru", "Аня отдаёт Боре Житную улицу, а Боря отдаёт Ане 100 тыс. руб.",
     "Аня отдаёт Боре Житную улицу, а Боря отдаёт Ане сто тысяч рублей."),
    ("bg", "Ана дава на Боби Житная улица, а Боби дава на Ана 100 хил. рубли.",
     "Ана дава на Боби Житная улица, а Боби дава на Ана сто хиляди рубли."),
])
def test_a_trade_is_said_with_what_changes_hands(language: str, log: str, said: str) -> None:
    trade = {"action": "trade", "from": "A", "to": "B", "give": {"properties": ["zhitnaya"]}, "take": {"cash": 100}}
    lines, sentence, _ = play("ru", language, BUY, trade)
    assert lines == [log] and sentence == said


def test_a_trade_that_only_one_side_gives_is_said_from_the_givers_side() -> None:
    trade = {"action": "trade", "from": "A", "to": "B", "give": {}, "take": {"cash": 100}}
    lines, sentence, _ = play("us", "ru", trade)
    assert lines == ["Боря отдаёт Ане $100."] and sentence == "Боря отдаёт Ане сто долларов."


@pytest.mark.parametrize(("language", "log", "said"), [
    ("en", "Ann sells every building on the brown streets for 25 thousand roubles.",
     "Ann sells every building on the brown streets for 25 thousand roubles."),
    ("ru", "Аня продаёт все здания на коричневых улицах за 25 тыс. руб.",
     "Аня продаёт все здания на коричневых улицах за двадцать пять тысяч рублей."),
    ("bg", "Ана продава всички сгради на кафявите улици за 25 хил. рубли.",
     "Ана продава всички сгради на кафявите улици за двадесет и пет хиляди рубли."),
])
def test_a_groups_sentence_starts_with_its_subject(language: str, log: str, said: str) -> None:
    lines, sentence, _ = play("ru", language, BUY, {"action": "buy", "player": "A", "property": "nagatinskaya"},
                              {"action": "build", "player": "A", "property": "zhitnaya"},
                              {"action": "sell_all_buildings", "player": "A", "property": "zhitnaya"})
    assert lines == [log] and sentence == said


@pytest.mark.parametrize(("language", "released", "debt"), [
    ("en", "Ann leaves jail (the fine becomes a debt).", "Ann cannot pay the bank $50 (jail fine): a debt;"),
    ("ru", "Аня выходит из тюрьмы (штраф становится долгом).", "Аня не может заплатить банку $50"),
    ("bg", "Ана излиза от затвора (глобата става дълг).", "Ана не може да плати на банката $50"),
])
def test_a_jail_fine_that_becomes_a_debt_is_not_logged_as_paid(language: str, released: str, debt: str) -> None:
    lines, _, _ = play("us", language, {"action": "buy", "player": "A", "property": "baltic"},
                       {"action": "go_to_jail", "player": "A"}, {"action": "jail_fine", "player": "A"},
                       rules={"starting_cash": 70})
    assert lines[0] == released and lines[1].startswith(debt)
    assert play("us", language, {"action": "go_to_jail", "player": "A"},
                {"action": "jail_fine", "player": "A"})[0][0] != released  # paid: it says so


def test_a_hotel_broken_down_in_a_shortage_says_the_houses_that_stay() -> None:
    streets = ("zhitnaya", "nagatinskaya")
    lines: list[dict[str, Any]] = [{"action": "buy", "player": "A", "property": p} for p in streets]
    lines += [{"action": "build", "player": "A", "property": p} for _ in range(4) for p in streets]
    lines += [{"action": "build", "player": "A", "property": "zhitnaya"},
              *({"action": "buy", "player": "B", "property": p} for p in ("ryazansky", "vavilova", "rublevskoe"))]
    # The bank is left with 3 houses: the hotel comes down to 3 (the $50 is the hotel and one house).
    lines += [{"action": "build", "player": "B", "property": p} for p in ("ryazansky", "vavilova", "rublevskoe")]
    sale = {"action": "sell_building", "player": "A", "property": "zhitnaya"}
    english, said, _ = play("ru", "en", *lines, sale, rules={"starting_cash": 5000, "houses": 10})
    assert english == ["Ann sells the hotel on Zhitnaya Street for 50 thousand roubles: 3 houses stay there."]
    assert said.endswith("; 3 houses stay.")
    russian = play("ru", "ru", *lines, sale, rules={"starting_cash": 5000, "houses": 10})
    assert russian[0] == ["Аня продаёт отель на участке «Житная улица» за 50 тыс. руб.: там остаются 3 дома."]
    assert russian[1].endswith("остаются три дома.")


def test_a_payment_says_no_identifier() -> None:
    pay = {"action": "pay", "player": "A", "amount": 50, "to": "B", "reason": "transfer"}
    assert play("ru", "ru", pay)[0] == ["Аня платит Боре 50 тыс. руб."]
    assert play("ru", "en", pay)[0] == ["Ann pays Bob 50 thousand roubles."]


@pytest.mark.parametrize(("language", "rent", "salary", "bought"), [
    ("en", "Bob to Ann, 4.", "Ann, plus 200.", "Ann buys Baltic Avenue."),
    ("ru", "Боря — Ане, четыре.", "Аня, плюс двести.", "Аня покупает Балтик-авеню."),
    ("bg", "Боби на Ана, четири.", "Ана, плюс двеста.", "Ана купува Балтик авеню."),
])
def test_the_short_voice_says_only_the_names_and_the_amount(language: str, rent: str, salary: str,
                                                              bought: str) -> None:
    buy = {"action": "buy", "player": "A", "property": "baltic"}
    assert play("us", language, buy)[2] == bought
    assert play("us", language, buy, {"action": "rent", "player": "B", "property": "baltic"})[2] == rent
    assert play("us", language, {"action": "salary", "player": "A"})[2] == salary


@pytest.mark.parametrize(("text", "case", "kind", "expected"), [
    ("Нагатинская улица", "acc", "deed", "Нагатинскую улицу"), ("Улица Огарёва", "dat", "deed", "улице Огарёва"),
    ("Ростовская набережная", "acc", "deed", "Ростовскую набережную"),
    ("Первая Парковая улица", "gen", "deed", "Первой Парковой улицы"),
    ("Гоголевский бульвар", "acc", "deed", "Гоголевский бульвар"), ("коричневые", "loc", "word", "коричневых"),
    ("копилка Бесплатной стоянки", "dat", "word", "копилке Бесплатной стоянки"),
    ("Аня", "dat", "person", "Ане"), ("Цветан", "dat", "person", "Цветану"), ("Никита", "acc", "person", "Никиту"),
    ("Пётр", "dat", "person", "Петру"), ("Любовь", "gen", "person", "Любови"), ("Энн", "dat", "person", "Энн"),
    ("Ann", "dat", "person", "игроку Ann"), ("Baltic Avenue", "acc", "deed", "Baltic Avenue"),
])
def test_russian_cases(text: str, case: str, kind: Any, expected: str) -> None:
    assert inflected(text, case, kind, "ru") == expected
    assert inflected(text, case, kind, "en") == text


def test_bulgarian_articles() -> None:
    assert definite("кафяви", "bg") == "кафявите" and definite("банка", "bg") == "банката"
    assert definite("кафяви", "ru") == "кафяви"


def test_an_error_puts_the_deed_in_its_case() -> None:
    from banker.errors import IllegalAction

    error = IllegalAction("mortgage_buildings", property="Нагатинская улица", built="Житная улица")
    assert error.translated("ru").startswith("Нагатинскую улицу нельзя заложить, пока в группе есть здания")
