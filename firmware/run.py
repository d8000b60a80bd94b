"""``banker run``: the table program. One process: the table loop, the phone page and the journal.

It opens the hardware (the Pi's, ``--emulated`` or ``--simulated``), opens the journal in the data
directory, resumes the game in progress (and says so on the OLED), serves the phone page on
``--port``, and runs the table's loop until SIGTERM or SIGINT; then it saves, closes the journal
and leaves "stopped" on the display.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import logging
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import IO, Any

from banker.journal import Journal, JournalError
from banker.messages import LANGUAGES, render
from banker.session import Session
from firmware import hwtexts
from firmware.config import Config, ConfigError, load_config
from firmware.loop import TableLoop
from firmware.texts import PREFIX
from firmware.voice import SpeechSettings
from firmware.wallclock import SteadyClock, last_recorded
from hardware.display import ScreenView
from hardware.errors import HardwareError
from hardware.factory import Table, TableConfig, check_absent, close_keeping_picture, open_table

log = logging.getLogger("banker.run")


def register(sub: Any) -> None:
    p = sub.add_parser("run", help="run the table: readers, OLED, buttons and the phone page",
                       description="Run the table program. "
                                   "Example: banker run --simulated --port 8080 --data-dir /tmp/t")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--simulated", action="store_true",
                      help="no hardware: play on the simulated table page in a browser")
    mode.add_argument("--emulated", action="store_true",
                      help="the real drivers over emulated chips (for testing the whole program)")
    p.add_argument("--config", help="the settings file (TOML; see firmware/config.py)")
    p.add_argument("--port", type=int, help="port of the phone page (default: the config's, else 8080)")
    p.add_argument("--host", help="address to listen on (default 0.0.0.0; 127.0.0.1 keeps it on this machine)")
    p.add_argument("--data-dir", help="directory of the journal (default: the config's)")
    p.add_argument("--lang", choices=LANGUAGES, help="the table's language")
    add_absent_option(p)
    p.set_defaults(func=cmd_run)


def add_absent_option(parser: Any) -> None:
    parser.add_argument("--absent", action="append", default=[], metavar="PART",
                        help="with --emulated: start without this part, as a table with it unplugged: "
                             "reader:N (N counts from 0, as in the readers list) or display; repeatable")


def absent_parts(args: argparse.Namespace, table_config: TableConfig) -> tuple[str, ...]:
    """The parts ``--absent`` leaves out of the table.

    Raises:
        ConfigError: ``--absent`` without ``--emulated``, or a part this table does not have.
    """
    absent = tuple(getattr(args, "absent", None) or ())
    try:
        check_absent(table_config, absent)
    except ValueError as error:
        raise ConfigError(f"--absent: {error}") from error
    return absent


ANNOUNCED = re.compile(r"http://127\.0\.0\.1:(\d+)/j/\S+ \(code (\w+)\)")
"""The "Phones: …" line ``banker run`` prints once it serves, on a loopback address."""


def announced_address(stdout: IO[str], timeout: float) -> tuple[int, str, str]:
    """Read what a starting ``banker run --host 127.0.0.1`` prints until it says where it serves:
    (port, join code, the text read). Port 0 and an empty code when it did not say so in ``timeout``
    seconds (the text then says why)."""
    lines: list[str] = []

    def read() -> None:
        for line in stdout:
            lines.append(line)
            if line.startswith("Phones:"):
                return

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    reader.join(timeout)
    text = "".join(lines)
    found = ANNOUNCED.search(text)
    return (int(found.group(1)), found.group(2), text) if found else (0, "", text)


def local_address() -> str:
    """This machine's first network address (as phones on the same Wi-Fi reach it), or 127.0.0.1."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return "127.0.0.1"
    for address in out.split():
        if "." in address and not address.startswith("127."):
            return address
    return "127.0.0.1"


def phones_address(listen: str) -> str:
    """The address phones reach the table at: the one it listens on, or (on every address) this
    machine's first network address; 127.0.0.1 when it has none."""
    if listen in ("", "0.0.0.0", "::"):
        return local_address()
    return listen


def terminal_qr(url: str) -> str:
    """The QR code of ``url`` drawn in a terminal (two rows of modules a line), for phones to scan."""
    import io

    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()


HOTSPOT_CONNECTION = "table-hotspot"
"""The NetworkManager connection firmware/install.sh --hotspot creates."""


def _wifi_escape(text: str) -> str:
    return "".join("\\" + char if char in '\\;,:"' else char for char in text)


def wifi_join_text(environ: dict[str, str] | None = None, active: Callable[[], bool] | None = None) -> str:
    """``WIFI:T:WPA;S:<name>;P:<password>;;`` (the Wi-Fi QR code phones join by) while the table's
    own hotspot is up, else ``""``. The name and password come from the unit's EnvironmentFile
    (/etc/table-banker/hotspot.env: HOTSPOT_SSID, HOTSPOT_PASSWORD)."""
    environ = dict(os.environ) if environ is None else environ
    ssid, password = environ.get("HOTSPOT_SSID", ""), environ.get("HOTSPOT_PASSWORD", "")
    if not ssid or not (active or _hotspot_active)():
        return ""
    return f"WIFI:T:WPA;S:{_wifi_escape(ssid)};P:{_wifi_escape(password)};;"


def _hotspot_active() -> bool:
    try:
        out = subprocess.run(["nmcli", "-t", "-f", "NAME", "connection", "show", "--active"],
                             capture_output=True, text=True, timeout=5, check=False).stdout
    except (OSError, subprocess.SubprocessError):
        return False
    return HOTSPOT_CONNECTION in out.splitlines()


ADDRESS_CHECK_S = 10.0
"""How often ``banker run`` looks up the Pi's address and the hotspot again (a Wi-Fi that joins late, a
new lease, a switch to the hotspot): the QR codes on the OLED and the phone page follow within this."""


class AddressWatch:
    """Keeps the join address and the Wi-Fi QR code current: :meth:`check` looks both up again and,
    when they changed, gives them to the table (which draws its screen again) and to the phone page."""

    def __init__(self, loop: TableLoop, app: Any, port: int, code: str, *,
                 host: Callable[[], str] = local_address, wifi: Callable[[], str] = wifi_join_text) -> None:
        self.loop, self.app, self.port, self.code = loop, app, port, code
        self._host, self._wifi = host, wifi

    def check(self) -> bool:
        """Look the addresses up again; True when they changed."""
        from webui.join import join_url

        base = f"http://{self._host()}:{self.port}"
        url, wifi = join_url(base, self.code), self._wifi()
        if url == self.loop.join_url and wifi == self.loop.wifi_join:
            return False
        log.info("the phones' address is now %s%s", url, " (on the table's own Wi-Fi)" if wifi else "")
        self.app.config["BASE_URL"] = base
        self.loop.set_addresses(url, wifi)
        print(f"Phones: {url} (code {self.code})", flush=True)
        return True

    def run(self, stop: threading.Event, every_s: float = ADDRESS_CHECK_S) -> threading.Thread:
        """Check every ``every_s`` seconds in a daemon thread until ``stop`` is set."""
        def watch() -> None:
            while not stop.wait(every_s):
                try:
                    self.check()
                except Exception:  # a lookup that fails now may work the next time
                    log.exception("looking up the table's address failed")

        thread = threading.Thread(target=watch, name="address-watch", daemon=True)
        thread.start()
        return thread


# mallopt's parameter number for the most arenas (glibc's malloc.h: M_ARENA_MAX).
M_ARENA_MAX = -8
MALLOC_ARENAS = 2


def limit_malloc_arenas(arenas: int = MALLOC_ARENAS) -> bool:
    """Let the C library's allocator keep at most ``arenas`` arenas; True when it took the setting.

    glibc gives each new thread an arena of its own, up to 8 per core, and an arena keeps the memory its
    threads freed. The program has a thread for each open phone stream (webui/server.py), 77 in all,
    and they run Python one at a time under the interpreter's lock, so more arenas buy no speed: they
    only keep more freed memory (the figures: docs/performance.md, "Soak"). Called before any thread
    starts; MALLOC_ARENA_MAX in the environment, when set, decides instead. False off glibc, where the
    setting does not exist."""
    if os.environ.get("MALLOC_ARENA_MAX"):
        return False
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    return bool(mallopt(M_ARENA_MAX, arenas))


def settings(args: argparse.Namespace) -> Config:
    """The config file's settings with the command line's on top.

    Raises:
        ConfigError: the file cannot be used, or ``--port`` is not 0 to 65535.
    """
    config = load_config(args.config)
    values = dict(config.__dict__)
    if args.port is not None:
        if not 0 <= args.port <= 65535:
            raise ConfigError(f"--port must be a whole number 0-65535 (0: any free port), not {args.port}")
        values["port"] = args.port
    if args.host:
        values["host"] = args.host
    if args.data_dir:
        values["data_dir"] = Path(args.data_dir)
    if args.lang:
        values["language"] = args.lang
    return Config(**values)


def cmd_run(args: argparse.Namespace) -> int:
    limit_malloc_arenas()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        config = settings(args)
        mode = "simulated" if args.simulated else "emulated" if args.emulated else "pi"
        table_config = config.table_config(mode)
        absent = absent_parts(args, table_config)
    except ConfigError as error:
        print(f"banker run: {error}", file=sys.stderr)
        return 2
    stop = threading.Event()

    def on_signal(signum: int, _frame: FrameType | None) -> None:
        log.info("stopping (signal %d)", signum)
        stop.set()

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        def show_fault(display: Any, error: HardwareError) -> None:
            display.show(boot_fault_view(error, config.language))

        table = open_table(table_config, absent=absent, on_lasting_fault=show_fault)
    except HardwareError as error:
        print(f"banker run: {error}", file=sys.stderr)
        return 3
    try:
        return serve(config, table, stop, mode)
    finally:
        table.close()


def boot_fault_view(problem: HardwareError | str, language: str) -> ScreenView:
    """The screen left on the glass while the table cannot start: the problem in one line (the part and
    what is wrong), and where the fix is told."""
    text = problem if isinstance(problem, str) else hwtexts.headline(problem, language)
    return ScreenView(title=render(PREFIX + "title_cannot_start", {}, language), lines=(text,),
                      footer=render(PREFIX + "boot_fault_footer", {}, language), inverted=True)


def _boot_fault(table: Table, text: str, language: str) -> None:
    """``banker run`` cannot start: say why on stderr and on the display, and leave it there (systemd starts
    the program again in a while; the display is not cleared meanwhile)."""
    print(f"banker run: {text}", file=sys.stderr)
    with contextlib.suppress(HardwareError):
        table.display.show(boot_fault_view(text, language))
    close_keeping_picture(table.display)


def switched_off_view(language: str) -> ScreenView:
    return ScreenView(title=render(PREFIX + "title_switched_off", {}, language),
                      lines=(render(PREFIX + "switched_off", {}, language),))


def switch_off(command: tuple[str, ...]) -> bool:
    """Run the command that switches the computer off; False (and a line in the log) when it failed."""
    try:
        done = subprocess.run(list(command), capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.SubprocessError) as error:
        log.error("switching off with %s failed: %s", " ".join(command), error)
        return False
    if done.returncode != 0:
        log.error("switching off with %s failed (status %d): %s", " ".join(command), done.returncode,
                  (done.stderr or done.stdout).strip())
        return False
    return True


def open_journal(config: Config) -> Journal:
    """The journal in the data directory (made if missing).

    Raises:
        JournalError: the directory cannot be made or used (under a file, in /proc, not writable), or the
            journal file is not one (one line saying which file and why).
    """
    try:
        config.data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise JournalError(f"cannot use the data directory {config.data_dir} ({error.strerror or error}): "
                           "choose another --data-dir") from error
    if not os.access(config.data_dir, os.W_OK | os.X_OK) or not config.data_dir.is_dir():
        raise JournalError(f"cannot write in the data directory {config.data_dir}: choose another --data-dir")
    return Journal(config.journal_path)


def say_what_was_lost(journal: Journal, session: Session) -> None:
    """One line in the log when the game was resumed from a damaged journal (the phone page says it too)."""
    game_id = session.game_id if session.game_id is not None else journal.current_game()
    damage = journal.damage(game_id)
    if damage is not None:
        log.warning("game %s was damaged: the actions from %d on were set aside (%d in all): %s", game_id,
                    damage.first_seq, damage.lost, render(damage.key, damage.params, "en"))


def say_if_full(journal: Journal) -> bool:
    """Print what to do when the table starts on a full card (it shows the game, and saves nothing new until
    there is room); True when it is full."""
    space = journal.space()
    if not space.full:
        return False
    free = "unknown" if space.free is None else f"{space.free / 1024 / 1024:.1f} MB"
    print(f"The card is full ({free} free; new actions are refused below {space.reserve / 1024 / 1024:.1f} MB): "
          f"the game is shown but nothing new is saved. Free some space on the card of {Path(journal.path).parent} "
          "(banker check shows it); the table saves again by itself once there is room.", flush=True)
    return True


def follow_join_code(loop: TableLoop, app: Any, watch: AddressWatch) -> None:
    """A new join code (a new game, the banker's page or the table's setup asked): the table's screen shows
    it and ``banker run`` prints the phones' address again. The table's setup makes a new code or PIN
    through the phone page's services."""
    from webui.join import join_url

    def new_code(code: str) -> None:
        # Called under the session's lock (a new game): the table's lock is taken in a thread of its
        # own, as the table takes them the other way round when it submits an action.
        watch.code = loop.join_code = code
        url = join_url(str(app.config.get("BASE_URL") or ""), code)
        threading.Thread(target=loop.set_addresses, args=(url, loop.wifi_join), daemon=True).start()
        print(f"Phones: {url} (code {code})", flush=True)

    app.extensions["banker"].codes.listen(new_code)
    from webui.views import table_resets

    loop.resets = table_resets(app.extensions["banker"])


def open_session(journal: Journal) -> tuple[Session, SteadyClock]:
    """The journal's game, on a clock that never reads earlier than the journal's last record
    (:mod:`firmware.wallclock`): a Pi without a real-time clock starts up to an hour early after a power
    cut, and the repeat guard and the lock-outs compare the time with the journal's."""
    clock = SteadyClock()
    session = Session.resume(journal, clock=clock)
    clock.not_before(last_recorded(journal))
    return session, clock


def serve(config: Config, table: Table, stop: threading.Event, mode: str) -> int:
    """Run the table and the phone page on an opened table until ``stop`` is set."""
    from webui import create_app
    from webui.auth import Limiter
    from webui.join import join_code, join_url
    from webui.server import start

    try:
        journal = open_journal(config)
    except JournalError as error:
        _boot_fault(table, str(error), config.language)
        return 2
    server = None
    loop: TableLoop | None = None
    fault = ""
    """Why the table cannot start, once the journal is open (the display shows it)."""
    command = config.switch_off_command(mode)
    try:
        session, clock = open_session(journal)
        say_what_was_lost(journal, session)
        loopback_only = config.host.startswith("127.") or config.host in ("localhost", "::1")
        host_for_phones = "127.0.0.1" if loopback_only else phones_address(config.host)
        code = join_code(journal)
        speaker = config.table_config(mode).speaker
        loop = TableLoop(session, table, language=config.language,
                         speech=SpeechSettings.starting(speaker) if speaker is not None or mode != "simulated"
                         else SpeechSettings(), can_switch_off=bool(command))
        try:
            app = create_app(session, table=loop, config={"DATA_DIR": str(config.data_dir), "LANGUAGE": loop.language})
            # The lock-outs of wrong codes and PINs on the same clock as the repeat guard's.
            app.extensions["banker"].limiter = Limiter(journal, clock=clock)
        except OSError as error:
            fault = (f"cannot use the phone page's key {config.data_dir / 'webui-secret.key'} "
                     f"({error.strerror or error}): move it away or choose another --data-dir")
            return 2
        try:
            server = start(app, config.host, config.port)
        except OSError as error:
            fault = (f"cannot serve the phone page on {config.host}:{config.port} ({error.strerror}): "
                     "another program (or another table) uses that port; stop it or choose --port")
            return 2
        except ValueError:
            fault = (f"cannot serve the phone page on {config.host}:{config.port}: not an address of "
                     "this computer; choose --host (0.0.0.0: every address)")
            return 2
        base = f"http://{host_for_phones}:{server.port}"
        app.config["BASE_URL"] = base
        loop.join_code, loop.join_url = code, join_url(base, code)
        loop.wifi_join = "" if mode == "simulated" else wifi_join_text()
        if mode == "simulated":
            # The simulated table's buttons and cards act only for this computer: its page is opened here.
            print(f"Simulated table: open http://127.0.0.1:{server.port}/table", flush=True)
        print(f"Phones: {loop.join_url} (code {code})", flush=True)
        if not loopback_only and host_for_phones == "127.0.0.1":
            print("No network address yet (is this computer on the Wi-Fi?): phones join once it has one; "
                  "the address is printed then", flush=True)
        if sys.stdout.isatty():
            print(terminal_qr(loop.join_url), end="", flush=True)
        log.info("journal %s, %s", config.journal_path,
                 f"game {session.game_id}" if session.game_id is not None else "no game yet (start one on a phone)")
        say_if_full(journal)
        watch = AddressWatch(loop, app, server.port, code, host=lambda: phones_address(config.host),
                             wifi=(lambda: "") if mode == "simulated" else wifi_join_text)
        follow_join_code(loop, app, watch)
        if not loopback_only:
            watch.run(stop)
        loop.run(stop)
        return 0
    finally:
        language = loop.language if loop is not None else config.language
        switching_off = loop is not None and loop.switch_off_requested and not fault
        if loop is not None:
            loop.stop()
            if not fault:
                with contextlib.suppress(HardwareError):
                    table.display.show(ScreenView(title=render(PREFIX + "title_banker", {}, language),
                                                  lines=(render(PREFIX + "stopped", {}, language),)))
        if server is not None:
            server.close()
        journal.close()
        if fault:
            _boot_fault(table, fault, language)
        elif switching_off:
            # The journal is closed (every action is on the card): only now is it safe to pull the plug.
            with contextlib.suppress(HardwareError):
                table.display.show(switched_off_view(language))
            close_keeping_picture(table.display)
            switch_off(command)
        close_keeping_picture(table.display)
