"""The table's grammar as a state machine under random taps, presses, holds, clock ticks and phone
actions (hypothesis stateful testing), through the real loop on a simulated table:

- nothing is paid without an OK: the game moves on a table input only when it is a press of OK;
- one OK pays once, and a bouncing OK (two presses 0.1 s apart) pays at most once;
- a phone's action in between moves the game by exactly that action;
- every invariant holds and the journal holds every action after every step.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from banker.actions import Salary
from banker.errors import BankerError
from banker.export import state_to_json
from banker.invariants import check_invariants
from firmware.script import TableScript

PLAYERS = ("Ann", "Bob", "Cy")


def export_json(state: Any) -> Any:
    return state_to_json(state)
CARDS = [*PLAYERS, "baltic", "mediterranean", "boardwalk", "park_place", "reading_railroad", "electric_company",
         "go", "chance", "community_chest", "income_tax", "luxury_tax", "jail", "free_parking", "uid:04A1B2C3",
         "uid:04A1B2C3D4E5F6"]


class Table(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.script = TableScript()
        self.script.run(['{"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"], '
                         '"rules": {"free_parking_pot": true}}'])
        self.number = 1
        self.oks = 0
        self.paid = 0
        # The players' bank cards by UID: a game started at the table (setup, held OK) may seat other names,
        # and then these are the cards of its seats 1-3, or cards of seats it does not have.
        self.bank_cards = {name: f"uid:{self.script.uid_for(0, name)}" for name in PLAYERS}

    def teardown(self) -> None:
        self.script.close()

    @property
    def seq(self) -> int:
        """Actions in the journal, over every game (an undo is one more action, though the state's seq goes
        back; a new game started at the table is one more action, in another game)."""
        journal = self.script.journal
        return sum(len(journal.action_lines(info.id)) for info in journal.games())

    def feed(self, data: dict[str, Any]) -> int:
        """Give the table one input; returns by how many actions the game moved."""
        before = self.seq
        self.number += 1
        self.script.input(self.number, data)
        return self.seq - before

    @rule(card=st.sampled_from(CARDS))
    def tap(self, card: str) -> None:
        assert self.feed({"tap": self.bank_cards.get(card, card)}) == 0, f"tapping {card} moved the game"

    @rule(button=st.sampled_from(["cancel", "up", "down"]))
    def press(self, button: str) -> None:
        assert self.feed({"press": button}) == 0, f"{button} moved the game"

    @rule(button=st.sampled_from(["ok", "cancel", "up", "down"]))
    def hold(self, button: str) -> None:
        assert self.feed({"hold": button}) == 0, f"holding {button} moved the game"

    @rule(seconds=st.sampled_from([0.2, 1, 4, 7, 31]))
    def wait(self, seconds: float) -> None:
        assert self.feed({"wait": seconds}) == 0, f"{seconds} s of the clock moved the game"

    @rule()
    def ok(self) -> None:
        moved = self.feed({"press": "ok"})
        assert moved in (0, 1), f"one OK moved the game by {moved} actions"
        self.oks += 1
        self.paid += moved

    @rule()
    def bouncing_ok(self) -> None:
        moved = self.feed({"press": "ok", "repeat": 2})
        assert moved in (0, 1), f"a bouncing OK moved the game by {moved} actions"
        self.paid += moved

    @rule(player=st.sampled_from(PLAYERS))
    def phone_acts(self, player: str) -> None:
        before = self.seq
        try:
            self.script.session.submit(Salary(player))
        except BankerError:
            assert self.seq == before
            return
        assert self.seq == before + 1
        self.number += 1
        self.script.loop.pump()  # the table redraws
        assert self.seq == before + 1, "the table acted on a phone's change by itself"

    @precondition(lambda self: self.paid > 0)
    @rule()
    def undo_is_the_bankers_tool(self) -> None:
        # Holding Cancel is the table's undo gesture: it must ask first, never undo at once.
        assert self.feed({"hold": "cancel"}) == 0

    @invariant()
    def invariants_hold_and_the_journal_has_every_action(self) -> None:
        state = self.script.session.state
        assert state is not None
        check_invariants(state)
        game_id = self.script.session.game_id
        assert game_id is not None
        assert export_json(self.script.journal.load(game_id)) == export_json(state)


Table.TestCase.settings = settings(max_examples=40, stateful_step_count=40, deadline=None,
                                   suppress_health_check=[HealthCheck.too_slow])
test_the_table_pays_only_on_ok = Table.TestCase
