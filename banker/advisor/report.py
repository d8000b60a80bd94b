"""The advisor's tables as text for a terminal and as CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass

from banker.advisor.labels import group_name, number, percent, step_name, text
from banker.advisor.markov import IN_JAIL, Landing, MoveRules, landing_distribution
from banker.advisor.payback import DeedPayback, GroupPayback, Step, deed_table, payback_table
from banker.edition import Edition

TABLES = ("summary", "landing", "payback", "deeds", "all")
"""What ``banker advise`` prints: "summary" is the landing and payback tables, "all" adds the deeds."""


@dataclass(frozen=True)
class Report:
    edition: Edition
    rules: MoveRules
    max_houses: int
    landing: Landing
    groups: list[GroupPayback]
    deeds: list[DeedPayback]


@dataclass(frozen=True, slots=True)
class LandingRow:
    square: int
    id: str
    name: str
    share: float


def build_report(edition: Edition, rules: MoveRules, *, max_houses: int) -> Report:
    landing = landing_distribution(edition, rules)
    return Report(
        edition, rules, max_houses, landing,
        payback_table(edition, landing, max_houses=max_houses),
        deed_table(edition, landing, max_houses=max_houses),
    )


def landing_rows(edition: Edition, landing: Landing, language: str = "en") -> list[LandingRow]:
    """One row per square in board order; the jail square gives "just visiting" and then "in jail"."""
    rows: list[LandingRow] = []
    for square in edition.squares:
        if square.kind == "jail":
            rows.append(LandingRow(square.index, square.id, text("visiting", language), landing.cells[square.index]))
            rows.append(LandingRow(square.index, "in_jail", text("in_jail", language), landing.cells[IN_JAIL]))
        else:
            rows.append(LandingRow(square.index, square.id, square.name, landing.cells[square.index]))
    return rows


def render_text(report: Report, table: str, language: str) -> str:
    parts = [_heading(report, language)]
    if table in ("summary", "landing", "all"):
        parts.append(_landing_text(report, language))
    if table in ("summary", "payback", "all"):
        parts.append(_matrix_text(report, language))
        parts.append(_groups_text(report, language))
    if table in ("deeds", "all"):
        parts.append(_deeds_text(report, language))
    return "\n\n".join(parts) + "\n"


def csv_tables(report: Report, table: str) -> dict[str, str]:
    """The chosen tables as CSV texts, by name ("landing", "payback", "deeds"); deeds by their ids."""
    tables: dict[str, str] = {}
    if table in ("summary", "landing", "all"):
        tables["landing"] = _csv(["square", "id", "name", "share"], [
            [row.square, row.id, row.name, f"{row.share:.6f}"] for row in landing_rows(report.edition, report.landing)
        ])
    if table in ("summary", "payback", "all"):
        tables["payback"] = _csv(["group", *_STEP_COLUMNS], [
            [group.group, *_step_cells(step)] for group in report.groups for step in group.steps
        ])
    if table in ("deeds", "all"):
        rows: list[list[object]] = []
        for deed in report.deeds:
            head = [deed.deed.id, deed.deed.group, f"{deed.share:.6f}"]
            rows.append([*head, "alone", *_step_cells(deed.alone)[1:]])
            rows.extend([*head, *_step_cells(step)] for step in deed.steps)
        tables["deeds"] = _csv(["id", "group", "share", *_STEP_COLUMNS], rows)
    return tables


def render_csv(report: Report, table: str) -> str:
    """One table as CSV (``table`` must name a single one: landing, payback or deeds)."""
    tables = csv_tables(report, table)
    if len(tables) != 1:
        raise ValueError(f"{table} is several tables: write them with csv_tables")
    return next(iter(tables.values()))


_STEP_COLUMNS = ["step", "level", "cost", "total_cost", "rent_per_throw", "gain_per_throw", "payback_throws"]


def _step_cells(step: Step) -> list[object]:
    payback = "" if math.isinf(step.payback_throws) else f"{step.payback_throws:.2f}"
    return [step.kind, step.level, step.cost, step.total_cost, f"{step.rent_per_throw:.4f}",
            f"{step.gain_per_throw:.4f}", payback]


def _csv(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue()


def _heading(report: Report, language: str) -> str:
    rules = [text(f"jail_{report.rules.jail}", language)]
    if any(card.kind == "pay_or_draw" for deck in report.edition.decks.values() for card in deck):
        rules.append(text(f"fine_{report.rules.fine_or_chance}", language))
    if report.max_houses != 4:
        rules.append(text("short_game", language))
    return text("title", language, edition=report.edition.name) + "\n" + "; ".join(rules)


def _landing_text(report: Report, language: str) -> str:
    rows = [
        [str(row.square), row.name, percent(row.share, language)]
        for row in landing_rows(report.edition, report.landing, language)
    ]
    per_turn = text("throws_per_turn", language, value=number(report.landing.throws_per_turn, language, 3))
    return "\n".join([
        text("landing_title", language),
        _columns(["#", text("square", language), text("share", language)], rows, "rlr"),
        per_turn,
    ])


def _matrix_text(report: Report, language: str) -> str:
    streets = [g for g in report.groups if g.group not in ("railroad", "utility")]
    if not streets:
        return ""
    header = [text("group", language)] + [step_name(step, language) for step in streets[0].steps]
    rows = [
        [group_name(g.group, language)] + [number(step.payback_throws, language) for step in g.steps]
        for g in streets
    ]
    return text("matrix_title", language) + "\n" + _columns(header, rows, "l" + "r" * (len(header) - 1))


def _groups_text(report: Report, language: str) -> str:
    money = report.edition.format_money
    rows: list[list[str]] = []
    for group in report.groups:
        for i, step in enumerate(group.steps):
            rows.append([
                group_name(group.group, language) if i == 0 else "",
                step_name(step, language),
                money(step.cost),
                money(step.total_cost),
                number(step.rent_per_throw, language, 2),
                number(step.gain_per_throw, language, 2),
                number(step.payback_throws, language),
            ])
    header = [text(k, language) for k in ("group", "step", "cost", "total_cost", "rent", "gain", "payback")]
    return text("group_title", language) + "\n" + _columns(header, rows, "llrrrrr")


def _deeds_text(report: Report, language: str) -> str:
    width = max(len(d.steps) for d in report.deeds)
    sample = next(d for d in report.deeds if len(d.steps) == width)
    header = ["#", text("deed", language), text("share", language), text("alone", language)]
    header += [step_name(step, language) for step in sample.steps]
    rows: list[list[str]] = []
    for deed in report.deeds:
        cells = [number(step.payback_throws, language) for step in deed.steps]
        rows.append([
            str(deed.deed.square), deed.deed.name, percent(deed.share, language),
            number(deed.alone.payback_throws, language), *cells, *[""] * (width - len(cells)),
        ])
    return text("deed_title", language) + "\n" + _columns(header, rows, "rlrr" + "r" * width)


def _columns(header: Sequence[str], rows: Sequence[Sequence[str]], align: str) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.ljust(w) if a == "l" else cell.rjust(w) for cell, w, a in zip(cells, widths, align, strict=True)
        ).rstrip()

    return "\n".join([line(header), line(["-" * w for w in widths]), *(line(r) for r in rows)])
