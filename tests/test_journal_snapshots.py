"""Journal snapshots: a resume from a snapshot is the state, and the undo, that a full replay gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from banker.actions import Action, NewGame, Undo
from banker.engine import apply
from banker.export import state_to_json
from banker.journal import SNAPSHOT_EVERY, UNDO_DEPTH, Journal
from banker.sim.cli import lineup
from banker.sim.game import Game, accepted_actions
from banker.snapshot import from_snapshot, to_snapshot
from banker.state import GameState


def _game(seed: int, undos: bool = True) -> list[Action]:
    """A self-played game with, here and there, an undo and the undone action again."""
    game = Game(seed, lineup(seed, 4), check=False)
    game.play(max_turns=400)
    rng = random.Random(seed)
    first, *rest = accepted_actions(game.log)
    actions: list[Action] = [first]
    for action in rest:
        actions.append(action)
        if undos and rng.random() < 0.05:
            actions += [Undo(), action]
    return actions


def _write(journal: Journal, actions: list[Action]) -> tuple[int, GameState]:
    first = actions[0]
    assert isinstance(first, NewGame)
    state, events = apply(None, first)
    game_id = journal.create_game(first, events, 0.0)
    for action in actions[1:]:
        state, events = apply(state, action)
        journal.append(game_id, state.seq, action, events, 0.0, state=state)
    return game_id, state


def _undo(state: GameState, times: int) -> list[GameState]:
    states = []
    for _ in range(times):
        state, _ = apply(state, Undo())
        states.append(state)
    return states


def test_every_state_of_self_play_survives_a_snapshot() -> None:
    for seed in (1, 2, 3):
        start, _ = apply(None, _game(seed, undos=False)[0])
        seen = [start]
        for action in _game(seed, undos=False)[1:]:
            seen.append(apply(seen[-1], action)[0])
        assert any(s.auction is not None for s in seen) and any(s.debts for s in seen)
        for state in seen:
            assert from_snapshot(to_snapshot(state), start) == state


def test_a_resume_from_a_snapshot_is_a_full_replay_and_undo_goes_as_far(monkeypatch: pytest.MonkeyPatch) -> None:
    for seed in range(20):
        journal = Journal(":memory:")
        game_id, state = _write(journal, _game(seed))
        full = journal.replay(game_id)
        resumed = journal.load(game_id)
        assert resumed == full == state and state_to_json(resumed) == state_to_json(full)
        if state.seq >= SNAPSHOT_EVERY + UNDO_DEPTH:
            assert resumed_depth(resumed) < 3 * SNAPSHOT_EVERY + UNDO_DEPTH  # no more replayed than that
        depth = min(UNDO_DEPTH, resumed_depth(resumed))
        assert depth >= min(UNDO_DEPTH // 2, state.seq)
        assert _undo(resumed, depth) == _undo(full, depth)
        journal.close()


def resumed_depth(state: GameState) -> int:
    """How many undos the state's history allows."""
    depth = 0
    while state.history is not None:
        state = state.history.previous
        depth += 1
    return depth


def test_a_long_game_resumes_from_a_snapshot_without_a_full_replay(monkeypatch: pytest.MonkeyPatch) -> None:
    actions = _game(7, undos=False)
    assert len(actions) > SNAPSHOT_EVERY + UNDO_DEPTH
    journal = Journal(":memory:")
    game_id, state = _write(journal, actions)
    full = journal.replay(game_id)

    def no_full_replay(self: Journal, game_id: int) -> GameState:
        raise AssertionError("a full replay")

    monkeypatch.setattr(Journal, "replay", no_full_replay)
    resumed = journal.load(game_id)
    assert resumed == full
    assert UNDO_DEPTH <= resumed_depth(resumed) < SNAPSHOT_EVERY + UNDO_DEPTH
    assert apply(resumed, Undo())[0] == apply(full, Undo())[0]
    journal.close()


@pytest.mark.parametrize("damage", [
    "UPDATE snapshots SET state = '{not json'",
    "UPDATE snapshots SET digest = 'x'",
    "DELETE FROM snapshots",
])
def test_a_damaged_or_missing_snapshot_falls_back_to_a_full_replay(tmp_path: Path, damage: str) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    game_id, state = _write(journal, _game(4, undos=False)[:SNAPSHOT_EVERY + UNDO_DEPTH + 50])
    journal._db.execute(damage)
    journal.close()
    with Journal(path) as reopened:
        assert reopened.load(game_id) == state


def test_a_snapshot_whose_digest_matches_but_content_lies_is_caught_by_the_replay(tmp_path: Path) -> None:
    """A snapshot of the wrong seq (e.g. written by a bug) is never used."""
    import hashlib

    journal = Journal(":memory:")
    game_id, state = _write(journal, _game(5, undos=False)[:SNAPSHOT_EVERY + UNDO_DEPTH + 10])
    text = journal._db.execute("SELECT state FROM snapshots").fetchone()[0].replace('"seq":200', '"seq":199')
    journal._db.execute("UPDATE snapshots SET state = ?, digest = ?",
                        (text, hashlib.sha256(text.encode()).hexdigest()))
    assert journal.load(game_id) == state
