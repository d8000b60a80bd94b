"""``banker bench --long``: what a long game and a long journal cost the table.

Two axes, each on a journal file built the way the table writes it (every action through the
:class:`banker.session.Session`, at an evening's pace on the journal's clock):

- the game grows: one game of 1,000, 10,000 and 100,000 actions (self-play of four rich bots, so that
  nobody goes bankrupt and the game goes on);
- the journal grows: 10, 100 and 1,000 saved games of :data:`GAME_ACTIONS` actions each, the last one
  being played.

For each journal: the answer of every page and API that shows the whole game (in-process, a joined
phone, the median of a few requests after the first), one action's commit, the start-up of
``banker run`` to its first answer with the game, its memory (VmRSS) after it answered every page,
and the bytes on the card (the journal and its WAL). Beside them, the bytes one phone action and
one refused request add to the journal, and the memory of ``banker run`` while a phone plays
:data:`MEMORY_ACTIONS` payments over HTTP, reading the pages of the whole game as it goes.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

LENGTHS = (1_000, 10_000, 100_000)
"""Actions of the one game of the first axis."""
GAMES = (10, 100, 1_000)
"""Saved games of the second axis."""
GAME_ACTIONS = 200
"""Actions of each saved game of the second axis (an evening's game is a few hundred)."""
PAGES = ("/", "/api/state", "/history", "/api/history", "/end", "/api/scores", "/records")
"""Every page and API that shows the whole game (or, for /records, every game)."""
STEP_S = 8.0
"""Seconds between two actions on the journal's clock while a journal is built."""
PHONE_ACTIONS = 400
"""Phone actions (and refusals) sent to measure the bytes each adds."""
MEMORY_ACTIONS = 20_000
"""Payments a phone sends ``banker run`` while its memory is watched."""
MEMORY_MARKS = (0, 1_000, 2_000, 5_000, 10_000, 20_000)
"""After how many of them the memory is read."""
READ_EVERY = 100
"""The phone reads :data:`MEMORY_READS` after every so many payments (every phone reads its page after each
action; these are the reads of the whole game)."""
MEMORY_READS = ("/", "/end", "/api/scores", "/history", "/api/history")
WARM = 1_000
"""After so many actions the program's bounded caches are full (the undo chain, the display's text widths,
SQLite's page cache): the memory's growth is also given from there."""


def _actions(count: int, seed: int) -> list[Any]:
    from banker.bench import game_actions

    return game_actions(count, seed)


class _Clock:
    def __init__(self, start: float) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += STEP_S
        return self.now


def build_journal(path: Path, games: list[list[Any]]) -> int:
    """A journal at ``path`` with ``games`` (each a list of actions) played through a Session, the last one
    current; returns the count of actions written. Written without waiting for the disk (a bench's setup,
    not what is measured)."""
    from banker.journal import Journal
    from banker.session import Session

    written = 0
    clock = _Clock(1_700_000_000.0)
    with Journal(path) as journal:
        journal._db.execute("PRAGMA synchronous=OFF")
        session = Session(journal, clock=clock)
        for actions in games:
            for action in actions:
                session.submit(action)
                written += 1
            clock.now += 7 * 24 * 3600.0
    return written


def _phone(app: Any) -> Any:
    from webui.join import join_code

    client = app.test_client()
    token = client.get("/api/me").get_json()["csrf_token"]
    journal = app.extensions["banker"].session.journal
    answer = client.post("/api/join", data=json.dumps({"code": join_code(journal), "player": "P1", "lang": "en"}),
                         headers={"X-CSRFToken": token}, content_type="application/json")
    if answer.status_code != 200:
        raise RuntimeError(f"join answered {answer.status_code}")
    client.token = token
    return client


def page_times(path: Path, repeats: int) -> dict[str, float]:
    """Milliseconds of each of :data:`PAGES`: the first answer (``first:``) and the median of ``repeats`` more."""
    from banker.journal import Journal
    from banker.session import Session
    from webui import create_app

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp, Journal(path) as journal:
        session = Session.resume(journal)
        app = create_app(session, None, {"DATA_DIR": tmp, "TESTING": True})
        client = _phone(app)
        for page in PAGES:
            samples = []
            for _ in range(repeats + 1):
                started = time.perf_counter()
                answer = client.get(page)
                samples.append((time.perf_counter() - started) * 1000)
                if answer.status_code != 200:
                    raise RuntimeError(f"{page} answered {answer.status_code}")
            figures[f"first:{page}"] = round(samples[0], 2)
            figures[page] = round(statistics.median(samples[1:]), 2)
    return figures


def _one_action(session: Any) -> Any:
    """An action the game accepts now: a player collects $1 (the first player who may)."""
    from banker.actions import Collect
    from banker.errors import BankerError

    state = session.state
    for player in state.players:
        action = Collect(player.name, 1)
        try:
            session.preview(action)
        except BankerError:
            continue
        return action
    raise RuntimeError("no player may collect")


def commit_times(path: Path, count: int = 50) -> dict[str, float]:
    """One action applied and committed (WAL, synchronous=FULL) at the end of the journal's game."""
    from banker.actions import Undo
    from banker.journal import Journal
    from banker.session import Session

    samples = []
    with Journal(path) as journal:
        session = Session.resume(journal)
        for _ in range(count):
            action = _one_action(session)
            started = time.perf_counter()
            session.submit(action)
            samples.append((time.perf_counter() - started) * 1000)
            session.submit(Undo())
    return {"commit_median_ms": round(statistics.median(samples), 3),
            "commit_worst_ms": round(max(samples), 3)}


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class _Program:
    """``banker run --simulated`` on a data directory, in a child process, with one phone joined as ``P1``."""

    def __init__(self, data_dir: Path) -> None:
        from firmware.run import announced_address

        self.started = time.perf_counter()
        self.process = subprocess.Popen(
            [sys.executable, "-m", "firmware.cli", "run", "--simulated", "--host", "127.0.0.1", "--port", "0",
             "--data-dir", str(data_dir)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.cookies: dict[str, str] = {}
        try:
            assert self.process.stdout is not None
            port, code, text = announced_address(self.process.stdout, 120)
            if not port:
                raise RuntimeError(f"banker run did not start: {text!r}")
            self.port = port
            self.request("GET", f"/j/{code}")
            self.token = json.loads(self.request("GET", "/api/me")[1])["csrf_token"]
            status, _ = self.request("POST", "/api/join", {"player": "P1"})
            if status != 200:
                raise RuntimeError(f"join answered {status}")
        except BaseException:
            self.close()
            raise

    def request(self, method: str, target: str, body: object = None) -> tuple[int, bytes]:
        import http.client
        from http.cookies import SimpleCookie

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        sent = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if method == "POST" and hasattr(self, "token"):
            sent["X-CSRFToken"] = self.token
            sent["Idempotency-Key"] = uuid.uuid4().hex
        conn.request(method, target, body=data, headers=sent)
        response = conn.getresponse()
        payload = response.read()
        for header in response.headers.get_all("Set-Cookie") or []:
            cookie: SimpleCookie = SimpleCookie()
            cookie.load(header)
            self.cookies.update({name: morsel.value for name, morsel in cookie.items()})
        conn.close()
        return response.status, payload

    def rss_mb(self) -> float:
        return rss_mb(self.process.pid)

    def close(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)


def program_figures(data_dir: Path, reads: int = 3) -> dict[str, float]:
    """``banker run --simulated`` on ``data_dir``: seconds from its start to its first answer with the game,
    its VmRSS then, and after every page was read ``reads`` times."""
    program = _Program(data_dir)
    try:
        status, _ = program.request("GET", "/api/state")
        first = time.perf_counter() - program.started
        if status != 200:
            raise RuntimeError(f"/api/state answered {status}")
        rss_started = program.rss_mb()
        for _ in range(reads):
            for page in PAGES:
                program.request("GET", page)
        return {"startup_s": round(first, 2), "rss_started_mb": round(rss_started, 1),
                "rss_after_pages_mb": round(program.rss_mb(), 1)}
    finally:
        program.close()


def memory_figures(actions: int = MEMORY_ACTIONS, every: int = READ_EVERY) -> dict[str, float]:
    """The memory (VmRSS) of ``banker run --simulated`` while a phone plays ``actions`` payments of $1 over HTTP,
    reading :data:`MEMORY_READS` after every ``every``: ``rss_at:N`` after N actions (at each of
    :data:`MEMORY_MARKS` up to ``actions``, and at ``actions``), and ``rss_growth_mb`` from the first to the last."""
    from banker.actions import NewGame
    from banker.journal import Journal
    from banker.session import Session

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(tmp)
        with Journal(journal_path(data_dir)) as journal:
            Session(journal).submit(NewGame("us", ("P1", "P2", "P3", "P4"), {"starting_cash": 1_000_000}))
        program = _Program(data_dir)
        try:
            marks = sorted({mark for mark in MEMORY_MARKS if mark < actions} | {actions})

            def read() -> None:
                for page in MEMORY_READS:
                    status, _ = program.request("GET", page)
                    if status != 200:
                        raise RuntimeError(f"{page} answered {status}")

            read()
            figures["rss_at:0"] = round(program.rss_mb(), 1)
            for done in range(1, actions + 1):
                status, body = program.request("POST", "/api/actions/pay",
                                               {"player": "P1", "amount": 1, "to": "P2", "again": True})
                if status != 200:
                    raise RuntimeError(f"a payment answered {status}: {body[:200]!r}")
                if done % every == 0 or done == actions:
                    read()
                if done in marks:
                    figures[f"rss_at:{done}"] = round(program.rss_mb(), 1)
        finally:
            program.close()
    figures["rss_growth_mb"] = round(figures[f"rss_at:{actions}"] - figures["rss_at:0"], 1)
    if actions > WARM:
        figures["rss_growth_warm_mb"] = round(figures[f"rss_at:{actions}"] - figures[f"rss_at:{WARM}"], 1)
    return figures


def card_bytes(data_dir: Path) -> int:
    """The journal's bytes on the card: the database and its WAL."""
    return sum(f.stat().st_size for f in data_dir.glob(journal_path(data_dir).name + "*"))


def journal_path(data_dir: Path) -> Path:
    from firmware.config import Config

    return Path(Config(data_dir=data_dir).journal_path)


def measure_journal(data_dir: Path, actions: int, repeats: int) -> dict[str, Any]:
    path = journal_path(data_dir)
    figures: dict[str, Any] = {"actions": actions, "card_bytes": card_bytes(data_dir),
                               "bytes_per_action": round(card_bytes(data_dir) / max(1, actions), 1)}
    figures.update(page_times(path, repeats))
    figures.update(commit_times(path))
    figures.update(program_figures(data_dir))
    return figures


def phone_bytes(count: int = PHONE_ACTIONS) -> dict[str, float]:
    """The bytes one phone action, and one refused phone request, add to the journal (its file and WAL after a
    checkpoint), sent through the phone page in-process."""
    from banker.actions import NewGame
    from banker.journal import Journal
    from banker.session import Session
    from webui import create_app

    def size(path: Path, journal: Journal) -> int:
        journal.pragma("wal_checkpoint(TRUNCATE)")
        return sum(f.stat().st_size for f in path.parent.glob(path.name + "*"))

    figures: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.sqlite3"
        with Journal(path) as journal:
            session = Session(journal)
            session.submit(NewGame("us", ("P1", "P2", "P3", "P4"), {"starting_cash": 1_000_000}))
            app = create_app(session, None, {"DATA_DIR": tmp, "TESTING": True})
            client = _phone(app)
            warm = count // 10

            def send(body: dict[str, Any], name: str = "pay") -> int:
                answer = client.post(f"/api/actions/{name}", data=json.dumps(body), content_type="application/json",
                                     headers={"X-CSRFToken": client.token, "Idempotency-Key": uuid.uuid4().hex})
                return int(answer.status_code)

            if send({"player": "P1", "property": "boardwalk"}, "buy") != 200:
                raise RuntimeError("buying Boardwalk was refused")
            for _ in range(warm):
                send({"player": "P1", "amount": 1, "to": "P2", "again": True})
            before = size(path, journal)
            for _ in range(count):
                if send({"player": "P1", "amount": 1, "to": "P2", "again": True}) != 200:
                    raise RuntimeError("a payment was refused")
            figures["phone_action_bytes"] = round((size(path, journal) - before) / count, 1)
            before = size(path, journal)
            for _ in range(count):
                if send({"player": "P1", "property": "boardwalk"}, "buy") == 200:
                    raise RuntimeError("a deed was bought twice")
            figures["refusal_bytes"] = round((size(path, journal) - before) / count, 1)
    return figures


def run_long(lengths: tuple[int, ...] = LENGTHS, games: tuple[int, ...] = GAMES,
             log: Any = None, memory_actions: int = MEMORY_ACTIONS) -> dict[str, Any]:
    """Every figure of ``banker bench --long``: ``length:N`` and ``games:N`` journals, the phone's bytes, and the
    memory while a phone plays ``memory_actions`` payments (none when 0)."""
    def say(text: str) -> None:
        if log is not None:
            print(text, file=log, flush=True)

    figures: dict[str, Any] = {}
    for length in lengths:
        with tempfile.TemporaryDirectory() as tmp:
            data_dir = Path(tmp)
            say(f"building a game of {length} actions")
            written = build_journal(journal_path(data_dir), [_actions(length, 7)])
            say("measuring")
            figures[f"length:{length}"] = measure_journal(data_dir, written, 3 if length >= 100_000 else 5)
            say(json.dumps(figures[f"length:{length}"]))
    pool = [_actions(GAME_ACTIONS, seed) for seed in range(1, 11)]
    for count in games:
        with tempfile.TemporaryDirectory() as tmp:
            data_dir = Path(tmp)
            say(f"building a journal of {count} games")
            written = build_journal(journal_path(data_dir), [pool[i % len(pool)] for i in range(count)])
            say("measuring")
            figures[f"games:{count}"] = measure_journal(data_dir, written, 5)
            say(json.dumps(figures[f"games:{count}"]))
    figures["phone"] = phone_bytes()
    if memory_actions > 0:
        say(f"a phone plays {memory_actions} payments")
        figures["memory"] = memory_figures(memory_actions)
        say(json.dumps(figures["memory"]))
    return figures


SECTION = "## Long games and a long journal"
"""The heading of ``banker bench --long``'s section of docs/performance.md (kept when ``make perf`` rewrites the
rest: it comes after the soak's)."""
EVENING_ACTIONS = 400
"""Actions of a long family evening's game, for the year on the card (a classic game of three hours; the
playtests played some 165)."""
PAGE_NAMES = {"/": "the game page `/` (the latest log, the last payment)", "/api/state": "`GET /api/state`",
              "/history": "`/history` (a page of 50)", "/api/history": "`GET /api/history` (a page of 50)",
              "/end": "`/end` (standings, the chart, the records card)", "/api/scores": "`GET /api/scores`",
              "/records": "`/records`"}


def grows(first: float, last: float) -> str:
    if first <= 0:
        return ""
    return f"×{last / first:.1f}"


def markdown(figures: dict[str, Any], when: str, where: str, before: dict[str, Any] | None = None) -> str:
    """The section of docs/performance.md: one table per axis (a column per size, and how it grows from the
    first to the last), the bytes of a phone's action and refusal, and a year of weekly evenings on the card.
    ``before``: the same figures of an earlier version, shown beside them."""
    def table(prefix: str, sizes: list[int], label: str) -> list[str]:
        heads = [f"{size:,} {label}" for size in sizes]
        lines = ["| measure | " + " | ".join(heads) + " | grows |", "|---|" + "---|" * (len(sizes) + 1)]
        keys = [(PAGE_NAMES[page] + ", ms (median; first answer in brackets)", page) for page in PAGES]
        keys += [("one action applied and committed (WAL, synchronous=FULL), median ms", "commit_median_ms"),
                 ("`banker run` from its start to its first answer with the game, s", "startup_s"),
                 ("its memory (VmRSS) then, MB", "rss_started_mb"),
                 ("its memory after every page was read three times, MB", "rss_after_pages_mb"),
                 ("bytes on the card (the journal and its WAL)", "card_bytes"),
                 ("the same per action", "bytes_per_action")]
        for name, key in keys:
            cells, values = [], []
            for size in sizes:
                found = figures.get(f"{prefix}:{size}", {})
                value = found.get(key)
                values.append(float(value) if value is not None else 0.0)
                cell = "not measured" if value is None else f"{value:,}" if isinstance(value, int) else f"{value}"
                if key in PAGES and f"first:{key}" in found:
                    cell += f" ({found[f'first:{key}']})"
                if before is not None and value is not None:
                    old = before.get(f"{prefix}:{size}", {}).get(key)
                    if old is not None:
                        cell += f"; before {old:,}" if isinstance(old, int) else f"; before {old}"
                cells.append(cell)
            lines.append(f"| {name} | " + " | ".join(cells) + f" | {grows(values[0], values[-1])} |")
        return lines

    lengths = sorted(int(k.split(":")[1]) for k in figures if k.startswith("length:"))
    games = sorted(int(k.split(":")[1]) for k in figures if k.startswith("games:"))
    phone = figures.get("phone", {})
    per_action = figures.get(f"games:{games[-1]}", {}).get("bytes_per_action") if games else None
    out = [SECTION, "",
           f"Measured {when} on {where}, by `banker bench --long --write docs/performance.md`, which writes this "
           "section again. A journal is built the way the table writes it (every action through the session, the "
           "chronicle and the snapshots with it), then measured: each page in-process for a joined phone, the median "
           "of a few answers after the first (the first in brackets), one action's commit at the end of the game, "
           "and `banker run --simulated` started on the journal, in a child process. \"grows\" is the last column "
           "over the first.", ""]
    if lengths:
        out += [f"**One game as it grows** (self-play of four rich bots: {lengths[0]:,} to {lengths[-1]:,} actions):",
                "", *table("length", lengths, "actions"), ""]
    if games:
        out += [f"**The journal as it grows** ({games[0]:,} to {games[-1]:,} saved games of {GAME_ACTIONS} actions, "
                "the last one being played):", "", *table("games", games, "games"), ""]
    out += ["**How each grows.** A page of one game reads the game's kept figures (`banker.chronicle`) and a page "
            "of its history by the journal's key, so its answer, the start-up (a snapshot and the rows after it) "
            "and the memory do not grow with the length of the game; the bytes on the card grow with it, some "
            "200 to 300 an action. `/records`, and the records card of `/end`, list every saved game from its kept "
            "summary: they grow with the number of games (not with their length), and the first answer after a "
            "start reads the summaries once. The commit is one SQLite transaction whatever the journal's size; its "
            "figure, like every single figure here, moves with what else the machine is doing (several milliseconds "
            "when another program writes to the same disk).", ""]
    if phone:
        out += [f"A phone's action adds {phone.get('phone_action_bytes')} bytes to the journal (the action, its "
                "events and the first answer kept for its retries, which is pruned after a day), and a refused "
                f"request {phone.get('refusal_bytes')} bytes (refusals are remembered in memory only).", ""]
    memory = figures.get("memory", {})
    if memory:
        from banker.session import UNDO_KEPT

        marks = sorted(int(k.split(":")[1]) for k in memory if k.startswith("rss_at:"))
        heads = ["at the start" if mark == 0 else f"after {mark:,}" for mark in marks]
        grown = f"+{memory['rss_growth_mb']} MB"
        if "rss_growth_warm_mb" in memory:
            grown += f" (+{memory['rss_growth_warm_mb']} MB after the first {WARM:,})"
        out += [f"**Memory over a game** (`banker run --simulated`, VmRSS, MB, while a phone sends {marks[-1]:,} "
                f"payments of $1 and reads {', '.join(f'`{page}`' for page in MEMORY_READS)} after every "
                f"{READ_EVERY}):", "",
                "| " + " | ".join(heads) + " | grows |", "|" + "---|" * (len(marks) + 1),
                "| " + " | ".join(f"{memory[f'rss_at:{mark}']}" for mark in marks) + f" | {grown} |", "",
                f"The first {WARM:,} actions fill the program's bounded caches (the undo chain of "
                f"{UNDO_KEPT} states, the display's 4,096 text widths, SQLite's page cache of 2 MB); after them "
                "it grows by what the C library's allocator keeps of what the request threads freed.", ""]
    if per_action:
        year = 52 * EVENING_ACTIONS * float(per_action)
        hour = 4 * 3600 * float(phone.get("phone_action_bytes", per_action)) / 1024 / 1024
        out += [f"**A year of evenings on the card.** A family that plays one long game ({EVENING_ACTIONS} actions) "
                f"every week writes 52 × {EVENING_ACTIONS} actions × {per_action} bytes ≈ {year / 1024 / 1024:.1f} MB "
                f"a year (the answers to the phones kept for a day come and go): the 10 GB a 16 GB card has free "
                f"beside the system hold {10 * 1024 ** 3 / year:,.0f} years of it. A phone that plays legal actions "
                "as fast as it may (4 a second, docs/phone.md, Threat model) writes at most "
                f"{hour:.0f} MB an hour, and its refusals nothing; below the free-space reserve the table refuses "
                "new actions and says so.", ""]
    return "\n".join(out) + "\n"


def write_section(path: Path, section: str) -> None:
    """Put ``section`` in the file at ``path`` in place of its old one (or at its end)."""
    old = path.read_text(encoding="utf-8") if path.exists() else ""
    if SECTION in old:
        start = old.index(SECTION)
        rest = old[start + len(SECTION):]
        following = rest.find("\n## ")
        tail = rest[following + 1:] if following >= 0 else ""
        new = old[:start] + section + ("\n" + tail if tail else "")
    else:
        new = old.rstrip("\n") + "\n\n" + section
    path.write_text(new, encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover - a run against another checkout: PYTHONPATH=… python bench_long.py
    chosen_lengths = tuple(int(v) for v in (sys.argv[1].split(",") if len(sys.argv) > 1 else LENGTHS))
    chosen_games = tuple(int(v) for v in (sys.argv[2].split(",") if len(sys.argv) > 2 else GAMES))
    print(json.dumps(run_long(chosen_lengths, chosen_games, log=sys.stderr)))
