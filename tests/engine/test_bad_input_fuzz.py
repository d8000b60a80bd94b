"""Whatever JSON arrives (from a phone, a script, a bad tag), the answer is a BankerError or a new state."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from banker.actions import ACTION_TYPES, NewGame, parse_action
from banker.engine import apply
from banker.errors import BankerError
from banker.export import state_to_json

FIELDS = ["player", "property", "amount", "to", "price", "dice", "card", "deck", "square", "choice", "from", "give",
          "take", "settles_debt", "declined_by", "building", "passed_go", "landed", "reason", "edition", "players",
          "rules", "deal", "seed", "bogus"]
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.sampled_from(
        ["Ann", "Bob", "bank", "pot", "baltic", "boardwalk", "chance", "community_chest", "chairman", "income_tax",
         "7", "house", "hotel", "pay", "draw", "nearest_railroad", "", "Zed"]) | st.text(max_size=5),
    lambda children: st.lists(children, max_size=3) | st.dictionaries(
        st.sampled_from(["cash", "properties", "jail_cards", "x"]), children, max_size=3),
    max_leaves=6,
)
ACTIONS = st.builds(
    lambda name, fields: {"action": name, **fields},
    st.sampled_from([*ACTION_TYPES, "nonsense"]),
    st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=5),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(ACTIONS, min_size=1, max_size=6))
def test_any_json_is_applied_or_refused_cleanly(lines: list[dict[str, Any]]) -> None:
    state, _ = apply(None, NewGame("us", ("Ann", "Bob")))
    state, _ = apply(state, parse_action({"action": "buy", "player": "Ann", "property": "baltic"}))
    for data in lines:
        before = json.dumps(state_to_json(state), sort_keys=True)
        try:
            action = parse_action(json.dumps(data))
            state, _ = apply(state, action)
        except BankerError as error:
            assert str(error) and error.translated("ru") and error.translated("bg")
            assert json.dumps(state_to_json(state), sort_keys=True) == before
