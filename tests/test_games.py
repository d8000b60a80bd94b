"""Whole games as scripts, replayed through the ``banker replay`` command players use."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from banker.replay import replay_lines

GAMES = Path(__file__).with_name("games")
SCRIPTS = sorted(GAMES.glob("*.jsonl"))


def banker(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "banker", *args], input=stdin, capture_output=True, text=True,
                          check=False)


def assert_subset(expected: Any, actual: Any, path: str = "") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), path
        for key, value in expected.items():
            assert key in actual, f"{path}.{key} missing"
            assert_subset(value, actual[key], f"{path}.{key}")
    else:
        assert expected == actual, f"{path}: expected {expected!r}, got {actual!r}"


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.stem)
def test_game_script_ends_as_the_rules_say(script: Path) -> None:
    result = banker("replay", str(script), "--json")
    assert result.returncode == 0, result.stderr
    state = json.loads(result.stdout)
    assert_subset(json.loads(script.with_suffix(".expect.json").read_text(encoding="utf-8")), state)
    # and every intermediate state keeps the invariants
    replay_lines(script.read_text(encoding="utf-8").splitlines(), check=True)


def test_state_json_has_the_contract_fields() -> None:
    result = banker("replay", str(GAMES / "classic_two_players.jsonl"), "--json")
    state = json.loads(result.stdout)
    for key in ("edition", "players", "properties", "bank", "pot", "debts", "auction", "winner"):
        assert key in state
    assert list(state["players"]) == ["Ann", "Bob"]
    for fields in state["players"].values():
        assert {"cash", "jail_cards", "bankrupt", "net_worth"} <= set(fields)
    assert set(state["properties"]["baltic"]) >= {"owner", "houses", "hotel", "mortgaged"}
    assert len(state["properties"]) == 28
    assert set(state["bank"]) >= {"houses", "hotels"}


def test_an_illegal_line_exits_1_naming_the_line() -> None:
    script = "\n".join([
        '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}}',
        '{"action": "buy", "player": "Ann", "property": "baltic"}',
        '{"action": "build", "player": "Ann", "property": "baltic"}',
    ])
    result = banker("replay", "-", "--json", stdin=script)
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.strip() == (
        "line 3: Ann cannot build on Baltic Avenue: the whole group is needed and "
        "Mediterranean Avenue belongs to the bank.")


@pytest.mark.parametrize(("line", "message"), [
    ('{"action": "buy", "player": "Zed", "property": "baltic"}', "line 2: There is no player 'Zed'"),
    ('{"action": "buy", "player": "Ann", "property": "mayfair"}', "line 2: There is no property 'mayfair'"),
    ('{"action": "pay", "player": "Ann", "amount": -5, "to": "Bob"}', "line 2: The amount must be more than zero"),
    ('{"action": "pay", "player": "Ann", "amount": "5", "to": "Bob"}', "line 2: In pay, amount = \"5\" is not valid"),
    ('{"action": "buy", "player": "Ann"', "line 2: This line is not valid JSON"),
    ('["buy"]', "line 2: Each line must be a JSON object"),
    ('{"action": "fly", "player": "Ann"}', "line 2: Unknown action 'fly'"),
    ('{"action": "buy", "player": "Ann", "property": "baltic", "colour": "red"}', "line 2: buy has no field 'colour'"),
    ('{"action": "auction_close"}', "line 2: No auction is open."),
    ('{"action": "new_game", "edition": "us", "players": ["A", "B"]}', "line 2: A game is already running"),
])
def test_bad_input_is_a_clear_error_and_nothing_is_applied(line: str, message: str) -> None:
    script = '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}}\n' + line + "\n"
    result = banker("replay", "-", "--json", stdin=script)
    assert result.returncode == 1
    assert result.stderr.startswith(message), result.stderr


def test_a_script_must_start_with_new_game() -> None:
    result = banker("replay", "-", stdin='{"action": "salary", "player": "Ann"}\n')
    assert result.returncode == 1
    assert result.stderr.startswith("line 1: A script starts with a new game line.")


def test_bad_new_game_lines() -> None:
    for line, message in [
        ('{"action": "new_game", "edition": "xx", "players": ["A", "B"]}', "There is no edition 'xx'"),
        ('{"action": "new_game", "edition": "us", "players": ["A"]}', "A game has 2 to 8 players"),
        ('{"action": "new_game", "edition": "us", "players": ["A", "A"]}', "Every player needs a different name"),
        ('{"action": "new_game", "edition": "us", "players": ["A", "bank"]}', "'bank' is the name of an account"),
        ('{"action": "new_game", "edition": "us", "players": ["A", "B"], "rules": {"salary": "lots"}}',
         "House rule salary = 'lots' is not valid"),
        ('{"action": "new_game", "edition": "us", "players": ["A", "B"], "rules": {"free_money": true}}',
         "There is no house rule 'free_money'"),
    ]:
        result = banker("replay", "-", stdin=line + "\n")
        assert result.returncode == 1
        assert result.stderr.startswith("line 1: " + message), result.stderr


def test_errors_in_russian_and_bulgarian() -> None:
    script = '{"action": "new_game", "edition": "ru", "players": ["Иван", "Мария"]}\n' \
             '{"action": "rent", "player": "Иван", "property": "arbat"}\n'
    ru = banker("replay", "-", "--lang", "ru", stdin=script)
    bg = banker("replay", "-", "--lang", "bg", stdin=script)
    assert ru.returncode == bg.returncode == 1
    assert "Улица Арбат" in ru.stderr and ru.stderr.startswith("строка 2: ") and bg.stderr.startswith("ред 2: ")
    assert ru.stderr != bg.stderr
    assert any("\u0400" <= ch <= "\u04ff" for ch in bg.stderr)


def test_text_output_and_events() -> None:
    result = banker("replay", str(GAMES / "moscow_mortgaged_trade.jsonl"), "--events", "--lang", "ru")
    assert result.returncode == 0
    assert "1\u202f175 тыс. руб." in result.stdout
