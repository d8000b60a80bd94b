"""What the API and the pages share: the services, submitting an action once, reading the request."""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
import types
import typing
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, Union

from flask import current_app, request
from werkzeug.datastructures import MultiDict

from banker import balances
from banker import offer as offering
from banker.actions import ACTION_TYPES, Action, NewGame, parse_action
from banker.board import moves_of
from banker.choice import NotOffered
from banker.errors import AskAgain, BadInput, BankerError, CardFull, IllegalAction
from banker.ledger import Event
from banker.session import Session
from banker.speech import say
from banker.state import GameState
from webui.advice import Figures
from webui.auth import Approvals, Limiter, NotAllowed, Phone, current_phone, may_send
from webui.join import JoinCodes
from webui.stream import Broker
from webui.tableport import TablePort

IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_FIELD = "idem"
KEY_PATTERN = re.compile(r"[A-Za-z0-9_.:-]{8,80}")


class RequestCache:
    """First answers of mutating requests that are not game actions (the table's buttons, the PIN): a
    retry with the same key gets the first answer and does nothing again. The game actions (trade
    proposals and their answers among them) themselves are remembered durably by the journal (Session.submit_once)."""

    SIZE = 2000

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._answers: OrderedDict[str, tuple[int, str, str]] = OrderedDict()

    def run(self, key: str, handler: Callable[[], tuple[int, str]]) -> tuple[int, str, bool]:
        """``handler``'s answer, or the first answer given for ``key`` (the same request again).

        Raises:
            BadInput: ``key`` was used for another request (``idempotency_key_reused``).
        """
        digest = request_digest()
        with self._lock:
            first = self._answers.get(key)
            if first is not None:
                if first[2] != digest:
                    raise BadInput("idempotency_key_reused")
                return first[0], first[1], True
            status, body = handler()
            self._answers[key] = (status, body, digest)
            while len(self._answers) > self.SIZE:
                self._answers.popitem(last=False)
            return status, body, False


def request_digest() -> str:
    """What the request asks, whichever way it is sent: its address and its JSON body or form fields
    (without the key and the CSRF token), to tell a retry from another request with the same key."""
    parts = [request.method, request.path]
    if request.form:
        parts += sorted(f"{k}={v}" for k, v in request.form.items(multi=True) if k not in ("idem", "csrf_token"))
    else:
        parts.append(request.get_data(cache=True).decode("utf-8", "replace"))
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


@dataclass
class Services:
    session: Session
    table: TablePort | None
    broker: Broker
    limiter: Limiter
    codes: JoinCodes
    approvals: Approvals
    requests: RequestCache
    default_lang: str
    base_url: str | None
    figures: Figures = field(default_factory=Figures)
    """The strategy advisor's figures, kept per edition and house rules."""


def services() -> Services:
    found: Services = current_app.extensions["banker"]
    return found


def phone() -> Phone | None:
    """This request's joined phone (None before it joined). A phone whose player is not in the current
    game (another game was started or switched to) watches, and knows which player it had."""
    svc = services()
    who = current_phone(svc.default_lang,
                        lambda pid: svc.session.journal.holds_banker(pid, svc.session.game_id))
    state = svc.session.state
    if who is not None and who.player is not None and state is not None and who.player not in state.seats:
        return replace(who, player=None, absent=who.player)
    return who


def become_banker(pid: str) -> None:
    """``pid`` holds the banker role from now on, for the current game (see :meth:`Journal.grant_banker`)."""
    svc = services()
    svc.session.journal.grant_banker(pid, svc.session.game_id, time.time())


def gain_banker() -> str:
    """This phone gains the banker role (the right PIN): under a new id, so that a copy of its cookie made
    before is not the banker; its grants of other games go with it. Returns the new id."""
    from webui.auth import renew_phone_id

    svc = services()
    old, new = renew_phone_id()
    if old is not None:
        svc.session.journal.move_banker_grants(old, new)
    become_banker(new)
    return new


def save_pin(who: Phone, pin: str) -> str:
    """Keep ``pin`` as the banker PIN: the banker changes it, or the first phone sets it while none is set.
    Checked and set in one journal transaction, between two actions (under the session's lock): of
    several phones setting the first PIN at once one wins, and a banker action in flight is applied
    before the change or refused after it. The phone then holds the role under a new id (returned), every
    other phone loses it, and the wrong PINs so far are forgotten.

    Raises:
        NotAllowed: not 4-12 ASCII digits (422); not the banker while a PIN is set, or the role lost
            meanwhile (403 ``web_banker_only``); another phone set the first PIN just before (403
            ``web_pin_taken``).
    """
    from webui.auth import PIN_MAX, PIN_MIN, PIN_SETTING, hash_pin, new_phone_id, pin_is_set, renew_phone_id, valid_pin

    svc = services()
    journal = svc.session.journal
    if not valid_pin(pin):
        raise NotAllowed("web_pin_format", status=422, low=PIN_MIN, high=PIN_MAX)
    first = not who.banker
    if first and pin_is_set(journal):
        raise NotAllowed("web_banker_only")
    hashed, new = hash_pin(pin), new_phone_id()
    with svc.session.exclusive():
        done = journal.replace_banker_pin(PIN_SETTING, hashed, asking=who.id, granted=new,
                                          game=svc.session.game_id, at=time.time(), first=first)
    if not done:
        raise NotAllowed("web_pin_taken" if first else "web_banker_only")
    renew_phone_id(new)
    svc.limiter.clear("pin")
    return new


def stop_being_banker() -> None:
    """The banker gives the role back: every phone that held it, and every saved copy of its cookie, loses it
    (between two actions: one in flight is applied before, or refused)."""
    svc = services()
    with svc.session.exclusive():
        svc.session.journal.end_banker_grants()


def device() -> str:
    """The device this request comes from: its address; on the table's own computer, where every tab and
    the table's page share the address, the phone's cookie (a first visit without one counts as the
    address)."""
    from webui.auth import known_phone_id
    from webui.guard import own_address

    address = request.remote_addr or "?"
    pid = known_phone_id()
    if pid is not None and own_address(address):
        return f"phone:{pid}"
    return f"addr:{address}"


def on_table_computer() -> bool:
    """Whether this request comes from the computer that runs the table (whose own page shows the code)."""
    from webui.guard import own_address

    return own_address(request.remote_addr or "")


def guess_key(kind: str) -> tuple[str, str]:
    """The limiter's keys for a guess of ``kind`` (``code``, ``pin``): this device's and the table's."""
    return f"{kind}:{device()}", f"{kind}:all"


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


CARD_FULL_STATUS = 507
"""HTTP's Insufficient Storage: the table's card is full and nothing was saved (docs/phone.md)."""


def error_status(error: BankerError) -> int:
    """A refusal's HTTP status: 403 for what was not offered to the phone's player, 409 for what the rules
    refuse now, 422 for what cannot be read, 507 for a full card."""
    if isinstance(error, CardFull):
        return CARD_FULL_STATUS
    if isinstance(error, NotOffered):
        return 403
    return 409 if isinstance(error, IllegalAction) else 422


def error_body(key: str, message: str) -> str:
    return json.dumps({"error": key, "message": message}, ensure_ascii=False)


def log_lines(state: GameState, events: tuple[Event, ...] | list[Event], language: str,
              viewer: balances.Viewer) -> list[str]:
    """The log lines of ``events`` as ``viewer`` may read them: what happened, then what to move on the
    board (one line, if anything)."""
    return balances.log_lines(state, events, language, viewer)


def told(state: GameState, events: tuple[Event, ...] | list[Event], language: str) -> dict[str, Any]:
    """What an action says and moves, as the phone's answer and its event stream carry it (docs/phone.md)."""
    return {"say": say(state.edition, events, language), "board": [m.to_json() for m in moves_of(events)]}


def submit(who: Phone, action: Action, key: str, again: bool = False,
           extra: Callable[[GameState, tuple[Event, ...]], dict[str, Any]] | None = None,
           check: Callable[[], None] | None = None) -> tuple[int, str, bool]:
    """The one place an action from a phone is submitted, at most once for ``key``. Under the session's lock,
    on the state it is applied to, the phone's role is read again (a new PIN or *Stop being the banker* may
    have come between) and a player's action is taken only as one of the offers the engine made to that
    player (:func:`webui.auth.may_send`); ``check`` runs there first. The banker who starts a new game is
    its banker (the role lasts one game). ``again``: the player said yes to doing the same money-taking
    action a second time within seconds (see :meth:`Session.submit_once`); ``extra``: more fields of the
    answer (see :func:`submit_once`).

    Raises:
        NotAllowed, BankerError: what :func:`webui.auth.may_send` raises; nothing is applied.
    """
    svc = services()
    session, journal = svc.session, svc.session.journal

    def allowed() -> None:
        if check is not None:
            check()
        banker = who.banker and journal.holds_banker(who.id, session.game_id)
        may_send(replace(who, banker=banker), action, session.state)

    answer = submit_once(action, key, who.lang, again, extra=extra, viewer=balances.Viewer(who.player, who.banker),
                         check=allowed)
    if answer[0] == 200 and isinstance(action, NewGame) and who.banker:
        become_banker(who.id)
    return answer


def submit_once(action: Action, key: str, language: str, again: bool = False,
                extra: Callable[[GameState, tuple[Event, ...]], dict[str, Any]] | None = None,
                viewer: balances.Viewer = balances.TABLE,
                check: Callable[[], None] | None = None) -> tuple[int, str, bool]:
    """Submit ``action`` at most once for ``key``: the log lines of what it did, or the refusal, in
    ``language`` and as ``viewer`` (the phone that asks) may read them (the caller has checked that the
    phone may do it). The same money-taking action again within seconds is answered 409 ``again`` (with
    ``seconds``) unless ``again``. ``extra``: more fields of the answer, from the state and events the
    action made (the new trade proposal). ``check`` runs under the session's lock first (see
    :func:`submit`)."""

    def respond(state: GameState, events: tuple[Event, ...]) -> tuple[int, str]:
        more = extra(state, events) if extra is not None else {}
        return 200, json.dumps({"ok": True, **more, "seq": state.seq, "log": log_lines(state, events, language, viewer),
                                **told(state, events, language)}, ensure_ascii=False)

    def refuse(error: BankerError) -> tuple[int, str]:
        if isinstance(error, AskAgain):
            return 409, json.dumps({"error": "again", "message": error.translated(language),
                                    "seconds": error.params["seconds"]}, ensure_ascii=False)
        state = services().session.state
        message = balances.refusal_text(state, error, language, viewer) if state is not None \
            else error.translated(language)
        body: dict[str, Any] = {"error": error.key, "message": message}
        actor = action.actor
        short = balances.short_by(state, error, viewer, offering.cash_short(error)) if state is not None else 0
        if short and state is not None and actor in state.seats and error.params.get("player") == actor:
            # What would raise the cash, from the engine's offers (docs/phone.md, Refusals for cash).
            body["short_by"] = short
            body["raise"] = [raise_way(state, way, language) for way in offering.raise_cash(state, str(actor), short)]
        return error_status(error), json.dumps(body, ensure_ascii=False)

    return services().session.submit_once(action, key, respond, refuse, again=again, check=check)


def raise_way(state: GameState, way: offering.Offer, language: str) -> dict[str, Any]:
    """One way to raise cash as the API and the phone's card show it: the action, the cash it brings, its text."""
    from webui.views import offer_fields, offer_label

    assert way.action is not None
    return {"kind": way.kind, "action": way.action.to_json(), "amount": way.amount,
            "label": offer_label(state, way, language), "fields": offer_fields(way)}


def _plain_hint(hint: Any) -> Any:
    if typing.get_origin(hint) in (Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        return options[0]
    return hint


DIGITS = re.compile(r"[0-9]{1,15}")
SIGNED_DIGITS = re.compile(r"-?[0-9]{1,15}")


def whole_number(raw: str, *, action: str, field: str, signed: bool = False) -> int:
    """A form's number, written with the ASCII digits 0-9 only (``signed``: a minus sign may lead), as
    the engine reads a number in JSON. ``int()`` would also take "1_000", "+7", "١٠٠" or "９".

    Raises:
        BadInput: ``not_digits`` naming the field and what was typed.
    """
    if (SIGNED_DIGITS if signed else DIGITS).fullmatch(raw) is None:
        raise BadInput("not_digits", action=action, field=field, value=json.dumps(raw, ensure_ascii=False))
    return int(raw)


def single_fields(form: MultiDict[str, str], multiple: tuple[str, ...] = ()) -> None:
    """Refuse a form that gives a field twice (as a replay line may not give a key twice), except the
    ``multiple`` ones that are lists.

    Raises:
        BadInput: ``duplicate_key`` naming the field.
    """
    for key in form:
        if key not in multiple and len(form.getlist(key)) > 1:
            raise BadInput("duplicate_key", field=key)


FORM_FIELDS = frozenset({"action", "csrf_token", IDEMPOTENCY_FIELD, "next", "again"})
"""The fields of a page's form that are not the action's own: the request's token and key, the page to go
back to, the player's yes to doing it again."""


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
    single_fields(form, tuple(f.name.rstrip("_") for f in fields(cls)
                              if typing.get_origin(_plain_hint(hints[f.name])) is tuple))
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
            data[key] = whole_number(raw, action=name, field=key)
        elif hint is bool:
            data[key] = raw.lower() in ("1", "true", "on", "yes")
        elif hint is str:
            data[key] = raw
    if "levels" in {f.name for f in fields(cls)}:
        # sell_buildings: one field per street, levels.<deed id> = the level it comes down to
        levels: dict[str, int] = {}
        for name_, raw_ in form.items():
            if name_.startswith("levels.") and raw_.strip():
                levels[name_[len("levels."):]] = whole_number(raw_.strip(), action=name, field=name_)
        if levels:
            data["levels"] = levels
    names = {f.name.rstrip("_"): f for f in fields(cls)}
    for key, raw_value in form.items(multi=True):
        # A field the action does not have is refused, as in the JSON body (an empty one is not given).
        if key not in names and key not in FORM_FIELDS and not (key.startswith("levels.") and "levels" in names) \
                and raw_value.strip():
            raise BadInput("unknown_field", action=name, field=key, fields=", ".join(names))
    if acting is not None:
        if "player" in names and "player" not in data:
            data["player"] = acting
        if "declined_by" in names and "declined_by" not in data:
            data["declined_by"] = acting
    for key, f in names.items():
        if key not in data and f.default is MISSING and f.default_factory is MISSING:
            raise BadInput("missing_field", action=name, field=key)
    return parse_action(data)
