"""Look-ups and checks shared by the action handlers; each raises a named error a player understands."""

from __future__ import annotations

from banker.edition import Property, closest
from banker.errors import BadInput, IllegalAction, UnknownName
from banker.state import BANK, POT
from banker.work import Work


def seat(w: Work, name: str) -> int:
    """The seat of an active (not bankrupt) player."""
    found = w.seat_of(name)
    if found is None:
        raise unknown_player(w, name)
    if w.players[found].bankrupt:
        raise IllegalAction("player_bankrupt", player=name)
    return found


def deed(w: Work, property_id: str) -> Property:
    return w.edition.property(property_id)


def positive(amount: int, field: str) -> None:
    if amount <= 0:
        raise BadInput("amount_not_positive", field=field, amount=amount)


def unknown_player(w: Work, name: str) -> UnknownName:
    players = ", ".join(p.name for p in w.players)
    hint = closest(name, {p.name: p.name for p in w.players})
    if hint is not None:
        return UnknownName("unknown_player_suggest", player=name, players=players, suggestion=hint)
    return UnknownName("unknown_player", player=name, players=players)


def account(w: Work, name: str) -> str:
    """A payee: "bank", "pot" or an active player's name."""
    if name in (BANK, POT):
        return name
    if w.seat_of(name) is None:
        raise UnknownName("unknown_payee", to=name, players=", ".join(p.name for p in w.players))
    seat(w, name)
    return name


def owner_is(w: Work, who: int, prop: Property) -> None:
    owner = w.props[prop.number].owner
    if owner != who:
        raise IllegalAction("not_owner", player=w.name(who), property=prop.name,
                            owner=w.name(owner) if owner is not None else "bank")


def street(w: Work, prop: Property) -> None:
    if prop.kind != "street":
        raise IllegalAction("not_a_street", property=prop.name)


def group_members(w: Work, prop: Property) -> tuple[int, ...]:
    return w.edition.groups[prop.group]


def group_has_buildings(w: Work, prop: Property) -> Property | None:
    """The first deed of the group with a building on it, if any."""
    for number in group_members(w, prop):
        ps = w.props[number]
        if ps.houses or ps.hotel:
            return w.edition.properties[number]
    return None


def cash_covers(w: Work, who: int, amount: int, what: str) -> None:
    cash = w.players[who].cash
    if cash < amount:
        raise IllegalAction("not_enough_cash", player=w.name(who), amount=w.money(amount), cash=w.money(cash),
                            what=what, missing=w.money(amount - cash), short=amount - cash)
