"""What the OLED shows, as data: ``view(grammar_state, context) -> ScreenView``.

Pure: computed from the grammar's step and the game, in the table's language and the edition's
money format. Drawing stays in :mod:`hardware.display`. The screen is 21 characters wide: lines
wrap, titles end in "…" rather than being cut mid-letter, and money is the big bold line.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

from banker import balances
from banker import offer as offering
from banker.actions import (
    AcceptTrade,
    Action,
    AuctionClose,
    Bankrupt,
    Bid,
    Build,
    Buy,
    Collect,
    DrawCard,
    EndGame,
    FreeParking,
    GoToJail,
    JailFine,
    KeepMortgaged,
    LeaveJail,
    Mortgage,
    NewGame,
    Pay,
    PayDebt,
    RefuseTrade,
    Rent,
    Salary,
    SellBuilding,
    SellBuildings,
    StartAuction,
    Tax,
    Undo,
    Unmortgage,
    UseJailCard,
)
from banker.advisor import next_building_line
from banker.board import moves_of
from banker.edition import Edition
from banker.errors import BankerError
from banker.ledger import Event
from banker.messages import label as word
from banker.messages import render
from banker.offer import Offer
from banker.scores import final_scores
from banker.state import GameState
from banker.text import bundle_words, card_title, describe_action, describe_event
from banker.worth import liquidation_value
from firmware import grammar as g
from firmware import moves as board
from firmware import texts
from firmware.tags import Meaning
from firmware.tags import label as tag_label
from hardware.controls import STUCK_S
from hardware.display import ScreenView

WIDTH_CHARS = 21
"""Characters of the 6-pixel font on a 128-pixel line."""


def t(ctx: g.Context, key: str, **values: Any) -> str:
    return render(texts.PREFIX + key, values, ctx.language)


def view(gs: g.GrammarState, ctx: g.Context) -> ScreenView:
    current = gs.step
    handler = _VIEWS.get(type(current))
    if handler is None:  # pragma: no cover - every step has a view
        return ScreenView(title="?")
    result: ScreenView = handler(current, ctx)
    return result


def columns(left: str, right: str, width: int = WIDTH_CHARS) -> str:
    """``left`` and ``right`` on one line of ``width`` characters (the font is monospaced)."""
    room = width - len(right) - 1
    if room < 1:
        return f"{left} {right}"
    if len(left) > room:
        left = left[: max(1, room - 1)] + "…"
    return left + " " * (width - len(left) - len(right)) + right


def short_name(name: str, others: Sequence[str], room: int) -> str:
    """``name`` in ``room`` characters, told apart from the ``others`` cut to the same room: "Алек…" for
    both Александр and Алексей would be no use, so the end of the name is kept as well ("Але…р",
    "Але…й")."""
    if len(name) <= room or room < 3:
        return name if len(name) <= room else name[: max(1, room - 1)] + "…"

    def cut(text: str, tail: int) -> str:
        if len(text) <= room:
            return text
        return text[: room - 1 - tail] + "…" + (text[-tail:] if tail else "")

    rivals = [other for other in others if other != name]
    for tail in range(0, room - 2):
        mine = cut(name, tail)
        if all(cut(other, tail) != mine for other in rivals):
            return mine
    return cut(name, room - 3)


def clock(seconds: float) -> str:
    seconds = max(0, int(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


# --- idle ------------------------------------------------------------------------------------------
def _idle(step: g.Idle, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        lines = [t(ctx, "no_game")]
        if ctx.join_code:
            lines.append(t(ctx, "join_code", code=ctx.join_code))
        return ScreenView(title=t(ctx, "title_banker"), lines=tuple(lines), footer=t(ctx, "footer_setup"))
    if game.ended:
        return _scores(game, ctx)
    if game.auction is not None:
        return _auction(game, ctx)
    if game.debts:
        return _debt(game, ctx)
    if game.decisions:
        decision = game.decisions[0]
        name = game.players[decision.player].name
        prop = game.edition.properties[decision.property]
        return ScreenView(title=t(ctx, "title_decision"),
                          lines=(t(ctx, "decision_line", player=name, property=prop.name),),
                          footer=t(ctx, "tap_card_of", player=name))
    return _balances(step, game, ctx)


def _balances(step: g.Idle, game: GameState, ctx: g.Context) -> ScreenView:
    active = [p for p in game.players]
    pages = max(1, -(-len(active) // g.PLAYERS_PER_PAGE))
    page = step.page % pages
    shown = active[page * g.PLAYERS_PER_PAGE:(page + 1) * g.PLAYERS_PER_PAGE]
    lines = []
    names = [p.name for p in game.players]
    # Hidden balances: the table is everybody's screen, so it shows names only, and each player's cash
    # on their own card.
    hidden = not balances.sees_all(game, balances.TABLE)
    for player in shown:
        money = t(ctx, "bankrupt_short") if player.bankrupt else "" if hidden else game.money(player.cash)
        mark = JAIL_MARK if player.in_jail else ""
        name = short_name(player.name, names, WIDTH_CHARS - len(money) - 1 - len(mark))
        lines.append(columns(name + mark, money) if money else name + mark)
    if game.rules.free_parking_pot and len(lines) < g.PLAYERS_PER_PAGE:
        lines.append(columns(t(ctx, "pot"), game.money(game.pot)))
    heading = t(ctx, "balances_hidden") if hidden else t(ctx, "title_balances")
    title = t(ctx, "time_left", time=clock(ctx.time_left)) if ctx.time_left is not None else heading
    if pages > 1:
        title = columns(title, f"{page + 1}/{pages}")
    # The mark after a name is explained at the foot of the screen whenever it is shown.
    footer = t(ctx, "jail_legend", mark=JAIL_MARK) if any(p.in_jail for p in shown) else ""
    if hidden and not footer:
        footer = t(ctx, "own_cash_only")
    return ScreenView(title=title, lines=tuple(lines), footer=footer)


JAIL_MARK = "*"
"""After a player's name on the balances: that player is in jail (the screen's foot says so)."""


def _auction(game: GameState, ctx: g.Context) -> ScreenView:
    auction = game.auction
    assert auction is not None
    if auction.property is not None:
        what = game.edition.properties[auction.property].name
    else:
        what = word(auction.building, ctx.language)
    if auction.high_bidder is not None:
        high = t(ctx, "high_bid", player=game.players[auction.high_bidder].name)
        amount: str | None = game.money(auction.high_bid)
    else:
        high = t(ctx, "no_bids")
        amount = None
    lines = (high,) if amount is not None else (high, t(ctx, "tap_to_bid"))
    return ScreenView(title=t(ctx, "title_auction", what=what), lines=lines, amount=amount,
                      footer=t(ctx, "footer_auction"))


def _debt(game: GameState, ctx: g.Context) -> ScreenView:
    """Who owes whom: every creditor with their amount, the cash and what the debtor's deeds can raise."""
    seat = game.debts[0].debtor
    player = game.players[seat]
    total = game.debt_total(seat)
    lines: list[str] = []
    debts = game.debts_of(seat)
    shown = debts if len(debts) <= 2 else debts[:1]
    for debt in shown:
        creditor = game.name_of(debt.creditor) if debt.creditor not in ("bank", "pot") else word(
            debt.creditor, ctx.language)
        lines.append(columns("→ " + creditor, game.money(debt.amount)))
    if len(debts) > len(shown):
        rest = sum(d.amount for d in debts[len(shown):])
        lines.append(columns(t(ctx, "debt_others", count=len(debts) - len(shown)), game.money(rest)))
    can_raise = liquidation_value(game, seat)
    value = game.money(max(0, can_raise - player.cash))
    if balances.sees_cash_of(game, balances.TABLE, seat):
        lines.append(t(ctx, "debt_cash", cash=game.money(player.cash), value=value))
    else:  # what the deeds and buildings raise is on the board for all to see; the cash is not
        lines.append(t(ctx, "debt_can_raise", value=value))
    title = t(ctx, "title_owes", player=player.name, amount=game.money(total))
    if can_raise < total:
        title = t(ctx, "title_owes_bankrupt", player=player.name, amount=game.money(total))
    return ScreenView(title=title, lines=tuple(lines), footer=t(ctx, "tap_card_of", player=player.name))


def _scores(game: GameState, ctx: g.Context) -> ScreenView:
    lines = []
    names = [p.name for p in game.players]
    for score in final_scores(game):
        worth = t(ctx, "bankrupt_short") if score.bankrupt else game.money(score.net_worth)
        place = f"{score.place}. "
        name = short_name(score.player, names, WIDTH_CHARS - len(worth) - 1 - len(place))
        lines.append(columns(place + name, worth))
    return ScreenView(title=t(ctx, "title_game_over", winner=game.winner or "-"), lines=tuple(lines))


# --- a player's card -------------------------------------------------------------------------------
def _player(step: g.PlayerStep, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        return ScreenView()
    player = game.players[step.seat]
    items = g.player_items(ctx, step.seat)
    lines = tuple(_item_text(item, ctx) for item in items)
    index = min(step.index, len(items) - 1)
    money = game.money(player.cash)
    title = columns(short_name(player.name, [p.name for p in game.players], WIDTH_CHARS - len(money) - 1), money)
    return ScreenView(title=title, lines=(t(ctx, "tap_next"), *lines), highlight=index + 1,
                      footer=t(ctx, "footer_menu"))


def _item_text(item: g.Item, ctx: g.Context) -> str:
    values = dict(item.params)
    if isinstance(item.target, Offer):
        return offer_label(item.target, ctx)
    if item.key == "card_text":
        return first_sentence(str(dict(item.params)["text"]))
    if item.key == "enroll_as":
        edition = ctx.edition
        return tag_label(str(values["meaning"]), edition, ctx.players(), ctx.language)
    return t(ctx, "item_" + item.key, **values)


def first_sentence(text: str, limit: int = 2 * WIDTH_CHARS - 2) -> str:
    """The start of a card's text, enough to tell it from the others in a menu (two lines at most)."""
    sentence = card_title(text) + "."
    return sentence if len(sentence) <= limit else sentence[: limit - 1].rstrip() + "…"


OFFER_ITEMS = {
    "buy": "buy", "auction": "auction", "rent": "rent", "collect_rent": "collect_rent",
    "build_house": "build_house", "build_hotel": "build_hotel", "sell_house": "sell_house", "sell_hotel": "sell_hotel",
    "sell_down": "sell_down", "sell_all_buildings": "sell_all", "mortgage": "mortgage", "unmortgage": "lift_mortgage",
    "keep_mortgaged": "keep_mortgaged", "salary": "passed_go", "salary_landed": "landed_on_go", "tax": "tax_flat",
    "tax_flat": "tax_flat", "tax_percent": "tax_percent", "jail_fine": "jail_pay_fine",
    "use_jail_card": "jail_use_card",
    "leave_jail": "jail_double", "go_to_jail": "go_to_jail", "free_parking": "free_parking", "card_pay": "card_pay",
    "card_draw": "card_draw", "card": "card_square", "card_passed_go": "passed_go_yes",
    "card_not_passed_go": "passed_go_no", "decide": "decide_on", "pay_debt": "pay_debt", "bankrupt": "go_bankrupt",
    "pay_bank": "pay_bank", "pay_pot": "pay_pot", "collect": "collect_bank", "bid_on": "bid_on",
    "accept_trade": "accept_trade", "refuse_trade": "refuse_trade",
}
"""The menu line of each kind of offer (``item_…`` texts of the table)."""


def offer_label(offer: Offer, ctx: g.Context) -> str:
    """An offer's menu line: what it does and its money, from the offer itself; "✕ " before a refused one."""
    game = ctx.game
    assert game is not None
    values: dict[str, Any] = {"amount": game.money(abs(offer.amount))}
    for key, value in offer.figures:
        values[key] = value
    prop = getattr(offer.action, "property", None)
    if isinstance(prop, str) and prop in game.edition.by_id:
        values["property"] = game.edition.by_id[prop].name
    if "levels" in values:
        values["levels"] = levels_text(game, dict(values["levels"]))
    if "deck" in values and offer.kind == "card_draw":
        values["deck"] = str(values["deck"])
    if offer.kind == "card" and "square" in values:
        values["next"] = _next_deed_name(game, int(values["square"]))
    if offer.kind == "decide":
        values["property"] = game.edition.property(str(values["property"])).name
    text = t(ctx, "item_" + OFFER_ITEMS.get(offer.kind, "confirm"), **values)
    return ("✕ " + text) if offer.refusal is not None else text


def levels_text(game: GameState, levels: dict[str, int]) -> str:
    """Break-down levels in a menu line: "Park 3, Boardwalk 4" (H for a hotel kept)."""
    hotel = game.rules.hotel_level
    return ", ".join(f"{short_deed_name(game.edition, pid)} {'H' if level == hotel else level}"
                     for pid, level in levels.items())


def short_deed_name(edition: Edition, property_id: str) -> str:
    """The word of a deed's name that tells it from the other deeds: the longest that no other deed of the
    edition has ("Park" of Park Place, "Fleet" of Fleet Street, "Полянка" of Улица Полянка; never an
    abbreviation like "St."), else the longest that no other deed of its group has (the menu lists one
    group's streets: "Pennsylvania" Avenue beside Pacific and North Carolina)."""
    prop = edition.property(property_id)
    for numbers in ([p.number for p in edition.properties], edition.groups[prop.group]):
        others = [edition.properties[n].name.split() for n in numbers if n != prop.number]
        words = [w for w in prop.name.split() if not w.endswith(".") and all(w not in other for other in others)]
        if words:
            return max(words, key=len)
    return prop.name


def _next_deed_name(game: GameState, index: int) -> str:
    for offset in range(1, 40):
        prop = game.edition.by_square.get((index + offset) % 40)
        if prop is not None:
            return prop.name
    return ""  # pragma: no cover - every board has deeds


def _menu(step: g.Menu, ctx: g.Context) -> ScreenView:
    title = t(ctx, "menu_" + step.title_key, **dict(step.title_params))
    lines = tuple(_item_text(item, ctx) for item in step.items)
    if not lines:
        return ScreenView(title=title, lines=(t(ctx, "menu_empty"),), footer=t(ctx, "footer_back"))
    hint = payback_line(ctx, step.seat, step.deed) if step.deed else None
    above = () if hint is None else (hint,)
    return ScreenView(title=title, lines=(*above, *lines), highlight=len(above) + min(step.index, len(lines) - 1),
                      footer=t(ctx, "footer_menu_ok"))


def payback_line(ctx: g.Context, seat: int, prop_id: str) -> str | None:
    """The owner's menu's line "Next house pays back in 9 throws" (the advisor's, in the table's
    language), or ``None``: no next building on the street for this player, or a game without advice."""
    game = ctx.game
    if game is None or seat < 0:
        return None
    line = next_building_line(game, seat, game.edition.property(prop_id))
    return None if line is None else render(*line, ctx.language)


# --- a tag tapped first ----------------------------------------------------------------------------
def _waiting(step: g.Waiting, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        return ScreenView()
    meaning = step.meaning
    if meaning.kind == "deed":
        return deed_card(game, game.edition.by_square[meaning.square].id, ctx)
    what = tag_label(meaning, game.edition, ctx.players(), ctx.language)
    return ScreenView(title=what, lines=(t(ctx, "tap_player_card"),), footer=t(ctx, "footer_back"))


def _rent_from(step: g.RentFrom, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        return ScreenView()
    prop = game.edition.property(step.property)
    owner = game.players[step.seat].name
    return ScreenView(title=prop.name, lines=(t(ctx, "collects_from", player=owner),),
                      footer=t(ctx, "tap_payer_card"))


def deed_card(game: GameState, prop_id: str, ctx: g.Context) -> ScreenView:
    """A title deed as it stands now: owner, rent now, buildings, mortgage."""
    prop = game.edition.property(prop_id)
    ps = game.props[prop.number]
    money = game.money
    lines: list[str] = []
    if ps.owner is None:
        lines.append(t(ctx, "for_sale", price=money(prop.price)))
    else:
        lines.append(t(ctx, "owner", player=game.players[ps.owner].name))
        if ps.mortgaged:
            lines.append(t(ctx, "mortgaged_no_rent", amount=money(offering.deed_facts(game, prop.id).lift_cost)))
        else:
            facts = offering.deed_facts(game, prop.id)
            if facts.rent is None:
                lines.append(t(ctx, "rent_dice", times=facts.times))
            else:
                lines.append(columns(t(ctx, "rent_now"), money(facts.rent)))
                lines.append(basis_text(facts.basis, ctx))
    return ScreenView(title=prop.name, lines=tuple(lines), footer=t(ctx, "tap_player_card"))


def basis_text(basis: str, ctx: g.Context) -> str:
    """Why the rent is what it is: "2 houses", "whole group: double", "3 railroads"."""
    kind, _, number = basis.partition("_")
    if kind in ("houses", "railroads", "utilities") and number.isdigit():
        return t(ctx, "basis_" + kind, count=int(number))
    return t(ctx, "basis_" + basis)


# --- confirmations ---------------------------------------------------------------------------------
def _confirm(step: g.Confirm, ctx: g.Context) -> ScreenView:
    shown = g.preview(ctx, step.action)
    events, error = shown.events, shown.refusal
    if isinstance(step.action, (AcceptTrade, RefuseTrade)) and error is None:
        return trade_view(step.action, step.since, ctx)
    decline = "footer_decline" if isinstance(step.action, Buy) else "footer_back"
    result = confirm_view(step.action, events, error, ctx, decline)
    if error is not None:
        lines = scrolled(error.translated(ctx.language), 3, step.since, ctx.now)
        return ScreenView(title=result.title, lines=lines, footer=t(ctx, "footer_back"))
    return result


def trade_view(action: AcceptTrade | RefuseTrade, since: float, ctx: g.Context) -> ScreenView:
    """An incoming trade proposal answered at the table: the answer as the title, then what each side
    gives, in words (scrolling when it is longer than the screen)."""
    game = ctx.game
    assert game is not None
    proposal = next(p for p in game.proposals if p.id == action.proposal)
    trade = proposal.trade
    key = "item_accept_trade" if isinstance(action, AcceptTrade) else "item_refuse_trade"
    sides = [t(ctx, "trade_gives", player=trade.from_, what=bundle_words(game.edition, trade.give.to_json(),
                                                                          ctx.language)),
             t(ctx, "trade_gives", player=trade.to, what=bundle_words(game.edition, trade.take.to_json(),
                                                                       ctx.language))]
    return ScreenView(title=t(ctx, key, player=trade.from_), lines=scrolled("; ".join(sides), 3, since, ctx.now),
                      footer=t(ctx, "footer_ok"))


def _signed(game: GameState, amount: int) -> str:
    return ("+" if amount > 0 else "") + game.money(abs(amount)) if amount else game.money(0)


def confirm_view(action: Action, events: tuple[Event, ...], error: BankerError | None, ctx: g.Context,
                 decline: str = "footer_back") -> ScreenView:
    """The confirmation of ``action``: what it does and the money, from the engine's own dry run."""
    game = ctx.game
    title = _action_title(action, ctx)
    if error is not None:
        return ScreenView(title=title, lines=(error.translated(ctx.language),), inverted=False)
    if game is None:
        if isinstance(action, NewGame):
            return ScreenView(title=title, lines=(", ".join(action.players),), footer=t(ctx, "footer_ok"))
        return ScreenView(title=title)
    actor = action.actor or ""
    flow = offering.flow(events, actor) if actor else 0
    kinds = [e.kind for e in events]
    footer = t(ctx, "footer_ok_pay" if flow < 0 else "footer_ok")
    if decline != "footer_back":
        footer = t(ctx, decline)
    if "debt" in kinds:
        debt_event = next(e for e in events if e.kind == "debt")
        owed = int(debt_event.params.get("amount", 0))
        to = str(debt_event.params.get("to", ""))
        creditor = word(to, ctx.language) if to in ("bank", "pot") else to
        debt_lines = (t(ctx, "becomes_debt", player=actor, creditor=creditor),
                      t(ctx, "debt_missing", amount=game.money(int(debt_event.params.get("missing", 0)))))
        return ScreenView(title=title, lines=debt_lines, amount=game.money(owed), footer=t(ctx, "footer_ok_owe"))
    lines = tuple(_action_lines(action, events, ctx))
    amount: str | None = None
    if flow:
        amount = _signed(game, flow) if flow > 0 else game.money(-flow)
    elif isinstance(action, AuctionClose):
        won = next((e for e in events if e.kind == "auction_won"), None)
        if won is not None:
            amount = game.money(int(won.params.get("amount", 0)))
    return ScreenView(title=title, lines=lines, amount=amount, footer=footer)


def _action_title(action: Action, ctx: g.Context) -> str:
    game = ctx.game
    prop_id = getattr(action, "property", None)
    if game is not None and isinstance(prop_id, str) and prop_id in game.edition.by_id \
            and not isinstance(action, (Bid,)):
        return game.edition.by_id[prop_id].name
    if isinstance(action, DrawCard) and game is not None:
        return game.edition.deck_names.get(action.deck, action.deck)
    if isinstance(action, Tax) and game is not None:
        return game.edition.square(action.square).name
    key = {Salary: "title_go", Pay: "title_pay", Collect: "title_collect", PayDebt: "title_pay_debt",
           Bankrupt: "title_bankrupt", AuctionClose: "title_close_auction", FreeParking: "title_free_parking",
           GoToJail: "title_jail", JailFine: "title_jail", UseJailCard: "title_jail", LeaveJail: "title_jail",
           Undo: "title_undo", EndGame: "title_end_game", NewGame: "title_new_game",
           SellBuildings: "title_sell_down"}.get(type(action), "title_confirm")
    return t(ctx, key)


def _action_lines(action: Action, events: tuple[Event, ...], ctx: g.Context) -> list[str]:
    game = ctx.game
    assert game is not None
    actor = action.actor or ""
    if isinstance(action, Rent):
        no_rent = next((e for e in events if e.kind == "no_rent"), None)
        if no_rent is not None:
            return [t(ctx, "no_rent", basis=word(str(no_rent.params.get("basis", "")), ctx.language))]
        paid = next((e for e in events if e.kind == "paid"), None)
        basis = str(paid.params.get("basis", "")) if paid is not None else ""
        owner = str(paid.params.get("to", "")) if paid is not None else ""
        why = basis_text(basis, ctx)
        if action.dice is not None:
            why = t(ctx, "dice_basis", dice=action.dice, basis=why)
        return [t(ctx, "rent_line", player=actor, to=owner, basis=why)]
    if isinstance(action, Buy):
        return [t(ctx, "buys", player=actor)]
    if isinstance(action, StartAuction):
        return [t(ctx, "auction_offer")]
    if isinstance(action, Build):
        built = next((e for e in events if e.kind == "built"), None)
        if built is not None and built.params.get("hotel"):
            return [t(ctx, "builds_hotel", player=actor)]
        houses = int(built.params.get("houses", 0)) if built is not None else 0
        return [t(ctx, "builds_house", player=actor, number=houses)]
    if isinstance(action, SellBuilding):
        return [t(ctx, "sells_building", player=actor)]
    if isinstance(action, Mortgage):
        return [t(ctx, "mortgage_line", player=actor)]
    if isinstance(action, Unmortgage):
        prop = game.edition.property(action.property)
        interest = -offering.flow(events, actor) - prop.mortgage
        return [t(ctx, "lift_line", value=game.money(prop.mortgage), interest=game.money(interest),
                  percent=game.rules.mortgage_interest_percent)]
    if isinstance(action, KeepMortgaged):
        return [t(ctx, "keep_line", percent=game.rules.mortgage_interest_percent)]
    if isinstance(action, Salary):
        return [t(ctx, "salary_line", player=actor)]
    if isinstance(action, Pay):
        to = word(action.to, ctx.language) if action.to in ("bank", "pot") else action.to
        return [t(ctx, "pays_to", player=actor, to=to)]
    if isinstance(action, Collect):
        return [t(ctx, "bank_pays", player=actor)]
    if isinstance(action, Tax):
        return [t(ctx, "pays_tax", player=actor)]
    if isinstance(action, DrawCard):
        card = game.edition.card(action.deck, action.card)
        return [game.edition.card_text(card, ctx.language)]
    if isinstance(action, PayDebt):
        return [t(ctx, "pays_debts", player=actor)]
    if isinstance(action, Bankrupt):
        return [t(ctx, "bankrupt_line", player=actor), t(ctx, "bankrupt_settles")]
    if isinstance(action, AuctionClose):
        won = next((e for e in events if e.kind == "auction_won"), None)
        if won is not None:
            return [t(ctx, "auction_sold", player=str(won.params.get("player", "")))]
        return [t(ctx, "auction_unsold")]
    if isinstance(action, FreeParking):
        return [t(ctx, "takes_pot", player=actor)]
    if isinstance(action, GoToJail):
        return [t(ctx, "goes_to_jail", player=actor)]
    if isinstance(action, JailFine):
        return [t(ctx, "pays_fine", player=actor)]
    if isinstance(action, UseJailCard):
        return [t(ctx, "uses_card", player=actor)]
    if isinstance(action, LeaveJail):
        return [t(ctx, "rolled_double", player=actor)]
    return [describe_event(game.edition, e, ctx.language) for e in events[:3]]


def _dice(step: g.Dice, ctx: g.Context) -> ScreenView:
    title = _action_title(step.action, ctx)
    return ScreenView(title=title, lines=(t(ctx, "dice_question"),), amount=str(step.value),
                      footer=t(ctx, "footer_set"))


def _amount(step: g.Amount, ctx: g.Context) -> ScreenView:
    game = ctx.game
    if game is None:
        return ScreenView()
    name = game.players[step.seat].name
    if step.purpose == "transfer":
        title = t(ctx, "title_transfer", player=name, to=step.to)
    elif step.purpose == "bid":
        assert True
        title = t(ctx, "title_bid", player=name)
    elif step.purpose == "pay_bank":
        title = t(ctx, "title_pay_bank", player=name)
    elif step.purpose == "pay_pot":
        title = t(ctx, "title_pay_pot", player=name)
    else:
        title = t(ctx, "title_collect_bank", player=name)
    lines: tuple[str, ...] = ()
    if step.purpose == "bid" and game.auction is not None and game.auction.high_bidder is not None:
        lines = (t(ctx, "bid_above", amount=game.money(game.auction.high_bid)),)
    elif step.purpose in ("transfer", "pay_bank", "pay_pot", "bid"):
        lines = (t(ctx, "has_cash", amount=game.money(game.players[step.seat].cash)),)
    # The step the next quick press makes (a run of quick presses grows it), not only the base step.
    running = step.last > 0 and ctx.now - step.last <= g.AMOUNT_RUN_S
    step_size = g.amount_step(step.step_index, step.run + 1 if running else 1)
    return ScreenView(title=title, lines=lines, amount=game.money(step.value),
                      footer=t(ctx, "footer_amount", step=step_size))


def scrolled(text: str, rows: int, since: float, now: float) -> tuple[str, ...]:
    """``text`` wrapped to the screen's width; when it has more than ``rows`` lines, the window moves
    down one line every :data:`firmware.grammar.SCROLL_S` seconds from ``since``, then starts again."""
    wrapped = textwrap.wrap(text, WIDTH_CHARS) or [""]
    if len(wrapped) <= rows:
        return (text,)
    positions = len(wrapped) - rows + 2  # rest a little at the end before starting again
    offset = min(int(max(0.0, now - since) / g.SCROLL_S) % positions, len(wrapped) - rows)
    return tuple(wrapped[offset:offset + rows])


def _notice(step: g.Notice, ctx: g.Context) -> ScreenView:
    if step.key == "reader_fault":
        return _reader_fault(dict(step.params), step, ctx)
    if step.key == "button_stuck":
        button = t(ctx, "button_" + str(dict(step.params)["button"]))
        text = t(ctx, "button_stuck", seconds=round(STUCK_S))
        return ScreenView(title=t(ctx, "title_button_stuck", button=button),
                          lines=scrolled(text, 4, step.since, ctx.now), inverted=True)
    if step.key == "button_free":
        button = t(ctx, "button_" + str(dict(step.params)["button"]))
        return ScreenView(title=t(ctx, "title_banker"), lines=(t(ctx, "notice_button_free", button=button),))
    if step.key == "card_full":
        return ScreenView(title=t(ctx, "title_card_full"), lines=scrolled(t(ctx, "card_full"), 4, step.since, ctx.now),
                          inverted=True)
    if step.error:
        text = step.text or t(ctx, "notice_" + step.key, **dict(step.params))
        return ScreenView(title=t(ctx, "title_refused"), lines=scrolled(text, 4, step.since, ctx.now),
                          inverted=True)
    if step.key == "done":
        game = ctx.game
        if game is None:
            return ScreenView(title=t(ctx, "title_done"))
        moves = moves_of(step.events)
        if moves:  # what to do with the cardboard, a page at a time
            return board.moves_view(game.edition, moves, ctx.language, t(ctx, "title_done"), step.since, ctx.now)
        shown = [e for e in step.events if e.kind not in ("card", "board")] or list(step.events)
        lines = tuple(describe_event(game.edition, balances.visible_event(game, e, balances.TABLE), ctx.language)
                      for e in shown[:4])
        return ScreenView(title=t(ctx, "title_done"), lines=lines)
    if step.text:
        return ScreenView(title=t(ctx, "title_banker"), lines=(step.text,))
    return ScreenView(title=t(ctx, "title_banker"), lines=(t(ctx, "notice_" + step.key, **dict(step.params)),))


def _reader_fault(values: dict[str, Any], step: g.Notice, ctx: g.Context) -> ScreenView:
    """One notice for every reader that stopped at once, each named with its bus."""
    more = tuple(values.get("more", ()))
    if not more and values.get("working", True):
        return ScreenView(title=t(ctx, "title_reader_fault", number=values["number"]),
                          lines=(t(ctx, "reader_fault", bus=values["bus"]),), inverted=True)
    numbers = ", ".join(str(number) for number in (values["number"], *(n for n, _ in more)))
    buses = ", ".join((str(values["bus"]), *(str(bus) for _, bus in more)))
    key = "readers_fault" if values.get("working", True) else "readers_fault_none"
    title = t(ctx, "title_readers_fault" if more else "title_reader_fault", numbers=numbers, number=numbers)
    return ScreenView(title=title, lines=scrolled(t(ctx, key, buses=buses), 4, step.since, ctx.now), inverted=True)


def _undo(step: g.UndoAsk, ctx: g.Context) -> ScreenView:
    game = ctx.game
    lines: tuple[str, ...] = ()
    if game is not None and game.history is not None:
        events = _events_of_last(game)
        described = [describe_event(game.edition, balances.visible_event(game, e, balances.TABLE), ctx.language)
                     for e in events if e.kind not in ("card", "board")]
        lines = tuple(described[:3]) or (describe_action(game.edition, game.history.action, ctx.language,
                                                         game.rules.hotel_level),)
        back = board.take_back(game)
        if back:  # and what will have to be taken back on the board
            first = board.pages(game.edition, back, ctx.language, rows=2)
            lines = (*lines[:1], *first[0], *(("…",) if len(first) > 1 else ()))
    return ScreenView(title=t(ctx, "title_undo"), lines=lines, footer=t(ctx, "footer_undo"))


def _events_of_last(game: GameState) -> tuple[Event, ...]:
    assert game.history is not None
    return offering.attempt(game.history.previous, game.history.action)[0]


def _unknown(step: g.UnknownTag, ctx: g.Context) -> ScreenView:
    return ScreenView(title=t(ctx, "title_unknown_tag"), lines=(step.uid, t(ctx, "unknown_tag_hint")),
                      footer=t(ctx, "footer_enroll"))


def _banker_ask(step: g.BankerAsk, ctx: g.Context) -> ScreenView:
    return ScreenView(title=t(ctx, "title_banker_ask"), lines=(t(ctx, "banker_ask", who=step.who),),
                      footer=t(ctx, "footer_allow"))


def _enrolling(step: g.Enrolling, ctx: g.Context) -> ScreenView:
    total = len(step.meanings)
    if step.position >= total:
        return ScreenView(title=t(ctx, "title_enroll", number=total, total=total))
    meaning = step.meanings[step.position]
    what = tag_label(meaning, ctx.edition, ctx.players(), ctx.language)
    uid = ctx.tags.uid_of(meaning)
    lines = [t(ctx, "enroll_tap"), what]
    if uid is not None:
        lines.append(t(ctx, "enroll_has", uid=uid))
    return ScreenView(title=t(ctx, "title_enroll", number=step.position + 1, total=total), lines=tuple(lines),
                      footer=t(ctx, "footer_enrolling"))


def _wizard(step: g.NewGameWizard, ctx: g.Context) -> ScreenView:
    question, index = g.wizard_question(step)
    language = ctx.language if ctx.language in g.NAMES else "en"
    if question == "edition":
        from banker.edition import load_edition

        value = load_edition(g.EDITIONS[step.edition]).name
    elif question == "count":
        value = str(step.count)
    elif question == "names":
        value = g.NAMES[language][step.names[index]]
    elif question == "preset":
        value = t(ctx, "preset_" + list(g.PRESETS)[step.preset])
    elif question == "mode":
        value = t(ctx, "mode_" + g.MODES[step.mode])
    elif question == "minutes":
        value = t(ctx, "minutes", minutes=g.TIMED_MINUTES[step.minutes])
    else:
        action = g.wizard_action(step, ctx)
        mode = t(ctx, "mode_" + g.MODES[step.mode])
        return ScreenView(title=t(ctx, "title_new_game"),
                          lines=(", ".join(action.players), mode), footer=t(ctx, "footer_start"))
    prompt = t(ctx, "ask_name", number=index + 1) if question == "names" else t(ctx, "ask_" + question)
    return ScreenView(title=t(ctx, "title_new_game"), lines=(prompt, "▲▼ " + value), footer=t(ctx, "footer_next"))


def _join(step: g.ShowJoin, ctx: g.Context) -> ScreenView:
    if ctx.wifi_join and step.page == 0:
        name = ctx.wifi_join.split("S:", 1)[-1].split(";", 1)[0].replace("\\", "")
        return ScreenView(title=t(ctx, "title_wifi"), lines=(name, t(ctx, "then_ok")), qr=ctx.wifi_join)
    return ScreenView(title=t(ctx, "title_phones"), lines=(t(ctx, "scan_qr"), ctx.join_code), qr=ctx.join_url)


_VIEWS: dict[type, Any] = {
    g.Idle: _idle,
    g.PlayerStep: _player,
    g.Menu: _menu,
    g.Waiting: _waiting,
    g.RentFrom: _rent_from,
    g.Confirm: _confirm,
    g.Dice: _dice,
    g.Amount: _amount,
    g.Notice: _notice,
    g.UndoAsk: _undo,
    g.UnknownTag: _unknown,
    g.BankerAsk: _banker_ask,
    g.Enrolling: _enrolling,
    g.NewGameWizard: _wizard,
    g.ShowJoin: _join,
}

__all__ = ["Meaning", "columns", "confirm_view", "deed_card", "view"]
