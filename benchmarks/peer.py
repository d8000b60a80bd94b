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
import statistics
import sys

from banker.sim.peer import measure_ours, measure_peer, peer_path, rates


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", help="a checkout of gamescomputersplay/monopoly (or set PEER_MONOPOLY)")
    parser.add_argument("--games", type=int, default=300, help="games per measurement (default 300)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (at least 3 to report; default 3)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    peer = peer_path(args.peer)
    if peer is None:
        print("no peer simulator (--peer or PEER_MONOPOLY naming a checkout of gamescomputersplay/monopoly): "
              "measuring ours alone", file=sys.stderr)
    runs: dict[str, list[dict[str, float]]] = {"checked": [], "unchecked": [], "peer": []}
    for _ in range(args.rounds):
        runs["checked"].append(measure_ours(args.games, check=True))
        runs["unchecked"].append(measure_ours(args.games, check=False))
        if peer is not None:
            runs["peer"].append(measure_peer(peer, args.games))
    rows = []
    for rnd in range(args.rounds):
        row: dict[str, float] = {"round": rnd + 1}
        for name, results in runs.items():
            if results:
                games_s, turns_s = rates(results[rnd])
                row[f"{name}_games_s"] = round(games_s, 1)
                row[f"{name}_turns_s"] = round(turns_s)
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
    print("round  " + "  ".join(f"{k:>21}" for k in keys))
    for row in rows:
        print(f"{row['round']:>5}  " + "  ".join(f"{row[k]:>21}" for k in keys))
    if len(rows) > 1:
        print("median " + "  ".join(f"{statistics.median(r[k] for r in rows):>21}" for k in keys))
    print("mean turns a game: " + ", ".join(f"{k} {v:.1f}" for k, v in means.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
