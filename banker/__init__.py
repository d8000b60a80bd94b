"""The table banker's rules engine and money ledger.

Pure and deterministic: no I/O (except :mod:`banker.journal`), no threads (except the lock in
:mod:`banker.session`), no clock. Money is ``int``.
"""

from banker.actions import Action, parse_action
from banker.edition import Edition, load_edition
from banker.engine import apply, new_game
from banker.errors import BankerError
from banker.invariants import check_invariants
from banker.offer import Offer, complete, is_legal, legal_actions, offers
from banker.rules import Rules
from banker.state import GameState

__all__ = [
    "Action",
    "BankerError",
    "Edition",
    "GameState",
    "Offer",
    "Rules",
    "apply",
    "check_invariants",
    "complete",
    "is_legal",
    "legal_actions",
    "load_edition",
    "new_game",
    "offers",
    "parse_action",
]
