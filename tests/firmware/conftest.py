"""Helpers for the table's tests: scripts of table inputs run through the real grammar and loop."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from banker.export import state_to_json
from banker.invariants import check_invariants
from firmware.script import Frame, TableScript


class Play:
    """A simulated table with a new game; ``do(...)`` feeds inputs like the lines of a table script."""

    def __init__(self, players: tuple[str, ...] = ("Ann", "Bob"), edition: str = "us", language: str = "en",
                 **rules: Any) -> None:
        self.script = TableScript(language=language)
        new_game = {"action": "new_game", "edition": edition, "players": list(players), "rules": rules}
        self.script.run([json.dumps(new_game, ensure_ascii=False)])
        self.line = 1
        self.seen_seq = self.state.seq

    def close(self) -> None:
        self.script.close()

    @property
    def state(self) -> Any:
        state = self.script.session.state
        assert state is not None
        return state

    def json(self) -> dict[str, Any]:
        return state_to_json(self.state)

    def cash(self, name: str) -> int:
        return int(self.json()["players"][name]["cash"])

    def do(self, *inputs: dict[str, Any] | str) -> Frame:
        """Feed inputs: dicts as in a script, or short forms "tap:Ann", "ok", "cancel", "up", "down",
        "hold:cancel", "wait:31", "up*8" (eight quick presses). Returns the frame after the last one;
        invariants are checked after each."""
        frame: Frame | None = None
        for item in inputs:
            data = self._expand(item) if isinstance(item, str) else item
            self.line += 1
            frame = self.script.input(self.line, data)
            check_invariants(self.state)
        assert frame is not None
        return frame

    @staticmethod
    def _expand(item: str) -> dict[str, Any]:
        if item in ("ok", "cancel", "up", "down"):
            return {"press": item}
        if "*" in item:
            button, _, times = item.partition("*")
            return {"press": button, "repeat": int(times)}
        kind, _, value = item.partition(":")
        if kind == "wait":
            return {"wait": float(value)}
        return {kind: value}

    def screen(self) -> str:
        view = self.script.loop.view
        assert view is not None
        parts = [view.title, *view.lines, view.amount or "", view.footer]
        return "\n".join(p for p in parts if p)

    def flat(self) -> str:
        """The screen as one line of words (wrapped and scrolled texts read as sentences)."""
        return " ".join(self.screen().split())

    def read(self, seconds: int = 8) -> str:
        """The body's words as a player reads them while the screen pages for ``seconds`` (each row once,
        in the order shown), as one line."""
        rows: list[str] = []
        for _ in range(seconds):
            view = self.script.loop.view
            assert view is not None
            rows += [row for row in view.lines if row not in rows]
            self.do("wait:1")
        return " ".join(" ".join(rows).split())

    def choose(self, text: str) -> Frame:
        """Move the menu cursor to the line containing ``text`` and press OK."""
        view = self.script.loop.view
        assert view is not None and view.highlight is not None, self.screen()
        target = next((i for i, line in enumerate(view.lines) if text in line), None)
        assert target is not None, f"{text!r} is not on the screen:\n{self.screen()}"
        moves = target - view.highlight
        for _ in range(abs(moves)):
            self.do("down" if moves > 0 else "up")
        return self.do("ok")

    @property
    def beeps(self) -> list[str]:
        return list(self.script.controls.beeps)

    def actions(self) -> list[str]:
        """The journaled actions of the game after new_game, as JSON lines."""
        game_id = self.script.session.game_id
        assert game_id is not None
        return self.script.journal.action_lines(game_id)[1:]


@pytest.fixture
def play() -> Iterator[Play]:
    game = Play()
    yield game
    game.close()


@pytest.fixture
def make_play() -> Iterator[Any]:
    games: list[Play] = []

    def make(*players: str, **kwargs: Any) -> Play:
        game = Play(tuple(players) or ("Ann", "Bob"), **kwargs)
        games.append(game)
        return game

    yield make
    for game in games:
        game.close()
