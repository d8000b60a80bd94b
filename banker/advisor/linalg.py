"""The stationary distribution of a small Markov chain, in pure Python.

A chain of the board has about 120 states; state reduction on a dense list of rows solves it in a
few milliseconds, which is all the advisor needs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from banker.errors import BadInput


def stationary(rows: Sequence[Mapping[int, float]]) -> list[float]:
    """The distribution ``pi`` with ``pi P = pi`` and ``sum(pi) = 1`` for the chain ``P``.

    ``rows[i]`` maps each state reachable in one step from state ``i`` to its probability. The chain
    must be irreducible (every state reachable from every other).

    The method is Grassmann-Taksar-Heyman state reduction: states are censored out one by one from
    the last, which needs no subtraction and so keeps full precision. Its cost is lowest when the
    states entered from few others come last.

    Raises :class:`BadInput` if a row does not sum to 1 or the chain is not irreducible.
    """
    size = len(rows)
    if size == 0:
        raise BadInput("advisor_bad_chain", problem="no states")
    matrix = [[0.0] * size for _ in range(size)]
    for i, transitions in enumerate(rows):
        total = 0.0
        for j, probability in transitions.items():
            matrix[i][j] += probability
            total += probability
        if abs(total - 1.0) > 1e-9:
            raise BadInput("advisor_bad_chain", problem=f"row {i} sums to {total!r}")
    for k in range(size - 1, 0, -1):
        last = matrix[k]
        leaving = sum(last[:k])
        if leaving <= 0.0:
            raise BadInput("advisor_bad_chain", problem=f"state {k} is not left for the others")
        head = last[:k]
        for i in range(k):
            row = matrix[i]
            entering = row[k]
            if entering != 0.0:
                factor = entering / leaving
                row[k] = factor
                row[:k] = [a + factor * b for a, b in zip(row[:k], head, strict=True)]
    pi = [0.0] * size
    pi[0] = 1.0
    for k in range(1, size):
        pi[k] = sum(pi[i] * matrix[i][k] for i in range(k))
    total = sum(pi)
    return [x / total for x in pi]
