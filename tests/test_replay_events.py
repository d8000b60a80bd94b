"""The contract of ``banker replay SCRIPT --events --json``: a JSON object per script line, then the state."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from banker.cli import main
from banker.spoken import has_latin

SCRIPT = [
    {"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"], "rules": {}},
    {"action": "buy", "player": "Ann", "property": "mediterranean"},
    {"action": "buy", "player": "Ann", "property": "baltic"},
    {"action": "build", "player": "Ann", "property": "baltic"},
    {"action": "undo"},
    {"action": "buy", "player": "Bob", "property": "oriental"},
    {"action": "buy", "player": "Bob", "property": "vermont"},
    {"action": "mortgage", "player": "Bob", "property": "oriental"},
    {"action": "pay", "player": "Bob", "amount": 5000, "to": "Ann"},
    {"action": "bankrupt", "player": "Bob"},
]


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str,
        script: list[dict[str, object]] = SCRIPT) -> list[dict[str, object]]:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in script) + "\n", encoding="utf-8")
    assert main(["replay", str(path), "--events", "--json", *args]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_one_object_per_line_then_the_final_state(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(tmp_path, capsys)
    assert len(out) == len(SCRIPT) + 1
    for number, (line, action) in enumerate(zip(out, SCRIPT, strict=False), start=1):
        assert list(line) == ["line", "action", "log", "say", "board"]
        assert line["line"] == number
        assert line["action"] == action
    assert out[-1]["players"]["Bob"]["bankrupt"] is True


def test_the_board_moves_of_buy_build_undo_mortgage_and_bankruptcy(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    out = run(tmp_path, capsys)
    board = [line["board"] for line in out[:-1]]
    assert board[1] == [{"move": "deed", "what": "mediterranean", "count": 1, "from": "bank", "to": "Ann"}]
    assert board[3] == [{"move": "house", "what": "baltic", "count": 1, "from": "bank", "to": "baltic"}]
    assert board[4] == [{"move": "house", "what": "baltic", "count": 1, "from": "baltic", "to": "bank"}]
    assert board[7] == [{"move": "turn_over", "what": "oriental", "count": 1, "from": "unmortgaged",
                         "to": "mortgaged"}]
    assert board[8] == []
    assert board[9] == [{"move": "deed", "what": "oriental", "count": 1, "from": "Bob", "to": "Ann"},
                        {"move": "deed", "what": "vermont", "count": 1, "from": "Bob", "to": "Ann"}]


@pytest.mark.parametrize("language", ["en", "ru", "bg"])
def test_every_line_has_a_sentence_in_the_language(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                   language: str) -> None:
    out = run(tmp_path, capsys, "--lang", language)
    for line in out[:-1]:
        assert isinstance(line["say"], str) and line["say"].strip()
        if language != "en":
            assert not has_latin(str(line["say"])), line["say"]
    if language == "en":
        assert out[3]["say"] == "Ann builds a house on Baltic Avenue for 50 dollars."
        assert out[4]["say"] == "Undone: Ann builds a house on Baltic Avenue for 50 dollars."
        assert out[7]["say"] == "Bob mortgages Oriental Avenue for 50 dollars."
    if language == "ru":
        assert out[3]["say"] == "Энн строит дом на участке «Балтик-авеню» за пятьдесят долларов."
    if language == "bg":
        assert out[7]["say"] == "Боб ипотекира Ориентал авеню и получава петдесет долара."


def test_the_moscow_edition_says_thousands_of_roubles(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = [{"action": "new_game", "edition": "ru", "players": ["Иван", "Мария"], "rules": {}},
              {"action": "buy", "player": "Иван", "property": "arbat"}]
    out = run(tmp_path, capsys, "--lang", "ru", script=script)
    assert out[0]["say"] == "Новая игра: Иван и Мария. Каждый получает один миллион пятьсот тысяч рублей."
    assert out[1]["say"] == "Иван покупает улицу Арбат за четыреста тысяч."


def test_events_as_text_show_the_board_moves_as_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in SCRIPT[:4]) + "\n", encoding="utf-8")
    assert main(["replay", str(path), "--events"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "   4  Ann builds a house on Baltic Avenue for $50." in lines
    assert "   4  On the board: put 1 house on Baltic Avenue." in lines


def test_a_refused_line_still_prints_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(SCRIPT[0]) + '\n{"action": "rent", "player": "Bob", "property": "baltic"}\n',
                    encoding="utf-8")
    assert main(["replay", str(path), "--events", "--json"]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("line 2: ")
