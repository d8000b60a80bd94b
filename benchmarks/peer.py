"""Self-play speed beside the public simulator github.com/gamescomputersplay/monopoly, in one interleaved run.

    git clone https://github.com/gamescomputersplay/monopoly /tmp/peer
    make compiled                     # optional: also the compiled build of the same engine (banker.native)
    .venv/bin/python benchmarks/peer.py --peer /tmp/peer --rounds 3 --games 300

Each measurement is a fresh single process (no multiprocessing, logs off), and the measurements alternate
(ours checked, ours unchecked, the same two on the compiled build when it is built and current, the peer;
again …) so that a noisy machine slows all of them alike. The figure to
read is the ratio. A "turn" is one player's turn (rolling again after a double is the same turn) on both sides.
The peer's path may also come from the PEER_MONOPOLY environment variable; without it, ours alone is measured.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys

from banker.sim.peer import compiled_build, measure_ours, measure_peer, peer_path, rates


def markdown(rows: list[dict[str, float]], keys: list[str], means: dict[str, float], games: int) -> str:
    from datetime import UTC, datetime

    from firmware.bench import machine

    when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    heads = [f"round {row['round']:.0f}" for row in rows] + (["median"] if len(rows) > 1 else [])
    lines = [f"`benchmarks/peer.py`, {len(rows)} interleaved rounds of {games} games of 4 players each, {when} on "
             f"{machine()}.", "", "| | " + " | ".join(heads) + " |", "|---|" + "---|" * len(heads)]
    for key in keys:
        values = [row[key] for row in rows] + ([statistics.median(r[key] for r in rows)] if len(rows) > 1 else [])
        lines.append(f"| {key} | " + " | ".join(f"{v:,}" if v >= 1000 else f"{v}" for v in values) + " |")
    lines += ["", "Mean turns a game: " + ", ".join(f"{k} {v:.1f}" for k, v in means.items()) + "."]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--peer", help="a checkout of gamescomputersplay/monopoly (or set PEER_MONOPOLY)")
    parser.add_argument("--games", type=int, default=300, help="games per measurement (default 300)")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (at least 3 to report; default 3)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown, with the machine")
    args = parser.parse_args()
    peer = peer_path(args.peer)
    if peer is None:
        print("no peer simulator (--peer or PEER_MONOPOLY naming a checkout of gamescomputersplay/monopoly): "
              "measuring ours alone", file=sys.stderr)
    compiled = compiled_build()
    if compiled is None:
        print("no current compiled build (make compiled): measuring the Python build alone", file=sys.stderr)
    runs: dict[str, list[dict[str, float]]] = {"checked": [], "unchecked": [], "peer": []}
    if compiled is not None:
        runs.update({"compiled_checked": [], "compiled_unchecked": []})
    for _ in range(args.rounds):
        runs["checked"].append(measure_ours(args.games, check=True))
        runs["unchecked"].append(measure_ours(args.games, check=False))
        if compiled is not None:
            runs["compiled_checked"].append(measure_ours(args.games, check=True, compiled=compiled))
            runs["compiled_unchecked"].append(measure_ours(args.games, check=False, compiled=compiled))
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
            for name in [k for k in runs if k != "peer" and runs[k]]:
                row[f"{name}_games_ratio"] = round(row[f"{name}_games_s"] / row["peer_games_s"], 2)
                row[f"{name}_turns_ratio"] = round(row[f"{name}_turns_s"] / row["peer_turns_s"], 2)
        rows.append(row)
    means = {name: statistics.mean(r["turns"] / r["games"] for r in results)
             for name, results in runs.items() if results}
    if args.json:
        print(json.dumps({"rounds": rows, "mean_turns_per_game": means}))
        return 0
    keys = [k for k in rows[0] if k != "round"]
    if args.markdown:
        print(markdown(rows, keys, means, args.games))
        return 0
    width = max(len(k) for k in keys)
    heads = [f"round {row['round']}" for row in rows] + (["median"] if len(rows) > 1 else [])
    print(f"{'':<{width}}  " + "  ".join(f"{h:>9}" for h in heads))
    for key in keys:
        values = [row[key] for row in rows] + ([statistics.median(r[key] for r in rows)] if len(rows) > 1 else [])
        print(f"{key:<{width}}  " + "  ".join(f"{v:>9}" for v in values))
    print("mean turns a game: " + ", ".join(f"{k} {v:.1f}" for k, v in means.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
