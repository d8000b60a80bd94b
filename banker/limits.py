"""The limits of a game and of the table, in one place: the engine checks them and the fronts offer them
(the table's wizard, the setup page's form, enrollment), so no front types a number of its own."""

from __future__ import annotations

MIN_PLAYERS = 2
MAX_PLAYERS = 8
"""Players in a game: two to eight (docs/rules.md)."""
MAX_NAME_LENGTH = 20
"""Characters in a player's name: enough for any first name, short enough for the table's screen."""
BANK_CARDS = MAX_PLAYERS
"""The table's bank cards, one for each seat: card N is the player in seat N of whichever game is played."""
PIN_MIN, PIN_MAX = 4, 12
"""Digits of the banker's PIN."""
