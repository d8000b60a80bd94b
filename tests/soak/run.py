"""``make soak``: the long runs, not part of ``make test``.

    python -m tests.soak.run --games 100000 --kills 200 --session-minutes 60 --write docs/performance.md

1. Self-play: ``--games`` games of ``banker sim`` (every invariant checked after every action), in
   chunks over one process per core; a chunk that fails counts as a violation and the rest go on.
2. Kills: ``--kills`` SIGKILLs of the running program (:mod:`tests.soak.kill`).
3. A simulated table session of ``--session-minutes`` with phones attached: two players' phones
   acting, the banker's phone and two streams open, the table page tapping and confirming. It
   reports the program's memory (VmRSS) over the session, and its file descriptors and threads at
   the start and at the end, then checks the journal as the kill test does.

Each part prints its result; ``--write`` replaces the "## Soak" section of docs/performance.md.
Everything talks to 127.0.0.1 only and every part stops by itself.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from firmware.bench import machine
from firmware.cli import SOAK_MARK
from tests.soak import kill
from tests.soak.program import Program, ProgramError, Stream, set_up_game
from webui.stream import KEEPALIVE_SECONDS

CHUNK = 1000


def selfplay(games: int, players: int = 4, workers: int | None = None, seed: int = 1,
             compiled: Path | None = None) -> dict[str, Any]:
    """Play ``games`` games in chunks of CHUNK over ``workers`` processes; count the failed chunks.
    With ``compiled``, on that compiled build of the engine (:mod:`banker.native`), checked to be the one that ran."""
    workers = workers or os.cpu_count() or 1
    chunks = [(index, min(CHUNK, games - start)) for index, start in enumerate(range(0, games, CHUNK))]
    played = violations = 0
    failures: list[str] = []
    lock = threading.Lock()
    started = time.monotonic()
    env = dict(os.environ)
    if compiled is not None:
        env["PYTHONPATH"] = str(compiled.resolve())
    builds: set[bool] = set()

    def one(chunk: tuple[int, int]) -> None:
        nonlocal played, violations
        index, count = chunk
        chunk_seed = seed * 1_000_003 + index
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run([sys.executable, "-m", "firmware.cli", "sim", "--games", str(count), "--players",
                                   str(players), "--seed", str(chunk_seed), "--json", "--quiet"],
                                  capture_output=True, text=True, cwd=tmp, timeout=3600, check=False, env=env)
        with lock:
            if done.returncode == 0:
                summary = json.loads(done.stdout)
                played += summary["games"]
                builds.add(summary["compiled"])
            else:
                violations += 1
                failures.append(f"seed {chunk_seed}: {(done.stdout + done.stderr).strip()[-500:]}")

    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(one, chunks))
    seconds = time.monotonic() - started
    if compiled is not None and False in builds:
        raise RuntimeError(f"{compiled} holds no compiled engine: the Python one ran (make compiled)")
    return {"games": played, "players": players, "processes": workers, "violations": violations,
            "compiled": builds == {True},
            "failures": failures, "seconds": round(seconds), "games_per_second": round(played / seconds, 1)}


def session(minutes: float, data_dir: Path, seed: int = 1) -> dict[str, Any]:
    """The program running for ``minutes`` with phones attached; its resources at the start and the end."""
    rng = random.Random(seed)
    program = Program(data_dir)
    program.start()
    stop = threading.Event()
    record = kill.Record()
    errors: list[str] = []
    try:
        banker, phones, table = set_up_game(program)
        streams = [Stream(client, stop) for client in (banker, *phones.values())]
        time.sleep(2.0)
        at_start = program.proc_status()
        files_start = program.open_files()

        def guarded(target: Any, *args: Any) -> None:
            try:
                target(*args)
            except (ProgramError, AssertionError) as error:
                errors.append(f"{type(error).__name__}: {error}")

        for stream in streams:
            stream.start()
        workers = [threading.Thread(target=guarded, daemon=True, args=(
            kill.phone_worker, name, client, record, stop, random.Random(rng.random()), 1.0))
            for name, client in phones.items()]
        workers.append(threading.Thread(target=guarded, daemon=True, args=(
            kill.table_worker, table, record, stop, random.Random(rng.random()))))
        for worker in workers:
            worker.start()
        timeline: list[tuple[float, int]] = [(0.0, at_start["rss_kb"])]  # (minute, VmRSS kB)
        settled_at = 0.0
        began = time.monotonic()
        deadline = began + minutes * 60
        settled = 0
        while time.monotonic() < deadline:
            time.sleep(min(30.0, max(0.0, deadline - time.monotonic())))
            timeline.append(((time.monotonic() - began) / 60, program.proc_status()["rss_kb"]))
            if not settled and time.monotonic() - began >= min(300.0, minutes * 60 / 4):
                settled, settled_at = timeline[-1][1], time.monotonic()
            if any(not worker.is_alive() for worker in workers):
                errors.append("a worker stopped early")
                break
        last_sample_at = time.monotonic()
        stop.set()
        for worker in workers:
            worker.join(10)
        for stream in streams:
            stream.join()
        # A stream's worker notices its phone is gone at its next write: the keepalive, every 15 s (and a
        # write into a socket the phone just closed may still succeed once). Wait for that, no longer.
        closed = time.monotonic()
        while (program.proc_status()["fds"] > at_start["fds"]
               and time.monotonic() - closed < 2 * KEEPALIVE_SECONDS + 10.0):
            time.sleep(0.5)
        streams_closed_s = time.monotonic() - closed
        at_end = program.proc_status()
        files_end = program.open_files()
        program.stop()
    finally:
        stop.set()
        if program.process is not None:
            program.kill()
    try:
        kill.check_dead(data_dir / "banker.sqlite3", record)
        game_id, seq, state_json = kill.last_state(data_dir / "banker.sqlite3")
        del game_id, state_json
    except kill.LostAction as error:
        errors.append(f"LostAction: {error}")
        seq = -1
    from banker.invariants import check_invariants
    from banker.journal import Journal

    with Journal(data_dir / "banker.sqlite3") as journal:
        current = journal.current_game()
        assert current is not None
        try:
            check_invariants(journal.load(current))
        except AssertionError as error:
            errors.append(f"invariant: {error}")
    return {"minutes": minutes, "actions": seq + 1, "phone_requests": len(record.sent),
            "table_rounds": record.table_rounds, "violations": len(errors), "errors": errors[:10],
            "rss_mb_start": round(at_start["rss_kb"] / 1024, 1), "rss_mb_end": round(at_end["rss_kb"] / 1024, 1),
            "rss_mb_max": round(max(kb for _, kb in timeline) / 1024, 1), "rss_mb_settled": round(settled / 1024, 1),
            "rss_mb_per_hour_after_settled": round((timeline[-1][1] - settled) / 1024 / max(1e-9, (
                last_sample_at - settled_at) / 3600), 1) if settled else None,
            "rss_mb_per_hour_last_third": per_hour(timeline, minutes * 2 / 3),
            "rss_mb_timeline": every(timeline, max(5.0, minutes / 12)),
            "streams_closed_s": round(streams_closed_s, 1),
            "fds_start": at_start["fds"], "fds_end": at_end["fds"],
            "threads_start": at_start["threads"], "threads_end": at_end["threads"],
            "files_start": files_start, "files_end": files_end}


def per_hour(timeline: list[tuple[float, int]], since_minute: float) -> float | None:
    """The growth of VmRSS in MB an hour from ``since_minute`` to the last sample (a least-squares line)."""
    points = [(minute, kb / 1024) for minute, kb in timeline if minute >= since_minute]
    try:
        line = statistics.linear_regression([x for x, _ in points], [y for _, y in points])
    except statistics.StatisticsError:  # fewer than two samples
        return None
    return round(60 * line.slope, 2)


def every(timeline: list[tuple[float, int]], step: float) -> list[tuple[int, float]]:
    """VmRSS in MB at the first sample of each ``step`` minutes, and at the last one."""
    picked: list[tuple[int, float]] = []
    mark = 0.0
    for minute, kb in timeline:
        if minute >= mark:
            picked.append((round(minute), round(kb / 1024, 1)))
            mark = (int(minute / step) + 1) * step
    last = (round(timeline[-1][0]), round(timeline[-1][1] / 1024, 1))
    if picked[-1] != last:
        picked.append(last)
    return picked


def markdown(results: dict[str, Any]) -> str:
    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    lines = [SOAK_MARK, "", f"`make soak`, last run {when} on {machine()}.", ""]
    play = results.get("selfplay")
    if play:
        build = "the compiled engine (`make compiled`)" if play.get("compiled") else "the Python engine"
        lines.append(f"- Self-play: {play['games']:,} games of {play['players']} players on {build}, every invariant "
                     f"checked after every action, {play['processes']} processes: {play['violations']} violations "
                     f"({play['games_per_second']} games/s, {play['seconds']} s).")
    kills = results.get("kills")
    if kills:
        lines.append(f"- Kills: {kills['kills']} SIGKILLs of `banker run --simulated` over {kills['requests']:,} "
                     f"phone requests and {kills['table_rounds']} table rounds ({kills['actions']:,} actions "
                     f"journaled); {kills['resent']} requests resent after a kill with their key, "
                     f"{kills['already_done']} of them already done: {kills['lost']} acknowledged actions lost.")
    run = results.get("session")
    if run:
        lines.append(f"- Table session: {run['minutes']} minutes with phones attached, {run['actions']:,} actions "
                     f"({run['phone_requests']:,} phone requests, {run['table_rounds']} table rounds): "
                     f"{run['violations']} violations; memory (VmRSS) {run['rss_mb_start']} MB at the start, "
                     f"{run['rss_mb_settled']} MB after the first quarter (at most 5 minutes), "
                     f"{run['rss_mb_end']} MB at the end, {run['rss_mb_max']} MB at most (after the first quarter "
                     f"{run.get('rss_mb_per_hour_after_settled')} MB an hour); file descriptors "
                     f"{run['fds_start']} → {run['fds_end']} ({run.get('streams_closed_s')} s after the phones "
                     f"closed their streams), threads {run['threads_start']} → {run['threads_end']}.")
        if run.get("rss_mb_timeline"):
            lines.append("  VmRSS over the session (minute: MB): " + ", ".join(
                f"{minute}: {mb}" for minute, mb in run["rss_mb_timeline"])
                + f"; in the last third {run.get('rss_mb_per_hour_last_third')} MB an hour.")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The long robustness runs of the table program.")
    parser.add_argument("--games", type=int, default=100_000, help="self-play games (0: skip)")
    parser.add_argument("--kills", type=int, default=200, help="SIGKILLs of the running program (0: skip)")
    parser.add_argument("--session-minutes", type=float, default=60.0, help="the table session (0: skip)")
    parser.add_argument("--processes", type=int, help="self-play processes (default: one per core)")
    parser.add_argument("--compiled", type=Path, help="self-play on this compiled build of the engine "
                                                      "(make compiled: build/compiled)")
    parser.add_argument("--write", help="replace the soak section of this Markdown file (docs/performance.md)")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {}
    failed = False
    if args.games:
        results["selfplay"] = play = selfplay(args.games, workers=args.processes, compiled=args.compiled)
        print(f"self-play: {play}", flush=True)
        failed |= play["violations"] > 0
    if args.kills:
        with tempfile.TemporaryDirectory() as tmp:
            started = time.monotonic()
            try:
                totals = kill.run(args.kills, Path(tmp), log=sys.stdout)
                lost = 0
            except (kill.LostAction, ProgramError) as error:
                print(f"kills FAILED: {type(error).__name__}: {error}")
                failed, lost, totals = True, 1, kill.Totals()
        results["kills"] = {"kills": totals.kills, "requests": totals.requests, "table_rounds": totals.table_rounds,
                            "actions": totals.actions, "resent": totals.retried,
                            "already_done": totals.retried_already_done, "lost": lost,
                            "seconds": round(time.monotonic() - started)}
        print(f"kills: {results['kills']}", flush=True)
    if args.session_minutes:
        with tempfile.TemporaryDirectory() as tmp:
            results["session"] = run = session(args.session_minutes, Path(tmp))
        print(f"session: {run}", flush=True)
        failed |= run["violations"] > 0
    text = markdown(results)
    print(text)
    if args.write:
        path = Path(args.write)
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        head = old[:old.index(SOAK_MARK)] if SOAK_MARK in old else old
        path.write_text(head + text, encoding="utf-8")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
