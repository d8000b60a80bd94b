"""Trade proposals: made on one phone, accepted or refused on the other's. Kept in memory: a proposal
is a conversation across the table, and after a restart it is simply proposed again."""

from __future__ import annotations

import itertools
import threading
from dataclasses import dataclass

from banker.actions import Trade


@dataclass(frozen=True)
class Proposal:
    id: int
    game: int
    trade: Trade

    @property
    def proposer(self) -> str:
        return self.trade.from_

    @property
    def receiver(self) -> str:
        return self.trade.to

    def to_json(self) -> dict[str, object]:
        return {"id": self.id, "game": self.game, **self.trade.to_json()}


class Trades:
    MAX_OPEN = 50

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._open: dict[int, Proposal] = {}

    def propose(self, game: int, trade: Trade) -> Proposal:
        with self._lock:
            proposal = Proposal(next(self._ids), game, trade)
            self._open[proposal.id] = proposal
            while len(self._open) > self.MAX_OPEN:
                self._open.pop(next(iter(self._open)))
            return proposal

    def get(self, proposal_id: int) -> Proposal | None:
        with self._lock:
            return self._open.get(proposal_id)

    def remove(self, proposal_id: int) -> Proposal | None:
        with self._lock:
            return self._open.pop(proposal_id, None)

    def of_game(self, game: int | None) -> list[Proposal]:
        with self._lock:
            return [p for p in self._open.values() if p.game == game]

