"""The undo chain a running session holds stays bounded, and undo still reaches as far as after a restart."""

from __future__ import annotations

from pathlib import Path

from banker.actions import Action, NewGame, Undo
from banker.engine import apply, trim_history, undo_depth
from banker.errors import BankerError
from banker.journal import UNDO_DEPTH, Journal
from banker.session import UNDO_KEPT, Session
from banker.sim.cli import lineup
from banker.sim.game import Game, accepted_actions
from banker.state import GameState


def _legal_actions(seed: int, at_least: int) -> list[Action]:
    """The actions of a self-played game that the engine accepts, in order (at least ``at_least`` of them)."""
    game = Game(seed, lineup(seed, 4), check=False)
    game.play(max_turns=1000)
    actions = accepted_actions(game.log)
    assert len(actions) > at_least, "pick a seed whose game is longer"
    return actions


def _chain(state: GameState) -> list[GameState]:
    states = [state]
    while states[-1].history is not None:
        history = states[-1].history
        assert history is not None
        states.append(history.previous)
    return states


def test_trim_history_keeps_the_game_and_the_last_undos() -> None:
    actions = _legal_actions(3, 300)
    state, _ = apply(None, actions[0])
    for action in actions[1:301]:
        state, _ = apply(state, action)
    before = _chain(state)
    assert undo_depth(state) == 300

    trimmed = trim_history(state, 50)

    assert trimmed == state
    assert undo_depth(trimmed) == 50
    assert _chain(state) == before and all(a is b for a, b in zip(_chain(state), before, strict=True))
    mine, theirs = trimmed, state
    for _ in range(50):
        mine, _ = apply(mine, Undo())
        theirs, _ = apply(theirs, Undo())
        assert mine == theirs
    assert mine.history is None
    try:
        apply(mine, Undo())
    except BankerError as error:
        assert error.key == "nothing_to_undo"
    else:  # pragma: no cover - the assertion's message
        raise AssertionError("undo went past the trimmed chain")
    assert trim_history(state, 400) is state


def test_a_long_session_holds_a_bounded_undo_chain(tmp_path: Path) -> None:
    actions = _legal_actions(13, 3 * UNDO_KEPT)
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = Session(journal)
        first = actions[0]
        assert isinstance(first, NewGame)
        session.submit(first)
        held: list[int] = []
        for action in actions[1:3 * UNDO_KEPT]:
            state, _ = session.submit(action)
            assert state is session.state
            held.append(undo_depth(state))
        assert max(held) == UNDO_KEPT
        assert held[-1] >= UNDO_DEPTH
        # Undo still goes back at least UNDO_DEPTH actions, each one to the state the engine gives.
        expected, _ = apply(None, first)
        states = [expected]
        for action in actions[1:3 * UNDO_KEPT]:
            expected, _ = apply(expected, action)
            states.append(expected)
        for back in range(1, UNDO_DEPTH + 1):
            state, _ = session.submit(Undo())
            assert state == _with_seq(states[-1 - back], state.seq)
        assert undo_depth(session.state) == held[-1] - UNDO_DEPTH

        resumed = Session.resume(journal)
        assert resumed.state == session.state


def _with_seq(state: GameState, seq: int) -> GameState:
    from dataclasses import replace

    return replace(state, seq=seq)
