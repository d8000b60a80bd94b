"""Property-based: random mixes of legal and illegal actions keep every invariant.

Money is conserved through every transaction, the 32/12 building stock holds, buildings stay even,
and an illegal action leaves the state exactly as it was.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.actions import NewGame, parse_action
from banker.engine import apply
from banker.errors import BankerError
from banker.export import state_to_json
from banker.invariants import check_invariants
from banker.ledger import balances
from banker.offer import legal_actions
from banker.state import GameState

PLAYERS = ("Ann", "Bob", "Cat")
DEEDS = ("mediterranean", "baltic", "reading_railroad", "oriental", "vermont", "connecticut", "electric_company",
         "water_works", "park_place", "boardwalk", "short_line")
STREETS = ("mediterranean", "baltic", "oriental", "vermont", "connecticut", "park_place", "boardwalk")
AMOUNTS = st.sampled_from([0, 1, 10, 50, 199, 200, 400, 1000, 2500, 9999])

player = st.sampled_from(PLAYERS)
deed = st.sampled_from(DEEDS)
street = st.sampled_from(STREETS)

ACTIONS = st.one_of(
    st.builds(lambda p: {"action": "salary", "player": p}, player),
    st.builds(lambda p, d: {"action": "buy", "player": p, "property": d}, player, deed),
    st.builds(lambda p, d: {"action": "buy", "player": p, "property": d}, player, deed),
    st.builds(lambda d, p: {"action": "auction", "property": d, "declined_by": p}, deed, player),
    st.builds(lambda p, a: {"action": "bid", "player": p, "amount": a}, player, AMOUNTS),
    st.just({"action": "auction_close"}),
    st.builds(lambda p, d, dice: {"action": "rent", "player": p, "property": d, "dice": dice},
              player, deed, st.integers(1, 13)),
    st.builds(lambda p, a, to: {"action": "pay", "player": p, "amount": a, "to": to},
              player, AMOUNTS, st.sampled_from([*PLAYERS, "bank", "pot"])),
    st.builds(lambda p, a: {"action": "collect", "player": p, "amount": a}, player, AMOUNTS),
    st.builds(lambda p, s: {"action": "tax", "player": p, "square": s}, player,
              st.sampled_from(["income_tax", "luxury_tax", "go"])),
    st.builds(lambda p, c: {"action": "card", "player": p, "deck": c[0], "card": c[1], "square": c[2]}, player,
              st.sampled_from([("chance", "chairman", "chance_1"), ("community_chest", "birthday", "community_chest_1"),
                               ("chance", "general_repairs", "chance_2"), ("chance", "jail_free", "chance_1"),
                               ("community_chest", "street_repairs", "community_chest_3"),
                               ("chance", "nearest_railroad_1", "chance_3")])),
    st.builds(lambda p, s: {"action": "build", "player": p, "property": s}, player, street),
    st.builds(lambda p, s: {"action": "build", "player": p, "property": s}, player, street),
    st.builds(lambda p, s: {"action": "sell_building", "player": p, "property": s}, player, street),
    st.builds(lambda p, s: {"action": "sell_all_buildings", "player": p, "property": s}, player, street),
    st.builds(lambda p, d: {"action": "mortgage", "player": p, "property": d}, player, deed),
    st.builds(lambda p, d: {"action": "unmortgage", "player": p, "property": d}, player, deed),
    st.builds(lambda p, d: {"action": "keep_mortgaged", "player": p, "property": d}, player, deed),
    st.builds(lambda a, b, cash, give, take, cards, settle: {
        "action": "trade", "from": a, "to": b, "give": {"cash": cash, "properties": give, "jail_cards": cards},
        "take": {"properties": take}, "settles_debt": settle},
        player, player, AMOUNTS, st.lists(deed, max_size=2), st.lists(deed, max_size=1), st.integers(0, 1),
        st.booleans()),
    st.builds(lambda a, b, d, cash: {"action": "trade", "from": a, "to": b, "give": {"properties": [d]},
                                     "take": {"cash": cash}}, player, player, deed, st.sampled_from([0, 1, 100])),
    st.builds(lambda a, b, d, cash: {"action": "trade", "from": a, "to": b, "give": {"properties": [d]},
                                     "take": {"cash": cash}}, player, player, deed, st.sampled_from([0, 1, 100])),
    st.builds(lambda p: {"action": "go_to_jail", "player": p}, player),
    st.builds(lambda p: {"action": "jail_fine", "player": p}, player),
    st.builds(lambda p: {"action": "use_jail_card", "player": p}, player),
    st.builds(lambda p: {"action": "pay_debt", "player": p}, player),
    st.builds(lambda p: {"action": "pay_debt", "player": p}, player),
    st.builds(lambda p: {"action": "bankrupt", "player": p}, player),
    st.builds(lambda p: {"action": "bankrupt", "player": p}, player),
    st.sampled_from([{"action": "undo"}, {"action": "end_turn"}, {"action": "free_parking", "player": "Ann"}]),
    st.builds(lambda b: {"action": "building_auction", "building": b}, st.sampled_from(["house", "hotel"])),
    st.builds(lambda p, a, s: {"action": "bid", "player": p, "amount": a, "property": s}, player, AMOUNTS, street),
    st.builds(lambda p, g, low: {"action": "sell_buildings", "player": p,
                                 "levels": {s: max(0, low + i % 2) for i, s in enumerate(g)}},
              player, st.sampled_from([("mediterranean", "baltic"), ("oriental", "vermont", "connecticut"),
                                       ("park_place", "boardwalk")]), st.integers(0, 5)),
    st.just({"action": "end_game"}),
)

RULES = st.fixed_dictionaries({}, optional={
    "free_parking_pot": st.booleans(),
    "short_game": st.booleans(),
    "bankruptcy_auctions": st.booleans(),
    "decliner_may_bid": st.booleans(),
    "houses": st.sampled_from([4, 8, 32]),
    "hotels": st.sampled_from([1, 12]),
    "rounding": st.sampled_from(["up", "down", "nearest"]),
    "starting_cash": st.sampled_from([1000, 1500]),
})


def snapshot(state: GameState) -> str:
    return json.dumps(state_to_json(state), sort_keys=True)


OPENING = [
    {"action": "buy", "player": "Ann", "property": "mediterranean"},
    {"action": "buy", "player": "Ann", "property": "baltic"},
    {"action": "buy", "player": "Bob", "property": "oriental"},
    {"action": "buy", "player": "Bob", "property": "vermont"},
    {"action": "buy", "player": "Bob", "property": "connecticut"},
    {"action": "buy", "player": "Cat", "property": "park_place"},
    {"action": "buy", "player": "Cat", "property": "boardwalk"},
]


def run(rules: dict[str, Any], script: list[dict[str, Any]]) -> tuple[int, int]:
    """Apply the opening (where the deeds are still with the bank), then the script."""
    state, events = apply(None, NewGame("us", PLAYERS, rules, seed=3))
    ledger = [e.transaction for e in events if e.transaction is not None]
    opening = [d for d in OPENING if state.props[state.edition.property(d["property"]).number].owner is None]
    script = opening + script
    applied = refused = 0
    for data in script:
        action = parse_action(data)
        before = snapshot(state)
        try:
            new_state, events = apply(state, action)
        except BankerError:
            refused += 1
            assert snapshot(state) == before
            continue
        applied += 1
        check_invariants(new_state)
        if action.name == "undo":
            ledger = []
            base = {"bank": new_state.bank, "pot": new_state.pot, **{p.name: p.cash for p in new_state.players}}
            from banker.ledger import Transaction

            ledger.append(Transaction("restore", tuple(base.items())))
        else:
            for event in events:
                if event.transaction is not None:
                    assert event.transaction.is_balanced()
                    ledger.append(event.transaction)
        derived = balances(ledger)
        assert derived.get("bank", 0) == new_state.bank and derived.get("pot", 0) == new_state.pot
        for p in new_state.players:
            assert derived.get(p.name, 0) == p.cash
        state = new_state
        if state.ended:
            break
    return applied, refused


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(RULES, st.lists(ACTIONS, min_size=1, max_size=80))
def test_random_action_mixes_keep_every_invariant(rules: dict[str, Any], script: list[dict[str, Any]]) -> None:
    run(rules, script)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), RULES)
def test_every_listed_legal_action_applies(seed: int, rules: dict[str, Any]) -> None:
    import random

    rng = random.Random(seed)
    state, _ = apply(None, NewGame("us", PLAYERS, rules, seed=seed))
    for _ in range(40):
        options = legal_actions(state)
        assert options, "a running game always offers something (end_turn at least)"
        for action in options:
            apply(state, action)  # raises if the list lies
        state, _ = apply(state, rng.choice(options))
        check_invariants(state)
        if state.ended:
            break
