"""What the API and the pages share: the services, submitting an action once, reading the request."""

from __future__ import annotations

import json
import re
import threading
import types
import typing
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from typing import Any, Union

from flask import current_app, request
from werkzeug.datastructures import MultiDict

from banker import text
from banker.actions import ACTION_TYPES, Action, parse_action
from banker.board import moves_of
from banker.errors import BadInput, BankerError, IllegalAction
from banker.ledger import Event
from banker.session import Session
from banker.speech import say
from banker.state import GameState
from webui.auth import Approvals, Limiter, NotAllowed, Phone, authorize, current_phone
from webui.stream import Broker
from webui.tableport import TablePort
from webui.trades import Trades

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_FIELD = "idem"
KEY_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{8,80}")


class RequestCache:
    """First answers of mutating requests that are not game actions (trade proposals, the table's
    buttons, the PIN): a retry with the same key gets the first answer and does nothing again.
    The game actions themselves are remembered durably by the journal (Session.submit_once)."""

    SIZE = 2000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: OrderedDict[str, tuple[int, str]] = OrderedDict()

    def run(self, key: str, handler: Callable[[], tuple[int, str]]) -> tuple[int, str, bool]:
        with self._lock:
            first = self._answers.get(key)
            if first is not None:
                return first[0], first[1], True
            status, body = handler()
            self._answers[key] = (status, body)
            while len(self._answers) > self.SIZE:
                self._answers.popitem(last=False)
            return status, body, False


@dataclass
class Services:
    session: Session
    table: TablePort | None
    broker: Broker
    trades: Trades
    limiter: Limiter
    approvals: Approvals
    requests: RequestCache
    default_lang: str
    base_url: str | None


def services() -> Services:
    found: Services = current_app.extensions["banker"]
    return found


def phone() -> Phone | None:
    return current_phone(services().default_lang)


def lang() -> str:
    from webui.auth import language

    return language(services().default_lang)


def idempotency_key(form: MultiDict[str, str] | None = None) -> str:
    """The request's idempotency key, scoped to this phone.

    Raises:
        NotAllowed: there is none, or it is not 8-80 letters, digits or ``_.:-`` (400).
    """
    from webui.auth import phone_id

    key = request.headers.get(IDEMPOTENCY_HEADER)
    if key is None and form is not None:
        key = form.get(IDEMPOTENCY_FIELD)
    if key is None or not KEY_PATTERN.fullmatch(key):
        raise NotAllowed("web_idempotency_missing", status=400)
    return f"{phone_id()}:{key}"


def error_status(error: BankerError) -> int:
    return 409 if isinstance(error, IllegalAction) else 422


def error_body(key: str, message: str) -> str:
    return json.dumps({"error": key, "message": message}, ensure_ascii=False)


def log_lines(state: GameState, events: tuple[Event, ...] | list[Event], language: str) -> list[str]:
    """The log lines of ``events``: what happened, then what to move on the board (one line, if anything)."""
    return text.log_lines(state.edition, events, language)


def told(state: GameState, events: tuple[Event, ...] | list[Event], language: str) -> dict[str, Any]:
    """What an action says and moves, as the phone's answer and its event stream carry it (docs/phone.md)."""
    return {"say": say(state.edition, events, language), "board": [m.to_json() for m in moves_of(events)]}


def submit(who: Phone, action: Action, key: str) -> tuple[int, str, bool]:
    """Check the phone's right to ``action`` and submit it at most once for ``key``."""
    authorize(who, action)
    return submit_once(action, key, who.lang)


def submit_once(action: Action, key: str, language: str) -> tuple[int, str, bool]:
    """Submit ``action`` at most once for ``key``: the log lines of what it did, or the refusal, in
    ``language`` (the caller has checked that the phone may do it)."""

    def respond(state: GameState, events: tuple[Event, ...]) -> tuple[int, str]:
        return 200, json.dumps({"ok": True, "seq": state.seq, "log": log_lines(state, events, language),
                                **told(state, events, language)}, ensure_ascii=False)

    def refuse(error: BankerError) -> tuple[int, str]:
        return error_status(error), error_body(error.key, error.translated(language))

    return services().session.submit_once(action, key, respond, refuse)


def _plain_hint(hint: Any) -> Any:
    if typing.get_origin(hint) in (Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return options[0]
    return hint


def action_from_form(form: MultiDict[str, str], acting: str | None) -> Action:
    """An action from a plain HTML form: ``action`` names it, the other fields are its fields as text.

    The acting player fills ``player`` (and ``declined_by`` of an auction) when the form leaves it out.

    Raises:
        BankerError: an unknown action or a field that is not valid.
    """
    name = form.get("action", "")
    cls = ACTION_TYPES.get(name)
    if cls is None:
        return parse_action({"action": name})  # raises the engine's unknown_action message
    hints = typing.get_type_hints(cls)
    data: dict[str, Any] = {"action": name}
    for f in fields(cls):
        key = f.name.rstrip("_")
        hint = _plain_hint(hints[f.name])
        if typing.get_origin(hint) is tuple:
            values = [v for v in form.getlist(key) if v]
            if values:
                data[key] = values
            continue
        raw = form.get(key, "").strip()
        if raw == "":
            continue
        if hint is int:
            try:
                data[key] = int(raw)
            except ValueError:
                raise BadInput("bad_field", action=name, field=key, value=json.dumps(raw, ensure_ascii=False),
                               expected="a whole number") from None
        elif hint is bool:
            data[key] = raw.lower() in ("1", "true", "on", "yes")
        elif hint is str:
            data[key] = raw
    names = {f.name.rstrip("_"): f for f in fields(cls)}
    if acting is not None:
        if "player" in names and "player" not in data:
            data["player"] = acting
        if "declined_by" in names and "declined_by" not in data:
            data["declined_by"] = acting
    for key, f in names.items():
        if key not in data and f.default is MISSING and f.default_factory is MISSING:
            raise BadInput("missing_field", action=name, field=key)
    return parse_action(data)
