"""Answers to one trade proposal sent at once, through the Flask app in threads: it is applied once.

Bob's phone sends eight accepts of one cash proposal together (each with its own idempotency key, as a
phone that retries on a bad connection does): exactly one is applied and answered 200, the seven others
are refused with 409 and the reason, and the money moves once. An accept and a cancel sent together:
exactly one of them wins.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

import pytest
from flask import Flask

from banker.export import state_to_json
from banker.session import Session
from tests.webui.conftest import Phone, client_at

ROUNDS = 10
AT_ONCE = 8
COOKIE = "banker"


def copies(phone: Phone, app: Flask, count: int) -> list[Phone]:
    """``count`` clients carrying ``phone``'s cookie: the same phone sending several requests at once."""
    cookie = phone.client.get_cookie(COOKIE)
    assert cookie is not None
    out = []
    for _ in range(count):
        copy = Phone(client_at(app, "127.0.0.7"), app)
        copy.client.set_cookie(COOKIE, cookie.value)
        copy.token = phone.token
        out.append(copy)
    return out


def at_once(calls: list[tuple[Phone, str]]) -> list[Any]:
    """POST each (phone, path) from its own thread, all released together; the responses in order."""
    barrier = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def send(index: int, who: Phone, path: str) -> None:
        barrier.wait()
        answers[index] = who.post(path, {})

    threads = [threading.Thread(target=send, args=(i, who, path)) for i, (who, path) in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert all(a is not None for a in answers)
    return answers


def cash(session: Session) -> tuple[int, int]:
    assert session.state is not None
    players = state_to_json(session.state)["players"]
    return players["Ann"]["cash"], players["Bob"]["cash"]


@pytest.fixture(autouse=True)
def no_rate_limit(app: Flask) -> None:
    """The races send a round of eight at once from one device, round after round: past its rate of requests
    (tests/webui/test_phone_limits.py), which these tests are not about."""
    rate, _heavy = app.extensions["banker_limits"]
    rate.burst = 1_000_000


def test_eight_accepts_at_once_apply_the_proposal_once(app: Flask, phone: Any, session: Session) -> None:
    ann, bob = phone("Ann", address="127.0.0.5"), phone("Bob", address="127.0.0.7")
    bobs = copies(bob, app, AT_ONCE)
    tally: Counter[int] = Counter()
    for round_ in range(1, ROUNDS + 1):
        made = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"cash": 10}})
        assert made.status_code == 200, made.get_json()
        number = made.get_json()["proposal"]["id"]
        answers = at_once([(who, f"/api/trades/{number}/accept") for who in bobs])
        statuses = sorted(a.status_code for a in answers)
        tally.update(statuses)
        assert statuses == [200] + [409] * (AT_ONCE - 1), (round_, statuses)
        for refused in (a for a in answers if a.status_code == 409):
            body = refused.get_json()
            assert body["error"] == "proposal_gone" and "no longer open" in body["message"], body
        assert cash(session) == (1500 - 10 * round_, 1500 + 10 * round_), f"round {round_}: the money moved twice"
        assert bob.client.get("/api/trades").get_json()["proposals"] == []
    assert session.game_id is not None
    accepted = [line for line in session.journal.action_lines(session.game_id) if '"accept_trade"' in line]
    assert len(accepted) == ROUNDS
    print(f"\n{ROUNDS} rounds x {AT_ONCE} accepts at once: statuses {dict(sorted(tally.items()))}, "
          f"cash Ann {cash(session)[0]}, Bob {cash(session)[1]}")


def test_an_accept_and_a_cancel_at_once_only_one_wins(app: Flask, phone: Any, session: Session) -> None:
    ann, bob = phone("Ann", address="127.0.0.5"), phone("Bob", address="127.0.0.7")
    winners: Counter[str] = Counter()
    for round_ in range(1, ROUNDS + 1):
        before = cash(session)
        made = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"cash": 10}})
        number = made.get_json()["proposal"]["id"]
        accept, cancel = at_once([(bob, f"/api/trades/{number}/accept"), (ann, f"/api/trades/{number}/cancel")])
        statuses = sorted((accept.status_code, cancel.status_code))
        assert statuses == [200, 409], (round_, accept.get_json(), cancel.get_json())
        loser = cancel if accept.status_code == 200 else accept
        assert loser.get_json()["error"] == "proposal_gone", loser.get_json()
        if accept.status_code == 200:
            winners["accept"] += 1
            assert cash(session) == (before[0] - 10, before[1] + 10)
        else:
            winners["cancel"] += 1
            assert cash(session) == before
        assert ann.client.get("/api/trades").get_json()["proposals"] == []
    print(f"\n{ROUNDS} rounds of accept and cancel at once: {dict(winners)} won, the other refused each time")
