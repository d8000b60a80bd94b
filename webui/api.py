"""The JSON API under /api: the state, every action, the history, trades, the banker role, the stream."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, jsonify, request, session
from flask_wtf.csrf import generate_csrf

from banker import balances
from banker.actions import ACTION_TYPES, ProposeTrade, parse_action, parse_object
from banker.errors import BadInput, IllegalAction
from banker.export import state_to_json
from banker.messages import LANGUAGES
from webui import views
from webui.auth import NotAllowed, Phone, phone_id, pin_is_set
from webui.core import error_body, idempotency_key, lang, phone, save_pin, services, stop_being_banker, submit
from webui.guard import own_address
from webui.openapi import document
from webui.server import watch_gone
from webui.trades import ANSWERS, proposal_json

api = Blueprint("api", __name__, url_prefix="/api")


def json_answer(status: int, body: str, replayed: bool = False) -> Response:
    response = Response(body, status=status, mimetype="application/json")
    if replayed:
        response.headers["Idempotent-Replayed"] = "true"
    return response


def read_json() -> dict[str, Any]:
    """The request body as a JSON object, read as ``banker replay`` reads a line (one reader: a key given
    twice, nesting too deep, a text too long or with control characters are refused alike).

    Raises:
        NotAllowed: the body is not JSON (400).
        BadInput: it is JSON but not an object, or has what an action may not have (422).
    """
    raw = request.get_data(cache=True)
    try:
        return parse_object(raw or b"{}")
    except BadInput as error:
        if error.key in ("bad_json", "bad_text"):
            raise NotAllowed("web_bad_json", status=400) from None
        raise


def joined() -> Phone:
    who = phone()
    if who is None:
        raise NotAllowed("web_join_first", status=401)
    return who


# --- who am I ------------------------------------------------------------------------------------

@api.get("/me")
def me() -> Response:
    pid = phone_id()
    svc = services()
    answer = svc.approvals.take(pid)
    who = phone()
    state = svc.session.state
    # The players' names are the table's business: shown once the phone came with the code.
    known = who is not None or bool(session.get("code_ok"))
    return jsonify({
        "phone": pid,
        "joined": who is not None,
        "role": who.role if who else None,
        "player": who.player if who else None,
        "not_in_game": who.absent if who else None,
        "banker": bool(who and who.banker),
        "lang": lang(),
        "csrf_token": generate_csrf(),
        "pin_set": pin_is_set(svc.session.journal),
        "banker_request": answer or None,
        "asked_as": svc.approvals.words(pid) or None,
        "players": [p.name for p in state.players] if state and known else [],
        "table": svc.table is not None,
        "table_faults": views.table_faults(lang()),
    })


@api.post("/join")
def join() -> Response:
    data = read_json()
    views.check_join(data.get("code"))
    player = data.get("player")
    language = data.get("lang", lang())
    if language not in LANGUAGES:
        raise BadInput("bad_field", action="join", field="lang", value=json.dumps(language), expected="en, ru or bg")
    views.join_as(player if isinstance(player, str) or player is None else "", language)
    who = joined()
    return jsonify({"ok": True, "role": who.role, "player": who.player, "lang": who.lang})


# --- reading ---------------------------------------------------------------------------------------

@api.get("/state")
def state() -> Response:
    """The state (docs/state.md); under hidden balances without the exact cash of the other players."""
    who = joined()
    current = services().session.state
    if current is None:
        raise IllegalAction("no_game")
    return jsonify(balances.state_json(current, state_to_json(current), views.viewer_of(who)))


@api.get("/history")
def history() -> Response:
    """A page of the game's actions, the newest first: ``?before=SEQ`` (the actions before that one; default: from
    the latest) and ``?limit=N`` (default 50, at most 200); ``before`` in the answer asks for the next page (null:
    none is left)."""
    who = joined()
    before = whole_number("before", None)
    limit = whole_number("limit", views.HISTORY_PAGE)
    rows = views.history_rows(who.lang, views.viewer_of(who), before, limit if limit is not None else 0)
    more = rows[-1]["seq"] if rows and rows[-1]["seq"] > 0 else None
    return jsonify({"game": services().session.game_id, "rows": rows, "before": more})


def whole_number(name: str, default: int | None) -> int | None:
    """The query parameter ``name`` as a whole number (plain ASCII digits).

    Raises:
        BadInput: it is given and is not one.
    """
    raw = request.args.get(name)
    if raw is None:
        return default
    if not raw.isascii() or not raw.isdigit() or len(raw) > 12:
        raise BadInput("bad_field", action="history", field=name, value=json.dumps(raw), expected="a whole number")
    return int(raw)


@api.get("/scores")
def scores() -> Response:
    who = joined()
    svc = services()
    current, game_id = svc.session.state, svc.session.game_id
    if current is None or game_id is None:
        raise IllegalAction("no_game")
    viewer = views.viewer_of(who)
    found = svc.session.chronicle()
    series = found[1].series(found[0]) if found is not None else []
    return jsonify({"scores": views.standings(current, viewer),
                    "series": balances.worth_series(current, series, viewer)})


@api.get("/advice")
def advice() -> Response:
    """The strategy advisor's figures for this game and the advice for the phone's player (the banker
    may name another with ``?player=``); ``?jail=long`` for the long stay in jail."""
    who = joined()
    svc = services()
    current = svc.session.state
    if current is None:
        raise IllegalAction("no_game")
    player = request.args.get("player") or who.player
    if player is not None and player != who.player and not who.banker:
        raise NotAllowed("web_advice_not_yours")
    found = views.advice(current, player, request.args.get("jail"))
    return json_answer(200, found.to_json(svc.figures, who.lang))


@api.get("/openapi.json")
def openapi() -> Response:
    return jsonify(document())


# --- actions ---------------------------------------------------------------------------------------

@api.post("/actions/<name>")
def action(name: str) -> Response:
    who = joined()
    key = idempotency_key()
    data = read_json()
    again = data.pop("again", False)
    if not isinstance(again, bool):
        raise BadInput("bad_field", action=name, field="again", value=json.dumps(again), expected="true or false")
    if name not in ACTION_TYPES:
        raise BadInput("unknown_action", action=name, known=", ".join(sorted(ACTION_TYPES)))
    if data.get("action", name) != name:
        raise BadInput("bad_field", action=name, field="action", value=json.dumps(data.get("action")),
                       expected=json.dumps(name))
    parsed = parse_action({**data, "action": name})
    status, body, replayed = submit(who, parsed, key, again)
    return json_answer(status, body, replayed)


# --- trades ----------------------------------------------------------------------------------------

@api.get("/trades")
def trades() -> Response:
    """The open proposals (``proposals``) and the latest refused ones (``refused``), from the game's state."""
    joined()
    svc = services()
    state, game = svc.session.state, svc.session.game_id
    found = state.proposals if state is not None else ()
    return jsonify({"proposals": [proposal_json(p, game) for p in found if not p.refused],
                    "refused": [proposal_json(p, game) for p in found if p.refused]})


@api.post("/trades")
def propose() -> Response:
    """A trade proposal from the phone's player: the engine's ``propose_trade``."""
    who = joined()
    key = idempotency_key()
    data = read_json()
    proposal = parse_action({**data, "action": "propose_trade"})
    assert isinstance(proposal, ProposeTrade)
    status, body, replayed = views.propose_trade(who, proposal, key)
    return json_answer(status, body, replayed)


@api.post("/trades/<int:proposal_id>/<answer>")
def answer_trade(proposal_id: int, answer: str) -> Response:
    """accept, refuse (with an optional ``reason``) or cancel: ``accept_trade``, ``refuse_trade``,
    ``cancel_trade``; ``terms`` and ``game`` as ``/api/trades`` gave them name what the phone answers;
    ``player``: the banker answers for that player."""
    who = joined()
    key = idempotency_key()
    if answer not in ANSWERS:
        raise NotAllowed("web_unknown_answer", status=404, answer=answer)
    data = read_json()
    reason = data.get("reason", "") if answer == "refuse" else ""
    if not isinstance(reason, str):
        raise BadInput("bad_field", action="refuse_trade", field="reason", value=json.dumps(reason),
                       expected="a text")
    shown, game = data.get("terms", ""), data.get("game")
    if not isinstance(shown, str):
        raise BadInput("bad_field", action="accept_trade", field="terms", value=json.dumps(shown),
                       expected="the proposal's terms from /api/trades")
    if game is not None and (not isinstance(game, int) or isinstance(game, bool)):
        raise BadInput("bad_field", action=f"{answer}_trade", field="game", value=json.dumps(game),
                       expected="the game's number from /api/trades")
    for_player = data.get("player")
    if for_player is not None and not isinstance(for_player, str):
        raise BadInput("bad_field", action=f"{answer}_trade", field="player", value=json.dumps(for_player),
                       expected="a player's name")
    status, body, replayed = views.answer_trade(who, proposal_id, answer, key, reason, shown, game, for_player)
    return json_answer(status, body, replayed)


# --- the banker role -------------------------------------------------------------------------------

@api.post("/banker")
def banker() -> Response:
    """{"pin": "1234"}: become the banker; {"ask": true}: ask the table; {"leave": true}: give it up."""
    who = joined()
    key = idempotency_key()
    data = read_json()
    svc = services()
    if data.get("leave") is True:
        if who.banker:
            stop_being_banker()
        return jsonify({"ok": True, "banker": False})
    if data.get("ask") is True:
        status, body, replayed = svc.requests.run(key, lambda: views.ask_table(who))
        return json_answer(status, body, replayed)
    pin = data.get("pin")
    if not isinstance(pin, str):
        raise BadInput("missing_field", action="banker", field="pin")
    status, body, replayed = svc.requests.run(key, lambda: views.try_pin(pin))
    return json_answer(status, body, replayed)


@api.post("/banker/pin")
def change_pin() -> Response:
    """Set the banker PIN: the banker may change it; the first phone may set it when none is set."""
    who = joined()
    idempotency_key()
    data = read_json()
    pin = data.get("pin")
    if not who.banker and pin_is_set(services().session.journal):
        raise NotAllowed("web_banker_only")
    save_pin(who, pin if isinstance(pin, str) else "")
    return jsonify({"ok": True, "banker": True})


# --- the stream ------------------------------------------------------------------------------------

@api.get("/stream")
def stream() -> Response:
    who = joined()
    svc = services()
    address = request.remote_addr or ""
    client = svc.broker.open(who.id, who.lang, address, own_address(address), who.player)
    if client is None:
        response = Response(error_body("web_too_many_streams", views.text("web_too_many_streams", who.lang)),
                            status=503, mimetype="application/json")
        response.headers["Retry-After"] = "10"
        return response
    watch_gone(request.environ, lambda: svc.broker.gone(client))
    since = request.headers.get("Last-Event-ID") or request.args.get("since", "")
    response = Response(svc.broker.events(client, since), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response

