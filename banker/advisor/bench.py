"""Timings of the advisor for ``banker bench``."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from banker.advisor.markov import MoveRules, solve_chain
from banker.advisor.payback import deed_table, payback_table
from banker.edition import load_edition

RUNS = 7


def run_bench() -> dict[str, float]:
    """Median milliseconds to build and solve the US chain (short and long jail stay) and the tables."""
    edition = load_edition("us")
    results: dict[str, float] = {}
    for jail in ("short", "long"):
        rules = MoveRules(jail=jail)

        def solve(rules: MoveRules = rules) -> None:
            solve_chain(edition, rules)

        results[f"solve_{jail}_ms"] = _median_ms(solve)
    landing = solve_chain(edition, MoveRules())

    def tables() -> None:
        payback_table(edition, landing)
        deed_table(edition, landing)

    results["tables_ms"] = _median_ms(tables)
    return results


def _median_ms(work: Callable[[], object]) -> float:
    times: list[float] = []
    for _ in range(RUNS):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times)
