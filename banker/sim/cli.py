"""``banker sim``: many seeded games, a progress bar, and what they show."""

from __future__ import annotations

import argparse
import gc
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from banker.sim.strategies import STRATEGIES, Strategy

SIM_GC_THRESHOLD = 10_000
"""Allocations between two young-generation passes of the cyclic garbage collector during self-play."""

EXAMPLES = """examples:
  banker sim --games 200 --players 4 --seed 1
  banker sim --games 50 --players 3 --rules '{"short_game": true}' --json
  banker sim --games 100000 --quiet --compiled    # about twice as fast: the same engine compiled (banker.native)
A failure prints its seed and writes the script that reproduces it (sim-failure-seedN.jsonl)."""


def register(sub: Any) -> None:
    p = sub.add_parser("sim", help="bots play complete games through the engine",
                       description="Bots play complete games through the engine; every invariant is checked "
                                   "after every action.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=100, help="how many games to play (at least 1; default 100)")
    p.add_argument("--players", type=int, default=4, help="players in each game, 2 to 8 (default 4)")
    p.add_argument("--seed", type=int, default=1, help="the seed: the same seed plays the same games (default 1)")
    p.add_argument("--edition", default="us", help="the board: us, uk or ru (default us)")
    p.add_argument("--rules", default="{}", help='house rules as a JSON object, e.g. \'{"short_game": true}\'')
    p.add_argument("--max-turns", type=int, default=1000,
                   help="turns before end_game (the timed ending; at least 1, default 1000)")
    p.add_argument("--no-check", action="store_true", help="skip the invariant check after every action")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.add_argument("--compiled", action="store_true",
                   help="play on the engine and bots compiled with mypyc from the same source (built into "
                        "build/compiled the first time, about 30 s; needs a C compiler)")
    p.set_defaults(func=run)


CHILD = "import sys; sys.path.insert(0, sys.argv[1]); from banker.cli import main; sys.exit(main(sys.argv[2:]))"


def run_compiled(args: argparse.Namespace) -> int:
    """``banker sim`` again, in a child process that imports the compiled build first."""
    import subprocess

    from banker.native import DEFAULT_OUT, build

    try:
        if build(DEFAULT_OUT):
            print(f"built the compiled engine in {DEFAULT_OUT}", file=sys.stderr)
    except (RuntimeError, OSError) as error:
        print(f"banker sim --compiled: the compiled engine could not be built ({str(error).splitlines()[0]}). "
              "It needs mypy, a C compiler and Python's headers (Debian, Raspberry Pi OS: sudo apt install "
              "build-essential python3-dev); or play without --compiled", file=sys.stderr)
        return 1
    argv = ["sim", "--games", str(args.games), "--players", str(args.players), "--seed", str(args.seed),
            "--edition", args.edition, "--rules", args.rules, "--max-turns", str(args.max_turns)]
    argv += [flag for flag, on in (("--no-check", args.no_check), ("--quiet", args.quiet), ("--json", args.json))
             if on]
    return subprocess.run([sys.executable, "-c", CHILD, str(DEFAULT_OUT), *argv], check=False).returncode


def lineup(game_seed: int, players: int) -> list[Strategy]:
    """Strategies for one game: every strategy in turn, seats shuffled by the game's seed."""
    names = sorted(STRATEGIES)
    chosen = [STRATEGIES[names[i % len(names)]] for i in range(players)]
    random.Random(game_seed * 7919 + 1).shuffle(chosen)
    return chosen


def simulate(games: int, players: int, seed: int, edition: str = "us", rules: dict[str, Any] | None = None,
             check: bool = True, max_turns: int = 1000, progress: bool = False) -> dict[str, Any]:
    from banker.native import is_native
    from banker.sim.game import play_game

    ended: Counter[str] = Counter()
    wins_by_strategy: Counter[str] = Counter()
    seats_by_strategy: Counter[str] = Counter()
    wins_by_seat: Counter[int] = Counter()
    turns = actions = 0
    iterator: Any = range(games)
    if progress:
        from tqdm import tqdm  # type: ignore[import-untyped]

        iterator = tqdm(iterator, unit="game", file=sys.stderr)
    # Every action builds a few dozen short-lived objects and almost none in a reference cycle: the cyclic
    # collector's default (a young-generation pass every 700 allocations) costs self-play about 10 % for nothing.
    thresholds = gc.get_threshold()
    gc.set_threshold(SIM_GC_THRESHOLD, *thresholds[1:])
    started = time.perf_counter()
    try:
        for i in iterator:
            game_seed = seed * 1_000_003 + i
            strategies = lineup(game_seed, players)
            result = play_game(game_seed, strategies, edition=edition, rules=rules, check=check, max_turns=max_turns)
            ended[result.ended_by] += 1
            turns += result.turns
            actions += max(0, result.actions)
            for s in result.strategies:
                seats_by_strategy[s] += 1
            if result.winner_seat is not None:
                wins_by_strategy[result.strategies[result.winner_seat]] += 1
                wins_by_seat[result.winner_seat] += 1
    finally:
        gc.set_threshold(*thresholds)
    elapsed = time.perf_counter() - started
    total_wins = sum(wins_by_strategy.values())
    return {
        "games": games,
        "players": players,
        "seed": seed,
        "checked": check,
        "compiled": is_native(),
        "seconds": round(elapsed, 3),
        "games_per_second": round(games / elapsed, 1) if elapsed else 0.0,
        "mean_turns": round(turns / games, 1) if games else 0.0,
        "mean_actions": round(actions / games, 1) if games and check else None,
        "actions_per_second": round(actions / elapsed) if elapsed and check else None,
        "ended_by": dict(ended),
        "win_share_by_strategy": {
            s: round(wins_by_strategy[s] / total_wins, 3) if total_wins else 0.0 for s in sorted(seats_by_strategy)
        },
        "win_rate_by_strategy": {
            s: round(wins_by_strategy[s] / seats_by_strategy[s], 3) for s in sorted(seats_by_strategy)
        },
        "win_share_by_seat": {f"seat {k + 1}": round(wins_by_seat[k] / games, 3) for k in range(players)},
    }


def run(args: argparse.Namespace) -> int:
    from banker.errors import BankerError
    from banker.sim.game import InvariantViolation

    try:
        rules = json.loads(args.rules)
    except (json.JSONDecodeError, RecursionError, ValueError) as exc:
        print(f"--rules is not JSON: {getattr(exc, 'msg', exc)}", file=sys.stderr)
        return 2
    if not isinstance(rules, dict):
        print('--rules must be a JSON object, e.g. \'{"short_game": true}\'', file=sys.stderr)
        return 2
    if not 2 <= args.players <= 8:
        print("--players must be 2 to 8", file=sys.stderr)
        return 2
    if args.games < 1:
        print("--games must be at least 1", file=sys.stderr)
        return 2
    if args.max_turns < 1:
        print("--max-turns must be at least 1", file=sys.stderr)
        return 2
    if getattr(args, "compiled", False):
        from banker.native import is_native

        if not is_native():
            return run_compiled(args)
    try:
        summary = simulate(args.games, args.players, args.seed, args.edition, rules, not args.no_check,
                           args.max_turns, progress=not args.quiet)
    except InvariantViolation as exc:
        path = Path(f"sim-failure-seed{exc.seed}.jsonl")
        path.write_text(exc.script(), encoding="utf-8")
        print(f"self-play failed: {exc}\nreproduce with: banker replay {path}", file=sys.stderr)
        return 1
    except BankerError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(summary))
        return 0
    print(f"{summary['games']} games of {summary['players']} players in {summary['seconds']} s: "
          f"{summary['games_per_second']} games/s"
          + ("" if summary["checked"] else " (invariant checks off)")
          + (" on the compiled engine" if summary["compiled"] else ""))
    print(f"mean length: {summary['mean_turns']} turns"
          + (f", {summary['mean_actions']} actions ({summary['actions_per_second']} actions/s)"
             if summary["checked"] else ""))
    print("ended by: " + ", ".join(f"{k} {v}" for k, v in sorted(summary["ended_by"].items())))
    print("share of the wins by strategy: "
          + ", ".join(f"{k} {v:.1%}" for k, v in summary["win_share_by_strategy"].items()))
    print("games won per game played, by strategy: "
          + ", ".join(f"{k} {v:.1%}" for k, v in summary["win_rate_by_strategy"].items()))
    print("share of the wins by seat: " + ", ".join(f"{k} {v:.1%}" for k, v in summary["win_share_by_seat"].items()))
    return 0
