"""The check handed a clean state finds exactly what the full check finds."""

from __future__ import annotations

from dataclasses import replace

from banker.engine import apply
from banker.invariants import invariant_errors
from banker.sim.cli import lineup
from banker.sim.game import Game, accepted_actions
from banker.state import GameState, PlayerState, PropertyState


def _states(seed: int) -> list[GameState]:
    """Every state of a self-played game, in order."""
    game = Game(seed, lineup(seed, 4), check=False)
    game.play(max_turns=150)
    first, *rest = accepted_actions(game.log)
    states = [apply(None, first)[0]]
    for action in rest:
        states.append(apply(states[-1], action)[0])
    return states


def _with_prop(state: GameState, number: int, ps: PropertyState) -> GameState:
    props = list(state.props)
    props[number] = ps
    return replace(state, props=tuple(props))


def _with_player(state: GameState, seat: int, p: PlayerState) -> GameState:
    players = list(state.players)
    players[seat] = p
    return replace(state, players=tuple(players))


def test_every_step_of_self_play_agrees_with_the_full_check() -> None:
    for seed in (3, 4):
        states = _states(seed)
        for before, after in zip(states, states[1:], strict=False):
            assert invariant_errors(after, before) == invariant_errors(after) == []


def test_a_broken_step_is_found_with_a_clean_state_too() -> None:
    states = _states(5)
    clean = next(s for s in states[len(states) // 2:] if any(ps.owner is not None for ps in s.props))
    owned = next(n for n, ps in enumerate(clean.props) if ps.owner is not None)
    street = next(p.number for p in clean.edition.properties if p.kind == "street")
    railroad = next(p.number for p in clean.edition.properties if p.kind == "railroad")
    broken = [
        _with_prop(clean, street, replace(clean.props[street], houses=1)),  # a house out of nowhere, maybe uneven
        _with_prop(clean, railroad, replace(clean.props[railroad], owner=0, houses=1)),
        _with_prop(clean, owned, replace(clean.props[owned], owner=None, mortgaged=True)),
        _with_prop(clean, owned, replace(clean.props[owned], owner=9)),
        _with_player(clean, 0, replace(clean.players[0], cash=clean.players[0].cash + 1)),
        _with_player(clean, 1, replace(clean.players[1], jail_cards=("chance", "chance"))),
        _with_player(clean, clean.props[owned].owner or 0,
                     replace(clean.players[clean.props[owned].owner or 0], bankrupt=True, cash=0)),
        replace(clean, bank_houses=clean.bank_houses - 1),
    ]
    for state in broken:
        full = invariant_errors(state)
        assert full
        assert sorted(invariant_errors(state, clean)) == sorted(full)
