"""``make run`` brings real phones: the simulated table listens on every address, prints the phones'
address (this computer's network address) with its QR code in the terminal, and its own buttons still
act only for this computer."""

from __future__ import annotations

import http.client
import json
import os
import pty
import re
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from firmware.run import local_address, terminal_qr

ROOT = Path(__file__).resolve().parents[2]


def read_until(fd: int, pattern: str, timeout: float) -> str:
    """What the program wrote to its terminal until ``pattern`` matches (or the time is up)."""
    text = ""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not re.search(pattern, text, re.S):
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            text += chunk.decode("utf-8", "replace")
    return text


def request_from(source: str, port: int, host: str, method: str, path: str, body: str = "",
                 headers: dict[str, str] | None = None) -> http.client.HTTPResponse:
    """A request from the address ``source`` (127.0.0.2: another device) naming the table as ``host``."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
    connection.request(method, path, body=body or None, headers={"Host": host, **(headers or {})})
    answer = connection.getresponse()
    answer.read()
    connection.close()
    return answer


def press_from(source: str, port: int, host: str) -> int:
    """A phone at ``source`` presses the simulated table's OK, with its cookie and CSRF token."""
    me = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
    me.request("GET", "/api/me", headers={"Host": host})
    answer = me.getresponse()
    token = json.loads(answer.read())["csrf_token"]
    cookie = answer.getheader("Set-Cookie", "").split(";", 1)[0]
    me.close()
    return request_from(source, port, host, "POST", "/table/press", "button=ok", {
        "Cookie": cookie, "X-CSRFToken": token, "Content-Type": "application/x-www-form-urlencoded"}).status


def test_the_qr_code_is_drawn_with_the_terminals_blocks() -> None:
    drawn = terminal_qr("http://192.0.2.2:8080/j/K7QP")
    lines = drawn.splitlines()
    assert len(lines) >= 12 and len({len(line) for line in lines}) == 1  # a square of half-height rows
    assert any(block in drawn for block in "▀▄█")
    assert drawn != terminal_qr("http://192.0.2.2:8080/j/K7QQ")


def test_make_runs_command_serves_the_wifi_and_keeps_the_tables_buttons_here(tmp_path: Path) -> None:
    wifi = local_address()
    if wifi == "127.0.0.1":
        pytest.skip("this computer has no network address")
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    run_line = next(line for line in makefile.splitlines() if "banker run --simulated" in line)
    assert "127.0.0.1" not in run_line  # make run listens on the Wi-Fi too
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [sys.executable, "-m", "firmware.cli", "run", "--simulated", "--host", "0.0.0.0", "--port",
               str(port), "--data-dir", str(tmp_path)]
    leader, follower = pty.openpty()
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=follower, stderr=follower, cwd=ROOT,
                               env={**os.environ, "PYTHONUNBUFFERED": "1"})
    os.close(follower)
    try:
        text = read_until(leader, r"Phones: .*\n.*[▀▄█].*INFO banker\.run: journal [^\n]*\n", 30)
        assert f"Simulated table: open http://127.0.0.1:{port}/table" in text, text
        found = re.search(rf"Phones: (http://{re.escape(wifi)}:{port}/j/\w+) \(code (\w+)\)", text)
        assert found, text
        assert terminal_qr(found.group(1)).splitlines()[2] in text.replace("\r\n", "\n")
        log_line = next(line for line in text.splitlines() if "banker.run: journal" in line)
        assert "None" not in log_line and "no game yet" in log_line
        # A phone on the Wi-Fi reaches the page under the printed address...
        joined = request_from("127.0.0.2", port, f"{wifi}:{port}", "GET", f"/j/{found.group(2)}")
        assert joined.status in (200, 303)  # not 421: the Wi-Fi address is the table's
        # ...and the simulated table's buttons stay this computer's.
        assert press_from("127.0.0.2", port, f"{wifi}:{port}") == 403
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()
            os.close(leader)


def test_the_install_is_quiet_with_a_line_per_step() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8").splitlines()
    start = makefile.index("$(STAMP): pyproject.toml")
    recipe = []
    for line in makefile[start + 1:]:
        if not line.startswith("\t"):
            break
        recipe.append(line.strip())
    assert all(line.startswith("@") for line in recipe), recipe  # make echoes no command
    steps = [line for line in recipe if "pip install" in line or " -m venv" in line]
    assert steps and all("--quiet" in line for line in steps if "pip install" in line)
    for step in steps:  # each step is announced on the line before it
        before = recipe[recipe.index(step) - 1]
        while before.startswith("@#"):
            before = recipe[recipe.index(before) - 1]
        assert before.startswith("@echo "), (step, before)
