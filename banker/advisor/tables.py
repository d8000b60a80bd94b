"""What the advisor's figures for a game depend on, and the key to keep them by.

The figures (``banker advise``'s landing shares and payback tables, the heat map) depend only on the
board, the decks and the few rules that change how tokens move and how high streets are built
(:class:`Assumptions`), never on the play so far: whoever shows them (the phone page) computes them
once per :func:`figures_key` and keeps them.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from banker.advisor.markov import MoveRules
from banker.advisor.payback import MAX_HOUSES
from banker.edition import Edition
from banker.rules import Rules


@dataclass(frozen=True, slots=True)
class Assumptions:
    """What the advisor's figures depend on besides the board: how tokens move and when a hotel comes."""

    move: MoveRules = MoveRules()
    max_houses: int = MAX_HOUSES

    @classmethod
    def of(cls, rules: Rules, *, jail: str = "short", fine_or_chance: str = "pay") -> Assumptions:
        """The assumptions for a game played by ``rules``.

        How long a player stays in jail and whether they take the Chance card instead of a fine are the
        players' choices each time, so the caller says which to assume: by default the short stay and
        the fine, as the published tables do. Raises :class:`BadInput` for an unknown choice.
        """
        return cls(MoveRules(jail=jail, fine_or_chance=fine_or_chance), rules.max_houses)


def figures_key(edition: Edition, assumptions: Assumptions) -> Hashable:
    """Equal for two games exactly when their advisor figures are equal."""
    decks = tuple(sorted(edition.decks.items()))
    return edition.id, edition.squares, edition.properties, decks, assumptions
