"""The JSON API: every endpoint, and every refusal leaves the state exactly as it was."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from banker.actions import ACTION_TYPES, parse_action
from banker.export import state_to_json
from banker.journal import Journal
from banker.session import Session
from tests.webui.conftest import PIN, Phone, client_at, do, snapshot
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.join import join_code
from webui.openapi import document, example


def cash(session: Session, name: str) -> int:
    assert session.state is not None
    return session.state.players[session.state.seat(name)].cash


def test_me_gives_a_token_and_no_role_before_joining(app: Flask) -> None:
    client = app.test_client()
    data = client.get("/api/me").get_json()
    assert data["joined"] is False and data["role"] is None
    assert data["csrf_token"]
    assert data["pin_set"] is True


def test_join_needs_the_table_code(app: Flask, session: Session) -> None:
    phone = Phone(app.test_client(), app)
    phone.me()
    response = phone.post("/api/join", {"code": "ZZZZ", "player": "Ann"}, key=False)
    assert response.status_code == 403
    assert response.get_json()["error"] == "web_wrong_code"
    assert phone.client.get("/api/state").status_code == 401
    response = phone.post("/api/join", {"code": join_code(session.journal).lower(), "player": "Ann"}, key=False)
    assert response.status_code == 200
    assert response.get_json() == {"ok": True, "role": "player", "player": "Ann", "lang": "en"}


def test_join_link_sets_the_code(app: Flask, session: Session) -> None:
    client = app.test_client()
    assert client.get(f"/j/{join_code(session.journal)}").status_code == 303
    phone = Phone(client, app)
    phone.me()
    assert phone.post("/api/join", {"player": "Bob"}, key=False).status_code == 200


def test_join_as_an_unknown_player_is_refused(app: Flask, session: Session) -> None:
    phone = Phone(app.test_client(), app)
    phone.me()
    response = phone.post("/api/join", {"code": join_code(session.journal), "player": "Zed"}, key=False)
    assert response.status_code == 422
    assert "Zed" in response.get_json()["message"]


def test_wrong_codes_are_rate_limited(app: Flask, session: Session) -> None:
    phone = Phone(client_at(app, "127.0.0.9"), app)  # a phone on the Wi-Fi
    phone.me()
    statuses = [phone.post("/api/join", {"code": "WXYZ", "player": None}, key=False).status_code for _ in range(6)]
    assert statuses == [403] * 5 + [429]
    response = phone.post("/api/join", {"code": join_code(session.journal), "player": None}, key=False)
    assert response.status_code == 429


def test_state_is_the_replay_json(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    assert session.state is not None
    assert ann.client.get("/api/state").get_json() == state_to_json(session.state)


def test_a_player_pays_their_own_rent(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    bob = phone("Bob")
    response = bob.act({"action": "rent", "player": "Bob", "property": "baltic"})
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["ok"] is True and body["log"] == ["Bob pays Ann $4 rent for Baltic Avenue."]
    assert cash(session, "Bob") == 1496


@pytest.mark.parametrize("action", [
    {"action": "rent", "player": "Bob", "property": "baltic"},
    {"action": "pay", "player": "Bob", "amount": 100, "to": "Ann"},
    {"action": "buy", "player": "Bob", "property": "boardwalk"},
    {"action": "mortgage", "player": "Bob", "property": "park_place"},
    {"action": "bid", "player": "Bob", "amount": 10},
    {"action": "auction", "property": "boardwalk", "declined_by": "Bob"},
    {"action": "bankrupt", "player": "Bob"},
])
def test_another_players_money_is_refused(phone: Any, session: Session, action: dict[str, Any]) -> None:
    do(session, action="buy", player="Bob", property="park_place")
    do(session, action="buy", player="Cy", property="baltic")
    before = snapshot(session)
    ann = phone("Ann")
    response = ann.act(action)
    assert response.status_code == 403
    assert response.get_json()["error"] == "web_not_yours"
    assert snapshot(session) == before


@pytest.mark.parametrize("action", [
    {"action": "end_turn"}, {"action": "undo"}, {"action": "collect", "player": "Ann", "amount": 500},
    {"action": "auction_close"}, {"action": "building_auction", "building": "house"}, {"action": "end_game"},
    {"action": "new_game", "edition": "us", "players": ["X", "Y"]},
])
def test_banker_actions_are_refused_to_players(phone: Any, session: Session, action: dict[str, Any]) -> None:
    before = snapshot(session)
    response = phone("Ann").act(action)
    assert response.status_code == 403
    assert response.get_json()["error"] == "web_banker_only"
    assert snapshot(session) == before


def test_a_trade_cannot_be_submitted_as_an_action(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    before = snapshot(session)
    response = phone("Ann").act({"action": "trade", "from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]}})
    assert response.status_code == 403
    assert response.get_json()["error"] == "not_offered"
    assert snapshot(session) == before


def test_a_watcher_cannot_act(phone: Any, session: Session) -> None:
    before = snapshot(session)
    watcher = phone(None)
    assert watcher.me()["role"] == "watcher"
    response = watcher.act({"action": "salary", "player": "Ann"})
    assert response.status_code == 403
    assert snapshot(session) == before


def test_the_banker_may_do_anything(phone: Any, session: Session) -> None:
    banker = phone(None).banker()
    assert banker.me()["role"] == "banker"
    assert banker.act({"action": "collect", "player": "Bob", "amount": 50}).status_code == 200
    assert banker.act({"action": "salary", "player": "Cy"}).status_code == 200
    assert banker.act({"action": "undo"}).status_code == 200
    assert banker.act({"action": "end_turn"}).status_code == 200
    assert cash(session, "Bob") == 1550 and cash(session, "Cy") == 1500


def test_a_rules_refusal_is_409_in_the_phones_language(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    before = snapshot(session)
    ann = phone("Ann", lang="ru")
    response = ann.act({"action": "rent", "player": "Ann", "property": "baltic"})
    assert response.status_code == 409
    body = response.get_json()
    assert body["error"] == "rent_own"
    assert body["message"] == "Baltic Avenue: владелец — Ann, аренду платить не нужно."
    assert snapshot(session) == before


def test_unknown_ids_are_422(phone: Any, session: Session) -> None:
    before = snapshot(session)
    ann = phone("Ann")
    for action, key in (({"action": "buy", "player": "Ann", "property": "nowhere"}, "unknown_property"),
                        ({"action": "pay", "player": "Ann", "amount": 5, "to": "Zed"}, "unknown_"),
                        ({"action": "buy", "player": "Ann", "property": "baltic", "colour": "red"}, "unknown_field"),
                        ({"action": "pay", "player": "Ann", "amount": "lots", "to": "Bob"}, "bad_field")):
        response = ann.act(action)
        assert response.status_code == 422, (action, response.get_json())
        assert response.get_json()["error"].startswith(key)
        assert response.get_json()["message"]
    response = ann.post("/api/actions/fly", {"player": "Ann"})
    assert response.status_code == 422 and response.get_json()["error"] == "unknown_action"
    assert snapshot(session) == before


def test_malformed_and_oversized_json(phone: Any, session: Session) -> None:
    before = snapshot(session)
    ann = phone("Ann")
    response = ann.post("/api/actions/salary", "{not json")
    assert response.status_code == 400 and response.get_json()["error"] == "web_bad_json"
    response = ann.post("/api/actions/salary", "[1, 2]")
    assert response.status_code == 422 and response.get_json()["error"] == "not_an_object"
    response = ann.post("/api/actions/salary", json.dumps({"player": "Ann", "pad": "x" * 20_000}))
    assert response.status_code == 413
    assert "Traceback" not in response.get_data(as_text=True)
    assert snapshot(session) == before


def test_missing_csrf_token_is_400(phone: Any, session: Session) -> None:
    before = snapshot(session)
    ann = phone("Ann")
    response = ann.post("/api/actions/salary", {"player": "Ann"}, token=False)
    assert response.status_code == 400
    assert response.get_json()["error"] == "web_csrf"
    response = ann.client.post("/api/actions/salary", data=json.dumps({"player": "Ann"}),
                               headers={"X-CSRFToken": "forged", "Idempotency-Key": uuid.uuid4().hex},
                               content_type="application/json")
    assert response.status_code == 400
    assert snapshot(session) == before


def test_a_token_is_useless_without_its_cookie(phone: Any, app: Flask, session: Session) -> None:
    before = snapshot(session)
    ann = phone("Ann")
    stranger = app.test_client()
    response = stranger.post("/api/actions/salary", data=json.dumps({"player": "Ann"}),
                             headers={"X-CSRFToken": ann.token, "Idempotency-Key": uuid.uuid4().hex},
                             content_type="application/json")
    assert response.status_code == 400
    assert snapshot(session) == before


def test_missing_idempotency_key_is_400(phone: Any, session: Session) -> None:
    before = snapshot(session)
    ann = phone("Ann")
    for key in (False, "short", "bad key with spaces!"):
        response = ann.act({"action": "salary", "player": "Ann"}, key=key)
        assert response.status_code == 400
        assert response.get_json()["error"] == "web_idempotency_missing"
    assert snapshot(session) == before


def test_a_replayed_key_pays_once(phone: Any, session: Session) -> None:
    bob = phone("Bob")
    first = bob.act({"action": "pay", "player": "Bob", "amount": 100, "to": "Ann"}, key="pay-rent-0001")
    after_first = snapshot(session)
    second = bob.act({"action": "pay", "player": "Bob", "amount": 100, "to": "Ann"}, key="pay-rent-0001")
    assert first.status_code == second.status_code == 200
    assert first.get_data() == second.get_data()
    assert second.headers["Idempotent-Replayed"] == "true"
    assert snapshot(session) == after_first
    assert cash(session, "Bob") == 1400


def test_a_replayed_refusal_stays_refused(phone: Any, session: Session) -> None:
    bob = phone("Bob")
    first = bob.act({"action": "jail_fine", "player": "Bob"}, key="jail-fine-001")
    assert first.status_code == 409
    before = snapshot(session)
    second = bob.act({"action": "jail_fine", "player": "Bob"}, key="jail-fine-001")
    assert second.status_code == 409 and second.get_data() == first.get_data()
    assert snapshot(session) == before


def test_keys_are_per_phone(phone: Any, session: Session) -> None:
    ann, bob = phone("Ann"), phone("Bob")
    assert ann.act({"action": "salary", "player": "Ann"}, key="same-key-123").status_code == 200
    assert bob.act({"action": "salary", "player": "Bob"}, key="same-key-123").status_code == 200
    assert cash(session, "Ann") == cash(session, "Bob") == 1700


def test_a_retry_after_a_restart_pays_once(tmp_path: Path) -> None:
    path = tmp_path / "restart.sqlite3"
    journal = Journal(path)
    session = Session(journal)
    from banker.actions import NewGame

    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    app = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
    bob = Phone(app.test_client(), app).join("Bob")
    first = bob.act({"action": "pay", "player": "Bob", "amount": 250, "to": "Ann"}, key="restart-key-1")
    assert first.status_code == 200
    journal.close()

    journal = Journal(path)
    session = Session.resume(journal)
    app2 = create_app(session, None, {"TESTING": True, "DATA_DIR": str(tmp_path)})
    phone2 = Phone(app2.test_client(), app2)
    # The phone keeps its cookie across the restart: the key file in DATA_DIR signs it again.
    for cookie in bob.client._cookies.values():  # noqa: SLF001 - carry the browser's cookie over
        phone2.client.set_cookie(cookie.key, cookie.value)
    assert phone2.me()["player"] == "Bob"
    again = phone2.act({"action": "pay", "player": "Bob", "amount": 250, "to": "Ann"}, key="restart-key-1")
    assert again.status_code == 200 and again.get_data() == first.get_data()
    assert cash(session, "Bob") == 1250
    journal.close()


def test_wrong_pins_are_rate_limited(phone: Any, session: Session) -> None:
    cy = phone("Cy")
    statuses = [cy.post("/api/banker", {"pin": "0000"}).status_code for _ in range(5)]
    assert statuses == [403] * 5
    response = cy.post("/api/banker", {"pin": PIN})
    assert response.status_code == 429
    assert "Wait" in response.get_json()["message"]
    assert cy.me()["banker"] is False
    response = cy.act({"action": "end_turn"})
    assert response.status_code == 403


def test_a_wrong_pin_leaves_the_phone_a_player(phone: Any, session: Session) -> None:
    before = snapshot(session)
    ann = phone("Ann")
    response = ann.post("/api/banker", {"pin": "9999"})
    assert response.status_code == 403 and response.get_json()["error"] == "web_wrong_pin"
    assert ann.act({"action": "undo"}).status_code == 403
    assert snapshot(session) == before


def test_the_table_can_grant_the_banker_role(phone: Any, table: FakeTable) -> None:
    bob = phone("Bob")
    response = bob.post("/api/banker", {"ask": True})
    assert response.status_code == 202
    me = bob.me()
    assert me["banker_request"] == "waiting"
    who, answer = table.banker_questions[-1]
    assert who == me["asked_as"] and who.startswith("Bob · phone ")
    answer(True)
    me = bob.me()
    assert me["banker"] is True and me["banker_request"] == "granted"
    assert bob.act({"action": "end_turn"}).status_code == 200


def test_the_table_can_refuse_the_banker_role(phone: Any, table: FakeTable) -> None:
    bob = phone("Bob")
    bob.post("/api/banker", {"ask": True})
    table.banker_questions[-1][1](False)
    me = bob.me()
    assert me["banker"] is False and me["banker_request"] == "refused"


def test_setting_the_pin_needs_the_banker(phone: Any, session: Session) -> None:
    ann = phone("Ann")
    assert ann.post("/api/banker/pin", {"pin": "1111"}).status_code == 403
    banker = phone(None).banker()
    assert banker.post("/api/banker/pin", {"pin": "12"}).status_code == 422
    assert banker.post("/api/banker/pin", {"pin": "13579"}).status_code == 200
    assert ann.post("/api/banker", {"pin": "13579"}).status_code == 200


def test_leaving_the_banker_role(phone: Any) -> None:
    banker = phone("Ann").banker()
    assert banker.post("/api/banker", {"leave": True}).get_json()["banker"] is False
    assert banker.act({"action": "end_turn"}).status_code == 403


def test_history(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    answer = phone("Cy").client.get("/api/history").get_json()
    rows = answer["rows"]
    assert [r["seq"] for r in rows] == [1, 0] and answer["before"] is None
    assert rows[0]["action"] == {"action": "buy", "player": "Ann", "property": "baltic"}
    assert rows[0]["log"] == ["Ann buys Baltic Avenue for $60."]


def test_the_history_is_paged_the_newest_first(phone: Any, session: Session) -> None:
    for _ in range(120):
        session.submit(parse_action({"action": "collect", "player": "Ann", "amount": 1}))
    session.submit(parse_action({"action": "undo"}))
    cy = phone("Cy").client
    first = cy.get("/api/history").get_json()
    assert [r["seq"] for r in first["rows"]] == list(range(121, 71, -1)) and first["before"] == 72
    assert first["rows"][0]["action"] == {"action": "undo"} and first["rows"][1]["undone"]
    second = cy.get("/api/history?before=72&limit=70").get_json()
    assert [r["seq"] for r in second["rows"]] == list(range(71, 1, -1)) and second["before"] == 2
    last = cy.get("/api/history?before=2").get_json()
    assert [r["seq"] for r in last["rows"]] == [1, 0] and last["before"] is None
    assert len(cy.get("/api/history?limit=100000").get_json()["rows"]) == 122  # at most 200 a page
    assert cy.get("/api/history?before=x1").status_code == 422
    page = cy.get("/history").get_data(as_text=True)
    assert page.count('class="seq"') == 50 and "/history?before=72" in page
    older = cy.get("/history?before=72").get_data(as_text=True)
    assert "#71" in older and "#72" not in older and "The latest actions" in older


def test_scores(phone: Any, session: Session) -> None:
    data = phone("Cy").client.get("/api/scores").get_json()
    assert [s["player"] for s in data["scores"]] == ["Ann", "Bob", "Cy"]
    assert data["series"][0] == {"seq": 0, "Ann": 1500, "Bob": 1500, "Cy": 1500}


# --- trades ----------------------------------------------------------------------------------------------

def test_a_trade_is_proposed_on_one_phone_and_accepted_on_the_other(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Ann", property="baltic")
    ann, bob, cy = phone("Ann"), phone("Bob"), phone("Cy")
    response = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]},
                                        "take": {"cash": 100}})
    assert response.status_code == 200, response.get_json()
    proposal = response.get_json()["proposal"]
    assert bob.client.get("/api/trades").get_json()["proposals"][0]["id"] == proposal["id"]
    before = snapshot(session)
    # Only the receiver is offered the accept: the others are told the rules' reason.
    for other in (cy, ann):
        refused = other.post(f"/api/trades/{proposal['id']}/accept", {})
        assert refused.status_code == 409 and refused.get_json()["error"] == "proposal_not_receiver"
    assert snapshot(session) == before
    accepted = bob.post(f"/api/trades/{proposal['id']}/accept", {}, key="accept-key-1")
    assert accepted.status_code == 200, accepted.get_json()
    assert session.state is not None and state_to_json(session.state)["properties"]["baltic"]["owner"] == "Bob"
    assert cash(session, "Bob") == 1400
    again = bob.post(f"/api/trades/{proposal['id']}/accept", {}, key="accept-key-1")
    assert again.status_code == 200 and again.get_data() == accepted.get_data()
    assert cash(session, "Bob") == 1400
    # Accepted already: a new request to accept it is refused with the reason, and nothing moves again.
    late = bob.post(f"/api/trades/{proposal['id']}/accept", {})
    assert late.status_code == 409 and late.get_json()["error"] == "proposal_gone", late.get_json()
    assert "no longer open" in late.get_json()["message"]
    assert cash(session, "Bob") == 1400
    assert bob.client.get("/api/trades").get_json()["proposals"] == []


def test_a_proposal_of_someone_elses_deeds_is_refused(phone: Any, session: Session) -> None:
    do(session, action="buy", player="Bob", property="baltic")
    ann = phone("Ann")
    response = ann.post("/api/trades", {"from": "Bob", "to": "Ann", "give": {"properties": ["baltic"]}})
    assert response.status_code == 403
    response = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]}})
    assert response.status_code == 409 and response.get_json()["error"] == "not_owner"
    assert ann.client.get("/api/trades").get_json()["proposals"] == []


def test_a_proposal_can_be_refused_or_withdrawn(phone: Any, session: Session) -> None:
    ann, bob = phone("Ann"), phone("Bob")
    first = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"cash": 10}}).get_json()["proposal"]
    second = ann.post("/api/trades", {"from": "Ann", "to": "Bob", "give": {"cash": 20}}).get_json()["proposal"]
    before = snapshot(session)
    withdrawn = bob.post(f"/api/trades/{first['id']}/cancel", {})
    assert withdrawn.status_code == 409 and withdrawn.get_json()["error"] == "proposal_not_proposer"
    assert snapshot(session) == before
    refused = bob.post(f"/api/trades/{first['id']}/refuse", {"reason": "not now"})
    assert refused.status_code == 200 and refused.get_json()["refuse"] == first["id"], refused.get_json()
    assert ann.post(f"/api/trades/{second['id']}/cancel", {}).status_code == 200
    assert ann.post(f"/api/trades/{second['id']}/maybe", {}).status_code == 404
    listed = ann.client.get("/api/trades").get_json()
    assert listed["proposals"] == []
    # The refused one stays listed, with what Bob said, for both phones; nothing was paid.
    assert [(p["id"], p["status"], p["reason"]) for p in listed["refused"]] == [(first["id"], "refused", "not now")]
    assert bob.client.get("/api/trades").get_json()["refused"] == listed["refused"]
    assert cash(session, "Ann") == 1500 and cash(session, "Bob") == 1500
    assert bob.post(f"/api/trades/{first['id']}/accept", {}).status_code == 409
    assert ann.post(f"/api/trades/{first['id']}/cancel", {}).status_code == 200  # put away
    assert ann.client.get("/api/trades").get_json()["refused"] == []


# --- OpenAPI -----------------------------------------------------------------------------------------

def test_openapi_lists_every_action_with_its_required_fields(app: Flask) -> None:
    doc = app.test_client().get("/api/openapi.json").get_json()
    assert doc["openapi"].startswith("3.1")
    for name, cls in ACTION_TYPES.items():
        path = doc["paths"][f"/api/actions/{name}"]["post"]
        schema = doc["components"]["schemas"][f"Action_{name}"]
        from dataclasses import MISSING, fields

        required = {f.name.rstrip("_") for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING}
        assert set(schema["required"]) == required, name
        assert set(schema["properties"]) == {"action"} | {f.name.rstrip("_") for f in fields(cls)}
        body = path["requestBody"]["content"]["application/json"]["example"]
        assert parse_action(body).name == name
    assert doc == document()


@pytest.mark.parametrize("name", sorted(ACTION_TYPES))
def test_every_example_is_schema_valid_and_parses(name: str) -> None:
    body = example(ACTION_TYPES[name])
    schema = document()["components"]["schemas"][f"Action_{name}"]
    assert set(schema["required"]) <= set(body)
    assert set(body) <= set(schema["properties"])
    for key, value in body.items():
        kind = schema["properties"][key].get("type")
        expected = {"string": str, "integer": int, "array": list, "boolean": bool, "object": dict}.get(kind)
        if expected is not None:
            assert isinstance(value, expected), (name, key)
    assert parse_action(body).to_json()["action"] == name


# --- errors ----------------------------------------------------------------------------------------

def test_a_crash_shows_no_stack_trace(phone: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from webui import views

    def boom(language: str) -> list[dict[str, Any]]:
        raise RuntimeError("secret detail from inside")

    monkeypatch.setattr(views, "history_rows", boom)
    ann = phone("Ann")
    response = ann.client.get("/api/history")
    assert response.status_code == 500
    text = response.get_data(as_text=True)
    assert "secret detail" not in text and "Traceback" not in text
    assert response.get_json()["error"] == "web_crash"
    page = ann.client.get("/history")
    assert page.status_code == 500 and "secret detail" not in page.get_data(as_text=True)


def test_unknown_address_is_404_json(phone: Any) -> None:
    response = phone("Ann").client.get("/api/nothing")
    assert response.status_code == 404 and response.get_json()["error"] == "web_not_found"


def test_no_debug_and_limits(app: Flask) -> None:
    assert app.debug is False
    assert app.config["PROPAGATE_EXCEPTIONS"] is False
    assert app.config["MAX_CONTENT_LENGTH"] == 16 * 1024
    assert app.config["SESSION_COOKIE_HTTPONLY"] is True and app.config["SESSION_COOKIE_SAMESITE"] == "Lax"


def test_the_secret_key_is_kept_private(tmp_path: Path, session: Session) -> None:
    create_app(session, None, {"DATA_DIR": str(tmp_path / "data")})
    key_file = tmp_path / "data" / "webui-secret.key"
    assert key_file.stat().st_mode & 0o777 == 0o600
    first = key_file.read_bytes()
    app = create_app(session, None, {"DATA_DIR": str(tmp_path / "data")})
    assert app.config["SECRET_KEY"] == first


def test_only_the_table_answers_ask(session: Session, tmp_path: Path) -> None:
    app = create_app(session, None, {"TESTING": True})
    bob = Phone(app.test_client(), app).join("Bob")
    assert bob.post("/api/banker", {"ask": True}).status_code == 409
    assert bob.me()["table"] is False
