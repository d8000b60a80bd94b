"""The server-rendered pages. Each works as plain HTML forms (POST, then redirect back); the bundled
script adds live updates and submits the same forms by fetch."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from dataclasses import fields
from typing import Any

from flask import Blueprint, Flask, Response, current_app, flash, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response as BaseResponse

from banker import balances
from banker import offer as offering
from banker.actions import Bundle, EndGame, NewGame, ProposeTrade, parse_action
from banker.edition import available_editions, load_edition
from banker.errors import BankerError, IllegalAction
from banker.messages import LANGUAGES, label
from banker.proposals import terms
from banker.rules import CHOICES, Rules
from banker.state import GameState
from banker.text import group_mark, group_name
from banker.worth import net_worth
from webui import views
from webui.advice import Advice, AdviceText, has_fine_or_chance
from webui.auth import NotAllowed, Phone, pin_is_set
from webui.chart import worth_chart
from webui.core import (
    action_from_form,
    idempotency_key,
    lang,
    phone,
    save_pin,
    services,
    single_fields,
    stop_being_banker,
    submit,
    whole_number,
)
from webui.family import screen, simple_page
from webui.join import join_url, qr_svg
from webui.texts import text
from webui.trades import ANSWERS
from webui.views import SPEECH_VOICES

pages = Blueprint("pages", __name__)

NAV = (("home", "pages.home"), ("deeds", "pages.deeds"), ("money", "pages.money"),
       ("auction", "pages.auction"), ("trades", "pages.trades"), ("more", "pages.more"))
PRESETS = ("classic", "short", "timed")


def setup_templates(app: Flask) -> None:
    @app.context_processor
    def context() -> dict[str, Any]:
        svc = services()
        language = lang()
        state = svc.session.state
        game_id = svc.session.game_id

        def t(key: str, **params: Any) -> str:
            return text(key, language, **params)

        def money(amount: int) -> str:
            return state.money(amount) if state is not None else str(amount)

        viewer = views.viewer_of(phone())

        def cash_of(seat: int) -> str:
            """A player's cash as this phone may see it (the exact amount, a band, or hidden)."""
            assert state is not None
            return balances.player_cash_text(state, viewer, seat, language)

        def deed(property_id: str | None) -> str:
            if state is None or property_id is None:
                return property_id or ""
            found = state.edition.by_id.get(property_id)
            return found.name if found else property_id

        return {
            "t": t, "money": money, "deed": deed, "state": state, "game_id": game_id, "lang": language,
            "me": phone(), "state_id": f"{game_id}-{state.seq}" if state is not None and game_id else "",
            "idem": lambda: secrets.token_urlsafe(12), "nav": NAV, "languages": LANGUAGES,
            "partial": request.headers.get("X-Partial") == "1", "table": svc.table,
            "live": request.headers.get("X-Live") == "1", "instance": svc.broker.instance, "from_json": json.loads,
            "colours": views.GROUP_COLOURS, "label": lambda word: label(word, language),
            "mark_of": lambda group: group_mark(group, language),
            "group_name": lambda group: group_name(group, language),
            "cash_of": cash_of,
            "sees_all": state is not None and balances.sees_all(state, viewer),
            "table_faults": views.table_faults(language),
            "damage": views.damage_text(language),
            "raise_cash": session.pop("raise", None) if request.method == "GET" else None,
        }


SAFE_NEXT = re.compile(r"/(?:[A-Za-z0-9_.~-]+(?:/[A-Za-z0-9_.~-]+)*)?/?(?:\?[A-Za-z0-9_.~=&%+-]*)?")
"""A page of this table to go back to: a path of plain letters, digits and ``_.~-`` (no tab, line break,
space, backslash or a second slash that a browser would read as another site) and a plain query."""


def back(default: str = "/") -> str:
    target = request.form.get("next") or request.args.get("next") or default
    return target if SAFE_NEXT.fullmatch(target) else default


def need_phone() -> Phone:
    who = phone()
    if who is None:
        raise NotAllowed("web_join_first", status=401)
    return who


def form_post(run: Callable[[Phone], tuple[int, str, bool]], default: str = "/") -> BaseResponse:
    """Run a form's request once, flash what happened (or the refusal), and go back."""
    who = need_phone()
    try:
        status, body, _ = run(who)
        answer = json.loads(body)
        if status < 300:
            lines = answer.get("log", [text("web_done", who.lang)])
            if lines:
                flash(" ".join(lines), "ok")
        elif answer.get("error") == "again":
            # The same payment a moment ago: ask, with a button that sends this form once more with yes.
            fields = [(k, v) for k, v in request.form.items(multi=True) if k not in ("csrf_token", "idem", "again")]
            flash(json.dumps({"text": answer.get("message", ""), "path": request.path, "fields": fields}), "again")
        else:
            flash(answer.get("message", ""), "error")
            if answer.get("raise"):
                # A refusal for cash: the next page shows what would raise it, each a button.
                state = services().session.state
                short = answer.get("short_by", 0)
                session["raise"] = {"short_by": state.money(short) if state is not None else str(short),
                                    "ways": [{"action": w["action"]["action"], "label": w["label"],
                                              "fields": w["fields"]} for w in answer["raise"]]}
    except NotAllowed as error:
        if error.status == 400:
            raise
        flash(error.translated(who.lang), "error")
    except BankerError as error:
        flash(error.translated(who.lang), "error")
    return redirect(back(default), code=303)


def page(template: str, **context: Any) -> str:
    return render_template(template, **context)


def current_state() -> GameState | None:
    return services().session.state


# --- joining ------------------------------------------------------------------------------------------

@pages.get("/j/<code>")
def join_link(code: str) -> BaseResponse:
    try:
        views.check_join(code)
    except NotAllowed as error:
        flash(error.translated(lang()), "error")
    return redirect(url_for("pages.join"), code=303)


@pages.route("/join", methods=["GET", "POST"])
def join() -> BaseResponse | str:
    if request.method == "POST":
        language = request.form.get("lang", lang())
        if language not in LANGUAGES:
            language = services().default_lang
        try:
            views.check_join(request.form.get("code"))
            choice = request.form.get("player", "")
            if request.form.get("pick") == "1" and current_state() is not None:
                # The code typed and Next: the page comes back with the players' names to pick from.
                session["lang"] = language
                return redirect(url_for("pages.join"), code=303)
            views.join_as(None if choice in ("", "-") else choice, language)
            if request.form.get("then") == "setup" and current_state() is None:
                # No game yet: the phone that asked to start one goes on to the New game page.
                return redirect(url_for("pages.setup"), code=303)
        except NotAllowed as error:
            flash(error.translated(language), "error")
            return redirect(url_for("pages.join"), code=303)
        except BankerError as error:
            flash(error.translated(language), "error")
            return redirect(url_for("pages.join"), code=303)
        return redirect(url_for("pages.home"), code=303)
    state = current_state()
    code_ok = bool(session.get("code_ok"))
    # The players' names are for the phones that came with the code.
    players = [p.name for p in state.players if not p.bankrupt] if state and code_ok else []
    return page("join.html", code_ok=code_ok, players=players)


@pages.post("/lang")
def set_language() -> BaseResponse:
    language = request.form.get("lang", "")
    if language in LANGUAGES:
        session["lang"] = language
    return redirect(back(), code=303)


@pages.get("/qr.svg")
def qr() -> Response:
    need_phone()
    return Response(qr_svg(invite_url()), mimetype="image/svg+xml")


def invite_url() -> str:
    svc = services()
    # The table program may learn its address after create_app: read the setting now.
    base = current_app.config.get("BASE_URL") or svc.base_url or request.host_url.rstrip("/")
    return join_url(base, svc.codes.current)


# --- the game -------------------------------------------------------------------------------------------

@pages.get("/")
def home() -> BaseResponse | str:
    who = phone()
    if who is None:
        return redirect(url_for("pages.join"), code=303)
    if screen("simple"):
        return simple_page()  # this phone's setting: the simple view (More, This phone's screen)
    state = current_state()
    rows = views.history_rows(who.lang, views.viewer_of(who), limit=12) if state else []
    # Newest first; each action's board moves under its lines; the table's own lines after it (a tag re-taught) above.
    log = [entry for row in rows
           for entry in [{"text": line, "board": False, "undone": False} for line in reversed(row.get("table", []))]
           + [{"text": line, "board": False, "undone": row["undone"]} for line in reversed(row["log"])]
           + ([{"text": row["board"], "board": True, "undone": row["undone"]}] if row["board"] else [])][:15]
    viewer = views.viewer_of(who)
    worth = {p.name: balances.worth_seen(state, viewer, seat, net_worth(state, seat))
             for seat, p in enumerate(state.players)} if state else {}
    return page("home.html", log=log, worth=worth, proposals=state.open_proposals() if state is not None else [])


@pages.get("/deeds")
def deeds() -> str:
    who = need_phone()
    state = current_state()
    mine = views.my_deeds(state, who.player, who.lang) if state and who.player else []
    found = phone_advice(who, state)[0] if who.player else None
    return page("deeds.html", deeds=mine, **advice_context(found, who))


def phone_advice(who: Phone, state: GameState | None, jail: str | None = None) -> tuple[Advice | None, str]:
    """The strategy advice for this phone's player (the figures alone for a watcher), or None and why
    not: no game, advice switched off, an unknown jail stay."""
    if state is None:
        return None, ""
    player = who.player if who.player in state.seats else None
    try:
        return views.advice(state, player, jail), ""
    except BankerError as error:
        return None, error.translated(who.lang)


def advice_context(found: Advice | None, who: Phone) -> dict[str, Any]:
    if found is None:
        return {"advice": None, "mine": None, "fmt": None}
    return {"advice": found, "mine": found.player, "fmt": AdviceText(who.lang, found.state),
            "fine_or_chance": has_fine_or_chance(found.state.edition)}


@pages.get("/strategy")
def strategy() -> str:
    who = need_phone()
    state = current_state()
    found, why = phone_advice(who, state, request.args.get("jail"))
    return page("strategy.html", why=why, **advice_context(found, who))


@pages.get("/strategy/board.svg")
def strategy_board() -> Response:
    who = need_phone()
    state = current_state()
    if state is None:
        raise IllegalAction("no_game")
    found = views.advice(state, None, request.args.get("jail"))
    svg = services().figures.heat_map(state.edition, found.assumptions, who.lang)
    return Response(svg, mimetype="image/svg+xml")


@pages.get("/money")
def money() -> str:
    who = need_phone()
    state = current_state()
    unowned, others = [], []
    if state is not None:
        for prop, ps in zip(state.edition.properties, state.props, strict=True):
            if ps.owner is None:
                unowned.append(prop)
            elif who.player is None or state.players[ps.owner].name != who.player:
                others.append(prop)
    pay = views.pay_page(state, who.player, who.lang) if state is not None and who.player else None
    return page("money.html", unowned=unowned, others=others, pay=pay)


@pages.get("/auction")
def auction() -> str:
    who = need_phone()
    state = current_state()
    streets = []
    if state is not None and state.auction is not None and state.auction.property is None:
        streets = [p for p in state.edition.properties if p.kind == "street"]
    found = phone_advice(who, state)[0] if who.player and state is not None and state.auction else None
    # The engine's bid for this phone's player: its range, or why they may not bid (a decliner, a debt…).
    bid = (offering.bid_offer(state, who.player) if state is not None and state.auction is not None
           and who.player in state.seats else None)
    # The bank's building auctions (§6.6): offered only in a shortage, otherwise the engine says why not.
    building = offering.building_auction_offers(state) if state is not None and state.auction is None else []
    return page("auction.html", streets=streets, bid=bid, building=building, **advice_context(found, who))


@pages.get("/trades")
def trades() -> str:
    who = need_phone()
    state = current_state()
    partner = request.args.get("with", "")
    proposals = state.open_proposals() if state is not None else []
    refused = [p for p in state.proposals if p.refused] if state is not None else []
    checks: dict[int, str | None] = {}
    if state is not None:
        # Why the receiver's accept would be refused now (a deed sold meanwhile…): both phones show it.
        for p in proposals:
            checks[p.id] = views.accept_check(state, p, who.lang, views.viewer_of(who))
    give_deeds, take_deeds = [], []
    if state is not None and who.player:
        give_deeds = state.owned(state.seat(who.player))
        if partner in state.seats and partner != who.player:
            take_deeds = state.owned(state.seat(partner))
        else:
            partner = ""
    # A proposal the engine refused comes back as it was typed, beside the reason, to be corrected.
    draft = session.pop("trade_draft", None) if not request.headers.get("X-Live") else None
    if not draft or draft.get("to") != partner:
        draft = {"give_properties": [], "take_properties": []}
    # Each answer names the game and (an accept) the terms this page shows.
    shown = {p.id: terms(p) for p in (*proposals, *refused)}
    return page("trades.html", proposals=proposals, refused=refused, checks=checks, partner=partner,
                give_deeds=give_deeds, take_deeds=take_deeds, draft=draft, terms=shown,
                game=services().session.game_id)


@pages.get("/debts")
def debts() -> str:
    who = need_phone()
    state = current_state()
    infos: list[dict[str, Any]] = []
    if state is not None and who.player:
        infos = [views.debts_view(state, who.player, who.lang)]
    elif state is not None and who.banker:
        # The banker who plays nobody acts for each player who owes or has a decision to make.
        owing = {d.debtor for d in state.debts} | {d.player for d in state.decisions}
        infos = [views.debts_view(state, p.name, who.lang) for seat, p in enumerate(state.players) if seat in owing]
    return page("debts.html", infos=infos)


@pages.get("/history")
def history() -> str:
    """A page of the history, the newest first (``?before=SEQ``: the actions before that one)."""
    who = need_phone()
    viewer = views.viewer_of(who)
    before = history_cursor(request.args.get("before"))
    rows = views.history_rows(who.lang, viewer, before)
    older = rows[-1]["seq"] if rows and rows[-1]["seq"] > 0 else None
    return page("history.html", rows=rows, undo_what=views.undo_preview(who.lang, viewer), older=older,
                paged=before is not None)


def history_cursor(raw: str | None) -> int | None:
    """``?before=`` of the history: a seq (plain ASCII digits), else the newest page."""
    if raw is None or not raw.isascii() or not raw.isdigit() or len(raw) > 12:
        return None
    return int(raw)


@pages.get("/more")
def more() -> str:
    need_phone()
    return page("more.html", invite=invite_url(), code=services().codes.current)


@pages.get("/end")
def end() -> str:
    who = need_phone()
    svc = services()
    state, game_id = svc.session.state, svc.session.game_id
    chart, table = "", []
    if state is not None and game_id is not None:
        viewer = views.viewer_of(who)
        table = views.standings(state, viewer)
        found = svc.session.chronicle()
        series = balances.worth_series(state, found[1].series(found[0]) if found is not None else [], viewer)
        shown = [p.name for seat, p in enumerate(state.players) if balances.sees_cash_of(state, viewer, seat)]
        chart = worth_chart(series, shown, state.money, text("web_chart_label", who.lang))
    winner = None
    if state is not None and not state.ended and balances.sees_all(state, views.viewer_of(who)):
        # Who wins if the game ends now: the engine's preview of ending it.
        ending = offering.preview(state, EndGame())
        winner = next((e.params.get("winner") for e in ending.events if e.kind == "game_over"), None)
    return page("end.html", standings=table, chart=chart, winner=winner)


# --- doing things ------------------------------------------------------------------------------------------

@pages.post("/do")
def do() -> BaseResponse:
    def run(who: Phone) -> tuple[int, str, bool]:
        key = idempotency_key(request.form)
        action = action_from_form(request.form, who.player)
        return submit(who, action, key, again=request.form.get("again") == "1")

    return form_post(run)


def bundle_from_form(prefix: str) -> Bundle:
    def number(name: str) -> int:
        return whole_number(request.form.get(prefix + name, "").strip() or "0", action="trade", field=prefix + name)

    single_fields(request.form, multiple=("give_properties", "take_properties"))
    return Bundle(number("cash"), tuple(request.form.getlist(prefix + "properties")), number("jail_cards"))


TRADE_FIELDS = ("to", "give_cash", "give_jail_cards", "take_cash", "take_jail_cards", "settles_debt")


@pages.post("/trades/propose")
def propose() -> BaseResponse:
    sent = False

    def run(who: Phone) -> tuple[int, str, bool]:
        nonlocal sent
        key = idempotency_key(request.form)
        give, take = bundle_from_form("give_"), bundle_from_form("take_")
        proposal = parse_action({"action": "propose_trade", "from": who.player or "-",
                                 "to": request.form.get("to", "") or "-", "give": give.to_json(),
                                 "take": take.to_json(), "settles_debt": bool(request.form.get("settles_debt"))})
        assert isinstance(proposal, ProposeTrade)
        if not who.player:
            raise NotAllowed("web_watcher")
        status, body, replayed = views.propose_trade(who, proposal, key)
        sent = status < 300
        return status, body, replayed

    response = form_post(run, "/trades")
    if not sent:
        # Refused: the form is drawn again as it was sent (its amounts and ticks), under the reason.
        draft: dict[str, Any] = {name: request.form.get(name, "")[:60] for name in TRADE_FIELDS}
        for name in ("give_properties", "take_properties"):
            draft[name] = request.form.getlist(name)[:40]
        session["trade_draft"] = draft
    return response


@pages.post("/trades/<int:proposal_id>/<answer>")
def answer_trade(proposal_id: int, answer: str) -> BaseResponse:
    if answer not in ANSWERS:
        raise NotAllowed("web_unknown_answer", status=404, answer=answer)

    def run(who: Phone) -> tuple[int, str, bool]:
        single_fields(request.form)
        reason = request.form.get("reason", "").strip() if answer == "refuse" else ""
        game = request.form.get("game", "")
        return views.answer_trade(who, proposal_id, answer, idempotency_key(request.form), reason,
                                  request.form.get("terms", ""),
                                  int(game) if game.isascii() and game.isdigit() else None,
                                  request.form.get("player") or None)

    return form_post(run, "/trades")


# --- the banker --------------------------------------------------------------------------------------------

@pages.route("/banker", methods=["GET", "POST"])
def banker() -> BaseResponse | str:
    who = need_phone()
    svc = services()
    if request.method == "GET":
        # The table's answer is drawn with the page (also when the page re-reads itself on the answer's event).
        answer = svc.approvals.take(who.id)
        tags = svc.table.cards() if svc.table is not None and who.banker else []
        speech = svc.table.speech() if svc.table is not None and who.banker else None
        return page("banker.html", pin_set=pin_is_set(svc.session.journal), waiting=answer == "waiting",
                    answer=answer, tags=tags, asked_as=svc.approvals.words(who.id), speech=speech,
                    voices=SPEECH_VOICES)
    what = request.form.get("do", "")

    def run(me: Phone) -> tuple[int, str, bool]:
        key = idempotency_key(request.form)
        if what == "leave":
            if me.banker:
                stop_being_banker()
            return 200, json.dumps({"log": [text("web_banker_left", me.lang)]}), False
        if what == "new_code":
            if not me.banker:
                raise NotAllowed("web_banker_only")
            code = svc.codes.renew()
            return 200, json.dumps({"log": [text("web_new_code_made", me.lang, code=code)]}), False
        if what in ("enroll", "forget"):
            return svc.requests.run(key, lambda: views.tags_request(me, what, request.form.get("uid", "")))
        if what == "speech":
            return svc.requests.run(key, lambda: views.speech_request(me, request.form))
        if what == "ask":
            status, body, replayed = svc.requests.run(key, lambda: views.ask_table(me))
            if status == 202:
                body = json.dumps({"log": [text("web_banker_asked", me.lang)]})
            return status, body, replayed
        if what == "set_pin":
            save_pin(me, request.form.get("new_pin", ""))
            return 200, json.dumps({"log": [text("web_pin_saved", me.lang)]}), False
        status, body, replayed = svc.requests.run(key, lambda: views.try_pin(request.form.get("pin", "")))
        if status == 200:
            body = json.dumps({"log": [text("web_pin_accepted", me.lang)]})
        return status, body, replayed

    return form_post(run, "/banker")


def rules_fields() -> list[dict[str, Any]]:
    out = []
    for f in fields(Rules):
        if f.name in ("short_game", "timed_game"):
            continue
        kind = "bool" if isinstance(f.default, bool) else "choice" if isinstance(f.default, str) else "int"
        # The words of a choice are shown as web_rounding_up, web_hidden_balances_bands, ...
        out.append({"name": f.name, "kind": kind, "default": f.default,
                    "choices": CHOICES.get(f.name, ()), "choice_key": "web_" + f.name + "_"})
    return out


@pages.get("/setup")
def setup() -> str:
    need_phone()
    editions = [(e, load_edition(e).name) for e in available_editions()]
    state = services().session.state
    return page("setup.html", editions=editions, rules=rules_fields(), presets=PRESETS,
                pin_set=pin_is_set(services().session.journal),
                chosen=edition_for(lang(), state.edition.id if state is not None else None))


EDITION_OF_LANGUAGE = {"en": "us", "ru": "ru", "bg": "ru"}
"""The edition a new game starts with on a phone in each language, as on the table (Bulgarian families
play the Russian edition's board, in Cyrillic)."""


def edition_for(language: str, current: str | None) -> str:
    """The edition the New game form starts with: the current game's when it is in the phone's language
    (the board already on the table), else the one of the phone's language."""
    if current is not None and load_edition(current).language == language:
        return current
    return EDITION_OF_LANGUAGE.get(language, "us")


def new_game_from_form() -> NewGame:
    single_fields(request.form, multiple=("players",))
    # Names as typed: the engine refuses what it would refuse in a replay script, rather than the page
    # cutting a name to fit.
    players = [n.strip(" ") for n in request.form.getlist("players") if n.strip()]
    rules: dict[str, Any] = {}
    for spec in rules_fields():
        raw = request.form.get("rule_" + spec["name"], "").strip()
        if raw == "":
            continue
        if spec["kind"] == "bool":
            rules[spec["name"]] = raw == "yes"
        elif spec["kind"] == "int":
            rules[spec["name"]] = whole_number(raw, action="new_game", field="rule_" + spec["name"], signed=True)
        else:
            rules[spec["name"]] = raw
    preset = request.form.get("preset", "classic")
    if preset == "short":
        rules["short_game"] = True
    elif preset == "timed":
        rules["timed_game"] = True
    action = parse_action({"action": "new_game", "edition": request.form.get("edition", "us"), "players": players,
                           "rules": rules})
    assert isinstance(action, NewGame)
    return action


@pages.post("/setup")
def start_game() -> BaseResponse:
    def run(who: Phone) -> tuple[int, str, bool]:
        key = idempotency_key(request.form)
        journal = services().session.journal
        if not pin_is_set(journal) and not who.banker:
            who = Phone(save_pin(who, request.form.get("new_pin", "")), who.player, True, who.lang)
        action = new_game_from_form()
        status, body, replayed = submit(who, action, key)
        if status == 200:
            mine = request.form.get("me", "")
            session["player"] = mine if mine in action.players else None
        return status, body, replayed

    return form_post(run, "/")
