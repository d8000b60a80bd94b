"""The same money-taking action sent again from a phone within 30 s is asked, not applied, until the
phone says "again"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from banker.actions import Build, Buy, NewGame, Rent, Salary, Tax, Undo
from banker.errors import AskAgain
from banker.journal import Journal
from banker.session import AGAIN_S, Session
from tests.webui.conftest import PIN, Phone, client_at, snapshot
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import set_pin


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def timed(tmp_path: Path, clock: Clock) -> tuple[Session, Flask]:
    journal = Journal(tmp_path / "timed.sqlite3")
    session = Session(journal, clock=clock)
    session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))
    set_pin(journal, PIN)
    return session, create_app(session, FakeTable(session), {"TESTING": True, "DATA_DIR": str(tmp_path)})


def phone_of(app: Flask, player: str | None = "Ann") -> Phone:
    return Phone(client_at(app), app).join(player)


def cash(session: Session, player: str) -> int:
    state = session.state
    assert state is not None
    return state.players[state.seat(player)].cash


TAX = {"action": "tax", "player": "Ann", "square": "income_tax"}


def test_a_second_identical_tax_asks_and_moves_nothing_until_again(timed: tuple[Session, Flask],
                                                                   clock: Clock) -> None:
    session, app = timed
    ann = phone_of(app)
    assert ann.act(TAX).status_code == 200
    assert cash(session, "Ann") == 1300
    clock.now += 5
    before = snapshot(session)
    second = ann.act(TAX)
    assert second.status_code == 409
    body = second.get_json()
    assert body["error"] == "again"
    assert body["seconds"] == 5
    assert body["message"] == "Ann already paid this tax 5 s ago. Again?"
    assert snapshot(session) == before
    third = ann.post("/api/actions/tax", {"player": "Ann", "square": "income_tax", "again": True})
    assert third.status_code == 200, third.get_json()
    assert cash(session, "Ann") == 1100


def test_a_second_identical_salary_asks_and_moves_nothing_until_again(timed: tuple[Session, Flask],
                                                                      clock: Clock) -> None:
    session, app = timed
    ann = phone_of(app)
    assert ann.act({"action": "salary", "player": "Ann"}).status_code == 200
    clock.now += 12
    before = snapshot(session)
    second = ann.act({"action": "salary", "player": "Ann"})
    assert second.status_code == 409
    assert second.get_json()["message"] == "Ann already collected this salary 12 s ago. Again?"
    assert snapshot(session) == before
    assert ann.post("/api/actions/salary", {"player": "Ann", "again": True}).status_code == 200
    assert cash(session, "Ann") == 1900


def test_the_question_is_in_the_phones_language(timed: tuple[Session, Flask], clock: Clock) -> None:
    session, app = timed
    bob = Phone(client_at(app), app).join("Bob", "ru")
    body = {"action": "tax", "player": "Bob", "square": "luxury_tax"}
    assert bob.act(body).status_code == 200
    clock.now += 3
    assert bob.act(body).get_json()["message"] == "Bob: этот налог уже заплачен 3 с назад. Ещё раз?"
    cy = Phone(client_at(app), app).join("Cy", "bg")
    body = {"action": "salary", "player": "Cy"}
    assert cy.act(body).status_code == 200
    clock.now += 3
    assert cy.act(body).get_json()["message"] == "Cy: тази заплата вече е получена преди 3 с. Отново?"


def test_after_30_seconds_or_for_another_player_or_tax_it_is_applied(timed: tuple[Session, Flask],
                                                                     clock: Clock) -> None:
    session, app = timed
    ann, bob = phone_of(app, "Ann"), phone_of(app, "Bob")
    assert ann.act(TAX).status_code == 200
    clock.now += 1
    assert bob.act({**TAX, "player": "Bob"}).status_code == 200  # another player
    assert ann.act({**TAX, "square": "luxury_tax"}).status_code == 200  # another tax
    clock.now += AGAIN_S
    assert ann.act(TAX).status_code == 200  # long enough after
    assert cash(session, "Ann") == 1500 - 200 - 100 - 200


def test_the_table_paying_first_counts_too_and_an_undo_forgets_it(timed: tuple[Session, Flask],
                                                                  clock: Clock) -> None:
    session, app = timed
    ann = phone_of(app)
    session.submit(Tax("Ann", "income_tax"))  # at the table
    clock.now += 2
    assert ann.act(TAX).status_code == 409
    session.submit(Undo())
    clock.now += 1
    assert ann.act(TAX).status_code == 200
    assert cash(session, "Ann") == 1300


def test_a_retry_with_the_same_key_is_still_the_first_answer(timed: tuple[Session, Flask], clock: Clock) -> None:
    session, app = timed
    ann = phone_of(app)
    first = ann.act(TAX, key="tax-key-0001")
    clock.now += 1
    again = ann.act(TAX, key="tax-key-0001")
    assert again.status_code == 200 and again.headers.get("Idempotent-Replayed") == "true"
    assert again.get_json() == first.get_json()
    assert cash(session, "Ann") == 1300


def test_again_must_be_true_or_false(timed: tuple[Session, Flask]) -> None:
    session, app = timed
    before = snapshot(session)
    answer = phone_of(app).post("/api/actions/tax", {"player": "Ann", "square": "income_tax", "again": "yes"})
    assert answer.status_code == 422
    assert snapshot(session) == before


def test_the_session_says_what_it_would_ask(timed: tuple[Session, Flask], clock: Clock) -> None:
    session, _ = timed
    session.submit(Salary("Ann"))
    clock.now += 4
    question = session.repeated(Salary("Ann"))
    assert isinstance(question, AskAgain)
    assert question.params == {"player": "Ann", "seconds": 4, "amount": "$200", "property": ""}
    assert session.repeated(Salary("Bob")) is None


def test_the_pay_page_form_asks_with_a_button_that_pays_again(timed: tuple[Session, Flask], clock: Clock) -> None:
    """Without the script: the answer is the question and a form that sends the same payment with yes."""
    session, app = timed
    ann = phone_of(app)
    page = ann.client.get("/money").get_data(as_text=True)

    def form_post(extra: dict[str, Any]) -> str:
        import re

        token = re.search(r'name="csrf_token" value="([^"]+)"', page)
        assert token is not None
        data = {"csrf_token": token.group(1), "idem": f"form-key-{clock.now:.0f}-{len(extra)}", "action": "tax",
                "square": "income_tax", "next": "/money", **extra}
        response = ann.client.post("/do", data=data, follow_redirects=True)
        return response.get_data(as_text=True)

    form_post({})
    clock.now += 5
    asked = form_post({"x": ""})
    assert "Ann already paid this tax 5 s ago. Again?" in asked
    assert 'data-testid="again-yes"' in asked and 'name="again" value="1"' in asked
    assert cash(session, "Ann") == 1300
    form_post({"again": "1"})
    assert cash(session, "Ann") == 1100


@pytest.mark.parametrize(("lang", "words"), [
    ("en", "Bob already paid $8 rent for Baltic Avenue 3 s ago. Again?"),
    ("ru", "Bob: аренда за Baltic Avenue ($8) уже заплачена 3 с назад. Ещё раз?"),
    ("bg", "Bob: наемът за Baltic Avenue ($8) вече е платен преди 3 с. Отново?")])
def test_the_rent_question_names_the_deed_and_the_rent_paid_then(timed: tuple[Session, Flask], clock: Clock,
                                                                 lang: str, words: str) -> None:
    session, _ = timed
    for deed in ("mediterranean", "baltic"):
        session.submit(Buy("Ann", deed))
    session.submit(Rent("Bob", "baltic"))
    session.submit(Build("Ann", "baltic"))  # the rent is $20 now
    clock.now += 3
    question = session.repeated(Rent("Bob", "baltic"))
    assert isinstance(question, AskAgain)
    assert question.translated(lang) == words
