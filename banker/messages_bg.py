"""Bulgarian texts of :mod:`banker.messages`."""

BG: dict[str, str] = {}

BG_LABELS: dict[str, str] = {}
