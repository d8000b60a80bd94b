"""The figures in the prose of docs/*.md, checked against the engine's data and against arithmetic.

tests/test_docs.py replays the scripts of the docs; this reads the sentences around them: every sum
written out ("930 + 75 = 1005") must be right, and every printed tax named with a figure ("Luxury Tax
100") must be the amount printed in an edition, unless the sentence is about the house rule that
changes it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from banker.edition import available_editions, load_edition

DOCS = Path(__file__).resolve().parent.parent / "docs"
NUMBER = r"\d+(?:,\d{3})*(?:\.\d+)?"
SUM = re.compile(rf"((?:{NUMBER}\s*[-+×*/−]\s*)+{NUMBER})\s*=\s*({NUMBER})")
ASIDE = re.compile(r"\s*\((?![\d\s+−×*/=,.→-]*\))[^()]*\)")
"""A parenthesis of words inside a sum ("100 (half of Reading) + 100"): left out of the sum."""
TAX_RULES = ("luxury_tax", "income_tax_percent", "older")
"""Words of a sentence that speaks of a tax changed by a house rule, not of the printed one."""


def paragraphs(text: str) -> list[tuple[int, str]]:
    """The prose paragraphs of a Markdown text (code blocks and tables left out), each with its first line."""
    out: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    fenced = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith("```"):
            fenced = not fenced
            line = ""
        if fenced or not line.strip() or line.lstrip().startswith(("|", "#")):
            if current:
                out.append((start, " ".join(current)))
            current = []
            continue
        if not current:
            start = number
        current.append(line.strip())
    if current:
        out.append((start, " ".join(current)))
    return out


def doc_paragraphs() -> list[tuple[str, str]]:
    return [(f"{doc.name}:{line}", text) for doc in sorted(DOCS.glob("*.md"))
            for line, text in paragraphs(doc.read_text(encoding="utf-8"))]


def sums(text: str) -> list[tuple[str, float, float]]:
    """Each written sum of ``text``: (as written, its value, the result written)."""
    found = []
    for match in SUM.finditer(ASIDE.sub("", text)):
        expression = match.group(1).replace(",", "").replace("×", "*").replace("−", "-")
        value = eval(expression, {"__builtins__": {}})  # digits and + - * / only (the pattern's)
        found.append((match.group(0), float(value), float(match.group(2).replace(",", ""))))
    return found


def test_sums_are_found_across_line_breaks_and_asides() -> None:
    assert sums("Bob: 1500 − 350 + 175 − 100 = 1225, and 100 (half of Reading) + 100 + 6 × 200 = 1400.") == [
        ("1500 − 350 + 175 − 100 = 1225", 1225.0, 1225.0), ("100 + 100 + 6 × 200 = 1400", 1400.0, 1400.0)]
    assert sums("175 + 17.5 → 175 + 18 = 193")[0][1:] == (193.0, 193.0)


@pytest.mark.parametrize(("where", "text"), doc_paragraphs(), ids=lambda value: str(value)[:40])
def test_every_written_sum_is_right(where: str, text: str) -> None:
    wrong = [f"{written} (it is {value:g})" for written, value, result in sums(text) if abs(value - result) > 1e-9]
    assert not wrong, f"{where}: {wrong}"


def printed_taxes() -> dict[str, set[int]]:
    """Each tax square's name, with the amounts the editions print on it."""
    taxes: dict[str, set[int]] = {}
    for edition_id in available_editions():
        for square in load_edition(edition_id).squares:
            if square.kind == "tax":
                taxes.setdefault(square.name, set()).add(square.amount)
    return taxes


def tax_figures(text: str, taxes: dict[str, set[int]]) -> list[tuple[str, int]]:
    """Each "<tax square> <figure>" of ``text`` ("Luxury Tax 75", "Income Tax ($200)") outside a sentence
    about a house rule."""
    names = "|".join(re.escape(name) for name in sorted(taxes, key=len, reverse=True))
    pattern = re.compile(rf"({names})(?::| is| of)? \(?[$£]?(\d[\d,]*)")
    found = []
    for sentence in re.split(r"(?<=[.;])\s+", text):
        if any(word in sentence for word in TAX_RULES):
            continue
        found += [(match.group(1), int(match.group(2).replace(",", ""))) for match in pattern.finditer(sentence)]
    return found


def test_tax_figures_are_read_as_the_docs_write_them() -> None:
    taxes = {"Luxury Tax": {100}, "Income Tax": {200}}
    assert tax_figures("In the US edition Income Tax 200, Luxury Tax 75. It pays the Income Tax ($200).", taxes) == [
        ("Income Tax", 200), ("Luxury Tax", 75), ("Income Tax", 200)]
    assert tax_figures("The older US printing's $75 is `\"luxury_tax\": 75` (Luxury Tax 75).", taxes) == []


@pytest.mark.parametrize(("where", "text"), doc_paragraphs(), ids=lambda value: str(value)[:40])
def test_every_printed_tax_named_in_the_docs_is_the_editions(where: str, text: str) -> None:
    taxes = printed_taxes()
    wrong = [f"{name} {amount} (printed: {sorted(taxes[name])})" for name, amount in tax_figures(text, taxes)
             if amount not in taxes[name]]
    assert not wrong, f"{where}: {wrong}"
