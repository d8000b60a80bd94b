"""The table's screen texts: the ``[table]`` section of the catalogue (:mod:`banker.messages`).

Every key there is used as ``table_`` + key, so the table, the phone page and the engine's errors are
translated by one mechanism. A screen line holds 21 characters: keep the texts short.
"""

from __future__ import annotations

PREFIX = "table_"
