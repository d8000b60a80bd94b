"""Double-entry money: every movement is a :class:`Transaction` whose postings sum to zero."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

Money = int


@dataclass(frozen=True, slots=True)
class Transaction:
    """Money moving between accounts ("bank", "pot", player names); the postings sum to zero."""

    reason: str
    postings: tuple[tuple[str, Money], ...]

    def is_balanced(self) -> bool:
        return sum(amount for _, amount in self.postings) == 0

    def to_json(self) -> dict[str, Any]:
        return {"reason": self.reason, "postings": [[a, m] for a, m in self.postings]}


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened; ``kind`` names its message in :mod:`banker.messages` ("event_" + kind)."""

    kind: str
    params: dict[str, Any] = field(default_factory=dict)
    transaction: Transaction | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """An event as :meth:`to_json` wrote it (its transaction left out: only its text is rebuilt)."""
        return cls(str(data["kind"]), {k: v for k, v in data.items() if k not in ("kind", "transaction")})

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, **self.params}
        if self.transaction is not None:
            out["transaction"] = self.transaction.to_json()
        return out


def balances(transactions: Iterable[Transaction]) -> dict[str, Money]:
    """Balances derived from a ledger: the sum of each account's postings."""
    totals: dict[str, Money] = {}
    for txn in transactions:
        for account, amount in txn.postings:
            totals[account] = totals.get(account, 0) + amount
    return totals
