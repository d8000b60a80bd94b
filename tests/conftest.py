"""Shared test helpers: a game that checks every invariant and the ledger after every action."""

from __future__ import annotations

import json
from typing import Any

import pytest

from banker.actions import Action, NewGame, parse_action
from banker.engine import apply
from banker.errors import BankerError
from banker.export import state_to_json
from banker.invariants import check_invariants
from banker.ledger import Event, Transaction, balances
from banker.native import is_native
from banker.state import GameState


class Table:
    """A game driven by JSON-like dicts, with invariants and the ledger checked after every action."""

    def __init__(self, players: tuple[str, ...] = ("Ann", "Bob"), edition: str = "us", **rules: Any) -> None:
        self.ledger: list[Transaction] = []
        self.events: list[Event] = []
        state, events = apply(None, NewGame(edition, players, rules))
        self.state: GameState = state
        self._record(events)

    def _record(self, events: tuple[Event, ...]) -> None:
        self.events = list(events)
        for event in events:
            if event.transaction is not None:
                assert event.transaction.is_balanced(), event
                self.ledger.append(event.transaction)
        check_invariants(self.state)

    def do(self, action: str | dict[str, Any] | Action, **fields: Any) -> list[Event]:
        """Apply an action: ``do("rent", player="Bob", property="baltic")`` or a dict or an Action."""
        if isinstance(action, str):
            action = parse_action({"action": action, **fields})
        elif isinstance(action, dict):
            action = parse_action(action)
        before_undo = self.state
        self.state, events = apply(self.state, action)
        if action.name == "undo":
            # Undo restores an earlier state: rebuild the derived ledger check from the balances.
            self.ledger = [Transaction("restore", tuple(self.balances_now().items()))]
            del before_undo
        self._record(events)
        if action.name != "undo":
            derived = balances(self.ledger)
            assert derived == {k: v for k, v in self.balances_now().items() if v or k in derived}, (
                derived, self.balances_now())
        return list(events)

    def fails(self, key: str, action: str, **fields: Any) -> BankerError:
        """The action is refused with error ``key`` and the state does not change at all."""
        before = json.dumps(state_to_json(self.state), sort_keys=True)
        with pytest.raises(BankerError) as info:
            self.do(action, **fields)
        assert info.value.key == key, (info.value.key, str(info.value))
        assert json.dumps(state_to_json(self.state), sort_keys=True) == before
        return info.value

    def balances_now(self) -> dict[str, int]:
        out = {"bank": self.state.bank, "pot": self.state.pot}
        out.update({p.name: p.cash for p in self.state.players})
        return out

    def cash(self, name: str) -> int:
        return self.state.players[self.state.seat(name)].cash

    def prop(self, property_id: str) -> dict[str, Any]:
        return state_to_json(self.state)["properties"][property_id]  # type: ignore[no-any-return]

    def json(self) -> dict[str, Any]:
        return state_to_json(self.state)

    def give(self, name: str, *properties: str) -> None:
        """Buy deeds at the printed price (a quick way to set up ownership)."""
        for property_id in properties:
            self.do("buy", player=name, property=property_id)

    def kinds(self) -> list[str]:
        return [e.kind for e in self.events]


@pytest.fixture
def table() -> Table:
    return Table()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """On the compiled build (banker.native) the tests that monkeypatch compiled code are skipped, saying so."""
    if not is_native():
        return
    skip = pytest.mark.skip(reason="monkeypatches compiled code: runs on the Python build")
    for item in items:
        if "pure_python" in item.keywords:
            item.add_marker(skip)
