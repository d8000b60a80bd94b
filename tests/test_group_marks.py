"""Colour is never the only cue: every deed group has its own letters and names, on the phones and on the
table's colourless OLED, in every edition and language."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections import Counter

import pytest

from banker.advisor.heatmap import board_svg
from banker.advisor.markov import MoveRules, landing_distribution
from banker.choice import short_deed_name
from banker.edition import available_editions, load_edition
from banker.messages import LANGUAGES, template
from banker.text import group_mark, group_name
from hardware.display import MARGIN_X, WIDTH, drawable, fit, load_font

CASES = [(edition, language) for edition in available_editions() for language in LANGUAGES]


def on_the_oled(text: str) -> str:
    """``text`` as the OLED's title line draws it: the font's letters, cut to the screen's width with "…"."""
    font = load_font(12)
    return fit(drawable(text, font), font, WIDTH - 2 * MARGIN_X)


@pytest.mark.parametrize(("edition_id", "language"), CASES)
def test_every_group_has_its_own_letters(edition_id: str, language: str) -> None:
    edition = load_edition(edition_id)
    marks = {group: group_mark(group, language) for group in edition.groups}
    for group in edition.groups:
        assert template("advisor_mark_" + group, language) is not None, f"no letters for {group} in {language}"
    assert len(set(marks.values())) == len(marks), marks
    assert all(1 <= len(mark) <= 3 for mark in marks.values()), marks


@pytest.mark.parametrize(("edition_id", "language"), CASES)
def test_the_oled_tells_every_group_and_deed_apart(edition_id: str, language: str) -> None:
    edition = load_edition(edition_id)
    groups = {group: on_the_oled(group_name(group, language)) for group in edition.groups}
    assert len(set(groups.values())) == len(groups), groups
    marks = {group: on_the_oled(group_mark(group, language)) for group in edition.groups}
    assert len(set(marks.values())) == len(marks), marks
    deeds = {prop.id: on_the_oled(prop.name) for prop in edition.properties}
    assert len(set(deeds.values())) == len(deeds), deeds
    # A sale's menu line names the streets of one group by one word each ("Park 3, Boardwalk 4").
    for members in edition.groups.values():
        short = [short_deed_name(edition, edition.properties[n].id) for n in members]
        assert len(set(short)) == len(short), short


@pytest.mark.parametrize(("edition_id", "language"), CASES)
def test_the_heat_map_marks_every_street_with_its_groups_letters(edition_id: str, language: str) -> None:
    edition = load_edition(edition_id)
    svg = ET.fromstring(board_svg(edition, landing_distribution(edition, MoveRules()), language=language))
    texts = Counter(t.text for t in svg.iter("{http://www.w3.org/2000/svg}text"))
    for group, members in edition.groups.items():
        if group not in ("railroad", "utility"):
            assert texts[group_mark(group, language)] == len(members), (group, texts)
