"""Trade proposals as engine actions: propose, accept, refuse, cancel; gone proposals, undo, replay."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from banker.actions import Action, Bundle, NewGame, parse_action
from banker.engine import apply
from banker.export import state_to_json
from banker.invariants import invariant_errors
from banker.journal import SNAPSHOT_EVERY, Journal
from banker.proposals import MAX_OPEN, REFUSED_KEPT
from banker.snapshot import from_snapshot, to_snapshot
from banker.state import GameState
from tests.conftest import Table

BALTIC_FOR_100 = {"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]}, "take": {"cash": 100}}


def proposals(table: Table) -> list[tuple[int, str, str]]:
    return [(p["id"], p["status"], p["reason"]) for p in table.json()["proposals"]]


def test_a_proposal_moves_nothing_until_accepted_then_exactly_the_trade(table: Table) -> None:
    table.give("Ann", "baltic")
    events = table.do("propose_trade", **BALTIC_FOR_100)
    assert [e.kind for e in events] == ["trade_proposed"] and all(e.transaction is None for e in events)
    assert (table.cash("Ann"), table.cash("Bob")) == (1440, 1500) and table.prop("baltic")["owner"] == "Ann"
    assert table.json()["proposals"] == [{"id": 1, "proposer": "Ann", "receiver": "Bob",
                                          "give": {"cash": 0, "properties": ["baltic"], "jail_cards": 0},
                                          "take": {"cash": 100, "properties": [], "jail_cards": 0},
                                          "settles_debt": False, "status": "open", "reason": ""}]
    # The same trade as the trade action: compare the events of both on the same state.
    direct = apply(table.state, parse_action({"action": "trade", **BALTIC_FOR_100}))
    accepted = table.do("accept_trade", player="Bob", proposal=1)
    # The bare trade moves the offered deed too, so it withdraws the proposal, which the accept took away.
    assert direct[1][-1].kind == "trade_withdrawn" and direct[1][-1].params["proposal"] == 1
    assert [(e.kind, e.params, e.transaction) for e in accepted] == [(e.kind, e.params, e.transaction)
                                                                     for e in direct[1][:-1]]
    assert table.prop("baltic")["owner"] == "Bob" and (table.cash("Ann"), table.cash("Bob")) == (1540, 1400)
    assert table.json()["proposals"] == []
    # Everything but the proposal itself (gone after the accept, left open by the bare trade) is the same.
    assert {k: v for k, v in state_to_json(table.state).items() if k not in ("seq", "proposals")} == {
        k: v for k, v in state_to_json(direct[0]).items() if k not in ("seq", "proposals")}


def test_a_mortgaged_deed_received_through_a_proposal_asks_for_the_ten_percent(table: Table) -> None:
    table.give("Ann", "park_place")
    table.do("mortgage", player="Ann", property="park_place")
    table.do("propose_trade", **{**BALTIC_FOR_100, "give": {"properties": ["park_place"]}})
    table.do("accept_trade", player="Bob", proposal=1)
    assert table.json()["decisions"] == [{"player": "Bob", "property": "park_place", "keep_fee": 18,
                                          "unmortgage_cost": 193}]
    table.do("keep_mortgaged", player="Bob", property="park_place")
    assert table.cash("Bob") == 1500 - 100 - 18


def test_a_proposal_that_could_never_be_applied_is_refused_with_the_trades_reason(table: Table) -> None:
    table.give("Bob", "baltic")
    table.fails("not_owner", "propose_trade", **BALTIC_FOR_100)
    table.fails("trade_empty", "propose_trade", **{"from": "Ann", "to": "Bob"})
    table.fails("trade_self", "propose_trade", **{"from": "Ann", "to": "Ann", "give": {"cash": 5}})
    table.fails("not_enough_cash", "propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 5000}})
    assert table.json()["proposals"] == []


def test_an_accepted_refused_or_cancelled_proposal_is_gone(table: Table) -> None:
    for cash in (10, 20, 30):
        table.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": cash}})
    table.do("accept_trade", player="Bob", proposal=1)
    table.do("refuse_trade", player="Bob", proposal=2, reason="  no thanks ")
    table.do("cancel_trade", player="Ann", proposal=3)
    assert proposals(table) == [(2, "refused", "no thanks")]
    for number in (1, 2, 3, 99):
        error = table.fails("proposal_gone", "accept_trade", player="Bob", proposal=number)
        assert f"Trade offer {number} is no longer open" in str(error)
        table.fails("proposal_gone", "refuse_trade", player="Bob", proposal=number)
    for language in ("ru", "bg"):
        assert "{" not in error.translated(language) and "99" in error.translated(language)
    table.fails("proposal_gone", "cancel_trade", player="Ann", proposal=3)
    assert table.cash("Bob") == 1510, "the accepted one moved its money once"
    table.do("cancel_trade", player="Ann", proposal=2)  # the refused one, put away by its proposer
    assert table.json()["proposals"] == []


def test_only_the_receiver_answers_and_only_the_proposer_withdraws() -> None:
    table = Table(("Ann", "Bob", "Cy"))
    table.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 10}})
    table.fails("proposal_not_receiver", "accept_trade", player="Ann", proposal=1)
    table.fails("proposal_not_receiver", "accept_trade", player="Cy", proposal=1)
    table.fails("proposal_not_receiver", "refuse_trade", player="Cy", proposal=1)
    table.fails("proposal_not_proposer", "cancel_trade", player="Bob", proposal=1)
    table.fails("proposal_not_proposer", "cancel_trade", player="Cy", proposal=1)
    assert proposals(table) == [(1, "open", "")]


def test_a_proposal_no_longer_possible_is_refused_at_accept_with_the_reason() -> None:
    table = Table(("Ann", "Bob", "Cy"))
    table.give("Ann", "baltic")
    table.do("propose_trade", **BALTIC_FOR_100)
    # A trade of the offered deed to someone else withdraws the proposal, and the log says so.
    events = table.do("trade", **{"from": "Ann", "to": "Cy", "give": {"properties": ["baltic"]},
                                  "take": {"cash": 50}})
    assert ("trade_withdrawn", {"player": "Ann", "to": "Bob", "proposal": 1, "property": "baltic"}) in [
        (e.kind, e.params) for e in events]
    table.fails("proposal_gone", "accept_trade", player="Bob", proposal=1)
    # Bob spent his cash meanwhile: refused for cash, the proposal still open.
    table.do("propose_trade", **{"from": "Ann", "to": "Bob", "take": {"cash": 1400}})
    table.do("pay", player="Bob", amount=200, to="bank")
    table.fails("not_enough_cash", "accept_trade", player="Bob", proposal=2)
    assert proposals(table) == [(2, "open", "")]


def test_undo_of_an_accept_brings_back_the_proposal_and_the_money(table: Table) -> None:
    table.give("Ann", "baltic")
    table.do("propose_trade", **BALTIC_FOR_100)
    open_state = table.json()
    table.do("accept_trade", player="Bob", proposal=1)
    table.do("undo")
    assert {k: v for k, v in table.json().items() if k != "seq"} == {k: v for k, v in open_state.items()
                                                                      if k != "seq"}
    table.do("accept_trade", player="Bob", proposal=1)
    assert table.cash("Bob") == 1400
    table.do("undo")
    table.do("undo")  # the proposal itself
    assert table.json()["proposals"] == []
    table.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 5}})
    assert proposals(table) == [(2, "open", "")], "the undone proposal's number is not given again"


def test_refused_proposals_kept_and_open_ones_bounded(table: Table) -> None:
    for number in range(1, REFUSED_KEPT + 3):
        table.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": number}})
        table.do("refuse_trade", player="Bob", proposal=number)
    assert [p[0] for p in proposals(table)] == list(range(3, REFUSED_KEPT + 3))
    for _ in range(MAX_OPEN):
        table.do("propose_trade", **{"from": "Bob", "to": "Ann", "give": {"cash": 1}})
    table.fails("proposals_full", "propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 1}})


def test_proposals_are_refused_during_an_auction_and_after_the_end(table: Table) -> None:
    table.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 10}})
    table.do("auction", property="boardwalk")
    table.fails("auction_open", "accept_trade", player="Bob", proposal=1)
    table.fails("auction_open", "propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 10}})
    table.do("auction_close")
    table.do("end_game")
    table.fails("game_over", "accept_trade", player="Bob", proposal=1)


def test_the_invariants_catch_a_broken_proposal(table: Table) -> None:
    from dataclasses import replace

    table.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 10}})
    state = table.state
    assert invariant_errors(state) == []
    twice = replace(state, proposals=state.proposals * 2)
    assert any("repeat" in e for e in invariant_errors(twice))
    beyond = replace(state, proposals_made=0)
    assert any("beyond" in e for e in invariant_errors(beyond))
    self_trade = replace(state, proposals=(replace(state.proposals[0], trade=replace(
        state.proposals[0].trade, to="Ann")),))
    assert any("two players" in e for e in invariant_errors(self_trade))


def script() -> list[Action]:
    lines: list[dict[str, object]] = [
        {"action": "new_game", "edition": "us", "players": ["Ann", "Bob", "Cy"], "rules": {}},
        {"action": "buy", "player": "Ann", "property": "baltic"},
        {"action": "propose_trade", **BALTIC_FOR_100},
        {"action": "propose_trade", "from": "Cy", "to": "Bob", "give": {"cash": 40}},
        {"action": "refuse_trade", "player": "Bob", "proposal": 2, "reason": "later"},
        {"action": "propose_trade", "from": "Cy", "to": "Ann", "give": {"cash": 25}},
    ]
    lines += [{"action": "salary", "player": name} for name in ("Ann", "Bob", "Cy") * (SNAPSHOT_EVERY // 3 + 1)]
    lines += [{"action": "accept_trade", "player": "Bob", "proposal": 1},
              {"action": "undo"},
              {"action": "accept_trade", "player": "Ann", "proposal": 3}]
    return [parse_action(line) for line in lines]


def test_a_journal_with_proposals_replays_and_resumes_from_a_snapshot(tmp_path: Path) -> None:
    actions = script()
    first = actions[0]
    assert isinstance(first, NewGame)
    state, events = apply(None, first)
    start = state
    path = tmp_path / "game.sqlite3"
    with Journal(path) as journal:
        game_id = journal.create_game(first, events, 0.0)
        for action in actions[1:]:
            state, events = apply(state, action)
            journal.append(game_id, state.seq, action, events, 0.0, state=state)
            assert from_snapshot(to_snapshot(state), start) == state
    with Journal(path) as reopened:
        resumed: GameState = reopened.load(game_id)
        full = reopened.replay(game_id)
    assert resumed == full == state and state_to_json(resumed) == state_to_json(state)
    assert [(p.id, p.refused, p.reason) for p in resumed.proposals] == [(1, False, ""), (2, True, "later")]
    assert resumed.proposals_made == 3
    # The engine goes on from the resumed state as from the live one.
    after, _ = apply(resumed, parse_action({"action": "accept_trade", "player": "Bob", "proposal": 1}))
    assert after.props[state.deed("baltic").number].owner == state.seat("Bob")


def test_banker_replay_applies_a_script_with_proposals(tmp_path: Path) -> None:
    path = tmp_path / "script.jsonl"
    path.write_text("\n".join(a.to_line() for a in script()) + "\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "banker", "replay", str(path), "--json"], capture_output=True,
                          text=True, check=False, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 0, done.stderr
    state = json.loads(done.stdout)
    assert [(p["id"], p["status"]) for p in state["proposals"]] == [(1, "open"), (2, "refused")]
    assert state["players"]["Ann"]["cash"] == 1500 - 60 + 25 + 200 * (SNAPSHOT_EVERY // 3 + 1)
    path.write_text("\n".join([*(a.to_line() for a in script()),
                               '{"action": "accept_trade", "player": "Ann", "proposal": 3}']) + "\n",
                    encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "banker", "replay", str(path), "--json"], capture_output=True,
                          text=True, check=False, cwd=Path(__file__).resolve().parents[2])
    assert done.returncode == 1 and "no longer open" in done.stderr


def test_a_player_who_goes_bankrupt_takes_their_trade_offers_with_them() -> None:
    t = Table(("Ann", "Bob", "Cat"))
    t.give("Bob", "baltic")
    t.give("Cat", "oriental")
    t.do("propose_trade", **{"from": "Bob", "to": "Ann", "give": {"properties": ["baltic"]}, "take": {"cash": 50}})
    t.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 10}, "take": {"properties": ["baltic"]}})
    t.do("propose_trade", **{"from": "Cat", "to": "Ann", "give": {"properties": ["oriental"]}, "take": {"cash": 80}})
    t.do("pay", player="Bob", amount=5000, to="Ann")
    events = t.do("bankrupt", player="Bob")
    assert [p["id"] for p in t.json()["proposals"]] == [3]
    assert ("proposals_dropped", {"player": "Bob"}) in [(e.kind, e.params) for e in events]
    assert invariant_errors(t.state) == []
    t.do("accept_trade", player="Ann", proposal=3)
    assert t.json()["properties"]["oriental"]["owner"] == "Ann"


# --- the hostile phone: numbers, terms, bait and switch, hidden cash ---------------------------------------

def test_an_undone_offers_number_is_never_given_to_another_offer() -> None:
    t = Table(("Ann", "Bob", "Cat"))
    t.give("Bob", "boardwalk")
    t.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"cash": 500}, "take": {"properties": ["boardwalk"]}})
    t.do("undo")
    t.do("propose_trade", **{"from": "Cat", "to": "Bob", "give": {"cash": 1}, "take": {"properties": ["boardwalk"]}})
    assert proposals(t) == [(2, "open", "")]
    before = t.json()
    t.fails("proposal_gone", "accept_trade", player="Bob", proposal=1)  # Bob meant Ann's $500
    assert t.json() == before and t.prop("boardwalk")["owner"] == "Bob"


def test_an_accept_naming_other_terms_is_refused_and_the_shown_terms_are_accepted(table: Table) -> None:
    from banker.proposals import terms

    table.give("Ann", "baltic")
    table.do("propose_trade", **BALTIC_FOR_100)
    shown = terms(table.state.proposals[0])
    other = terms(replace(table.state.proposals[0], trade=replace(table.state.proposals[0].trade,
                                                                  take=Bundle(cash=1))))
    assert shown != other and len(shown) == 16
    before = table.json()
    error = table.fails("proposal_changed", "accept_trade", player="Bob", proposal=1, terms=other)
    assert "not the one this page showed" in str(error) and table.json() == before
    table.do("accept_trade", player="Bob", proposal=1, terms=shown)
    assert table.prop("baltic")["owner"] == "Bob"


def test_mortgaging_an_offered_deed_withdraws_the_offer_and_the_accept_finds_it_gone(table: Table) -> None:
    table.give("Ann", "boardwalk")
    table.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"properties": ["boardwalk"]},
                                 "take": {"cash": 400}})
    events = table.do("mortgage", player="Ann", property="boardwalk")
    assert [(e.kind, e.params) for e in events if e.kind == "trade_withdrawn"] == [
        ("trade_withdrawn", {"player": "Ann", "to": "Bob", "proposal": 1, "property": "boardwalk"})]
    before = table.json()
    table.fails("proposal_gone", "accept_trade", player="Bob", proposal=1)
    assert table.json() == before and table.cash("Bob") == 1500  # no mortgaged deed, no debt
    table.do("undo")  # the mortgage undone: the offer is back as it was made
    assert proposals(table) == [(1, "open", "")]


def test_any_change_to_a_deed_on_either_side_withdraws_the_offer() -> None:
    def offered(t: Table) -> None:
        t.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]},
                                 "take": {"properties": ["oriental"]}})

    changes = [
        ("the receiver mortgages the deed asked of him", [], {"action": "mortgage", "player": "Bob",
                                                              "property": "oriental"}),
        ("the proposer lifts the mortgage of the offered deed", [{"action": "mortgage", "player": "Ann",
                                                                  "property": "baltic"}],
         {"action": "unmortgage", "player": "Ann", "property": "baltic"}),
        ("the offered deed goes elsewhere", [], {"action": "trade", "from": "Ann", "to": "Cy",
                                                 "give": {"properties": ["baltic"]}}),
    ]
    for what, setup, change in changes:
        t = Table(("Ann", "Bob", "Cy"))
        t.give("Ann", "baltic")
        t.give("Bob", "oriental")
        for line in setup:
            t.do(line)
        offered(t)
        events = t.do(change)
        assert "trade_withdrawn" in [e.kind for e in events], what
        assert proposals(t) == [], what
    # A building on the offered deed itself withdraws it too.
    t = Table(("Ann", "Bob"))
    t.give("Ann", "mediterranean")
    t.give("Ann", "baltic")
    t.do("propose_trade", **{"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]}, "take": {"cash": 1}})
    assert "trade_withdrawn" in [e.kind for e in t.do("build", player="Ann", property="baltic")]
    # An action that touches no deed of the offer leaves it open.
    t = Table(("Ann", "Bob"))
    t.give("Ann", "baltic")
    t.do("propose_trade", **BALTIC_FOR_100)
    t.do("salary", player="Ann")
    t.do("pay", player="Bob", amount=10, to="Ann")
    assert proposals(t) == [(1, "open", "")]


def test_under_hidden_balances_the_receivers_cash_is_checked_when_he_accepts() -> None:
    for hidden in ("bands", "hidden"):
        t = Table(("Ann", "Bob"), hidden_balances=hidden)
        t.give("Ann", "baltic")
        t.do("pay", player="Bob", amount=900, to="bank")  # Bob has $600
        # Twenty offers asking Bob for 100 to 2,000 are all taken: none tells Ann where his cash stops.
        answers = []
        for amount in range(100, 2001, 100):
            events = t.do("propose_trade", **{**BALTIC_FOR_100, "take": {"cash": amount}})
            answers.append(events[0].kind)
            t.do("cancel_trade", player="Ann", proposal=events[0].params["proposal"])
        assert answers == ["trade_proposed"] * 20
        t.do("propose_trade", **{**BALTIC_FOR_100, "take": {"cash": 700}})
        before = t.json()
        error = t.fails("not_enough_cash", "accept_trade", player="Bob", proposal=21)
        assert error.params["player"] == "Bob" and t.json() == before  # told to Bob, who accepts
    # Without hidden balances the offer is refused at once, as a trade would be.
    t = Table(("Ann", "Bob"))
    t.give("Ann", "baltic")
    t.fails("not_enough_cash", "propose_trade", **{**BALTIC_FOR_100, "take": {"cash": 5000}})
