"""``banker table SCRIPT.jsonl``: table inputs replayed through the real grammar and loop.

Line 1 is a ``new_game`` action, as in ``banker replay``. Every other line is one input:

- ``{"tap": "Ann"}`` a bank card by player name; ``{"tap": "baltic"}`` a deed by id;
  ``{"tap": "go"}`` a special tag (``go``, ``chance``, ``community_chest``, ``income_tax``,
  ``luxury_tax``, ``jail``, ``free_parking``); ``{"tap": "card:chance:advance_go"}`` a printed card;
  ``{"tap": "uid:04A1B2C3"}`` a raw UID;
- ``{"press": "ok"}`` (``cancel``, ``up``, ``down``) and ``{"hold": "cancel"}`` (a long press);
- ``{"press": "up", "repeat": 8}``: quick presses a tenth of a second apart (an amount speeds up);
- ``{"wait": 31}``: seconds of the table's clock (each line also takes one second).

Each line's screen is printed as text, then the final state (``--json``: the JSON of
``banker replay --json``). An input the table refuses is not an error of the script: its screen
shows why, with a beep, as at the table.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from banker.actions import NewGame, parse_action
from banker.errors import BankerError
from banker.journal import Journal
from banker.session import Session
from firmware import grammar as g
from firmware.loop import TICK_S, TableLoop
from firmware.tags import SPECIAL_SQUARES, TagError, parse_meaning, simulated_uid
from hardware.controls import SimulatedControls
from hardware.display import ScreenView
from hardware.factory import TableConfig, open_table

LINE_S = 1.0
"""The table's clock moves this much for every line of a script."""
START = 1000.0


class TableScriptError(Exception):
    """A script line that is not a table input; ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        self.line = line
        super().__init__(f"line {line}: {message}")


@dataclass
class FakeClock:
    now: float = START

    def __call__(self) -> float:
        return self.now


@dataclass
class Frame:
    """What one script line did: the input, the screen after it and the beeps it caused."""

    line: int
    text: str
    view: ScreenView | None
    beeps: list[str] = field(default_factory=list)


def screen_text(view: ScreenView | None) -> str:
    """A screen as text: the title, the lines (the menu cursor as ``>``), the amount, the footer."""
    if view is None:
        return "  (blank)"
    rows: list[str] = []
    if view.title:
        rows.append(f"  ┌ {view.title}")
    for index, line in enumerate(view.lines):
        mark = ">" if index == view.highlight else " "
        rows.append(f"  │{mark}{line}")
    if view.amount:
        rows.append(f"  │ [{view.amount}]")
    if view.qr:
        rows.append(f"  │ (QR: {view.qr})")
    if view.footer:
        rows.append(f"  └ {view.footer}")
    return "\n".join(rows)


class TableScript:
    """Runs table inputs against a simulated table with an in-memory journal and a fake clock."""

    def __init__(self, language: str = "en", db: str = ":memory:") -> None:
        self.clock = FakeClock()
        self.journal = Journal(db)
        self.session = Session(self.journal, clock=lambda: 0.0)
        self.table = open_table(TableConfig(mode="simulated", readers=TableConfig().readers[:1]))
        self.loop = TableLoop(self.session, self.table, language=language, clock=self.clock)
        self.frames: list[Frame] = []

    def close(self) -> None:
        self.loop.stop()
        self.table.close()
        self.journal.close()

    def __enter__(self) -> TableScript:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def controls(self) -> SimulatedControls:
        controls = self.table.controls
        assert isinstance(controls, SimulatedControls)
        return controls

    def run(self, lines: Iterable[str]) -> list[Frame]:
        started = False
        for number, raw in enumerate(lines, start=1):
            text = raw.strip()
            if not text or text.startswith("#"):
                continue
            try:
                data = json.loads(text)
            except json.JSONDecodeError as error:
                raise TableScriptError(number, f"not valid JSON ({error.msg} at column {error.colno})") from error
            if not isinstance(data, dict):
                raise TableScriptError(number, "each line is a JSON object")
            if not started:
                self._start(number, data)
                started = True
                continue
            self.input(number, data, text)
        if not started:
            raise TableScriptError(1, "a table script starts with a new_game line")
        return self.frames

    def _start(self, number: int, data: dict[str, Any]) -> None:
        try:
            action = parse_action(data)
            if not isinstance(action, NewGame):
                raise TableScriptError(number, "a table script starts with a new_game line")
            self.session.submit(action)
        except BankerError as error:
            raise TableScriptError(number, str(error)) from error
        self.loop.render()
        self.frames.append(Frame(number, json.dumps(data, ensure_ascii=False), self.loop.view))

    def input(self, number: int, data: dict[str, Any], text: str = "") -> Frame:
        """Apply one input line and record the screen it leaves."""
        beeps_before = len(self.controls.beeps)
        repeat = data.get("repeat", 1)
        if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= 100 or (
                "repeat" in data and "press" not in data):
            raise TableScriptError(number, "repeat is a number of presses (1-100), with press")
        keys = set(data) - {"comment", "repeat"}
        if len(keys) != 1:
            raise TableScriptError(number, 'one input a line: "tap", "press", "hold", "wait" or "phone"')
        kind = keys.pop()
        value = data[kind]
        self.clock.now += LINE_S
        if kind == "tap":
            if not isinstance(value, str):
                raise TableScriptError(number, "tap names a player, a deed id, a special tag or uid:HEX")
            self._tap(number, value)
        elif kind in ("press", "hold"):
            if value not in ("ok", "cancel", "up", "down"):
                raise TableScriptError(number, f"{kind} is ok, cancel, up or down, not {value!r}")
            for index in range(repeat):
                if index:
                    self.clock.now += 0.1
                self.controls.press(value, long=kind == "hold")
                self.loop.pump()
        elif kind == "wait":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 86400:
                raise TableScriptError(number, "wait is a number of seconds (0-86400)")
            self._wait(float(value))
        elif kind == "phone":
            # An action sent from a phone meanwhile (a trade proposed on Ann's phone), as the web page sends it.
            if not isinstance(value, dict):
                raise TableScriptError(number, "phone is an action's JSON object")
            try:
                self.session.submit(parse_action(value))
            except BankerError as error:
                raise TableScriptError(number, str(error)) from error
        else:
            raise TableScriptError(number, f'unknown input {kind!r}: use "tap", "press", "hold", "wait" or "phone"')
        self.loop.pump()
        frame = Frame(number, text or json.dumps(data, ensure_ascii=False), self.loop.view,
                      list(self.controls.beeps[beeps_before:]))
        self.frames.append(frame)
        return frame

    def _wait(self, seconds: float) -> None:
        end = self.clock.now + seconds
        while self.clock.now < end:
            self.clock.now = min(end, self.clock.now + TICK_S)
            self.loop.handle(g.Tick())

    def _tap(self, number: int, value: str) -> None:
        uid = self.uid_for(number, value)
        self.loop.tap_uid(uid)
        hub = self.table.hub
        for _ in range(1 + hub.misses_to_remove):
            for tap in hub.poll_once():
                hub.get(0)
                self.loop.handle(tap)

    def uid_for(self, number: int, value: str) -> str:
        """The UID of the card a script names."""
        if value.startswith("uid:"):
            return value[4:]
        game = self.session.state
        meaning: str | None = None
        if game is not None and value in game.seats:
            meaning = f"player:{game.seats[value] + 1}"
        elif game is not None and value in game.edition.by_id:
            meaning = f"deed:{game.edition.by_id[value].square}"
        elif value in SPECIAL_SQUARES:
            meaning = f"square:{value}"
        elif value.startswith("card:"):
            try:
                parse_meaning(value)
            except TagError as error:
                raise TableScriptError(number, str(error)) from error
            uid = self.loop.tags.uid_of(value)
            if uid is None:
                # Printed cards get a sticker only when enrolled: give this one a fixed UID.
                crc = zlib.crc32(value.encode())
                uid = f"C0:{crc >> 16 & 0xFF:02X}:{crc >> 8 & 0xFF:02X}:{crc & 0xFF:02X}"
                self.loop.tags.add(uid, value)
            return uid
        if meaning is None:
            raise TableScriptError(number, f"{value!r} is not a player, a deed id, a special tag or uid:HEX")
        uid = self.loop.tags.uid_of(meaning)
        return uid if uid is not None else simulated_uid(meaning)
