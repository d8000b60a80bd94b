"""Random taps, presses and waits at the table: nothing is ever paid without OK, one OK pays once,
and every invariant holds after every input."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.invariants import check_invariants
from firmware.script import TableScript

CARDS = ["Ann", "Bob", "Cy", "baltic", "mediterranean", "boardwalk", "reading_railroad", "electric_company",
         "go", "chance", "income_tax", "jail", "free_parking", "uid:04A1B2C3"]
INPUTS = st.one_of(
    st.sampled_from(CARDS).map(lambda card: {"tap": card}),
    st.sampled_from(["ok", "ok", "ok", "cancel", "up", "down"]).map(lambda button: {"press": button}),
    st.sampled_from(["ok", "cancel"]).map(lambda button: {"hold": button}),
    st.sampled_from([0.2, 1, 4, 31]).map(lambda seconds: {"wait": seconds}),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(INPUTS, min_size=1, max_size=40))
def test_nothing_moves_without_ok_and_one_ok_moves_once(inputs: list[dict[str, Any]]) -> None:
    with TableScript() as script:
        script.run(['{"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"], '
                    '"rules": {"free_parking_pot": true}}'])
        session = script.session
        for number, data in enumerate(inputs, start=2):
            before = session.state
            assert before is not None
            script.input(number, data)
            after = session.state
            assert after is not None
            check_invariants(after)
            if after.seq != before.seq:
                assert data in ({"press": "ok"},), f"{data} changed the game"
                assert after.seq == before.seq + 1, "one OK, one action"
