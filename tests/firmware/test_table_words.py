"""What the table shows comes from the engine's choice, in the table's language: over whole self-played games
of every edition, in en, ru and bg, every menu has the engine's kinds, order and words; no identifier, key or
English word reaches a Russian or Bulgarian screen (names of players and deeds as printed aside); and every
line that matters fits the screen or pages through it."""

from __future__ import annotations

from functools import cache

import pytest

from banker import choice as choosing
from banker import offer as offering
from banker.actions import Action, NewGame
from banker.engine import apply
from banker.ledger import Event
from banker.messages import LANGUAGES
from banker.sim.cli import lineup
from banker.sim.game import Game
from banker.state import GameState
from firmware import grammar as g
from firmware import screens
from firmware.grammar import choices
from firmware.tags import Meaning
from hardware import display
from hardware.display import ScreenView
from tests.test_texts_all import IDENTIFIER, LATIN_WORD

WORDS_ON_A_SCREEN = frozenset({"OK", "GO", "QR", "PIN", "Wi", "Fi"})
"""Latin words a Russian or Bulgarian screen may show besides the names."""
Step = tuple[GameState, Action, tuple[Event, ...], GameState]


@cache
def played(edition: str, seed: int) -> tuple[Step, ...]:
    """Every action of a self-played game with the state before it, its events and the state after."""
    game = Game(seed, lineup(seed, 3), edition=edition)
    game.play(120)
    out: list[Step] = []
    state: GameState | None = None
    for action in game.log:
        after, events = apply(state, action)
        if state is not None:
            out.append((state, action, events, after))
        state = after
    return tuple(out)


GAMES = [("us", 3), ("uk", 5), ("ru", 8)]


def ctx_of(state: GameState, language: str, now: float = 0.0) -> g.Context:
    return g.Context(game=state, now=now, language=language)


def shown(step: g.Step, ctx: g.Context) -> ScreenView:
    return screens.view(g.GrammarState(step=step), ctx)


def table_screens(before: GameState, action: Action, events: tuple[Event, ...], after: GameState,
                  language: str) -> list[ScreenView]:
    """The screens of one moment: each player's card, each owned deed with its owner and with another
    player, the action's confirmation and its Done screen, page by page."""
    ctx = ctx_of(before, language)
    views: list[ScreenView] = []
    for seat, player in enumerate(before.players):
        if player.bankrupt or before.ended:
            continue
        views.append(shown(choices.player_step(ctx, seat), ctx))
    if before.auction is None and not before.ended:
        for prop, ps in zip(before.edition.properties, before.props, strict=True):
            if ps.owner is None or before.players[ps.owner].bankrupt:
                continue
            for seat in {ps.owner, (ps.owner + 1) % len(before.players)}:
                if not before.players[seat].bankrupt:
                    views.append(shown(choices.pair(ctx, seat, prop.id, g.Idle()), ctx))
    if not isinstance(action, NewGame):
        confirm = choices.confirm(ctx, offering.preview(before, action), g.Idle())
        views += [shown(confirm, ctx_of(before, language, now)) for now in range(0, 30, 2)]
    done = g.Notice("done", events=events, since=0.0)
    views += [shown(done, ctx_of(after, language, now)) for now in range(0, 20, 2)]
    return views


def texts_of(view: ScreenView) -> list[str]:
    return [view.title, *view.lines, view.footer, view.amount or ""]


def names_of(state: GameState) -> set[str]:
    edition = state.edition
    found = {*(p.name for p in state.players), edition.name, *(p.name for p in edition.properties),
             *(s.name for s in edition.squares), *edition.deck_names.values()}
    return {word for name in found for word in LATIN_WORD.findall(name)}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(("edition", "seed"), GAMES)
def test_every_screen_of_a_whole_game_reads_as_words(edition: str, seed: int, language: str) -> None:
    checked = 0
    steps = played(edition, seed)
    allowed = WORDS_ON_A_SCREEN | names_of(steps[0][0])
    for before, action, events, after in steps[::4]:
        for view in table_screens(before, action, events, after, language):
            for text in texts_of(view):
                checked += 1
                assert not IDENTIFIER.search(text), (text, action)
                assert "{" not in text and "}" not in text, (text, action)
                if language != "en":
                    latin = [w for w in LATIN_WORD.findall(text) if w not in allowed]
                    assert not latin, (text, action)
    assert checked > 2000


@pytest.mark.parametrize(("edition", "seed"), GAMES)
def test_every_menu_the_table_shows_is_the_engines_choice(edition: str, seed: int) -> None:
    menus = 0
    for before, _action, _events, _after in played(edition, seed)[::3]:
        if before.ended:
            continue
        ctx = ctx_of(before, "en")
        for seat, player in enumerate(before.players):
            if player.bankrupt:
                continue
            gs, _ = g.step(g.GrammarState(), g.TapIn(Meaning("player", seat=seat, uid=f"card{seat}")), ctx)
            if before.auction is not None:
                continue
            engine = choosing.card_choice(before, player.name, front="table")
            view = screens.view(gs, ctx)
            assert isinstance(gs.step, g.PlayerStep)
            assert [i.kind for i in gs.step.choice.items] == [i.kind for i in engine.items]
            assert view.lines[1:] == tuple(i.menu for i in engine.items)
            for prop, ps in zip(before.edition.properties, before.props, strict=True):
                if ps.owner != seat:
                    continue
                tapped, _ = g.step(gs, g.TapIn(Meaning("deed", square=prop.square, uid=prop.id)), ctx)
                found = choosing.deed_choice(before, player.name, prop.id, front="table")
                if found.direct is not None:
                    continue
                assert isinstance(tapped.step, g.Choose)
                menu = screens.view(tapped, ctx)
                assert menu.title == found.title
                lines = tuple(i.menu for i in found.items)
                assert menu.lines[-len(lines) - 1:-1] == lines
                assert [i.kind for i in tapped.step.choice.items] == [i.kind for i in found.items]
                menus += 1
    assert menus > 20


def rows(text: str) -> list[str]:
    """``text`` as the screen draws prose: word-wrapped to the width in pixels of the 12-pixel font."""
    font = display.load_font(12)
    return display.wrap(display.drawable(text, font), font, display.WIDTH - 2 * display.MARGIN_X)


def drawn_rows(view: ScreenView) -> int:
    """The body rows the display draws for ``view``: from under the title (or the top) to the footer (or
    the bottom), less the big amount's height at the largest size that fits the width."""
    top = display.BODY_Y if view.title else 0
    bottom = display.FOOTER_Y if view.footer else display.HEIGHT
    amount = 0
    if view.amount:
        bold = display.load_font(display.AMOUNT_SIZES[0], "bold")
        text = display.drawable(view.amount, bold)
        sizes = [size for size in display.AMOUNT_SIZES
                 if display.load_font(size, "bold").getlength(text) <= display.WIDTH - 2 * display.MARGIN_X]
        amount = (sizes[0] if sizes else display.AMOUNT_SIZES[-1]) + 2
    return (bottom - top - amount) // display.LINE_HEIGHT


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_confirmation_fits_or_pages_and_its_title_fits(language: str) -> None:
    """A confirmation's lines are never cut: what does not fit the screen at once is shown a part at a time,
    and every row of the engine's words is seen before the screen starts again."""
    for edition, seed in GAMES:
        for before, action, _events, _after in played(edition, seed)[::2]:
            if isinstance(action, NewGame):
                continue
            offer = offering.preview(before, action)
            said = choosing.confirmation(before, offer, language)
            confirm = choices.confirm(ctx_of(before, language), offer, g.Idle())
            seen: set[str] = set()
            for tick in range(60):
                view = shown(confirm, ctx_of(before, language, tick * g.SCROLL_S))
                assert len(view.title) <= choosing.MENU_WIDTH, view.title
                capacity = drawn_rows(view)
                assert sum(len(rows(line)) for line in view.lines) <= capacity, (view.lines, capacity, action)
                seen |= {row for line in view.lines for row in rows(line)}
            wanted = {row for line in said.lines for row in rows(line)}
            assert wanted <= seen, (wanted - seen, action)
