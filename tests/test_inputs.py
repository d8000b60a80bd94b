"""Whatever arrives — bytes, JSON, names, amounts, command lines — ends in one clean line, never a traceback."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.actions import ACTION_TYPES, NewGame, parse_action
from banker.cli import main
from banker.engine import apply
from banker.errors import BadInput, BankerError
from banker.export import state_to_json

NEW_GAME = '{"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}}'

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8)
    | st.sampled_from(["Ann", "Bob", "bank", "baltic", *ACTION_TYPES]),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["action", "player", "amount", "property", "to", "players", "rules", "x"])
        | st.text(max_size=4),
        children, max_size=4),
    max_leaves=8,
)


def run_replay(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: bytes | None = None,
               monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def assert_clean(code: int, out: str, err: str) -> None:
    assert code in (0, 1, 2)
    assert "Traceback" not in err
    if code:
        assert out == ""
        assert err.endswith("\n") and err.count("\n") == 1, err
        if code == 1:
            assert err.startswith("line ")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200))
def test_replay_of_any_bytes_from_a_file(data: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "s.jsonl"
    script.write_bytes(data)
    assert_clean(*run_replay(["replay", str(script)], capsys))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200))
def test_replay_of_any_bytes_from_stdin(data: bytes, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    assert_clean(*run_replay(["replay", "-"], capsys, stdin=data, monkeypatch=monkeypatch))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(values=st.lists(JSON, min_size=1, max_size=3), after_new_game=st.booleans())
def test_replay_of_any_json_lines(values: list[Any], after_new_game: bool, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    lines = [NEW_GAME] if after_new_game else []
    lines += [json.dumps(v) for v in values]
    data = ("\n".join(lines) + "\n").encode("utf-8")
    code, out, err = run_replay(["replay", "-", "--json"], capsys, stdin=data, monkeypatch=monkeypatch)
    assert_clean(code, out, err)
    if code == 0:
        json.loads(out)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_parse_action_of_any_json_value(value: Any) -> None:
    state, _ = apply(None, NewGame("us", ("Ann", "Bob")))
    for data in (value, json.dumps(value)):
        try:
            action = parse_action(data)
        except BankerError as error:
            assert str(error) and error.translated("ru") and error.translated("bg")
            continue
        before = json.dumps(state_to_json(state), sort_keys=True)
        try:
            apply(state, action)
        except BankerError:
            assert json.dumps(state_to_json(state), sort_keys=True) == before


@pytest.mark.parametrize(("line", "key"), [
    ('{"action": "salary", "player": "Ann", "player": "Bob"}', "duplicate_key"),
    ('{"action": "collect", "player": "Ann", "amount": ' + "9" * 5000 + "}", "number_too_long"),
    ("[" * 100_000, "too_deep"),
    ('{"action": "end_turn", "x": ' + "[" * 40 + "]" * 40 + "}", "too_deep"),
    ('{"action": "collect", "player": "Ann", "amount": 1000000000000000000000000000000}', "amount_too_large"),
    ('{"action": "new_game", "edition": "us", "players": ["Ann", "\\ud800"]}', "bad_text"),
    ('{"action": "end_turn", "player": "Ann"}', "unknown_field_none"),
    ("null", "not_an_object"),
])
def test_bad_lines_are_named_errors(line: str, key: str) -> None:
    with pytest.raises(BadInput) as info:
        parse_action(line)
    assert info.value.key == key
    assert "NoneType" not in str(info.value) and "its fields: ." not in str(info.value)


def test_amount_ceiling_and_rules_ceiling() -> None:
    state, _ = apply(None, NewGame("us", ("Ann", "Bob")))
    apply(state, parse_action({"action": "collect", "player": "Ann", "amount": 10**9}))
    with pytest.raises(BadInput):
        parse_action({"action": "collect", "player": "Ann", "amount": 10**9 + 1})
    with pytest.raises(BadInput):
        apply(None, NewGame("us", ("Ann", "Bob"), {"starting_cash": 10**30}))


@pytest.mark.parametrize(("players", "key"), [
    (["Zo\u00eb", "Zoe\u0308"], "duplicate_player"),
    (["Ann", "ANN"], "duplicate_player"),
    (["Ann", "\u200b"], "player_name_invisible"),
    (["Ann", "Bo\nb"], "text_control"),
    (["Ann", "B" * 10_000], "text_too_long"),
    (["Ann", "B" * 21], "player_name_too_long"),
    (["Ann", "\u0410nn"], "player_lookalike"),
    (["Cy", "\u0421\u0443"], "player_lookalike"),
    (["Ann", "Ann\u200b"], "player_name_format"),
    (["\u202eAnn", "Bob"], "text_control"),
    (["Ann", "Bob\u2066"], "text_control"),
    (["Ann", ""], "player_name_empty"),
    (["Ann", " Bob"], "bad_player_name"),
    (["Ann", "Bank"], "reserved_player_name"),
])
def test_bad_player_names(players: list[str], key: str) -> None:
    with pytest.raises(BadInput) as info:
        apply(None, parse_action({"action": "new_game", "edition": "us", "players": players}))
    assert info.value.key == key


@pytest.mark.parametrize(("players", "key"), [
    (("Ann", "Bo\nb"), "player_name_control"),
    (("\u202eAnn", "Bob"), "player_name_format"),
    (("Ann", "A\u200dnn"), "player_name_format"),
    (("Ann", "\u0410nn"), "player_lookalike"),
])
def test_the_engine_checks_names_given_without_the_parser(players: tuple[str, ...], key: str) -> None:
    with pytest.raises(BadInput) as info:
        apply(None, NewGame("us", players))
    assert info.value.key == key


def test_names_that_only_share_letters_are_different_players() -> None:
    state, _ = apply(None, NewGame("us", ("Ann", "Anna", "Аня", "Cy", "Dee")))
    assert [p.name for p in state.players] == ["Ann", "Anna", "Аня", "Cy", "Dee"]


@pytest.mark.parametrize(("line", "key"), [
    ('{"action": "pay", "player": "Ann", "amount": 1, "to": "Bob", "amount": 999999999}', "duplicate_key"),
    ('{"action": "pay", "player": "Ann", "amount": 1, "to": "Bob", "reason": "%s"}' % ("x" * 15_000),
     "text_too_long"),
    ('{"action": "pay", "player": "Ann", "amount": 1, "to": "Bob", "reason": "rent\\u202e"}', "text_control"),
    ('{"action": "salary", "player": "Ann", "x": %s}' % ("[" * 5000 + "]" * 5000), "too_deep"),
    ('{"action": "salary", "player": "Ann"', "bad_json"),
])
def test_lines_the_journal_and_the_api_refuse(line: str, key: str) -> None:
    with pytest.raises(BadInput) as info:
        parse_action(line)
    assert info.value.key == key
    with pytest.raises(BadInput) as again:
        parse_action(line.encode())
    assert again.value.key == key


def test_names_are_normalised_so_either_spelling_finds_the_player() -> None:
    state, _ = apply(None, parse_action({"action": "new_game", "edition": "us", "players": ["Zoe\u0308", "Bob"]}))
    assert state.players[0].name == "Zo\u00eb"
    state, _ = apply(state, parse_action({"action": "salary", "player": "Zoe\u0308"}))
    state, _ = apply(state, parse_action({"action": "salary", "player": "Zo\u00eb"}))
    assert state.players[0].cash == 1900


def test_a_lone_surrogate_never_reaches_the_json(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    data = b'{"action": "new_game", "edition": "us", "players": ["Ann", "\\ud800x"]}\n'
    code, out, err = run_replay(["replay", "-", "--json"], capsys, stdin=data, monkeypatch=monkeypatch)
    assert code == 1 and err.startswith("line 1: ") and "Unicode" in err


def test_line_prefix_is_translated(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    code, _, err = run_replay(["replay", "-", "--lang", "ru"], capsys, stdin=b"{}\n", monkeypatch=monkeypatch)
    assert code == 1 and err.startswith("строка 1: ")


def test_a_latin1_file_and_a_latin1_name(tmp_path: Path) -> None:
    latin = tmp_path / "caf\u00e9.jsonl"
    latin.write_bytes(NEW_GAME.replace("Bob", "Jos\u00e9").encode("latin-1") + b"\n")
    result = subprocess.run([sys.executable, "-m", "banker", "replay", str(latin)], capture_output=True, text=True,
                            check=False)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "not UTF-8" in result.stderr
    missing = str(tmp_path).encode() + b"/caf\xe9-missing.jsonl"
    result2 = subprocess.run([sys.executable.encode(), b"-m", b"banker", b"replay", missing], capture_output=True,
                             check=False)
    assert result2.returncode == 2 and b"Traceback" not in result2.stderr and result2.stderr.count(b"\n") == 1


@pytest.mark.parametrize("argv", [
    ["sim", "--games", "0", "--quiet"],
    ["sim", "--games", "-1", "--quiet"],
    ["sim", "--rules", "[1]", "--quiet"],
    ["sim", "--rules", "{", "--quiet"],
    ["sim", "--max-turns", "0", "--quiet"],
    ["bench", "--commits", "0"],
    ["bench", "--resume-actions", "0"],
    ["games", "--db", "README.md"],
    ["export", "1", "--db", "README.md"],
    ["advise", "--csv", "--table", "all"],
])
def test_bad_command_lines_exit_2_with_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err


def test_read_only_commands_never_create_a_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = tmp_path / "none.sqlite3"
    assert main(["games", "--db", str(db)]) == 2
    assert main(["export", "1", "--db", str(db)]) == 2
    assert not db.exists()
    assert "no journal at" in capsys.readouterr().err


def test_a_closed_pipe_ends_quietly() -> None:
    for args in (["demo"], ["replay", "tests/games/short_game.jsonl", "--events"]):
        proc = subprocess.Popen([sys.executable, "-m", "banker", *args], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()
        err = proc.stderr.read()
        proc.wait()
        assert b"Traceback" not in err and b"BrokenPipe" not in err, err


def test_every_option_has_help_and_every_command_an_example() -> None:
    from banker.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    for name, command in sub.choices.items():  # type: ignore[attr-defined]
        assert command.epilog and "examples:" in command.epilog, name
        for action in command._actions:
            assert action.help, f"{name} {action.option_strings or action.dest}"


@pytest.mark.pure_python
def test_a_self_play_failure_prints_the_seed_and_writes_the_script(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from banker.sim import game

    def broken(self: game.Game, seat: int) -> None:
        raise RuntimeError("a bot went wrong")

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(game.Game, "manage", broken)
    assert main(["sim", "--games", "2", "--seed", "3", "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "seed 3000009" in err and "a bot went wrong" in err
    script = tmp_path / "sim-failure-seed3000009.jsonl"
    assert script.read_text(encoding="utf-8").startswith('{"action": "new_game"')


def test_the_issue_self_play_run_finishes() -> None:
    from banker.sim.cli import simulate

    summary = simulate(50, 4, 3, rules={"decliner_may_bid": False, "salary": 0})
    assert summary["games"] == 50
    assert abs(sum(summary["win_share_by_strategy"].values()) - 1) < 0.01


def test_unknown_ids_suggest_the_closest_and_accounts_are_named() -> None:
    state, _ = apply(None, NewGame("us", ("Ann", "Bob")))
    cases = [({"action": "buy", "player": "Ann", "property": "Boardwalk"}, "unknown_property_suggest", "'boardwalk'"),
             ({"action": "buy", "player": "Ann", "property": "Park Place"}, "unknown_property_suggest", "'park_place'"),
             ({"action": "pay", "player": "Ann", "amount": 5, "to": "Bank"}, "unknown_payee", '"pot"'),
             ({"action": "salary", "player": "ann"}, "unknown_player_suggest", "'Ann'")]
    for data, key, hint in cases:
        with pytest.raises(BankerError) as info:
            apply(state, parse_action(data))
        assert info.value.key == key and hint in str(info.value)


def test_messages_name_the_right_things() -> None:
    state, _ = apply(None, NewGame("us", ("Ann", "Bob")))
    for line in ('{"action": "buy", "player": "Ann", "property": "oriental"}',
                 '{"action": "buy", "player": "Ann", "property": "vermont"}',
                 '{"action": "buy", "player": "Ann", "property": "connecticut"}',
                 '{"action": "build", "player": "Ann", "property": "oriental"}'):
        state, _ = apply(state, parse_action(line))
    with pytest.raises(BankerError) as info:
        apply(state, parse_action('{"action": "mortgage", "player": "Ann", "property": "oriental"}'))
    assert "(Oriental Avenue)" not in str(info.value) and info.value.key == "mortgage_own_buildings"
    with pytest.raises(BankerError) as info:
        apply(state, parse_action('{"action": "salary", "player": "Ann", "landed": 3}'))
    assert "true или false" in info.value.translated("ru") and "whole" not in info.value.translated("ru")
    with pytest.raises(BankerError) as info:
        parse_action("[1]")
    assert "список" in info.value.translated("ru")


def test_bankruptcy_to_the_bank_alone_says_the_bank() -> None:
    from banker.text import describe_event

    state, _ = apply(None, NewGame("us", ("Ann", "Bob", "Cy")))
    state, _ = apply(state, parse_action('{"action": "pay", "player": "Ann", "amount": 1600, "to": "bank"}'))
    state, events = apply(state, parse_action('{"action": "bankrupt", "player": "Ann"}'))
    lines = [describe_event(state.edition, e, "en") for e in events]
    assert "Ann's cash of $1,500 goes to the bank." in lines
