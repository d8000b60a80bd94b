"""The table on a full card: a beep and the "Card full" notice (never "Done") for an action that was not saved,
the notice when the card becomes full, ``banker run`` starting on a full card and saying what to do, and
``banker check`` showing the free space."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from banker.actions import NewGame, Salary
from banker.journal import Journal
from banker.session import Session
from firmware.check import run_check
from firmware.run import announced_address
from firmware.script import TableScript, screen_text
from hardware.factory import TableConfig
from tests.card import Card, card_fixture
from webui.load import Phone

card = pytest.fixture(card_fixture)
NEW_GAME = json.dumps({"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}})


def cash(script: TableScript, player: str) -> int:
    state = script.session.state
    assert state is not None
    return state.players[state.seat(player)].cash


def test_an_action_on_a_full_card_beeps_and_shows_the_card_not_done(card: Card) -> None:
    script = TableScript(db=str(card.journal_path))
    card.adopt(script.journal)
    script.journal.reserve = 0  # past the reserve: SQLite's own failure for space
    try:
        script.run([NEW_GAME])
        card.fill()
        script.input(2, {"tap": "Ann"})
        script.input(3, {"tap": "go"})
        frame = script.input(4, {"press": "ok"})
        shown = screen_text(frame.view)
        assert frame.view is not None and frame.view.title == "Card full", shown
        assert "Nothing was saved" in " ".join(shown.split()) and "error" in frame.beeps
        assert "Done" not in shown and cash(script, "Ann") == 1500
        card.free()
        script.input(5, {"wait": 7})
        script.input(6, {"tap": "Ann"})
        script.input(7, {"tap": "go"})
        frame = script.input(8, {"press": "ok"})
        assert cash(script, "Ann") == 1700, screen_text(frame.view)
    finally:
        card.free()
        script.close()


def test_the_table_says_so_when_the_card_becomes_full(card: Card) -> None:
    script = TableScript(db=str(card.journal_path))
    card.adopt(script.journal)
    try:
        script.run([NEW_GAME])
        assert script.input(2, {"wait": 1}).beeps == []
        card.fill(leave=script.journal.reserve // 2)
        frame = script.input(3, {"wait": 1})
        assert frame.view is not None and frame.view.title == "Card full" and frame.beeps == ["error"]
        assert script.input(4, {"wait": 1}).beeps == []  # said once, not on every tick
    finally:
        card.free()
        script.close()


def test_banker_check_shows_the_cards_free_space(card: Card) -> None:
    lines: list[str] = []
    results = run_check(TableConfig(mode="emulated"), out=lines.append, wait=False, data_dir=card.path)
    assert results[0].part == "card" and results[0].ok and " MB free of " in results[0].detail
    if card.mounted:
        card.fill()
        full = run_check(TableConfig(mode="emulated"), out=lines.append, wait=False, data_dir=card.path)[0]
        assert not full.ok and "free some space" in full.fix
        card.free()


def start(data: Path) -> tuple[subprocess.Popen[str], int, str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "run", "--emulated", "--host", "127.0.0.1", "--port", "0",
         "--data-dir", str(data)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    port, code, text = announced_address(process.stdout, 60)
    assert port, text
    return process, port, code


def stop(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(5)


def test_banker_run_starts_on_a_full_card_and_says_what_to_do(card: Card) -> None:
    if not card.mounted:
        pytest.skip("needs a small file system of its own (mount -t tmpfs): mounting was refused")
    data = card.path / "data"
    with Journal(data / "banker.sqlite3") as journal:
        session = Session(journal)
        session.submit(NewGame("us", ("Ann", "Bob"), {}))
        session.submit(Salary("Ann"))
    process, port, code = start(data)
    ann = Phone(port)
    try:
        ann.request("GET", f"/j/{code}")
        ann.token = json.loads(ann.request("GET", "/api/me")[1])["csrf_token"]
        assert ann.request("POST", "/api/join", {"player": "Ann"})[0] == 200
    finally:
        stop(process)
    card.fill()
    process, port, code = start(data)
    try:
        assert process.stdout is not None
        said = ""
        deadline = time.monotonic() + 20
        while "The card is full" not in said and time.monotonic() < deadline:
            said += process.stdout.readline()
        assert "nothing new is saved" in said and "Free some space" in said, said
        ann.port = port
        status, body, _ = ann.request("GET", "/api/state")
        assert status == 200 and json.loads(body)["seq"] == 1
        status, body, _ = ann.request("POST", "/api/actions/salary", {"player": "Ann", "again": True}, key=True)
        assert status == 507 and json.loads(body)["error"] == "card_full"
        # A phone that comes only now joins, or where its guess of the code must be counted first is told why not.
        late = Phone(port)
        late.request("GET", f"/j/{code}")
        late.token = json.loads(late.request("GET", "/api/me")[1])["csrf_token"]
        status, body, _ = late.request("POST", "/api/join", {"player": None})
        assert status == 200 or (status == 507 and json.loads(body)["error"] == "card_full"), body
        card.free()
        status, body, _ = ann.request("POST", "/api/actions/salary", {"player": "Ann", "again": True}, key=True)
        assert status == 200, body
    finally:
        stop(process)
        card.free()
    assert process.returncode == 0
    with Journal(data / "banker.sqlite3") as journal:
        assert journal.load(journal.current_game() or 0).seq == 2
