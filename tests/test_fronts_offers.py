"""The table's deed menu and the phone's deed card against the engine's offers: the same actions, the same
amounts, the same refusals, over states met in self-play."""

from __future__ import annotations

from dataclasses import replace

import pytest

from banker import choice as choosing
from banker import offer as offering
from banker.actions import Action, Buy, DrawCard, NewGame, Pay, Rent, Tax
from banker.engine import apply
from banker.state import GameState
from firmware import grammar as g
from firmware import screens
from firmware.grammar import choices
from tests.engine.test_offers import selfplay_states
from webui import views


def owned_deeds(state: GameState) -> list[tuple[str, str]]:
    return [(state.players[ps.owner].name, prop.id) for prop, ps in zip(state.edition.properties, state.props,
                                                                       strict=True)
            if ps.owner is not None and not state.players[ps.owner].bankrupt]


@pytest.mark.parametrize("seed", [1, 2, 3, 5, 8])
def test_the_table_and_the_phone_offer_what_the_engine_offers(seed: int) -> None:
    checked = refused = 0
    for state in selfplay_states(seed)[::3]:
        if state.ended or state.auction is not None:
            continue
        ctx = g.Context(game=state, now=0.0)
        for player, deed in owned_deeds(state):
            offers = offering.deed_offers(state, player, deed)
            seat = state.seat(player)
            menu = choices.choose(ctx, g.DeedOf(seat, deed), g.Idle(), show_card=True)
            table = [item.offer for item in menu.choice.items]
            assert [(o.action, o.amount, o.refusal is None) for o in table] == [
                (o.action, o.amount, o.refusal is None) for o in offers]
            engine = choosing.deed_choice(state, player, deed, front="table")
            lines = screens.view(g.GrammarState(step=menu), ctx).lines
            assert lines[len(lines) - len(engine.items) - 1:-1] == tuple(i.menu for i in engine.items)
            for item in menu.choice.items:
                assert item.menu.startswith("✕ ") == item.offer.refused
                if item.offer.amount and item.offer.kind != "sell_down":
                    assert state.money(abs(item.offer.amount)) in item.menu
            card = views.deed_view(state, state.edition.property(deed), "en", player)
            phone = [o for o in offers if o.kind in views.PHONE_DEED_KINDS]
            assert [(b.action, b.fields, b.refused) for b in card.buttons] == [
                (o.action.name if o.action else "", views.offer_fields(o),
                 o.refusal.translated("en") if o.refusal else None) for o in phone]
            checked += len(offers)
            refused += sum(o.refused for o in offers)
    assert checked > 20 and refused > 0


def play(*actions: Action, players: tuple[str, ...] = ("Ann", "Bob", "Cy", "Dee"), **rules: object) -> GameState:
    state, _ = apply(None, NewGame("us", players, dict(rules)))
    for action in actions:
        state, _ = apply(state, action)
    return state


def idle_screen(state: GameState, language: str = "en") -> str:
    view = screens.view(g.GrammarState(), g.Context(game=state, now=0.0, language=language))
    return "\n".join((view.title, *view.lines))


def test_the_debt_screen_names_each_creditor_and_their_amount() -> None:
    chairman = next(c for c in play().edition.decks["chance"] if c.kind == "pay_each")
    state = play(Pay("Ann", 1490, "bank"), DrawCard("Ann", "chance", chairman.id), players=("Ann", "Cy", "Dee"))
    assert state.players[0].cash == 10 and chairman.amount == 50
    screen = idle_screen(state)
    assert screen.splitlines()[:3] == ["Ann: $100, bankrupt?", screens.columns("→ Cy", "$50"),
                                       screens.columns("→ Dee", "$50")]
    five = play(Pay("Ann", 1490, "bank"), DrawCard("Ann", "chance", chairman.id),
                players=("Ann", "Bob", "Cy", "Dee", "Eve"))
    lines = idle_screen(five).splitlines()
    assert lines[:3] == ["Ann: $200, bankrupt?", screens.columns("→ Bob", "$50"),
                         screens.columns("and 3 others", "$150")]


def test_a_rent_then_a_tax_shows_both_creditors() -> None:
    state = play(Buy("Ann", "mediterranean"), Pay("Bob", 1500, "bank"), Rent("Bob", "mediterranean"),
                 Tax("Bob", "income_tax"))
    screen = idle_screen(state)
    assert screens.columns("→ Ann", "$2") in screen and screens.columns("→ the bank", "$200") in screen
    assert screen.startswith("Bob: $202, bankrupt?")
    state = play(Buy("Ann", "mediterranean"), Buy("Bob", "boardwalk"), Buy("Bob", "park_place"),
                 Pay("Bob", 750, "bank"), Rent("Bob", "mediterranean"), Tax("Bob", "income_tax"))
    assert state.players[1].cash == 0
    assert idle_screen(state).startswith("Bob owes $202\n")
    assert idle_screen(state, "ru").startswith("Bob должен $202\n")


def test_a_refused_build_for_cash_offers_the_ways_to_raise_it_at_the_table() -> None:
    state = play(Buy("Ann", "mediterranean"), Buy("Ann", "baltic"), Buy("Ann", "oriental"), Pay("Ann", 1270, "bank"))
    assert state.players[0].cash == 10
    ctx = g.Context(game=state, now=10.0)
    menu = choices.choose(ctx, g.DeedOf(0, "baltic"), g.Idle(), show_card=True)
    build = next(n for n, i in enumerate(menu.choice.items) if i.kind == "build_house")
    gs, effects = g.step(g.GrammarState(step=replace(menu, index=build)), g.Press("ok"), ctx)
    short = gs.step
    assert isinstance(short, g.Choose) and isinstance(short.source, g.ShortOf)
    view = screens.view(gs, ctx)
    assert view.title == "Short by $40"
    assert view.lines == ("Mortgage +$50",)  # Oriental: outside a whole group, it goes first
    assert not effects
