"""The hostile phone, second round, in-process: asking the table for the banker role (a code the phone
cannot choose, a bounded queue), the table letting the family in whatever the phones did, and the
attacks of tests/webui/attacks.py that need a finer look."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from banker.session import Session
from tests.webui.conftest import Phone, client_at
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import Approvals, AskRefused, phone_code
from webui.join import CODE_ALPHABET, join_code
from webui.views import table_resets


def wrong(code: str) -> str:
    return "".join(CODE_ALPHABET[(CODE_ALPHABET.index(c) + 1) % len(CODE_ALPHABET)] for c in code)


def at(app: Flask, address: str) -> Phone:
    who = Phone(client_at(app, address), app)
    who.me()
    return who


def concurrently(calls: list[Any]) -> list[Any]:
    results: list[Any] = [None] * len(calls)
    start = threading.Barrier(len(calls))

    def run(i: int) -> None:
        start.wait()
        results[i] = calls[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return results


# --- 1. the table's question names the phone by a code it cannot choose ------------------------------

def test_a_second_phone_that_picked_ann_is_told_apart_on_the_tables_screen(phone: Any, table: FakeTable) -> None:
    ann = phone("Ann", address="127.0.0.3")
    spoof = phone("Ann", address="127.0.0.66")  # picked Ann too, and asks a moment before her
    assert spoof.post("/api/banker", {"ask": True}).status_code == 202
    assert ann.post("/api/banker", {"ask": True}).status_code == 202
    (spoof_words, spoof_answer), (ann_words, ann_answer) = table.banker_questions
    assert spoof_words != ann_words
    assert ann.me()["asked_as"] == ann_words and spoof.me()["asked_as"] == spoof_words
    assert ann_words.startswith("Ann · phone ")
    banker_page = ann.client.get("/banker").get_data(as_text=True)
    assert ann_words in banker_page  # the phone shows the words the table shows
    # The table's OK for the spoofer's question makes the spoofer the banker, never Ann's phone, and back.
    spoof_answer(True)
    assert spoof.me()["banker"] and not ann.me()["banker"]
    ann_answer(False)
    assert not ann.me()["banker"]


def test_the_code_is_made_with_the_tables_key_not_read_from_the_cookie(phone: Any, app: Flask,
                                                                      table: FakeTable) -> None:
    bob = phone("Bob", address="127.0.0.4")
    bob.post("/api/banker", {"ask": True})
    pid = bob.me()["phone"]
    words = table.banker_questions[-1][0]
    assert words == f"Bob · phone {phone_code(pid, app.secret_key or '')}"
    assert not words.endswith(pid[:4].upper())
    other_keys = {phone_code(pid, f"another table {i}") for i in range(20)}
    assert len(other_keys) > 10  # the code depends on the key: a phone cannot work it out or pick it


def test_a_second_question_with_the_same_words_is_refused() -> None:
    approvals = Approvals(clock=lambda: 100.0)
    approvals.ask("phone-1", "addr:127.0.0.3", "Ann · phone K7MX")
    try:
        approvals.ask("phone-2", "addr:127.0.0.9", "Ann · phone K7MX")
    except AskRefused as refused:
        assert refused.key == "web_ask_same_words" and refused.status == 409
    else:
        raise AssertionError("a second question with the same words was put to the table")


def test_asking_gives_the_phone_a_new_id_so_an_earlier_copy_of_its_cookie_is_not_granted(
        phone: Any, table: FakeTable) -> None:
    cy = phone("Cy", address="127.0.0.5")
    copy = Phone(client_at(cy.app, "127.0.0.5"), cy.app)
    copy.client.set_cookie("banker", cy.client.get_cookie("banker").value)  # type: ignore[union-attr]
    before = cy.me()["phone"]
    cy.post("/api/banker", {"ask": True})
    table.banker_questions[-1][1](True)
    assert cy.me()["banker"] and cy.me()["phone"] != before
    assert copy.me()["phone"] == before and not copy.me()["banker"]


# --- 2. the queue of questions is bounded --------------------------------------------------------------

@pytest.mark.parametrize("burst", [1000, None])
def test_twenty_cookies_from_one_device_at_once_put_one_question(session: Session, table: FakeTable, tmp_path: Path,
                                                                 burst: int | None) -> None:
    # With a burst of requests large enough to let every question through to the bound of one per device,
    # and with the table's own rate of requests (which refuses most of them before they ask).
    app = create_app(session, table, {"TESTING": True, "DATA_DIR": str(tmp_path),
                                      **({"CHANGES_BURST": burst} if burst else {})})

    def joined(player: str | None, address: str) -> Phone:
        return Phone(client_at(app, address), app).join(player)

    flood = [joined(None, "127.0.0.40") for _ in range(20)]
    answers = concurrently([lambda p=p: p.post("/api/banker", {"ask": True}) for p in flood])
    statuses = sorted(a.status_code for a in answers)
    refusals = {a.get_json()["error"] for a in answers if a.status_code == 429}
    if burst:
        assert statuses == [202] + [429] * 19 and refusals == {"web_ask_one_per_device"}
    else:
        assert statuses.count(202) <= 1 and refusals <= {"web_ask_one_per_device", "web_too_fast"}
    assert len(table.banker_questions) == statuses.count(202)
    ann = joined("Ann", "127.0.0.3")
    assert ann.post("/api/banker", {"ask": True}).status_code == 202  # the real phone's question is put
    assert table.banker_questions[-1][0] == ann.me()["asked_as"]


def test_the_table_holds_at_most_three_questions(phone: Any, table: FakeTable) -> None:
    askers = [phone(None, address=f"127.0.0.{80 + i}") for i in range(5)]
    statuses = [p.post("/api/banker", {"ask": True}) for p in askers]
    assert [s.status_code for s in statuses] == [202] * 3 + [429] * 2
    busy = statuses[-1].get_json()
    assert busy["error"] == "web_ask_table_busy" and "OK or ✕" in busy["message"]
    assert len(table.banker_questions) == 3
    table.banker_questions[0][1](False)  # the table answers one: there is room again
    assert askers[3].post("/api/banker", {"ask": True}).status_code == 202


def test_a_device_the_table_said_no_to_waits_before_asking_again() -> None:
    now = [0.0]
    approvals = Approvals(clock=lambda: now[0])
    approvals.ask("p1", "addr:a", "x · phone AAAA")
    approvals.answer("p1", False)
    now[0] += Approvals.ASK_EVERY_S + 1
    try:
        approvals.ask("p2", "addr:a", "x · phone CCCC")
    except AskRefused as refused:
        assert refused.key == "web_ask_too_soon" and refused.params["seconds"] > 60
    else:
        raise AssertionError("the table said no, and the same device asked again at once")
    approvals.ask("p3", "addr:b", "y · phone EEEE")  # another device asks
    approvals.answer("p3", None)  # nobody answered: it may ask again soon
    now[0] += Approvals.ASK_EVERY_S + 1
    approvals.ask("p4", "addr:b", "y · phone FFFF")
    now[0] += Approvals.AFTER_NO_S
    approvals.ask("p5", "addr:a", "x · phone HHHH")


def test_a_question_waiting_behind_two_others_is_not_given_up_before_the_table_shows_it() -> None:
    now = [0.0]
    approvals = Approvals(clock=lambda: now[0])
    for i, device in enumerate("abc"):
        approvals.ask(f"p{i}", f"addr:{device}", f"{device} · phone AAA{i}")
    now[0] += 2 * Approvals.SHOWN_S + 5  # the first two were shown their 30 s each, nobody answered
    assert approvals.take("p2") == "waiting"


# --- Also: the table lets the family in ------------------------------------------------------------

def lock_the_table_for_codes(app: Flask, session: Session) -> None:
    bad = wrong(join_code(session.journal))
    for i in range(4):
        guesser = at(app, f"127.0.5.{i + 1}")
        for _ in range(5):
            guesser.post("/api/join", {"code": bad, "player": None}, key=False)


def test_when_the_table_is_locked_for_everyone_the_phone_says_to_ask_at_the_table(app: Flask,
                                                                                 session: Session) -> None:
    lock_the_table_for_codes(app, session)
    family = at(app, "127.0.0.3")
    answer = family.post("/api/join", {"code": join_code(session.journal), "player": "Ann"}, key=False)
    assert answer.status_code == 429
    body = answer.get_json()
    assert body["error"] == "web_locked_code_all"
    assert body["message"] == "Too many wrong codes: ask at the table for a new code."
    ru = at(app, "127.0.0.4")
    ru.client.post("/lang", data={"lang": "ru", "csrf_token": ru.token})
    message = ru.post("/api/join", {"code": join_code(session.journal)}, key=False).get_json()["message"]
    assert "новый код" in message


def test_a_new_code_from_the_tables_setup_lets_in_every_locked_phone(app: Flask, session: Session) -> None:
    lock_the_table_for_codes(app, session)
    typos = at(app, "127.0.0.3")  # the family's own phone, locked out by its own typos too
    for _ in range(6):
        typos.post("/api/join", {"code": wrong(join_code(session.journal)), "player": None}, key=False)
    code = table_resets(app.extensions["banker"])["code"]()
    assert code == join_code(session.journal)
    assert typos.post("/api/join", {"code": code, "player": "Ann"}, key=False).status_code == 200


def test_a_new_pin_from_the_tables_setup_when_the_pin_is_lost_and_guessed_out(app: Flask, phone: Any,
                                                                               table: FakeTable) -> None:
    banker = phone(None, address="127.0.0.2").banker()
    for i in range(4):
        guesser = phone(None, address=f"127.0.6.{i + 1}")
        for _ in range(5):
            guesser.post("/api/banker", {"pin": "0000"})
    family = phone("Bob", address="127.0.0.4")
    locked = family.post("/api/banker", {"pin": "2468"})
    assert locked.status_code == 429 and locked.get_json()["error"] == "web_locked_pin_all"
    # The table's OK still lets the family in while every PIN is locked out...
    assert family.post("/api/banker", {"ask": True}).status_code == 202
    table.banker_questions[-1][1](True)
    assert family.me()["banker"]
    # ... and its setup makes a new PIN: every phone loses the role, the guesses so far are forgotten.
    pin = table_resets(app.extensions["banker"])["pin"]()
    assert len(pin) == 6 and pin.isascii() and pin.isdigit()
    assert not banker.me()["banker"] and not family.me()["banker"]
    assert family.post("/api/banker", {"pin": pin}).status_code == 200
    assert family.me()["banker"]
