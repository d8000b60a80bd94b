"""Debts (§8), bankruptcy (§9), trades (§7.4, §8.2) and the ways a game ends (§10)."""

from __future__ import annotations

import random
import unicodedata
from dataclasses import replace

from banker import checks
from banker.actions import Bankrupt, EndGame, EndTurn, NewGame, PayDebt, Trade
from banker.buildings import return_group_buildings
from banker.deeds import share_out
from banker.edition import load_edition
from banker.errors import BadInput, IllegalAction
from banker.ledger import Event, Transaction
from banker.limits import MAX_NAME_LENGTH, MAX_PLAYERS, MIN_PLAYERS
from banker.names import draws_something, lookalike
from banker.rules import Rules
from banker.state import BANK, POT, RESERVED_NAMES, Auction, Debt, GameState, PlayerState, PropertyState
from banker.work import Work
from banker.worth import liquidation_value, net_worth

INVISIBLE = frozenset({"Cf", "Mn", "Me", "Zs", "Co", "Cn"})
"""Unicode categories that show nothing on their own (format marks, combining marks, spaces)."""


def new_game(a: NewGame) -> tuple[GameState, tuple[Event, ...]]:
    """The state at the start of a game, with the starting cash issued and any deeds dealt."""
    edition = load_edition(a.edition)
    rules = Rules.build(edition.defaults, a.rules)
    names = tuple(unicodedata.normalize("NFC", name) for name in a.players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise BadInput("player_count", count=len(names), low=MIN_PLAYERS, high=MAX_PLAYERS)
    for name in names:
        check_player_name(name)
    folded = [name.casefold() for name in names]
    for i, name in enumerate(names):
        if folded.index(folded[i]) != i:
            raise BadInput("duplicate_player", player=name, other=names[folded.index(folded[i])])
    alike = lookalike(names)
    if alike is not None:
        raise BadInput("player_lookalike", player=alike[0], other=alike[1])
    start = GameState(
        edition=edition,
        rules=rules,
        players=tuple(PlayerState(name, 0) for name in names),
        props=tuple(PropertyState() for _ in edition.properties),
        bank_houses=rules.houses,
        bank_hotels=rules.hotels,
        bank=0,
        seats={name: seat for seat, name in enumerate(names)},
    )
    w = Work(start)
    txn = w.split(BANK, [(name, rules.starting_cash) for name in names], "starting_cash")
    w.event("new_game", txn, edition=edition.id, players=list(names), amount=rules.starting_cash)
    _deal(w, a)
    return replace(w.freeze(), seq=0), tuple(w.events)


def check_player_name(name: str) -> None:
    """A name the table can show and the players can tell apart; :class:`BadInput` says what is wrong."""
    if not name:
        raise BadInput("player_name_empty")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp") for c in name):
        raise BadInput("player_name_control", player=name.encode("unicode_escape").decode("ascii"))
    if all(c.isspace() or unicodedata.category(c) in INVISIBLE for c in name) or not draws_something(name):
        # Nothing shows, or nothing but fillers and blanks (U+3164, U+2800): nothing to see.
        raise BadInput("player_name_invisible", player=name.encode("unicode_escape").decode("ascii"))
    if any(unicodedata.category(c) == "Cf" for c in name):
        # Zero-width spaces and joiners, direction marks: a name that draws like another, or turns the
        # amounts beside it around on the table's screen.
        raise BadInput("player_name_format", player=name.encode("unicode_escape").decode("ascii"))
    if name.strip() != name:
        raise BadInput("bad_player_name", player=name)
    if len(name) > MAX_NAME_LENGTH:
        raise BadInput("player_name_too_long", length=len(name), limit=MAX_NAME_LENGTH)
    if name.casefold() in RESERVED_NAMES:
        raise BadInput("reserved_player_name", player=name)


def _deal(w: Work, a: NewGame) -> None:
    count = w.rules.deeds_dealt
    if count == 0:
        if a.deal:
            raise BadInput("deal_without_rule")
        return
    if a.deal is None:
        numbers = list(range(len(w.edition.properties)))
        random.Random(a.seed).shuffle(numbers)
        deal = {p.name: tuple(w.edition.properties[numbers[i * count + k]].id for k in range(count))
                for i, p in enumerate(w.players)}
    else:
        deal = a.deal
        if set(deal) != {p.name for p in w.players}:
            raise BadInput("deal_players", players=", ".join(p.name for p in w.players))
    seen: set[str] = set()
    for name, deeds in deal.items():
        if len(deeds) != count:
            raise BadInput("deal_count", player=name, count=count)
        who = checks.seat(w, name)
        price = sum(checks.deed(w, deed_id).price for deed_id in deeds)
        if price > w.players[who].cash:
            raise BadInput("deal_unaffordable", player=name, amount=w.money(price),
                           cash=w.money(w.players[who].cash))
        for deed_id in deeds:
            prop = checks.deed(w, deed_id)
            if deed_id in seen:
                raise BadInput("deal_duplicate", property=prop.name)
            seen.add(deed_id)
            txn = w.transfer(name, BANK, prop.price, "deal")
            w.set_prop(prop.number, owner=who)
            w.event("dealt", txn, player=name, property=prop.id, amount=prop.price)


def _debts(w: Work, who: int, none_key: str) -> tuple[list[Debt], int]:
    """The player's debts and their total; ``none_key`` is the error when there are none."""
    debts = [d for d in w.debts if d.debtor == who]
    if not debts:
        raise IllegalAction(none_key, player=w.name(who))
    return debts, sum(d.amount for d in debts)


def pay_debt(w: Work, a: PayDebt) -> None:
    who = checks.seat(w, a.player)
    debts, total = _debts(w, who, "no_debt")
    cash = w.players[who].cash
    if cash < total:
        state = w.freeze()
        can = liquidation_value(state, who) >= total
        raise IllegalAction("debt_short" if can else "debt_short_bankrupt", player=a.player,
                            amount=w.money(total), cash=w.money(cash), missing=w.money(total - cash))
    w.debts = [d for d in w.debts if d.debtor != who]
    for d in debts:
        txn = w.transfer(a.player, d.creditor, d.amount, d.reason)
        w.event("debt_paid", txn, player=a.player, to=d.creditor, amount=d.amount, reason=d.reason)


def bankrupt(w: Work, a: Bankrupt) -> None:
    who = checks.seat(w, a.player)
    debts, total = _debts(w, who, "bankrupt_no_debt")
    value = liquidation_value(w.freeze(), who)
    if value >= total:
        raise IllegalAction("bankrupt_can_pay", player=a.player, amount=w.money(total), value=w.money(value))
    w.debts = [d for d in w.debts if d.debtor != who]
    name = a.player
    claims: dict[str, int] = {}
    for d in debts:
        claims[d.creditor] = claims.get(d.creditor, 0) + d.amount
    creditors = list(claims)
    players_owed = [c for c in creditors if c not in (BANK, POT)]
    owned = [n for n, ps in enumerate(w.props) if ps.owner == who]
    w.event("bankrupt", player=name, creditors=creditors, amount=total)

    # Who is still owed at this moment decides the kind of bankruptcy, whatever the debts came from.
    if len(creditors) == 1 and players_owed:
        heir = players_owed[0]
        heir_seat = w.seat_of(heir)
        assert heir_seat is not None
        _sell_buildings_to_bank(w, who, owned)
        cash = w.players[who].cash
        if cash:
            txn = w.transfer(name, heir, cash, "bankruptcy")
            w.event("inherited_cash", txn, player=heir, amount=cash, source=name)
        for number in owned:
            w.set_prop(number, owner=heir_seat)
            w.event("inherited_deed", player=heir, property=w.edition.properties[number].id, source=name)
        for number in owned:
            if w.props[number].mortgaged:
                w.add_decision(heir_seat, number)
        cards = w.players[who].jail_cards
        if cards:
            w.set_player(heir_seat, jail_cards=(*w.players[heir_seat].jail_cards, *cards))
        _redirect_claims(w, name, heir)
    else:
        # To the bank (§9.2), or several creditors (players, the bank, the pot) sharing what the
        # assets raise in proportion to their claims (§9.4).
        several = len(creditors) > 1
        if several:
            _sell_buildings_to_bank(w, who, owned)
        else:
            for group in {w.edition.properties[n].group for n in owned}:
                if w.edition.properties[w.edition.groups[group][0]].kind == "street":
                    return_group_buildings(w, group)
        cash = w.players[who].cash
        claim_list = [(c, claims[c]) for c in creditors]
        if cash:
            if several:
                shares, claim_list = share_out(cash, claim_list)
                txn = w.split(name, shares, "bankruptcy")
            else:
                txn = w.transfer(name, creditors[0], cash, "bankruptcy")
                claim_list = [(creditors[0], 0)]
            w.event("bankruptcy_cash", txn, player=name, amount=cash,
                    to=creditors[0] if not several else "creditors")
        for number in owned:
            w.set_prop(number, owner=None, mortgaged=False)
        last_standing = len(w.state.active_seats()) - 1 <= 1
        auctions = w.rules.bankruptcy_auctions and owned and not last_standing
        if auctions:
            unpaid = tuple(c for c in claim_list if c[1] > 0) if several else ()
            first, rest = owned[0], tuple(owned[1:])
            w.auction = Auction(property=first, queue=rest, claims=unpaid)
            w.event("auction_opened", property=w.edition.properties[first].id, excluded=[])
        elif owned:
            w.event("deeds_returned", player=name, properties=[w.edition.properties[n].id for n in owned])
        _redirect_claims(w, name, BANK)
    w.set_player(who, bankrupt=True, in_jail=False, jail_cards=())
    w.decisions = [d for d in w.decisions if d.player != who]
    # Trade offers made by or to a player who is out can never be answered: they go with the player.
    kept = [p for p in w.proposals if name not in (p.trade.from_, p.trade.to)]
    if len(kept) != len(w.proposals):
        w.proposals = kept
        w.event("proposals_dropped", player=name)
    w.bankrupt_order = (*w.bankrupt_order, who)
    if w.turn == who:
        _advance_turn(w)
    if w.auction is None:
        check_end(w)
    # Otherwise the game ends, if it does, once the bankruptcy auctions are over (auction_close).


def _sell_buildings_to_bank(w: Work, who: int, owned: list[int]) -> None:
    groups = {w.edition.properties[n].group for n in owned}
    total = sum(return_group_buildings(w, g) for g in sorted(groups)
                if w.edition.properties[w.edition.groups[g][0]].kind == "street")
    if total:
        txn = w.transfer(BANK, w.name(who), total, "sell_building")
        w.event("buildings_sold", txn, player=w.name(who), amount=total)


def _redirect_claims(w: Work, bankrupt_name: str, heir: str) -> None:
    """Debts still owed *to* the bankrupt player are owed to whoever took over the assets."""
    w.debts = [Debt(d.debtor, heir, d.amount, d.reason, d.shared) if d.creditor == bankrupt_name else d
               for d in w.debts]
    w.debts = [d for d in w.debts if w.name(d.debtor) != d.creditor]


def check_end(w: Work) -> None:
    """End the game when one player is left, or at the short game's second bankruptcy."""
    active = [s for s, p in enumerate(w.players) if not p.bankrupt]
    limit = w.rules.ends_at_bankruptcies
    if len(active) <= 1 or (limit and len(w.bankrupt_order) >= limit):
        finish(w)


def finish(w: Work) -> None:
    state = w.freeze()
    ranking = sorted((s for s, p in enumerate(w.players) if not p.bankrupt),
                     key=lambda s: (-net_worth(state, s), s))
    w.ended = True
    w.auction = None
    # Nothing is left waiting once the game is over: a received mortgaged deed simply stays mortgaged, and
    # the question this very action would have asked about it (lift or keep?) is not asked.
    w.decisions = []
    w.events = [e for e in w.events if e.kind != "decision_needed"]
    w.winner = w.name(ranking[0]) if ranking else None
    w.event("game_over", winner=w.winner,
            ranking=[{"player": w.name(s), "net_worth": net_worth(state, s)} for s in ranking])


def end_game(w: Work, _a: EndGame) -> None:
    # The game ends settled: every debt paid (or its debtor bankrupt) and every decision made.
    if w.debts:
        raise IllegalAction("end_game_debts", player=w.name(w.debts[0].debtor))
    if w.decisions:
        d = w.decisions[0]
        raise IllegalAction("decision_pending", player=w.name(d.player), property=w.edition.properties[d.property].name)
    finish(w)


def _advance_turn(w: Work) -> None:
    seats = len(w.players)
    for step in range(1, seats + 1):
        candidate = (w.turn + step) % seats
        if not w.players[candidate].bankrupt:
            w.turn = candidate
            return


def end_turn(w: Work, _a: EndTurn) -> None:
    _advance_turn(w)
    w.event("turn", player=w.name(w.turn))


def trade(w: Work, a: Trade) -> None:
    giver = checks.seat(w, a.from_)
    taker = checks.seat(w, a.to)
    if giver == taker:
        raise IllegalAction("trade_self", player=a.from_)
    if a.give.is_empty() and a.take.is_empty():
        raise IllegalAction("trade_empty")
    pending = [d for d in w.decisions if d.player == taker]
    if pending:
        raise IllegalAction("decision_pending", player=a.to, property=w.edition.properties[pending[0].property].name)
    for side, bundle in ((giver, a.give), (taker, a.take)):
        if bundle.cash < 0 or bundle.jail_cards < 0:
            raise BadInput("trade_negative")
        if bundle.cash:
            checks.cash_covers(w, side, bundle.cash, "trade")
        if bundle.jail_cards > len(w.players[side].jail_cards):
            raise IllegalAction("trade_no_jail_card", player=w.name(side), count=bundle.jail_cards)
        if len(set(bundle.properties)) != len(bundle.properties):
            raise BadInput("trade_duplicate")
        for deed_id in bundle.properties:
            prop = checks.deed(w, deed_id)
            checks.owner_is(w, side, prop)
            built = checks.group_has_buildings(w, prop)
            if built is not None:
                if w.level(prop.number):
                    raise IllegalAction("trade_own_buildings", property=prop.name)
                raise IllegalAction("trade_buildings", property=prop.name, built=built.name)
    settles = [d for d in w.debts if d.debtor == giver and d.creditor == a.to]
    if a.settles_debt and not settles:
        raise IllegalAction("trade_no_debt_to_settle", player=a.from_, creditor=a.to)
    for side, bundle in ((giver, a.give), (taker, a.take)):
        in_debt = any(d.debtor == side for d in w.debts)
        if in_debt and bundle.cash and not (a.settles_debt and side == giver):
            raise IllegalAction("in_debt", player=w.name(side))
    postings: list[tuple[str, int]] = []
    for side, other, bundle in ((giver, taker, a.give), (taker, giver, a.take)):
        if bundle.cash:
            w.transfer(w.name(side), w.name(other), bundle.cash, "trade")
            postings += [(w.name(side), -bundle.cash), (w.name(other), bundle.cash)]
        if bundle.jail_cards:
            cards = w.players[side].jail_cards
            w.set_player(side, jail_cards=cards[bundle.jail_cards:])
            w.set_player(other, jail_cards=(*w.players[other].jail_cards, *cards[: bundle.jail_cards]))
        for deed_id in bundle.properties:
            w.set_prop(w.edition.property(deed_id).number, owner=other)
    txn = Transaction("trade", tuple(postings)) if postings else None
    w.event("traded", txn, player=a.from_, to=a.to, give=a.give.to_json(), take=a.take.to_json())
    if a.settles_debt:
        w.debts = [d for d in w.debts if d not in settles]
        w.event("debt_settled_by_trade", player=a.from_, to=a.to, amount=sum(d.amount for d in settles))
    for other, bundle in ((taker, a.give), (giver, a.take)):
        for number in sorted(w.edition.property(deed_id).number for deed_id in bundle.properties):
            if w.props[number].mortgaged:
                w.add_decision(other, number)
