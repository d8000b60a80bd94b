"""The table's commands: ``banker table``, ``banker run`` (started and stopped as a service would be),
``banker bench --table`` and the settings file."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from banker.actions import parse_action
from firmware.bench import bench_tap_to_frame
from firmware.cli import main
from firmware.config import ConfigError, load_config

SCRIPT = "\n".join(json.dumps(line) for line in (
    {"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}},
    {"tap": "Ann"}, {"tap": "baltic"}, {"press": "ok"}, {"wait": 4},
    {"tap": "Bob"}, {"tap": "baltic"}, {"press": "ok"},
)) + "\n"


def test_banker_table_prints_each_screen_and_the_final_state(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "rent.jsonl"
    script.write_text(SCRIPT, encoding="utf-8")
    assert main(["table", str(script), "--json"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert '> {"tap": "baltic"}' in out
    assert "  │ Bob → Ann · no houses" in out
    state = json.loads(out[-1])
    assert state["players"]["Bob"]["cash"] == 1496
    assert state["properties"]["baltic"]["owner"] == "Ann"


def test_banker_table_names_a_bad_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "bad.jsonl"
    script.write_text(SCRIPT + '{"tap": "Zed"}\n', encoding="utf-8")
    assert main(["table", str(script)]) == 1
    assert capsys.readouterr().err.startswith("line 9: 'Zed' is not a player")


def test_a_refused_input_is_not_a_script_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "refused.jsonl"
    script.write_text(SCRIPT + '{"hold": "cancel"}\n{"press": "cancel"}\n{"tap": "Ann"}\n{"tap": "Ann"}\n',
                      encoding="utf-8")
    assert main(["table", str(script), "--quiet"]) == 0


def test_the_settings_file(tmp_path: Path) -> None:
    good = tmp_path / "good.toml"
    good.write_text('[table]\nlanguage = "ru"\nport = 9000\ndata_dir = "~/x"\n'
                    '[hardware]\ndisplay = {chip = "ssd1306", address = 61}\n', encoding="utf-8")
    config = load_config(good)
    assert (config.language, config.port) == ("ru", 9000)
    assert config.table_config("pi").display.chip == "ssd1306"
    assert load_config(None).port == 8080
    for text, problem in (('[table]\nlanguage = "fr"\n', "language is one of"),
                          ("[table]\nport = 70000\n", "port must be"),
                          ("[tabel]\n", "unknown section"),
                          ("[table]\ncolour = 1\n", "has no field"),
                          ('[hardware]\ndisplay = {chip = "lcd"}\n', "[hardware]"),
                          ("[hardware]\ndisplay = {bus_hz = 3400000}\n", "display bus_hz is the Pi's I²C clock"),
                          ("port = \n", "not valid TOML")):
        bad = tmp_path / "bad.toml"
        bad.write_text(text, encoding="utf-8")
        with pytest.raises(ConfigError, match=problem.replace("[", r"\[")):
            load_config(bad)


def test_banker_run_serves_resumes_and_stops_on_sigterm(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "firmware.cli", "run", "--simulated", "--port", "0", "--host", "127.0.0.1",
               "--data-dir", str(tmp_path)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Simulated table: open http://127.0.0.1:"), line
        base = line.split("open ")[1].strip().removesuffix("/table")
        deadline = time.monotonic() + 10
        while True:
            try:
                with urllib.request.urlopen(base + "/table/frame.png") as answer:
                    assert answer.headers["Content-Type"] == "image/png"
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert (tmp_path / "banker.sqlite3").exists()


def test_bench_counts_every_frame() -> None:
    if __import__("importlib.util").util.find_spec("mfrc522") is None:
        pytest.skip("the stock driver is needed: pip install --no-deps mfrc522==0.0.7")
    figures = bench_tap_to_frame(taps=24)
    assert figures["table_frames"] == 24
    assert 0 < figures["table_tap_to_frame_median_ms"] <= figures["table_tap_to_frame_worst_ms"]


def test_tap_to_glass_on_the_pi_model_adds_up_and_takes_longer_than_on_this_machine() -> None:
    from firmware.bench import bench_tap_to_glass
    from hardware.pimodel import LAPTOP, ZERO_2_W

    if __import__("importlib.util").util.find_spec("mfrc522") is None:
        pytest.skip("the stock driver is needed: pip install --no-deps mfrc522==0.0.7")
    pi = bench_tap_to_glass(ZERO_2_W, step_s=0.005)
    here = bench_tap_to_glass(LAPTOP, step_s=0.005, name="here")
    fast = bench_tap_to_glass(ZERO_2_W, bus_hz=1_000_000, step_s=0.005)
    for key, figures in (("glass_pi_400khz", pi), ("glass_here", here), ("glass_pi_1000khz", fast)):
        assert figures[f"{key}_taps"] >= 4  # every reader
        assert figures[f"{key}_first_line_median_ms"] <= figures[f"{key}_median_ms"] <= figures[f"{key}_worst_ms"]
        assert figures[f"{key}_first_line_worst_ms"] <= figures[f"{key}_worst_ms"]
        parts = (figures[f"{key}_tap_worst_ms"], figures[f"{key}_frame_worst_ms"], figures[f"{key}_scan_ms"])
        assert max(parts) <= figures[f"{key}_worst_ms"] <= sum(parts) + 0.2
    # The model's emulated time only: the panel's scan, and the wire at 1 MHz against 400 kHz.
    assert pi["glass_pi_400khz_scan_ms"] == pytest.approx(11.4, abs=0.05) and here["glass_here_scan_ms"] == 0
    assert fast["glass_pi_1000khz_frame_median_ms"] < pi["glass_pi_400khz_frame_median_ms"]


def test_banker_run_says_so_when_its_port_is_taken(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([sys.executable, "-m", "firmware.cli", "run", "--simulated", "--port", str(port),
                               "--host", "127.0.0.1", "--data-dir", str(tmp_path)],
                              capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert "another program (or another table) uses that port" in done.stderr
    assert "Traceback" not in done.stderr


def unusable_data(tmp_path: Path) -> list[tuple[list[str], str]]:
    """(arguments, what is wrong) for every kind of data directory, file or port banker run cannot use."""
    (tmp_path / "a-file").write_text("x")
    not_a_db = tmp_path / "not-a-db"
    not_a_db.mkdir()
    (not_a_db / "banker.sqlite3").write_bytes(b"this is not a database" * 100)
    db_dir = tmp_path / "db-dir"
    (db_dir / "banker.sqlite3").mkdir(parents=True)
    key_dir = tmp_path / "key-dir"
    (key_dir / "webui-secret.key").mkdir(parents=True)
    return [
        (["--port", "-5", "--data-dir", str(tmp_path / "d1")], "--port must be"),
        (["--port", "70000", "--data-dir", str(tmp_path / "d2")], "--port must be"),
        (["--port", "0", "--data-dir", str(tmp_path / "a-file" / "data")], "cannot use the data directory"),
        (["--port", "0", "--data-dir", "/proc/table-banker"], "data directory"),
        (["--port", "0", "--data-dir", str(not_a_db)], "is not a journal"),
        (["--port", "0", "--data-dir", str(db_dir)], "is a directory"),
        (["--port", "0", "--data-dir", str(key_dir)], "webui-secret.key"),
        (["--port", "0", "--host", "not an address", "--data-dir", str(tmp_path / "d3")], "cannot serve"),
    ]


def test_banker_run_says_in_one_line_why_it_cannot_start(tmp_path: Path) -> None:
    for args, problem in unusable_data(tmp_path):
        done = subprocess.run([sys.executable, "-m", "firmware.cli", "run", "--simulated", "--host", "127.0.0.1",
                               *args], capture_output=True, text=True, timeout=60, check=False)
        lines = done.stderr.strip().splitlines()
        assert done.returncode == 2, (args, done.stderr[-500:])
        assert len(lines) == 1 and problem in lines[0] and lines[0].startswith("banker run: "), (args, lines)
        assert "Traceback" not in done.stderr


def test_banker_run_resumes_a_game_with_a_damaged_row(tmp_path: Path) -> None:
    import sqlite3

    from banker.journal import Journal
    from banker.session import Session

    path = tmp_path / "banker.sqlite3"
    with Journal(path) as journal:
        session = Session(journal)
        session.submit(parse_action({"action": "new_game", "edition": "us", "players": ["Ann", "Bob"]}))
        for amount in (1, 2, 3, 4):
            session.submit(parse_action({"action": "pay", "player": "Ann", "amount": amount, "to": "Bob"}))
    with sqlite3.connect(path) as db:
        db.execute("UPDATE actions SET action = CAST(X'7B22616374696F6E223A2070FF' AS BLOB) WHERE seq = 3")
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    process = subprocess.Popen([sys.executable, "-m", "firmware.cli", "run", "--simulated", "--port", "0",
                                "--host", "127.0.0.1", "--data-dir", str(tmp_path)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        base = line.split("open ")[1].strip().removesuffix("/table")
        with urllib.request.urlopen(base + "/table") as answer:
            cookie = answer.headers["Set-Cookie"].split(";")[0]
        request = urllib.request.Request(base + "/", headers={"Cookie": cookie})
        with urllib.request.urlopen(request) as answer:
            page = answer.read().decode()
        assert "action 3 could not be restored, so 2 actions are lost" in page
        request = urllib.request.Request(base + "/api/state", headers={"Cookie": cookie})
        with urllib.request.urlopen(request) as answer:
            state = json.load(answer)
        assert state["players"]["Bob"]["cash"] == 1503  # the payments before the damaged one
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(15)


def test_the_tables_screen_follows_a_new_join_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from banker.actions import NewGame
    from banker.journal import Journal
    from banker.session import Session
    from firmware.loop import TableLoop
    from firmware.run import AddressWatch, follow_join_code
    from hardware.factory import TableConfig, open_table
    from webui import create_app
    from webui.join import join_code

    journal = Journal(tmp_path / "j.sqlite3")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="simulated"))
    loop = TableLoop(session, table)
    try:
        app = create_app(session, loop, {"TESTING": True, "DATA_DIR": str(tmp_path)})
        app.config["BASE_URL"] = "http://127.0.0.1:8080"
        first = join_code(journal)
        watch = AddressWatch(loop, app, 8080, first, host=lambda: "127.0.0.1", wifi=lambda: "")
        follow_join_code(loop, app, watch)
        session.submit(NewGame("us", ("Cy", "Dee"), {}))  # a later game: a new code
        second = join_code(journal)
        assert second != first
        deadline = time.monotonic() + 5
        while loop.join_url != f"http://127.0.0.1:8080/j/{second}" and time.monotonic() < deadline:
            time.sleep(0.02)
        loop.pump()
        assert loop.context().join_code == second and loop.context().join_url.endswith(f"/j/{second}")
        assert watch.code == second  # the address watch keeps the new code too
        assert f"Phones: http://127.0.0.1:8080/j/{second} (code {second})" in capsys.readouterr().out
    finally:
        loop.stop()
        table.close()
        journal.close()
