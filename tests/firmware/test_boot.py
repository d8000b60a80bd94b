"""``banker run`` with a part missing at boot: it starts, the phone page answers and says what is wrong,
and it stays up; the table shows the fault, and uses the part once it answers."""

from __future__ import annotations

import contextlib
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from firmware import grammar as g
from firmware.loop import TableLoop
from firmware.run import announced_address
from hardware.absent import RETRY_S
from hardware.display import render_view
from hardware.factory import TableConfig, open_table

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata is deprecated:DeprecationWarning")


@contextlib.contextmanager
def running(options: list[str], data_dir: Path) -> Iterator[tuple[subprocess.Popen[str], int, str]]:
    """``banker run --emulated OPTIONS`` on 127.0.0.1 and a free port: the process, its port and join code."""
    process = subprocess.Popen(
        [sys.executable, "-m", "firmware.cli", "run", "--emulated", *options, "--host", "127.0.0.1", "--port", "0",
         "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    port, code, text = announced_address(process.stdout, 60)
    try:
        assert port, text
        yield process, port, code
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture
def program(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[subprocess.Popen[str], int, str]]:
    absent: list[str] = request.param
    with running([item for part in absent for item in ("--absent", part)], tmp_path / "data") as started:
        yield started


@pytest.mark.parametrize(
    ("program", "said"),
    [(["reader:1"], "Reader 2 (SPI0 CE1) does not answer"), (["display"], "display does not answer"),
     (["display", "reader:0"], "Reader 1 (SPI0 CE0) does not answer")],
    indirect=["program"],
)
def test_banker_run_starts_without_the_part_the_phones_are_told_and_it_stays_up(
    program: tuple[subprocess.Popen[str], int, str], said: str
) -> None:
    process, port, code = program
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
    deadline = time.monotonic() + 10
    page = ""
    while said not in page and time.monotonic() < deadline:
        with opener.open(f"http://127.0.0.1:{port}/j/{code}", timeout=10) as answer:
            assert answer.status == 200
            page = answer.read().decode()
        time.sleep(0.2)
    assert said in page
    time.sleep(3)  # more than a retry of the missing part
    assert process.poll() is None
    with opener.open(f"http://127.0.0.1:{port}/", timeout=10) as answer:
        assert answer.status == 200


@pytest.mark.parametrize(
    ("absent", "said"),
    [("reader:1", "Reader 2 (SPI0 CE1) does not answer"), ("reader:3", "Reader 4 (SPI1 CE1) does not answer"),
     ("display", "display does not answer")],
)
def test_a_table_installed_with_four_readers_starts_without_the_part_and_stays_up(
    tmp_path: Path, absent: str, said: str
) -> None:
    from tests.firmware.test_install import fake_pi, install

    root = fake_pi(tmp_path / "root")
    result = install(root, "--spi1", "2cs", "--hotspot", "Cottage", "monopoly1")
    assert result.returncode == 0, result.stderr
    settings = root / "etc/table-banker/table.toml"
    with running(["--config", str(settings), "--absent", absent], tmp_path / "data") as started:
        test_banker_run_starts_without_the_part_the_phones_are_told_and_it_stays_up(started, said)


@pytest.mark.parametrize(
    ("options", "message"),
    [(["--emulated", "--absent", "reader:7"], "no part 'reader:7'"), (["--simulated", "--absent", "display"],
                                                                       "only an emulated table")],
)
def test_absent_parts_the_table_cannot_leave_out_are_refused(tmp_path: Path, options: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-m", "firmware.cli", "run", *options, "--port", "0",
                             "--data-dir", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert message in result.stderr


def test_the_table_shows_a_reader_missing_at_boot_and_later_the_display_that_came_back() -> None:
    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="emulated"), absent=("reader:1", "display"))
    now = [100.0]
    loop = TableLoop(session, table, clock=lambda: now[0])
    try:
        emulation = table.emulation
        assert emulation is not None
        loop.render()  # no display: nothing raises
        assert [fault.part for fault in loop.faults()] == ["reader", "display"]
        loop.handle(g.Tick())
        assert loop.view is not None and loop.view.title == "Reader 2 fault"  # shown once the display is there
        emulation.connect("display")
        emulation.clock.sleep(RETRY_S)
        loop.handle(g.Tick())
        assert loop.display_fault is None
        assert emulation.panel.image() == render_view(loop.view)
        assert [fault.part for fault in loop.faults()] == ["reader"]
    finally:
        loop.stop()
        table.close()
        journal.close()


def test_the_join_address_follows_a_wifi_that_joins_late_and_a_switch_to_the_hotspot() -> None:
    from types import SimpleNamespace

    from firmware.run import AddressWatch

    journal = Journal(":memory:")
    session = Session(journal)
    session.submit(NewGame("us", ("Ann", "Bob"), {}))
    table = open_table(TableConfig(mode="simulated"))
    loop = TableLoop(session, table)
    try:
        host, wifi = ["127.0.0.1"], [""]
        app = SimpleNamespace(config={})
        watch = AddressWatch(loop, app, 8080, "K7QP", host=lambda: host[0], wifi=lambda: wifi[0])
        assert watch.check()
        assert loop.join_url == "http://127.0.0.1:8080/j/K7QP"
        assert not watch.check()  # nothing changed
        host[0] = "192.168.1.23"  # the home Wi-Fi joined after the program started
        assert watch.check()
        assert loop.join_url == "http://192.168.1.23:8080/j/K7QP"
        assert app.config["BASE_URL"] == "http://192.168.1.23:8080"
        host[0], wifi[0] = "10.42.0.1", "WIFI:T:WPA;S:Table;P:monopoly1;;"  # now the table's own hotspot
        assert watch.check()
        loop.pump()
        assert loop.wifi_join == wifi[0] and loop.context().join_url == "http://10.42.0.1:8080/j/K7QP"
    finally:
        loop.stop()
        table.close()
        journal.close()
