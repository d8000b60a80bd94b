"""The advisor: where tokens land in the long run, and how fast each purchase pays for itself.

* :func:`landing_distribution` — the exact long-run share of throws ending on each square
  (:mod:`banker.advisor.markov`), for an edition and the movement house rules (:class:`MoveRules`).
* :func:`payback_table`, :func:`deed_table` — expected rent per opponent throw and the throws each
  purchase takes to pay back (:mod:`banker.advisor.payback`).
* :func:`advise_build`, :func:`advise_builds`, :func:`income_per_throw` — advice for a player of a game
  in progress (:mod:`banker.advisor.game`); :func:`build_options` for holdings given directly.
* :func:`player_advice`, :func:`next_building_line` — one player's groups, their next purchases and
  what the deeds for sale are worth to them, priced and allowed by the engine
  (:mod:`banker.advisor.player`, :mod:`banker.advisor.offers`); as JSON in :mod:`banker.advisor.export`.
* :func:`board_svg` — the board as a heat map (:mod:`banker.advisor.heatmap`).
"""

from banker.advisor.build import BuildOption, Holdings, best_build, build_options
from banker.advisor.game import advise_build, advise_builds, holdings_of, income_per_throw
from banker.advisor.heatmap import board_svg
from banker.advisor.markov import IN_JAIL, Landing, MoveRules, landing_distribution
from banker.advisor.payback import (
    DeedPayback,
    GroupPayback,
    Step,
    deed_payback,
    deed_table,
    group_payback,
    payback_table,
    rent_per_throw,
)
from banker.advisor.player import PlayerAdvice, next_building_line, player_advice

__all__ = [
    "IN_JAIL",
    "BuildOption",
    "DeedPayback",
    "GroupPayback",
    "Holdings",
    "Landing",
    "MoveRules",
    "PlayerAdvice",
    "Step",
    "advise_build",
    "advise_builds",
    "best_build",
    "board_svg",
    "build_options",
    "deed_payback",
    "deed_table",
    "group_payback",
    "holdings_of",
    "income_per_throw",
    "landing_distribution",
    "next_building_line",
    "payback_table",
    "player_advice",
    "rent_per_throw",
]
