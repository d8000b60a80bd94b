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
