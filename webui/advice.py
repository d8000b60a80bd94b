"""The strategy advisor on the phone: ``banker advise``'s figures, computed once per edition and house
rules and kept for every later request, and one player's advice from the current state."""

from __future__ import annotations

import json
import math
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from banker.advisor.export import player_json, tables_json
from banker.advisor.heatmap import NEUTRAL, board_svg, heat_colour
from banker.advisor.labels import group_name, number, percent, step_name
from banker.advisor.payback import GroupPayback, Step
from banker.advisor.player import PlayerAdvice, Valued, player_advice
from banker.advisor.report import Report, build_report, landing_rows
from banker.advisor.tables import Assumptions, figures_key
from banker.edition import Edition
from banker.errors import IllegalAction
from banker.messages import render
from banker.state import GameState

T = TypeVar("T")


class _Kept(Generic[T]):
    """Values computed once per key; a concurrent first request waits for the one computation."""

    LIMIT = 64
    """Far more combinations than a table uses (editions × jail stays × short game × languages): the
    bound only stops a hostile client from filling the memory."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._values: dict[Hashable, T] = {}

    def get(self, key: Hashable, make: Callable[[], T]) -> T:
        with self._lock:
            found = self._values.get(key)
            if found is None:
                found = make()
                if len(self._values) >= self.LIMIT:
                    self._values.clear()
                self._values[key] = found
            return found


class Figures:
    """The advisor's figures of each edition and house rules asked for: the landing shares and payback
    tables (:class:`banker.advisor.report.Report`) and the board heat map in each language."""

    def __init__(self) -> None:
        self._reports: _Kept[Report] = _Kept()
        self._maps: _Kept[str] = _Kept()
        self._tables: _Kept[str] = _Kept()

    def report(self, edition: Edition, assumptions: Assumptions) -> Report:
        return self._reports.get(figures_key(edition, assumptions), lambda: build_report(
            edition, assumptions.move, max_houses=assumptions.max_houses))

    def tables_json(self, edition: Edition, assumptions: Assumptions) -> str:
        """The tables as the JSON text of ``GET /api/advice`` (:func:`banker.advisor.export.tables_json`)."""
        return self._tables.get(figures_key(edition, assumptions), lambda: json.dumps(
            tables_json(self.report(edition, assumptions), assumptions), ensure_ascii=False))

    def heat_map(self, edition: Edition, assumptions: Assumptions, language: str) -> str:
        def draw() -> str:
            landing = self.report(edition, assumptions).landing
            return board_svg(edition, landing, language=language, max_houses=assumptions.max_houses)

        return self._maps.get((figures_key(edition, assumptions), language), draw)


@dataclass(frozen=True)
class Advice:
    state: GameState
    assumptions: Assumptions
    report: Report
    player: PlayerAdvice | None
    """None for a phone without a player (a watcher, the banker naming nobody) or whose player is out."""
    out: str | None = None
    """The phone's player when they are out of the game (bankrupt): they are advised nothing."""

    def to_json(self, figures: Figures, language: str) -> str:
        """The answer of ``GET /api/advice``: the kept tables' JSON with the player's part added."""
        tables = figures.tables_json(self.state.edition, self.assumptions)
        player = player_json(self.state, self.player, language) if self.player is not None else None
        return tables[:-1] + ', "player": ' + json.dumps(player, ensure_ascii=False) + "}"


def advice(figures: Figures, state: GameState, player: str | None, jail: str | None = None) -> Advice:
    """The figures of ``state``'s game (with the long stay in jail if ``jail`` says so) and the advice for
    ``player``.

    Raises:
        IllegalAction: the game plays without advice.
        BankerError: an unknown player or jail stay.
    """
    if not state.rules.advice:
        raise IllegalAction("advisor_off")
    assumptions = Assumptions.of(state.rules, jail=jail or "short")
    report = figures.report(state.edition, assumptions)
    if player and state.players[state.seat(player)].bankrupt:
        return Advice(state, assumptions, report, None, out=player)
    mine = player_advice(state, state.seat(player), report) if player else None
    return Advice(state, assumptions, report, mine)


class AdviceText:
    """The advisor's figures as the phone shows them, in the phone's language: numbers with one
    decimal (a decimal comma in Russian and Bulgarian), so a payback's text needs no plural forms."""

    def __init__(self, language: str, state: GameState) -> None:
        self.language = language
        self.state = state

    def number(self, value: float | None, digits: int = 1) -> str:
        return number(math.inf if value is None else value, self.language, digits)

    def percent(self, share: float) -> str:
        return percent(share, self.language)

    def group(self, group: str) -> str:
        return group_name(group, self.language)

    def step(self, step: Step) -> str:
        return step_name(step, self.language)

    def payback(self, throws: float, rounds: float) -> str:
        """"pays back in 9.4 opponent throws, 4.0 rounds"."""
        if math.isinf(throws):
            return render("web_strategy_never", {}, self.language)
        if math.isinf(rounds):
            return render("web_strategy_payback_throws", {"throws": self.number(throws)}, self.language)
        return render("web_strategy_payback", {"throws": self.number(throws), "rounds": self.number(rounds)},
                      self.language)

    def valued_payback(self, valued: Valued) -> str:
        return self.payback(valued.payback_throws, valued.payback_rounds)

    def step_payback(self, step: Step, per_round: float) -> str:
        throws = step.payback_throws
        return self.payback(throws, throws / per_round if per_round > 0 else math.inf)

    def purchase(self, valued: Valued) -> str:
        """"A house on New York Avenue ($100)"."""
        kind = valued.purchase.kind
        key = {"build": f"web_strategy_build_{valued.building}", "unmortgage": "web_strategy_unmortgage"}.get(
            kind, "web_strategy_buy")
        return render(key, {"property": valued.purchase.deed.name, "cost": self.state.money(valued.cost)},
                      self.language)

    def cell_colour(self, throws: float, fastest: float, slowest: float) -> tuple[str, str]:
        """Background and ink of a payback table's cell: the faster the payback, the hotter (a log scale);
        the ink is whichever of black and white reads better on it."""
        if math.isinf(throws) or throws <= 0 or fastest <= 0 or slowest <= fastest:
            return NEUTRAL, DARK_INK
        position = (math.log(slowest) - math.log(throws)) / (math.log(slowest) - math.log(fastest))
        background = heat_colour(1.0 + position, 1.0, 2.0)
        light = contrast(background, LIGHT_INK) > contrast(background, DARK_INK)
        return background, LIGHT_INK if light else DARK_INK

    def payback_matrix(self, groups: Sequence[GroupPayback]) -> list[tuple[str, list[tuple[str, str, str]]]]:
        """The published table: for each group, each step's payback (text, background, ink), the
        fastest hottest."""
        finite = [s.payback_throws for g in groups for s in g.steps if not math.isinf(s.payback_throws)]
        fastest, slowest = (min(finite), max(finite)) if finite else (1.0, 1.0)
        return [(g.group, [(self.number(s.payback_throws), *self.cell_colour(s.payback_throws, fastest, slowest))
                           for s in g.steps]) for g in groups]

    def squares(self, report: Report) -> list[tuple[int, str, str]]:
        """Every square (the jail square twice: just visiting, in jail) with its share of throws."""
        return [(row.square, row.name, self.percent(row.share))
                for row in landing_rows(report.edition, report.landing, self.language)]


DARK_INK = "#000000"
LIGHT_INK = "#ffffff"


def contrast(first: str, second: str) -> float:
    """The contrast ratio of two colours ("#rrggbb"), as WCAG 2 defines it (1 to 21)."""
    def luminance(colour: str) -> float:
        def channel(hex_pair: str) -> float:
            c = int(hex_pair, 16) / 255
            return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

        r, g, b = (channel(colour[i:i + 2]) for i in (1, 3, 5))
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    high, low = sorted((luminance(first), luminance(second)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def has_fine_or_chance(edition: Edition) -> bool:
    """Whether a deck has the "pay a fine or take a Chance" card, whose choice changes the figures."""
    return any(card.kind == "pay_or_draw" for deck in edition.decks.values() for card in deck)
