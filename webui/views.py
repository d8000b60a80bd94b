"""What the pages and the API show and do, worked out from the state (one place for both)."""

from __future__ import annotations

import hmac
import json
import time
from dataclasses import dataclass, field
from typing import Any

from flask import session

from banker.actions import (
    Action,
    Bankrupt,
    Build,
    Mortgage,
    PayDebt,
    SellAllBuildings,
    SellBuilding,
    Trade,
    Unmortgage,
)
from banker.board import moves_of
from banker.deeds import rent_for
from banker.edition import Property
from banker.engine import apply
from banker.errors import BadInput, BankerError
from banker.ledger import Event
from banker.messages import render
from banker.scores import final_scores
from banker.state import GameState
from banker.text import board_line, log_lines
from webui.advice import Advice
from webui.advice import advice as advice_of
from webui.auth import PIN_MAX, PIN_SETTING, NotAllowed, Phone, check_pin, phone_id
from webui.core import become_banker, error_body, error_status, guess_key, lang, services, submit_once
from webui.join import normalize_code

GROUP_COLOURS = {
    "brown": "#8b4513", "light_blue": "#87ceeb", "pink": "#d93a96", "orange": "#f7941d", "red": "#ed1b24",
    "yellow": "#fef200", "green": "#1fb25a", "dark_blue": "#0072bb", "railroad": "#333333", "utility": "#9aa0a6",
}


def text(key: str, language: str, **params: Any) -> str:
    return render(key, params, language)


# --- joining ------------------------------------------------------------------------------------------

def check_join(code: object) -> None:
    """Let the phone join if it came with the table's code (the QR link or typed in).

    Raises:
        NotAllowed: a wrong code (403) or too many wrong tries (429).
    """
    if session.get("code_ok"):
        return
    svc = services()
    key, table_key = guess_key("code")
    wait = svc.limiter.attempt(key, table_key)
    if wait:
        raise NotAllowed("web_locked", status=429, seconds=wait)
    if not isinstance(code, str) or not hmac.compare_digest(normalize_code(code[:16]), svc.codes.current):
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
        state.seat(player)
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
        return 429, error_body("web_locked", text("web_locked", language, seconds=wait))
    if not check_pin(pin[:PIN_MAX], stored):
        return 403, error_body("web_wrong_pin", text("web_wrong_pin", language))
    svc.limiter.success(key, table_key)
    become_banker(phone_id())
    return 200, json.dumps({"ok": True, "banker": True})


def table_name_of(who: Phone) -> str:
    """How the table's screen names a phone that asks for the banker role, in the table's language: its
    player, else a watcher's phone with a code that its own banker page shows too."""
    svc = services()
    language = svc.session.journal.setting("language") or svc.default_lang
    return who.player or text("web_a_phone", language, code=who.id[:4].upper())


def ask_table(who: Phone) -> tuple[int, str]:
    svc = services()
    if svc.table is None:
        return 409, error_body("web_no_table", text("web_no_table", who.lang))
    pid = who.id
    if svc.approvals.ask(pid):
        broker, approvals, game = svc.broker, svc.approvals, svc.session

        def answer(granted: bool) -> None:
            if granted:
                game.journal.grant_banker(pid, game.game_id, time.time())
            approvals.answer(pid, granted)
            broker.notify_role(pid, granted)

        svc.table.ask_banker(table_name_of(who), answer)
    return 202, json.dumps({"ok": True, "waiting": True})


def tags_request(who: Phone, what: str, uid: str) -> tuple[int, str]:
    """The banker starts enrollment at the table, or forgets a lost tag."""
    svc = services()
    if not who.banker:
        error = NotAllowed("web_banker_only", action=what)
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


# --- trades ----------------------------------------------------------------------------------------------

def propose_trade(who: Phone, trade: Trade) -> tuple[int, str]:
    svc = services()
    if not who.banker and trade.from_ != who.player:
        error = NotAllowed("web_not_yours", player=who.player or "-")
        return 403, error_body(error.key, error.translated(who.lang))
    game_id = svc.session.game_id
    try:
        svc.session.preview(trade)
    except BankerError as error:
        return error_status(error), error_body(error.key, error.translated(who.lang))
    assert game_id is not None
    proposal = svc.trades.propose(game_id, trade)
    svc.broker.notify_trades()
    return 200, json.dumps({"ok": True, "proposal": proposal.to_json()}, ensure_ascii=False)


def answer_trade(who: Phone, proposal_id: int, answer: str, key: str) -> tuple[int, str, bool]:
    """accept (the receiver submits the trade), refuse (the receiver) or cancel (the proposer)."""
    svc = services()
    proposal = svc.trades.get(proposal_id)
    if proposal is None:
        first = svc.session.journal.request(key)
        if first is not None:  # the proposal was accepted by this very request: answer as then
            return first[0], first[1], True
        return 404, error_body("web_no_proposal", text("web_no_proposal", who.lang)), False
    side = proposal.receiver if answer in ("accept", "refuse") else proposal.proposer
    if not who.banker and who.player != side:
        error = NotAllowed("web_not_yours", player=who.player or "-")
        return 403, error_body(error.key, error.translated(who.lang)), False
    if answer != "accept":
        svc.trades.remove(proposal_id)
        svc.broker.notify_trades()
        return 200, json.dumps({"ok": True, answer: proposal_id}), False
    status, body, replayed = submit_once(proposal.trade, key, who.lang)
    if status == 200:
        svc.trades.remove(proposal_id)
        svc.broker.notify_trades()
    return status, body, replayed


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


def history_rows(language: str, last: int | None = None) -> list[dict[str, Any]]:
    """The game's actions with their log lines (only the ``last`` ones if given)."""
    svc = services()
    game_id, state = svc.session.game_id, svc.session.state
    if game_id is None or state is None:
        return []
    rows = []
    since = max(0, state.seq - last + 1) if last is not None else 0
    undone = undone_seqs(svc.session.journal.rows(game_id, 0))
    for seq, action_text, events_text, at in svc.session.journal.rows(game_id, since):
        try:
            events = [Event.from_json(e) for e in json.loads(events_text)]
            rows.append({"seq": seq, "action": json.loads(action_text), "at": at, "undone": seq in undone,
                         "log": log_lines(state.edition, [e for e in events if e.kind != "board"], language),
                         "board": board_line(state.edition, moves_of(events), language)})
        except (ValueError, TypeError, KeyError, AttributeError):
            # A row whose saved log was damaged (the action itself replayed): its line says so.
            rows.append({"seq": seq, "action": {}, "at": at, "log": [text("web_entry_unreadable", language)],
                         "board": "", "undone": seq in undone})
    return rows


def undone_seqs(rows: list[tuple[int, str, str, float]]) -> set[int]:
    """The journal rows an undo took back: each undo takes back the latest action not yet taken back."""
    done: list[int] = []
    undone: set[int] = set()
    for seq, action_text, _events, _at in rows:
        try:
            name = json.loads(action_text).get("action") if '"undo"' in action_text else "other"
        except (ValueError, AttributeError):
            name = "other"
        if name == "undo":
            if done:
                undone.add(done.pop())
        elif name != "new_game":
            done.append(seq)
    return undone


def standings(state: GameState) -> list[dict[str, Any]]:
    return [{"player": s.player, "net_worth": s.net_worth, "place": s.place, "bankrupt": s.bankrupt}
            for s in final_scores(state)]


def refusal(state: GameState, action: Action, language: str) -> str | None:
    """None if the rules accept ``action`` now, else their reason in ``language``."""
    try:
        apply(state, action)
    except BankerError as error:
        return error.translated(language)
    return None


@dataclass
class Button:
    action: str
    label: str
    fields: dict[str, Any]
    refused: str | None = None
    danger: bool = False


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


def rent_text(state: GameState, prop: Property, language: str) -> str:
    try:
        amount, _ = rent_for(state.edition, state.rules, state.props, prop)
    except BadInput:
        ps = state.props[prop.number]
        owned = sum(1 for n in state.edition.groups[prop.group] if state.props[n].owner == ps.owner)
        return text("web_rent_dice", language, times=4 if owned < 2 else 10)
    return state.money(amount)


def deed_view(state: GameState, prop: Property, language: str, actor: str | None) -> DeedView:
    ps = state.props[prop.number]
    owner = state.players[ps.owner].name if ps.owner is not None else None
    view = DeedView(prop, GROUP_COLOURS.get(prop.group, "#777"), owner, ps.houses, ps.hotel, ps.mortgaged,
                    rent_text(state, prop, language), state.rules.lift_cost(prop.mortgage))
    if actor is None or owner != actor:
        return view
    money = state.money
    group = state.edition.groups[prop.group]
    whole_group = all(state.props[n].owner == ps.owner for n in group)
    built = any(state.props[n].houses or state.props[n].hotel for n in group)
    if prop.kind == "street" and whole_group and not ps.hotel:
        reason = refusal(state, Build(actor, prop.id), language)
        view.buttons.append(Button("build", text("web_build", language, price=money(prop.house_price)),
                                   {"property": prop.id}, reason))
    if ps.houses or ps.hotel:
        reason = refusal(state, SellBuilding(actor, prop.id), language)
        view.buttons.append(Button("sell_building", text("web_sell_building", language,
                                                         price=money(prop.house_price // 2)),
                                   {"property": prop.id}, reason))
    if built and prop.kind == "street":
        view.buttons.append(Button("sell_all_buildings", text("web_sell_all", language), {"property": prop.id},
                                   refusal(state, SellAllBuildings(actor, prop.id), language), danger=True))
    if ps.mortgaged:
        view.buttons.append(Button("unmortgage", text("web_unmortgage", language, cost=money(view.lift_cost),
                                                      value=money(prop.mortgage),
                                                      interest=money(view.lift_cost - prop.mortgage)),
                                   {"property": prop.id}, refusal(state, Unmortgage(actor, prop.id), language)))
    else:
        view.buttons.append(Button("mortgage", text("web_mortgage", language, value=money(prop.mortgage),
                                                    cost=money(view.lift_cost)),
                                   {"property": prop.id}, refusal(state, Mortgage(actor, prop.id), language)))
    return view


def my_deeds(state: GameState, player: str, language: str) -> list[DeedView]:
    seat = state.seat(player)
    return [deed_view(state, prop, language, player) for prop in state.owned(seat)]


def advice(state: GameState, player: str | None, jail: str | None = None) -> Advice:
    """The strategy advisor's figures for the game and ``player`` (see :func:`webui.advice.advice`)."""
    return advice_of(services().figures, state, player, jail)


def debts_view(state: GameState, player: str, language: str) -> dict[str, Any]:
    seat = state.seat(player)
    from banker.worth import liquidation_value, missing

    return {
        "debts": state.debts_of(seat),
        "total": state.debt_total(seat),
        "missing": missing(state, seat),
        "cash": state.players[seat].cash,
        "liquidation": liquidation_value(state, seat),
        "pay_refused": refusal(state, PayDebt(player), language),
        "bankrupt_refused": refusal(state, Bankrupt(player), language),
        "decisions": [d for d in state.decisions if d.player == seat],
    }


def table_faults(language: str) -> list[str]:
    """What is wrong with the table's parts now, one sentence each in ``language`` (empty when
    nothing is, or no table is connected)."""
    table = services().table
    if table is None:
        return []
    out = []
    for fault in table.faults():
        if fault.part == "reader":
            out.append(text("web_fault_reader", language, number=fault.number, bus=fault.bus))
        else:
            out.append(text(f"web_fault_{fault.part}", language))
    return out
