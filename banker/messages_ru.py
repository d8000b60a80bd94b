"""Russian texts of :mod:`banker.messages`."""

RU: dict[str, str] = {}

RU_LABELS: dict[str, str] = {}
