"""Self-play speed beside the public simulator github.com/gamescomputersplay/monopoly, in one interleaved run.

    git clone https://github.com/gamescomputersplay/monopoly /tmp/peer
    .venv/bin/python benchmarks/peer.py --peer /tmp/peer --rounds 3 --games 300

Each measurement is a fresh single process (no multiprocessing, logs off), and the measurements alternate
(ours checked, ours unchecked, the peer; again …) so that a noisy machine slows all of them alike. The figure to
read is the ratio. A "turn" is one player's turn (rolling again after a double is the same turn) on both sides.
The peer's path may also come from the PEER_MONOPOLY environment variable; without it, ours alone is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

OURS = """
import json, time
from banker.sim.cli import simulate
s = simulate({games}, 4, 1, check={check})
print(json.dumps({{"games": s["games"], "seconds": s["seconds"], "turns": s["mean_turns"] * s["games"]}}))
"""

# The peer's own game loop (monopoly.core.game.monopoly_game) with its seeds drawn as its scripts/simulate.py
# draws them; its logs are disabled, and top-level moves (not the re-roll after a double) are counted as turns.
PEER = """
import json, random, sys, time
sys.path.insert(0, {path!r})
import monopoly.core.game as game
from monopoly.core.player import Player
from monopoly.log import Log
from monopoly.log_settings import LogSettings
LogSettings.KEEP_GAME_LOG = False
game.Log = lambda name, disabled=False: Log(name, disabled=True)
turns = 0
move = Player.make_a_move
def counted(self, *args):
    global turns
    if not self.is_bankrupt and not self.had_doubles:
        turns += 1
    return move(self, *args)
Player.make_a_move = counted
rng = random.Random(0)
pairs = [(i + 1, rng.getrandbits(32)) for i in range({games})]
started = time.perf_counter()
for pair in pairs:
    game.monopoly_game(pair)
elapsed = time.perf_counter() - started
print(json.dumps({{"games": {games}, "seconds": elapsed, "turns": turns}}))
"""


def measure(code: str, cwd: Path | None = None) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=cwd)
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", type=Path, default=os.environ.get("PEER_MONOPOLY"),
                        help="a checkout of gamescomputersplay/monopoly (or set PEER_MONOPOLY)")
    parser.add_argument("--games", type=int, default=300, help="games per measurement (default 300)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (at least 3 to report; default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    peer: Path | None = args.peer
    if peer is not None and not (peer / "monopoly" / "core" / "game.py").is_file():
        print(f"no peer simulator at {peer}: measuring ours alone", file=sys.stderr)
        peer = None
    elif peer is None:
        print("no peer simulator given (--peer or PEER_MONOPOLY): measuring ours alone", file=sys.stderr)
    runs: dict[str, list[dict[str, float]]] = {"checked": [], "unchecked": [], "peer": []}
    for _ in range(args.rounds):
        runs["checked"].append(measure(OURS.format(games=args.games, check=True)))
        runs["unchecked"].append(measure(OURS.format(games=args.games, check=False)))
        if peer is not None:
            runs["peer"].append(measure(PEER.format(games=args.games, path=str(peer.resolve())), cwd=peer))
    rows = []
    for rnd in range(args.rounds):
        row: dict[str, float] = {"round": rnd + 1}
        for name, results in runs.items():
            if results:
                r = results[rnd]
                row[f"{name}_games_s"] = round(r["games"] / r["seconds"], 1)
                row[f"{name}_turns_s"] = round(r["turns"] / r["seconds"])
        if peer is not None:
            for name in ("checked", "unchecked"):
                row[f"{name}_games_ratio"] = round(row[f"{name}_games_s"] / row["peer_games_s"], 2)
                row[f"{name}_turns_ratio"] = round(row[f"{name}_turns_s"] / row["peer_turns_s"], 2)
        rows.append(row)
    means = {name: statistics.mean(r["turns"] / r["games"] for r in results)
             for name, results in runs.items() if results}
    if args.json:
        print(json.dumps({"rounds": rows, "mean_turns_per_game": means}))
        return 0
    keys = [k for k in rows[0] if k != "round"]
    print("round  " + "  ".join(f"{k:>20}" for k in keys))
    for row in rows:
        print(f"{row['round']:>5}  " + "  ".join(f"{row[k]:>20}" for k in keys))
    if peer is not None and len(rows) > 1:
        print("median " + "  ".join(f"{statistics.median(r[k] for r in rows):>20}" for k in keys))
    print("mean turns a game: " + ", ".join(f"{k} {v:.1f}" for k, v in means.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
