"""Fingerprints of seeded self-play games: proof that a change to the engine or the bots plays the same games.

    python benchmarks/fingerprint.py --games 300 > /tmp/before.json
    python benchmarks/fingerprint.py --games 300 --compare /tmp/before.json

Each game is the one ``banker sim --seed 1 --players 4`` plays as its i-th game; its fingerprint is the
SHA-256 of its whole action log, one JSON line per action.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path


def fingerprints(games: int, players: int = 4, seed: int = 1, check: bool = True) -> list[str]:
    from banker.sim.cli import lineup
    from banker.sim.game import Game

    prints = []
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        game = Game(game_seed, lineup(game_seed, players), check=check)
        game.play()
        digest = hashlib.sha256("".join(a.to_line() + "\n" for a in game.log).encode()).hexdigest()
        prints.append(digest[:16])
    return prints


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--compare", type=Path, help="a file this script wrote before: exit 1 on any difference")
    args = parser.parse_args()
    prints = fingerprints(args.games, args.players, args.seed)
    if args.compare is None:
        print(json.dumps(prints, indent=0))
        return 0
    before = json.loads(args.compare.read_text())
    differ = [i for i, (a, b) in enumerate(zip(before, prints, strict=False)) if a != b]
    if differ or len(before) < len(prints):
        print(f"{len(differ)} of {len(prints)} games differ, first game {differ[:10]}", file=sys.stderr)
        return 1
    print(f"all {len(prints)} games are the same")
    return 0


if __name__ == "__main__":
    sys.exit(main())
