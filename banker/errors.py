"""One family of errors for everything a player or a script can get wrong.

Every error carries a message key and its parameters so the table and the phone page can say it in
the player's language (:mod:`banker.messages`); ``str(error)`` is the English text.
"""

from __future__ import annotations

from typing import Any


class BankerError(ValueError):
    """An action that the rules do not allow, or input that cannot be understood.

    The game state is never changed by an action that raises this.
    """

    key: str
    params: dict[str, Any]

    def __init__(self, key: str, **params: Any) -> None:
        # The English text is written when it is read: most refusals are asked for by a preview (an
        # offer, a bot) that only wants their key.
        self.key = key
        self.params = params
        super().__init__(key)

    def __str__(self) -> str:
        from banker.messages import render

        return render(self.key, self.params, "en")

    def translated(self, language: str) -> str:
        """The message in ``language`` ("en", "ru" or "bg"); English when unknown."""
        from banker.messages import render

        return render(self.key, self.params, language)


class IllegalAction(BankerError):
    """The rules forbid this action in the current state."""


class AskAgain(IllegalAction):
    """The same money-taking action for the same player came again within seconds: it may be a second tap
    rather than a second payment, so it is applied only when sent again with the player's yes.

    ``params`` has ``player``, ``seconds`` (since the first one was journaled), ``amount`` (the money the
    first one moved, in the edition's money) and ``property`` (its deed's name, or "")."""


class CardFull(BankerError):
    """The journal cannot be written: the table's card is full, or its free space is below the journal's
    reserve (:data:`banker.journal.RESERVE_BYTES`). Nothing was saved, so nothing changed; the table saves
    again as soon as there is room, without a restart."""


class UnknownName(BankerError):
    """A player, property, square, deck or card that the game does not know."""


class BadInput(BankerError):
    """An action that is malformed: a wrong field, a wrong type, a negative amount."""


class EditionError(BankerError):
    """An edition file that cannot be loaded."""
