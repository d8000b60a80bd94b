"""The engine's fast constructors build exactly what the dataclasses' own constructors build, just as frozen."""

from __future__ import annotations

import dataclasses

import pytest

from banker.engine import apply
from banker.errors import BankerError
from banker.native import is_native
from banker.sim.cli import lineup
from banker.sim.game import Game
from banker.state import GameState, PlayerState, PropertyState, make_player, make_property, make_state


def test_fast_constructors_match_the_dataclasses() -> None:
    game = Game(9, lineup(9, 3))
    game.play(max_turns=60)
    state = game.state
    for cls, make, obj in ((GameState, make_state, state), (PlayerState, make_player, state.players[0]),
                           (PropertyState, make_property, next(p for p in state.props if p.owner is not None))):
        values = [getattr(obj, f.name) for f in dataclasses.fields(cls)]
        built = make(*values)
        assert type(built) is cls and built == cls(*values) == obj
        if not is_native():  # compiled, the constructor is the class itself and ints are stored unboxed
            assert all(getattr(built, f.name) is getattr(obj, f.name) for f in dataclasses.fields(cls))
        with pytest.raises(dataclasses.FrozenInstanceError):
            built.__setattr__(dataclasses.fields(cls)[0].name, None)


def test_a_state_handed_out_never_changes() -> None:
    game = Game(10, lineup(10, 4), check=False)
    game.play(max_turns=40)
    states = [apply(None, game.log[0])[0]]
    snapshots = [repr(states[0])]
    for action in game.log[1:]:
        try:
            states.append(apply(states[-1], action)[0])
        except BankerError:
            continue
        snapshots.append(repr(states[-1]))
    assert [repr(s) for s in states] == snapshots
