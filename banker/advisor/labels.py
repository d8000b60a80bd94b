"""Headings and names the advisor prints, in English, Russian and Bulgarian."""

from __future__ import annotations

import math

from banker.advisor.payback import Step
from banker.messages import LANGUAGES, render

PREFIX = "advisor_"
"""The advisor's texts are the ``[advisor]`` section of the catalogue (:mod:`banker.messages`)."""


def language_of(language: str) -> str:
    return language if language in LANGUAGES else "en"


def text(key: str, language: str, **params: object) -> str:
    return render(PREFIX + key, dict(params), language_of(language))


def group_name(group: str, language: str) -> str:
    return text("group_" + group, language)


def step_name(step: Step, language: str) -> str:
    """"2 houses", "hotel", "3 railroads" ... in ``language``."""
    if step.kind in ("deeds", "hotel"):
        return text("step_" + step.kind, language)
    return text("step_" + step.kind, language, count=step.level)


def percent(share: float, language: str, digits: int = 2) -> str:
    """A share as a percentage, with a decimal comma in Russian and Bulgarian."""
    value = f"{share * 100:.{digits}f}"
    if language_of(language) != "en":
        value = value.replace(".", ",")
    return value + "%"


def number(value: float, language: str, digits: int = 1) -> str:
    if math.isinf(value):
        return "-"
    formatted = f"{value:.{digits}f}"
    return formatted.replace(".", ",") if language_of(language) != "en" else formatted
