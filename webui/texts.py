"""The phone page's texts: the ``[web]`` section of the catalogue (:mod:`banker.messages`), keys ``web_…``;
templates call ``t(key, **params)``."""

from __future__ import annotations

from typing import Any

from banker.messages import render

PREFIX = "web_"


def text(key: str, language: str, **params: Any) -> str:
    return render(key, params, language)
