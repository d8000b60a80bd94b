"""What the pages and the API show and do, worked out from the state (one place for both)."""

from __future__ import annotations

import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import current_app, session

from banker import balances
from banker import offer as offering
from banker.actions import AcceptTrade, Action, ProposeTrade
from banker.balances import Viewer
from banker.board import moves_of
from banker.edition import Property
from banker.errors import BadInput, IllegalAction
from banker.ledger import Event
from banker.messages import render
from banker.offer import Offer
from banker.scores import final_scores
from banker.state import GameState, Proposal
from banker.text import board_line, describe_action_json, levels_text
from webui import trades
from webui.advice import Advice
from webui.advice import advice as advice_of
from webui.auth import (
    PIN_MAX,
    PIN_SETTING,
    AskRefused,
    NotAllowed,
    Phone,
    check_pin,
    hash_pin,
    new_phone_id,
    phone_code,
    phone_id,
    renew_phone_id,
)
from webui.core import (
    DIGITS,
    Services,
    device,
    error_body,
    gain_banker,
    guess_key,
    lang,
    on_table_computer,
    services,
    submit,
)
from webui.join import normalize_code

GROUP_COLOURS = {
    "brown": "#8b4513", "light_blue": "#87ceeb", "pink": "#d93a96", "orange": "#f7941d", "red": "#ed1b24",
    "yellow": "#fef200", "green": "#1fb25a", "dark_blue": "#0072bb", "railroad": "#333333", "utility": "#9aa0a6",
}


def text(key: str, language: str, **params: Any) -> str:
    return render(key, params, language)


def viewer_of(who: Phone | None) -> Viewer:
    """Who a phone is to the hidden-balances rule: its player and whether it holds the banker role."""
    return Viewer(who.player, who.banker) if who is not None else balances.TABLE


# --- joining ------------------------------------------------------------------------------------------

def codes_match(typed: str, code: str) -> bool:
    """Whether ``typed`` is the table's ``code`` (in any case, with spaces), compared in constant time as
    UTF-8 (a code in another script is a wrong code, not an error)."""
    return hmac.compare_digest(normalize_code(typed[:16]).encode("utf-8", "replace"), code.encode("utf-8"))


def locked(kind: str, seconds: int, table_key: str) -> NotAllowed:
    """The answer to a guess while the device or the whole table is locked out: when it is the table's
    count, only the table lets people in, and the message says so."""
    if services().limiter.locks_everyone(table_key):
        return NotAllowed(f"web_locked_{kind}_all", status=429, seconds=seconds)
    return NotAllowed("web_locked", status=429, seconds=seconds)


def check_join(code: object) -> None:
    """Let the phone join if it came with the table's code (the QR link or typed in).

    On the table's own computer, whose page shows the code, a guess gains nothing: it is neither counted
    nor locked out (one tab's typos never lock out another tab).

    Raises:
        NotAllowed: a wrong code (403) or too many wrong tries (429).
    """
    if session.get("code_ok"):
        return
    svc = services()
    right = isinstance(code, str) and codes_match(code, svc.codes.current)
    if on_table_computer():
        if not right:
            raise NotAllowed("web_wrong_code", status=403)
        session["code_ok"] = True
        return
    key, table_key = guess_key("code")
    wait = svc.limiter.attempt(key, table_key)
    if wait:
        raise locked("code", wait, table_key)
    if not right:
        raise NotAllowed("web_wrong_code", status=403)
    svc.limiter.success(key, table_key)
    session["code_ok"] = True


def join_as(player: str | None, language: str) -> None:
    """Remember this phone as ``player`` (None or "": a watcher) in its cookie.

    Raises:
        BankerError: no such player in the game.
    """
    phone_id()
    state = services().session.state
    if player:
        if state is None:
            raise BadInput("bad_field", action="join", field="player", value=json.dumps(player),
                           expected="no player before the game starts")
        player = state.players[state.seat(player)].name  # the name as the game spells it
    session["joined"] = True
    session["player"] = player or None
    session["lang"] = language
    session.permanent = True


# --- the banker role ---------------------------------------------------------------------------------

def try_pin(pin: str) -> tuple[int, str]:
    """Check a banker PIN (counted by the limiter before it is checked); 200 when it is right, and the
    phone then holds the banker role."""
    svc = services()
    language = lang()
    stored = svc.session.journal.setting(PIN_SETTING)
    if stored is None:
        return 409, error_body("web_pin_not_set", text("web_pin_not_set", language))
    key, table_key = guess_key("pin")
    wait = svc.limiter.attempt(key, table_key)
    if wait:
        error = locked("pin", wait, table_key)
        return 429, error_body(error.key, error.translated(language))
    if not check_pin(pin[:PIN_MAX], stored):
        return 403, error_body("web_wrong_pin", text("web_wrong_pin", language))
    svc.limiter.success(key, table_key)
    gain_banker()
    return 200, json.dumps({"ok": True, "banker": True})


def table_name_of(who: Phone, pid: str | None = None) -> str:
    """How the table's screen names a phone that asks for the banker role, in the table's language: its
    player (or that it watches) and the code of its id ``pid`` (default: its own), which its banker page
    shows too. The phone cannot choose the code, so a phone that picked the same player is told apart."""
    svc = services()
    language = svc.session.journal.setting("language") or svc.default_lang
    code = phone_code(pid or who.id, current_app.secret_key or "")
    if who.player:
        return text("web_asking_player", language, player=who.player, code=code)
    return text("web_a_phone", language, code=code)


def ask_table(who: Phone) -> tuple[int, str]:
    """Put the phone's question to the table (see :class:`webui.auth.Approvals` for the bounds). The phone
    gets a new id with it: the table's OK grants the role to that id, which no copy of the cookie made
    before the question has."""
    svc = services()
    if svc.table is None:
        return 409, error_body("web_no_table", text("web_no_table", who.lang))
    if svc.approvals.waiting(who.id):
        return 202, json.dumps({"ok": True, "waiting": True, "asked_as": svc.approvals.words(who.id)},
                               ensure_ascii=False)
    pid = new_phone_id()
    words = table_name_of(who, pid)
    try:
        svc.approvals.ask(pid, device(), words)
    except AskRefused as refused:
        return refused.status, error_body(refused.key, text(refused.key, who.lang, **refused.params))
    old, _ = renew_phone_id(pid)
    broker, approvals, game = svc.broker, svc.approvals, svc.session
    if old is not None:
        game.journal.move_banker_grants(old, pid)
    earlier = approvals.link(pid, old)

    def answer(granted: bool | None) -> None:
        if granted:
            game.journal.grant_banker(pid, game.game_id, time.time())
        approvals.answer(pid, granted)
        for phone in {pid, *earlier}:  # the page asking again may still listen under an earlier id
            broker.notify_role(phone, granted)

    svc.table.ask_banker(words, answer)
    return 202, json.dumps({"ok": True, "waiting": True, "asked_as": words}, ensure_ascii=False)


TABLE_PIN_DIGITS = 6
"""The length of a banker PIN the table makes in its setup."""


def table_resets(svc: Services) -> dict[str, Callable[[], str]]:
    """What the table's setup calls to let the family in whatever the phones did (run in the table's
    thread): ``code`` makes a new join code (every wrong guess so far is then worthless), ``pin`` a
    new banker PIN, returned for the table to show: every phone loses the banker role and the wrong
    PINs so far are forgotten."""

    def new_code() -> str:
        return svc.codes.renew()

    def new_pin() -> str:
        pin = "".join(secrets.choice("0123456789") for _ in range(TABLE_PIN_DIGITS))
        hashed = hash_pin(pin)
        with svc.session.exclusive():  # between two actions: one in flight is applied before, or refused
            svc.session.journal.set_setting(PIN_SETTING, hashed)
            svc.session.journal.end_banker_grants()
        svc.limiter.clear("pin")
        return pin

    return {"code": new_code, "pin": new_pin}


def tags_request(who: Phone, what: str, uid: str) -> tuple[int, str]:
    """The banker starts enrollment at the table, or forgets a lost tag."""
    svc = services()
    if not who.banker:
        error = NotAllowed("web_banker_only")
        return 403, error_body(error.key, error.translated(who.lang))
    if svc.table is None:
        return 409, error_body("web_no_table", text("web_no_table", who.lang))
    if what == "enroll":
        svc.table.start_enrollment()
        return 200, json.dumps({"ok": True, "log": [text("web_enroll_started", who.lang)]})
    try:
        svc.table.forget_tag(uid)
    except ValueError:
        return 404, error_body("web_no_such_tag", text("web_no_such_tag", who.lang, uid=uid))
    return 200, json.dumps({"ok": True, "log": [text("web_tag_forgotten", who.lang, uid=uid)]})


SPEECH_VOICES = ("man", "woman")
"""The table's voices, as the banker's page offers them."""


def speech_request(who: Phone, form: Any) -> tuple[int, str]:
    """The banker sets the table's voice: ``on`` (a checkbox), ``volume`` (0-100), ``voice``, ``short`` (a
    checkbox: the short sentences)."""
    svc = services()
    if not who.banker:
        error = NotAllowed("web_banker_only")
        return 403, error_body(error.key, error.translated(who.lang))
    if svc.table is None or svc.table.speech() is None:
        return 409, error_body("web_no_speaker", text("web_no_speaker", who.lang))
    raw = form.get("volume", "")
    volume = int(raw) if DIGITS.fullmatch(raw) else -1
    voice = form.get("voice", "")
    if not 0 <= volume <= 100 or voice not in SPEECH_VOICES:
        return 422, error_body("web_speech_bad", text("web_speech_bad", who.lang))
    svc.table.change_speech(bool(form.get("on")), volume, voice, bool(form.get("short")))
    return 200, json.dumps({"ok": True, "log": [text("web_speech_saved", who.lang)]})


# --- trades ----------------------------------------------------------------------------------------------

def propose_trade(who: Phone, proposal: ProposeTrade, key: str) -> tuple[int, str, bool]:
    """``propose_trade`` from this phone's player (the banker: from anybody), once for ``key``: the answer
    has the new proposal as ``/api/trades`` lists it."""
    game_id = services().session.game_id

    def made(state: GameState, events: tuple[Event, ...]) -> dict[str, Any]:
        number = next(e.params["proposal"] for e in events if e.kind == "trade_proposed")
        found = trades.find(state, number)
        assert found is not None
        return {"proposal": trades.proposal_json(found, game_id)}

    return submit(who, proposal, key, extra=made)


def answer_trade(who: Phone, proposal_id: int, answer: str, key: str, reason: str = "", shown: str = "",
                 game: int | None = None, for_player: str | None = None) -> tuple[int, str, bool]:
    """accept or refuse (the receiver), cancel (the proposer): the engine's ``accept_trade``,
    ``refuse_trade`` or ``cancel_trade``, once for ``key``, under the session's lock like every action, so
    of several answers to one proposal sent at once only the first is applied and the others are
    refused with the reason (it is gone). The answer is ``for_player``'s when it names one (the banker's
    separate control, "answer for Ann"; another phone is refused, as for any other player's action), else
    the phone's own player's, taken only as the engine offers it (:func:`webui.core.submit`); the banker who
    plays nobody answers for the side whose answer it is.

    ``shown``: the proposal's terms as the page showed them (an accept of other terms is refused);
    ``game``: the game the page showed it in (an answer meant for another game's proposal of the same
    number is refused, also when the game is switched while the answer waits for the lock)."""
    svc = services()
    changed = IllegalAction("proposal_changed", proposal=proposal_id)
    if game is not None and game != svc.session.game_id:
        raise changed
    found = trades.find(svc.session.state, proposal_id)
    player = for_player or who.player
    if player is None and who.banker and found is not None:
        player = trades.side(found, answer)
    if player is None:
        if not who.banker:
            raise NotAllowed("web_watcher")
        first = svc.session.journal.request(key)
        if first is not None:  # this very request answered the proposal: answer as then
            return first[0], first[1], True
        raise IllegalAction("proposal_gone", proposal=proposal_id)
    action = trades.answer_action(answer, player, proposal_id, reason, shown)
    session = svc.session

    def same_game() -> None:
        if game is not None and game != session.game_id:
            raise changed

    return submit(who, action, key, extra=lambda _state, _events: {answer: proposal_id}, check=same_game)


def accept_check(state: GameState, proposal: Proposal, language: str, viewer: Viewer) -> str | None:
    """Why the receiver's accept of ``proposal`` would be refused now (None: it would not), as ``viewer``
    may read it. A refusal for the cash of a player whose cash the viewer may not see is not shown at all:
    under hidden balances a proposer would otherwise learn the receiver's cash from the offers it makes."""
    error = offering.attempt(state, AcceptTrade(proposal.receiver, proposal.id))[1]
    if error is None:
        return None
    if error.key in balances.HIDDEN_KEYS and not balances.sees_cash_of_name(state, viewer, error.params.get("player")):
        return None
    return balances.refusal_text(state, error, language, viewer)


# --- reading the state ------------------------------------------------------------------------------------

def damage_text(language: str) -> str:
    """What the table lost of the current game when it was loaded from a damaged journal ("" if nothing)."""
    svc = services()
    journal = svc.session.journal
    game_id = svc.session.game_id if svc.session.game_id is not None else journal.current_game()
    damage = journal.damage(game_id)
    if damage is None:
        return ""
    problem = render(damage.key, damage.params, language)
    if damage.first_seq == 0 or svc.session.game_id is None:
        return text("web_game_lost", language, problem=problem)
    return text("web_damaged", language, seq=damage.first_seq, count=damage.lost, problem=problem)


HISTORY_PAGE = 50
"""Actions on one page of the history (the page and ``GET /api/history``)."""
HISTORY_MOST = 200
"""The most a page may ask for (``?limit=``)."""


def history_rows(language: str, viewer: Viewer, before: int | None = None,
                 limit: int = HISTORY_PAGE) -> list[dict[str, Any]]:
    """A page of the game's actions with their log lines as ``viewer`` may read them, the newest first: at most
    ``limit`` of those before the seq ``before`` (None: from the latest). ``undone``: an undo took it back (from
    the game's kept figures, not a reading of the whole game); ``table``: the lines the table added after it
    (a tag re-taught at the table)."""
    svc = services()
    game_id = svc.session.game_id
    found = svc.session.chronicle()
    if game_id is None or found is None:
        return []
    state, chronicle = found
    return [history_row(state, row, chronicle.undone, language, viewer, table_lines_of(language))
            for row in svc.session.journal.rows_before(game_id, before, max(1, min(limit, HISTORY_MOST)))]


def table_lines_of(language: str) -> dict[int, list[str]]:
    """The table's own lines of the current game's log (tags re-taught), by the action they followed."""
    lines: dict[int, list[str]] = {}
    table_log = getattr(services().table, "table_log", None)
    for after, line in table_log(language) if table_log is not None else ():
        lines.setdefault(after, []).append(line)
    return lines


def history_row(state: GameState, row: tuple[int, str, str, float], undone: set[int], language: str,
                viewer: Viewer, table_lines: dict[int, list[str]]) -> dict[str, Any]:
    """One journal row as the history shows it."""
    seq, action_text, events_text, at = row
    try:
        events = [Event.from_json(e) for e in json.loads(events_text)]
        action = json.loads(action_text)
        return {"seq": seq, "action": action, "at": at, "undone": seq in undone,
                "title": describe_action_json(state.edition, action, language, state.rules.hotel_level),
                "log": balances.log_lines(state, [e for e in events if e.kind != "board"], language, viewer),
                "board": board_line(state.edition, moves_of(events), language),
                "table": table_lines.get(seq, [])}
    except (ValueError, TypeError, KeyError, AttributeError):
        # A row whose saved log was damaged (the action itself replayed): its line says so.
        return {"seq": seq, "action": {}, "title": "", "at": at, "log": [text("web_entry_unreadable", language)],
                "board": "", "undone": seq in undone, "table": table_lines.get(seq, [])}


def undo_preview(language: str, viewer: Viewer) -> str:
    """What an undo takes back now, as its log says it ("" when nothing can be undone)."""
    svc = services()
    game_id, found = svc.session.game_id, svc.session.chronicle()
    if game_id is None or found is None:
        return ""
    seq = found[1].last_counted()
    if seq is None:
        return ""
    rows = svc.session.journal.rows_before(game_id, seq + 1, 1)
    if not rows:
        return ""
    return " ".join(history_row(found[0], rows[0], set(), language, viewer, {})["log"])


def standings(state: GameState, viewer: Viewer) -> list[dict[str, Any]]:
    """The places if the game ended now. Under hidden balances a viewer who may not see everybody's cash
    gets the players in their seats' order, without places (the order would tell who is richer), and
    only its own net worth."""
    scores = final_scores(state)
    if not balances.sees_all(state, viewer):
        seated = sorted(scores, key=lambda s: state.seat(s.player))
        return [{"player": s.player, "place": None, "bankrupt": s.bankrupt,
                 "net_worth": balances.worth_seen(state, viewer, state.seat(s.player), s.net_worth)} for s in seated]
    return [{"player": s.player, "net_worth": s.net_worth, "place": s.place, "bankrupt": s.bankrupt} for s in scores]


def refusal(state: GameState, action: Action, language: str, viewer: Viewer) -> str | None:
    """None if the rules accept ``action`` now, else their reason in ``language`` (the engine's preview),
    as ``viewer`` may read it."""
    error = offering.attempt(state, action)[1]
    return balances.refusal_text(state, error, language, viewer) if error is not None else None


@dataclass
class Button:
    action: str
    label: str
    fields: dict[str, Any]
    refused: str | None = None
    danger: bool = False
    kind: str = ""
    short_by: int = 0


@dataclass
class DeedView:
    prop: Property
    colour: str
    owner: str | None
    houses: int
    hotel: bool
    mortgaged: bool
    rent: str
    lift_cost: int
    buttons: list[Button] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


WEB_OFFERS = {
    "build_house": "web_build", "build_hotel": "web_build_hotel", "sell_house": "web_sell_building",
    "sell_hotel": "web_sell_building", "sell_down": "web_sell_down", "sell_all_buildings": "web_sell_all",
    "mortgage": "web_mortgage", "unmortgage": "web_unmortgage", "keep_mortgaged": "web_keep_mortgaged",
    "salary": "web_salary", "salary_landed": "web_salary_landed", "free_parking": "web_free_parking",
    "tax": "web_offer_tax", "tax_flat": "web_offer_tax_flat", "tax_percent": "web_offer_tax_percent",
    "jail_fine": "web_jail_fine", "use_jail_card": "web_use_jail_card", "leave_jail": "web_leave_jail",
    "go_to_jail": "web_go_to_jail", "pay_debt": "web_pay_debt", "bankrupt": "web_declare_bankrupt",
}
"""The phone's button text of each kind of offer."""
PHONE_DEED_KINDS = frozenset({"build_house", "build_hotel", "sell_house", "sell_hotel", "sell_down",
                              "sell_all_buildings", "mortgage", "unmortgage", "keep_mortgaged"})
"""The owner's offers a deed card shows (collecting rent is the payer's: the Pay page)."""
DANGER = frozenset({"sell_all_buildings", "sell_down", "bankrupt"})


def offer_fields(offer: Offer) -> dict[str, Any]:
    """An offer's action as the form fields of :func:`webui.core.action_from_form` (the phone's player is
    the acting one)."""
    assert offer.action is not None
    out: dict[str, Any] = {}
    for key, value in offer.action.to_json().items():
        if key in ("action", "player"):
            continue
        if isinstance(value, dict):
            out.update({f"{key}.{k}": v for k, v in value.items()})
        elif isinstance(value, bool):
            out[key] = "true" if value else "false"
        else:
            out[key] = value
    return out


def offer_label(state: GameState, offer: Offer, language: str) -> str:
    """The phone's text for an offer, with the engine's figures: the price, the value, the interest."""
    money = state.money
    values: dict[str, Any] = {"amount": money(abs(offer.amount)), "price": money(abs(offer.amount)),
                              "cost": money(abs(offer.amount)), "fee": money(abs(offer.amount))}
    for key, value in offer.figures:
        values[key] = money(value) if key in ("value", "interest", "lift", "pot") else value
    if "lift" in values:
        values["cost"] = values["lift"]
    if "levels" in values:
        values["levels"] = levels_text(state.edition, dict(values["levels"]), language, state.rules.hotel_level)
    if offer.kind == "mortgage":
        values["value"] = money(offer.amount)
    prop = getattr(offer.action, "property", None)
    if isinstance(prop, str) and prop in state.edition.by_id:
        values["property"] = state.edition.by_id[prop].name
    square = getattr(offer.action, "square", None)
    if isinstance(square, str) and offer.kind.startswith("tax"):
        values["square"] = state.edition.square(square).name
    return text(WEB_OFFERS.get(offer.kind, "web_offer_other"), language, **values)


def offer_button(state: GameState, offer: Offer, language: str) -> Button:
    assert offer.action is not None
    refused = offer.refusal.translated(language) if offer.refusal is not None else None
    return Button(offer.action.name, offer_label(state, offer, language), offer_fields(offer), refused,
                  danger=offer.kind in DANGER, kind=offer.kind, short_by=offer.short_by)


def rent_text(state: GameState, prop: Property, language: str) -> str:
    facts = offering.deed_facts(state, prop.id)
    if facts.rent is None:
        return text("web_rent_dice", language, times=facts.times)
    return state.money(facts.rent)


def deed_view(state: GameState, prop: Property, language: str, actor: str | None) -> DeedView:
    """A deed's card on the phone: its facts, and for its owner the engine's offers as buttons (a refused
    one with its reason)."""
    ps = state.props[prop.number]
    owner = state.players[ps.owner].name if ps.owner is not None else None
    facts = offering.deed_facts(state, prop.id)
    view = DeedView(prop, GROUP_COLOURS.get(prop.group, "#777"), owner, ps.houses, ps.hotel, ps.mortgaged,
                    rent_text(state, prop, language), facts.lift_cost)
    if actor is None or owner != actor:
        return view
    for offer in offering.deed_offers(state, actor, prop.id):
        if offer.kind in PHONE_DEED_KINDS:
            view.buttons.append(offer_button(state, offer, language))
    return view


def my_deeds(state: GameState, player: str, language: str) -> list[DeedView]:
    seat = state.seat(player)
    return [deed_view(state, prop, language, player) for prop in state.owned(seat)]


def advice(state: GameState, player: str | None, jail: str | None = None) -> Advice:
    """The strategy advisor's figures for the game and ``player`` (see :func:`webui.advice.advice`)."""
    return advice_of(services().figures, state, player, jail)


def debts_view(state: GameState, player: str, language: str) -> dict[str, Any]:
    """The Debts page: each debt, the figures, the engine's ways to raise what is missing (each a button),
    paying or going bankrupt, and the decisions on received mortgaged deeds."""
    seat = state.seat(player)
    from banker.worth import liquidation_value, missing

    found = offering.player_offers(state, player)
    buttons = [offer_button(state, o, language) for o in found if o.kind in ("pay_debt", "bankrupt")]
    short = missing(state, seat)
    ways = [offer_button(state, o, language) for o in offering.raise_cash(state, player, short)] if short else []
    decisions = []
    for offer in found:
        if offer.kind == "decide":
            prop = state.edition.property(str(offer.figure("property")))
            decisions.append({"property": prop,
                              "buttons": [offer_button(state, c, language) for c in offer.choices]})
    return {
        "player": player,
        "debts": state.debts_of(seat),
        "total": state.debt_total(seat),
        "missing": short,
        "cash": state.players[seat].cash,
        "liquidation": liquidation_value(state, seat),
        "buttons": buttons,
        "ways": ways,
        "decisions": decisions,
    }


@dataclass
class PayPage:
    """The Pay page's buttons from the engine's offers: GO, Free Parking, the taxes, jail."""

    go: list[Button]
    taxes: list[Button]
    jail: list[Button]


def pay_page(state: GameState, player: str, language: str) -> PayPage:
    def buttons(square: str) -> list[Button]:
        return [offer_button(state, o, language) for o in offering.square_offers(state, player, square)]

    taxes = [b for sq in state.edition.squares if sq.kind == "tax" for b in buttons(sq.id)]
    return PayPage(go=buttons("go") + buttons("free_parking"), taxes=taxes, jail=buttons("jail"))


def table_faults(language: str) -> list[str]:
    """What is wrong with the table now, one sentence each in ``language`` (empty when nothing is): its card
    full (nothing new is saved), then the parts that do not answer (when a table is connected)."""
    svc = services()
    out = [text("web_fault_card", language)] if svc.session.journal.space().full else []
    table = svc.table
    if table is None:
        return out
    for fault in table.faults():
        if fault.part == "reader":
            out.append(text("web_fault_reader", language, number=fault.number, bus=fault.bus))
        else:
            out.append(text(f"web_fault_{fault.part}", language))
    return out
