"""``banker bench``: how fast the engine, the journal and a resume are on this machine."""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

EXAMPLES = """examples:
  banker bench
  banker bench --json --resume-actions 5000 --commits 500"""


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="measure the engine, the journal and resuming a game",
                       description="How fast the engine, the journal and a resume are on this machine.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--resume-actions", type=int, default=2000,
                   help="length of the game replayed and resumed (at least 2; default 2000)")
    p.add_argument("--commits", type=int, default=300,
                   help="journal commits timed for the latency figures (at least 1; default 300)")
    p.add_argument("--all", action="store_true", help="also the hardware and advisor figures")
    p.set_defaults(func=run)


def game_actions(count: int, seed: int = 7) -> list[Any]:
    """A long, legal action sequence from self-play (games chained until ``count`` actions)."""
    from banker.sim.cli import lineup
    from banker.sim.game import Game

    game = Game(seed, lineup(seed, 4), check=True)
    game.play(max_turns=100_000)
    actions = list(game.log)
    while len(actions) < count:
        seed += 1
        more = Game(seed, lineup(seed, 4), check=True)
        more.play(max_turns=100_000)
        if len(more.log) > len(actions):
            actions = list(more.log)
    return actions[:count]


def bench_engine(actions: list[Any]) -> dict[str, float]:
    from banker.engine import apply

    rounds = 5
    started = time.perf_counter()
    for _ in range(rounds):
        state = None
        for action in actions:
            state, _ = apply(state, action)
    elapsed = time.perf_counter() - started
    return {"engine_actions_per_second": round(rounds * len(actions) / elapsed)}


def bench_journal(actions: list[Any], commits: int) -> dict[str, Any]:
    from banker.engine import apply
    from banker.journal import Journal

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.sqlite3"
        journal = Journal(path)
        state, events = apply(None, actions[0])
        game_id = journal.create_game(actions[0], events, 0.0)
        latencies: list[float] = []
        for action in actions[1:]:
            state, events = apply(state, action)
            started = time.perf_counter()
            journal.append(game_id, state.seq, action, events, 0.0)
            if len(latencies) < commits:
                latencies.append(time.perf_counter() - started)
        journal.close()
        latencies.sort()
        reopened = Journal(path)
        started = time.perf_counter()
        resumed = reopened.load(game_id)
        resume = time.perf_counter() - started
        reopened.close()
        assert resumed.seq == state.seq
    return {
        "journal_synchronous": "FULL",
        "commit_median_ms": round(statistics.median(latencies) * 1000, 3),
        "commit_p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 3),
        "resume_actions": len(actions),
        "resume_seconds": round(resume, 4),
    }


def bench_sim(games: int = 200) -> dict[str, float]:
    from banker.sim.cli import simulate

    checked = simulate(games, 4, 11, check=True)
    unchecked = simulate(games, 4, 11, check=False)
    return {
        "sim_games_per_second_checked": checked["games_per_second"],
        "sim_games_per_second_unchecked": unchecked["games_per_second"],
        "sim_mean_actions": checked["mean_actions"],
    }


def run_bench(resume_actions: int = 2000, commits: int = 300) -> dict[str, Any]:
    actions = game_actions(resume_actions)
    figures: dict[str, Any] = {}
    figures.update(bench_engine(actions))
    figures.update(bench_journal(actions, commits))
    figures.update(bench_sim())
    return figures


def run(args: argparse.Namespace) -> int:
    import sys

    if args.resume_actions < 2:
        print("--resume-actions must be at least 2", file=sys.stderr)
        return 2
    if args.commits < 1:
        print("--commits must be at least 1", file=sys.stderr)
        return 2
    figures = run_bench(args.resume_actions, args.commits)
    if args.all:
        for module in ("hardware.bench", "banker.advisor.bench"):
            try:
                extra = __import__(module, fromlist=["run_bench"]).run_bench()
            except ImportError:
                continue
            figures.update({f"{module.split('.')[-2]}_{k}": round(v, 3) if isinstance(v, float) else v
                            for k, v in extra.items()})
    if args.json:
        print(json.dumps(figures))
    else:
        width = max(len(k) for k in figures)
        for key, value in figures.items():
            print(f"{key:<{width}}  {value}")
    return 0
