"""The event stream: what a phone receives, the cap on streams, and that a slow phone never blocks."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from typing import Any

from flask import Flask

from banker.actions import Salary
from banker.session import Session
from tests.webui.conftest import Phone, do
from tests.webui.fake_table import FakeTable
from webui.stream import QUEUE_SIZE, Broker


def read_until(chunks: Iterator[bytes], needle: str, seconds: float = 5.0) -> str:
    seen = ""
    deadline = time.monotonic() + seconds
    while needle not in seen:
        assert time.monotonic() < deadline, f"{needle!r} not in {seen!r}"
        seen += next(chunks).decode()
    return seen


def events(text: str) -> list[dict[str, str]]:
    out = []
    for block in text.split("\n\n"):
        fields: dict[str, str] = {}
        for line in block.splitlines():
            if line.startswith(":"):
                continue
            key, _, value = line.partition(": ")
            fields[key] = value
        if fields:
            out.append(fields)
    return out


def open_stream(phone: Phone, since: str = "", last_id: str = "") -> Any:
    headers = {"Last-Event-ID": last_id} if last_id else {}
    response = phone.client.get(f"/api/stream?since={since}", headers=headers, buffered=False)
    assert response.status_code == 200
    assert response.mimetype == "text/event-stream"
    return response


def test_the_stream_says_connected_then_sends_each_action(phone: Any, session: Session) -> None:
    ann = phone("Ann", lang="bg")
    response = open_stream(ann, since=f"{session.game_id}-0")
    chunks = iter(response.response)
    assert next(chunks).decode().startswith(": connected")
    do(session, action="salary", player="Bob")
    text = read_until(chunks, "event: state")
    event = [e for e in events(text) if e.get("event") == "state"][0]
    assert event["id"] == f"{session.game_id}-1"
    data = json.loads(event["data"])
    assert data["seq"] == 1 and data["state"]["players"]["Bob"]["cash"] == 1700
    assert data["log"] == ["Bob получава заплата: $200."]
    assert data["actions"][0]["say"] == "Боб получава двеста долара заплата."
    assert data["actions"][0]["say_short"] == "Боб, плюс двеста."  # the simulated table's short voice
    response.close()


def test_keepalive_comments(phone: Any, session: Session) -> None:
    response = open_stream(phone("Ann"), since=f"{session.game_id}-0")
    assert ": keepalive" in read_until(iter(response.response), ": keepalive")
    response.close()


def test_a_reconnect_with_an_old_id_gets_the_current_state(phone: Any, session: Session) -> None:
    do(session, action="salary", player="Bob")
    response = open_stream(phone("Ann"), last_id=f"{session.game_id}-0")
    text = read_until(iter(response.response), "event: state")
    data = json.loads([e for e in events(text) if e.get("event") == "state"][0]["data"])
    assert data["seq"] == 1 and data["resync"] is True
    response.close()


def test_a_reconnect_that_is_up_to_date_gets_nothing_but_news(phone: Any, session: Session) -> None:
    response = open_stream(phone("Ann"), last_id=f"{session.game_id}-0")
    text = read_until(iter(response.response), ": keepalive")
    assert "event: state" not in text
    response.close()


def test_streams_are_capped(session: Session, table: FakeTable) -> None:
    from webui import create_app

    app = create_app(session, table, {"TESTING": True, "MAX_STREAMS": 2, "KEEPALIVE": 0.2})
    phones = [Phone(app.test_client(), app).join("Ann") for _ in range(3)]
    open_ones = [open_stream(p, since=f"{session.game_id}-0") for p in phones[:2]]
    for response in open_ones:
        next(iter(response.response))
    refused = phones[2].client.get("/api/stream")
    assert refused.status_code == 503
    assert refused.headers["Retry-After"] == "10"
    assert refused.get_json()["error"] == "web_too_many_streams"
    for response in open_ones:
        response.close()
    assert app.extensions["banker"].broker.open_streams == 0
    assert phones[2].client.get("/api/stream", buffered=False).status_code == 200


def test_the_stream_needs_a_joined_phone(app: Flask) -> None:
    assert app.test_client().get("/api/stream").status_code == 401


def test_a_slow_phone_never_blocks_the_table(session: Session) -> None:
    broker = Broker(session, None, max_streams=4, keepalive=0.1)
    client = broker.open("slow", "en")
    assert client is not None
    started = time.monotonic()
    for _ in range(QUEUE_SIZE + 50):
        session.submit(Salary("Ann"))
    assert time.monotonic() - started < 5
    assert client.resync is True
    chunks = broker.events(client, since="")
    first = next(chunks)
    assert first.startswith(": connected")
    text = next(chunks)
    data = json.loads([e for e in events(text) if e.get("event") == "state"][0]["data"])
    assert data["seq"] == session.state.seq if session.state else False
    assert data["resync"] is True
    broker.shutdown()


def test_many_updates_are_sent_as_the_newest_state(session: Session) -> None:
    broker = Broker(session, None, max_streams=4, keepalive=5)
    client = broker.open("p", "en")
    assert client is not None
    chunks = broker.events(client, since=f"{session.game_id}-0")
    assert next(chunks).startswith(": connected")
    for _ in range(3):
        session.submit(Salary("Ann"))
    data = json.loads([e for e in events(next(chunks)) if e.get("event") == "state"][0]["data"])
    assert data["seq"] == 3 and len(data["log"]) == 3
    broker.shutdown()
    assert list(chunks) == []


def test_frames_and_role_answers_reach_the_stream(phone: Any, session: Session, table: FakeTable) -> None:
    bob = phone("Bob")
    response = open_stream(bob, since=f"{session.game_id}-0")
    chunks = iter(response.response)
    next(chunks)
    table.tap("player:1")
    assert "event: frame\ndata: 1" in read_until(chunks, "event: frame")
    bob.post("/api/banker", {"ask": True})
    threading.Thread(target=table.banker_questions[-1][1], args=(True,)).start()
    assert '"banker": true' in read_until(chunks, "event: role")
    response.close()


def test_a_trade_proposal_and_its_answer_send_the_trades_event(phone: Any, session: Session) -> None:
    ann, bob = phone("Ann"), phone("Bob")
    response = open_stream(bob, since=f"{session.game_id}-0")
    chunks = iter(response.response)
    assert next(chunks).decode().startswith(": connected")
    made = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"cash": 10}})
    assert made.status_code == 200
    text = read_until(chunks, "event: trades")
    assert "event: state" in text, "the new state comes with it"
    assert bob.post(f"/api/trades/{made.get_json()['proposal']['id']}/refuse", {}).status_code == 200
    assert "event: trades" in read_until(chunks, "event: trades")
    do(session, action="salary", player="Bob")
    assert "event: trades" not in read_until(chunks, "event: state")
    do(session, action="undo")
    do(session, action="undo")  # the refusal: the proposal is open again
    assert "event: trades" in read_until(chunks, "event: trades")
    response.close()
