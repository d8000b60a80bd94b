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
  banker bench --json --resume-actions 20000 --commits 500
  PEER_MONOPOLY=/tmp/peer banker bench     # also the ratio to github.com/gamescomputersplay/monopoly"""


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
    p.add_argument("--peer", help="a checkout of github.com/gamescomputersplay/monopoly to compare self-play with "
                                  "(default: $PEER_MONOPOLY; without either the ratio is left out)")
    p.set_defaults(func=run)


def game_actions(count: int, seed: int = 7) -> list[Any]:
    """A long, legal action sequence from self-play: rich bots (nobody goes bankrupt) play until ``count``."""
    from banker.sim.cli import lineup
    from banker.sim.game import Game, accepted_actions

    game = Game(seed, lineup(seed, 4), rules={"starting_cash": 1_000_000}, check=False)
    game.play(max_turns=count)
    return list(accepted_actions(game.log)[:count])


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


def bench_offers(rounds: int = 30) -> dict[str, Any]:
    """``legal_actions`` at the start of a 4-player game: how many actions it finds, and its median time."""
    from banker.actions import NewGame
    from banker.engine import apply
    from banker.offer import legal_actions

    state, _ = apply(None, NewGame("us", ("Ann", "Bob", "Cy", "Dan"), {}, seed=1))
    found = legal_actions(state)
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        legal_actions(state)
        times.append(time.perf_counter() - started)
    return {"legal_actions_found": len(found), "legal_actions_ms": round(statistics.median(times) * 1000, 2)}


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
            journal.append(game_id, state.seq, action, events, 0.0, state=state)
            if len(latencies) < commits:
                latencies.append(time.perf_counter() - started)
        journal.close()
        latencies.sort()
        reopened = Journal(path)
        started = time.perf_counter()
        resumed = reopened.load(game_id)
        resume = time.perf_counter() - started
        started = time.perf_counter()
        replayed = reopened.replay(game_id)
        replay = time.perf_counter() - started
        reopened.close()
        assert resumed == replayed == state
    return {
        "journal_synchronous": "FULL",
        "commit_median_ms": round(statistics.median(latencies) * 1000, 3),
        "commit_p99_ms": round(latencies[int(len(latencies) * 0.99) - 1] * 1000, 3),
        "resume_actions": len(actions),
        "resume_seconds": round(resume, 4),
        "resume_full_replay_seconds": round(replay, 4),
    }


def bench_sim(games: int = 200, peer: str | None = None) -> dict[str, Any]:
    """Self-play games and turns per second, invariants checked and not, on the Python build and on the
    compiled one (:mod:`banker.native`) when it is built and current, and their ratio to the peer
    simulator's when its checkout is given (each measured in a fresh process, in turn)."""
    from banker.sim.peer import compiled_build, measure_ours, measure_peer, peer_path, rates

    figures: dict[str, Any] = {}
    compiled = compiled_build()
    builds: list[tuple[str, Path | None]] = [("", None)]
    if compiled is not None:
        builds.append(("compiled_", compiled))
    else:
        figures["sim_compiled"] = "not built (make compiled)"
    for prefix, path in builds:
        for name, check in (("checked", True), ("unchecked", False)):
            games_s, turns_s = rates(measure_ours(games, check, path))
            figures[f"sim_{prefix}games_per_second_{name}"] = round(games_s, 1)
            figures[f"sim_{prefix}turns_per_second_{name}"] = round(turns_s)
    path = peer_path(peer)
    if path is None:
        return figures
    games_s, turns_s = rates(measure_peer(path, games))
    figures["peer_games_per_second"] = round(games_s, 1)
    figures["peer_turns_per_second"] = round(turns_s)
    for prefix, _ in builds:
        for name in ("checked", "unchecked"):
            figures[f"sim_{prefix}games_ratio_to_peer_{name}"] = round(
                figures[f"sim_{prefix}games_per_second_{name}"] / games_s, 2)
            figures[f"sim_{prefix}turns_ratio_to_peer_{name}"] = round(
                figures[f"sim_{prefix}turns_per_second_{name}"] / turns_s, 2)
    return figures


def run_bench(resume_actions: int = 2000, commits: int = 300, peer: str | None = None) -> dict[str, Any]:
    actions = game_actions(resume_actions)
    figures: dict[str, Any] = {}
    figures.update(bench_engine(actions))
    figures.update(bench_offers())
    figures.update(bench_journal(actions, commits))
    figures.update(bench_sim(peer=peer))
    return figures


def run(args: argparse.Namespace) -> int:
    import sys

    if args.resume_actions < 2:
        print("--resume-actions must be at least 2", file=sys.stderr)
        return 2
    if args.commits < 1:
        print("--commits must be at least 1", file=sys.stderr)
        return 2
    figures = run_bench(args.resume_actions, args.commits, args.peer)
    if args.all:
        for module in ("hardware.bench", "banker.advisor.bench"):
            try:
                extra = __import__(module, fromlist=["run_bench"]).run_bench()
            except ImportError:
                continue
            figures.update({f"{module.split('.')[-2]}_{k}": round(v, 3) if isinstance(v, float) else v
                            for k, v in extra.items()})
    print_figures(figures, as_json=args.json)
    return 0


def print_figures(figures: dict[str, Any], *, as_json: bool) -> None:
    """The figures as one JSON object, or one aligned ``name  value`` line each."""
    if as_json:
        print(json.dumps(figures))
        return
    width = max(len(k) for k in figures)
    for key, value in figures.items():
        print(f"{key:<{width}}  {value}")
