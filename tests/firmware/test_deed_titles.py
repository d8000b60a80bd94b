"""Every title that names a deed fits the OLED's title band whole: a deed's card, its menus (to buy it, to pay
its rent, its owner's), their confirmations, the rent's payer and the auction, for every deed of every
edition in every language of the table. A long name gives way to the edition's short form of it."""

from __future__ import annotations

import pytest

from banker import choice as choosing
from banker.actions import Buy, Mortgage, NewGame, StartAuction
from banker.edition import available_editions, load_edition
from banker.engine import apply
from banker.messages import LANGUAGES
from banker.state import GameState
from firmware import grammar as g
from firmware import screens
from hardware.display import MARGIN_X, WIDTH, drawable, fit, load_font

FONT = load_font()
ROOM = WIDTH - 2 * MARGIN_X


def whole(title: str) -> bool:
    """``title`` is drawn whole in the title band: not cut by the engine nor by the display."""
    shown = drawable(title, FONT)
    return "…" not in title and fit(shown, FONT, ROOM) == shown


def states(edition: str, deed: str) -> list[GameState]:
    """The deed for sale, bought by Ann, with Ann's whole group (building open), and mortgaged."""
    fresh, _ = apply(None, NewGame(edition, ("Ann", "Bob"), {}))
    bought, _ = apply(fresh, Buy("Ann", deed))
    group, book = bought, fresh.edition
    for number in book.groups[book.property(deed).group]:
        other = book.properties[number].id
        if other != deed:
            group, _ = apply(group, Buy("Ann", other))
    mortgaged, _ = apply(bought, Mortgage("Ann", deed))
    return [fresh, bought, group, mortgaged]


def titles(state: GameState, deed: str, language: str) -> list[str]:
    ctx = g.Context(game=state, now=0.0, language=language)
    said = [screens.deed_card(state, deed, ctx).title]
    for player in ("Ann", "Bob"):
        menu = choosing.deed_choice(state, player, deed, language, front="table")
        said.append(menu.title)
        for item in menu.items:
            action = item.offer.action
            if action is not None:
                said.append(choosing.fit(choosing.action_title(state, action, language)))
            if action is not None and not item.offer.needs:
                said.append(choosing.confirmation(state, item.offer, language).title)
    owner = state.props[state.edition.property(deed).number].owner
    if owner is not None:
        said.append(screens.view(g.GrammarState(step=g.RentFrom(owner, deed, g.Idle())), ctx).title)
    if state.props[state.edition.property(deed).number].owner is None:
        auction, _ = apply(state, StartAuction(deed))
        said.append(screens.view(g.GrammarState(step=g.Idle()), replace_game(ctx, auction)).title)
    return said


def replace_game(ctx: g.Context, game: GameState) -> g.Context:
    return g.Context(game=game, now=ctx.now, language=ctx.language)


@pytest.mark.parametrize("edition", available_editions())
def test_every_title_naming_a_deed_fits_the_title_band(edition: str) -> None:
    cut: list[tuple[str, str, str]] = []
    for prop in load_edition(edition).properties:
        for state in states(edition, prop.id):
            for language in LANGUAGES:
                cut += [(language, prop.id, title) for title in titles(state, prop.id, language) if not whole(title)]
    assert not cut, cut[:12]


def test_a_long_name_gives_way_to_the_editions_short_form() -> None:
    state = states("ru", "leningradskaya_railway")[0]
    menu = choosing.deed_choice(state, "Ann", "leningradskaya_railway", "ru", front="table")
    assert menu.title == "Ленинградская ж. д.", menu.title
    assert choosing.deed_title(state.edition, "leningradskaya_railway") == "Ленинградская ж. д."
