"""The hostile phone, second round: what it types. Join codes in another script, numbers that int() would
take but the engine's JSON would not, PINs in other digits, and names that draw like another or like
nothing."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from banker.actions import NewGame
from banker.engine import apply
from banker.errors import BadInput
from banker.session import Session
from tests.webui.conftest import Phone, client_at, snapshot
from tests.webui.fake_table import FakeTable
from webui.auth import PIN_SETTING


def stranger(app: Flask, address: str) -> Phone:
    who = Phone(client_at(app, address), app)
    who.me()
    return who


def form(who: Phone, path: str, fields: dict[str, str] | list[tuple[str, str]]) -> Any:
    items = list(fields.items()) if isinstance(fields, dict) else list(fields)
    return who.client.post(path, data=MultiDict([*items, ("csrf_token", who.token), ("idem", uuid.uuid4().hex)]))


def flashed(who: Phone, path: str = "/") -> str:
    return who.client.get(path).get_data(as_text=True)


# --- 8. join codes in another script ---------------------------------------------------------------------

@pytest.mark.parametrize("code", ["ÄBCD", "АВСЕ", "ＡＢＣＤ", "\U0001F600\U0001F600", "ß" * 3])
def test_a_join_code_in_another_script_is_a_wrong_code_and_counted(app: Flask, code: str) -> None:
    link = stranger(app, "127.0.0.31")
    answer = link.client.get(f"/j/{code}")
    assert answer.status_code == 303
    assert "not the table&#39;s code" in flashed(link, "/join") or "not the table's code" in flashed(link, "/join")
    typed = stranger(app, "127.0.0.32")
    statuses = [typed.post("/api/join", {"code": code}, key=False) for _ in range(6)]
    assert [s.status_code for s in statuses] == [403] * 5 + [429]  # wrong codes, counted as guesses
    assert statuses[0].get_json()["error"] == "web_wrong_code"


# --- 10. numbers the engine would refuse ----------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["1_000", "١٠٠", "９", "+7", "1 000", "²", "-5", "7.0"])
def test_a_form_amount_not_in_ascii_digits_is_refused_and_moves_nothing(phone: Any, session: Session,
                                                                       typed: str) -> None:
    ann = phone("Ann")
    before = snapshot(session)
    form(ann, "/do", {"action": "pay", "amount": typed, "to": "Bob"})
    assert snapshot(session) == before
    assert "type it with the digits 0 to 9 only" in flashed(ann)
    banker = phone(None, address="127.0.0.2").banker()
    form(banker, "/do", {"action": "collect", "player": "Ann", "amount": typed})
    form(ann, "/trades/propose", {"to": "Bob", "give_cash": typed})
    assert snapshot(session) == before and ann.client.get("/api/trades").get_json()["proposals"] == []


def test_a_form_amount_in_ascii_digits_is_paid(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    form(ann, "/do", {"action": "pay", "amount": " 40 ", "to": "Bob"})
    assert session.state is not None and session.state.players[0].cash == 1460


def test_a_setup_form_rule_not_in_ascii_digits_is_refused(phone: Any, session: Session) -> None:
    banker = phone(None, address="127.0.0.2").banker()
    game = session.game_id
    form(banker, "/setup", [("edition", "us"), ("players", "Dee"), ("players", "Eve"), ("rule_salary", "２００")])
    assert session.game_id == game
    form(banker, "/setup", [("edition", "us"), ("players", "Dee"), ("players", "Eve"), ("rule_salary", "250")])
    assert session.game_id != game and session.state is not None and session.state.rules.salary == 250


@pytest.mark.parametrize("pin", ["١٢٣٤", "１２３４", "²³¹⁴", "12 34", "+1234", "۱۲۳۴"])
def test_a_pin_in_other_digits_is_never_saved(phone: Any, session: Session, pin: str) -> None:
    banker = phone(None, address="127.0.0.2").banker()
    stored = session.journal.setting(PIN_SETTING)
    answer = banker.post("/api/banker/pin", {"pin": pin})
    assert answer.status_code == 422 and "digits 0–9" in answer.get_json()["message"]
    form(banker, "/banker", {"do": "set_pin", "new_pin": pin})
    assert session.journal.setting(PIN_SETTING) == stored


def test_the_speech_volume_takes_ascii_digits_only(phone: Any, table: FakeTable) -> None:
    banker = phone(None, address="127.0.0.2").banker()
    form(banker, "/banker", {"do": "speech", "on": "1", "volume": "٥٠", "voice": "man"})
    assert table.voice is not None and table.voice["volume"] == 80  # not 50
    form(banker, "/banker", {"do": "speech", "on": "1", "volume": "50", "voice": "man"})
    assert table.voice is not None and table.voice["volume"] == 50


# --- 11. look-alike or blank names ---------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "key"), [
    (("Bob", "Bob\ufe0f"), "player_lookalike"),
    (("Ann", "Ann\u3164"), "player_lookalike"),
    (("Ann", "An\u034fn"), "player_lookalike"),
    (("Ann", "\u2800Ann"), "player_lookalike"),
    (("Ann", "\u2800\u2800"), "player_name_invisible"),
    (("Ann", "\u3164\u3164"), "player_name_invisible"),
    (("Ann", "\uffa0"), "player_name_invisible"),
    (("Ann", "\u115f\u1160"), "player_name_invisible"),
])
def test_names_that_draw_like_another_or_like_nothing_are_refused(players: tuple[str, ...], key: str) -> None:
    with pytest.raises(BadInput) as info:
        apply(None, NewGame("us", players))
    assert info.value.key == key
    for language in ("en", "ru", "bg"):
        assert "{" not in info.value.translated(language)


def test_the_setup_form_refuses_a_blank_name_and_says_why(phone: Any, session: Session) -> None:
    banker = phone(None, address="127.0.0.2").banker()
    game = session.game_id
    form(banker, "/setup", [("edition", "us"), ("players", "Ann"), ("players", "\u3164")])
    assert session.game_id == game
    assert re.search(r"shows nothing", flashed(banker))


def test_names_that_show_in_any_script_or_as_a_sign_still_play() -> None:
    state, _ = apply(None, NewGame("us", ("Борис", "Цветан", "Ann", "李", "Zoë", "R2", "-", "★")))
    assert len(state.players) == 8
