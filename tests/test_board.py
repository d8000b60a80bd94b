"""The board moves of every action, held against the state change: replayed on a model of the cardboard
board as it was, they give the board as it is after the action (owners, buildings, mortgages, jail cards)."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field

import pytest

from banker.actions import Action, NewGame, Undo, parse_action
from banker.board import BoardMove, board_event, board_moves, moves_of
from banker.engine import apply
from banker.replay import replay_lines
from banker.sim.cli import lineup
from banker.sim.game import Game, accepted_actions
from banker.state import BANK, GameState
from banker.text import board_line, describe_move

ALL_MOVES = ("house", "hotel", "deed", "turn_over", "jail_card")


class BadMove(AssertionError):
    pass


@dataclass
class Board:
    """The cardboard: who holds each deed, what stands on it, which side is up, who holds the jail cards."""

    holder: dict[str, str]
    houses: dict[str, int]
    hotels: dict[str, int]
    face_down: set[str]
    bank_houses: int
    bank_hotels: int
    cards: Counter[tuple[str, str]] = field(default_factory=Counter)

    @classmethod
    def of(cls, state: GameState | None, like: GameState) -> Board:
        """The board of ``state``; ``None`` is the box before a game (every deed with the bank)."""
        edition = like.edition
        if state is None:
            ids = [p.id for p in edition.properties]
            return cls({d: BANK for d in ids}, dict.fromkeys(ids, 0), dict.fromkeys(ids, 0), set(),
                       like.rules.houses, like.rules.hotels)
        names = [p.name for p in state.players]
        cards: Counter[tuple[str, str]] = Counter()
        for p in state.players:
            for deck in p.jail_cards:
                cards[(p.name, deck)] += 1
        deeds = list(zip(edition.properties, state.props, strict=True))
        return cls(
            {p.id: BANK if ps.owner is None else names[ps.owner] for p, ps in deeds},
            {p.id: ps.houses for p, ps in deeds},
            {p.id: int(ps.hotel) for p, ps in deeds},
            {p.id for p, ps in deeds if ps.mortgaged},
            state.bank_houses, state.bank_hotels, cards)

    def make(self, move: BoardMove) -> None:
        """Make one move as a person would, refusing one that takes what is not there."""
        if move.count < 1:
            raise BadMove(f"a move of nothing: {move}")
        if move.move in ("house", "hotel"):
            stock = self.houses if move.move == "house" else self.hotels
            bank = "bank_houses" if move.move == "house" else "bank_hotels"
            street = move.what
            if move.from_ == BANK and move.to == street:
                if getattr(self, bank) < move.count:
                    raise BadMove(f"the bank has no {move.move} left for {move}")
                setattr(self, bank, getattr(self, bank) - move.count)
                stock[street] += move.count
            elif move.from_ == street and move.to == BANK:
                if stock[street] < move.count:
                    raise BadMove(f"{street} has fewer buildings than {move}")
                stock[street] -= move.count
                setattr(self, bank, getattr(self, bank) + move.count)
            else:
                raise BadMove(f"a building moves between the bank and its street: {move}")
        elif move.move == "deed":
            if self.holder[move.what] != move.from_ or move.count != 1:
                raise BadMove(f"{move.what} is held by {self.holder[move.what]}, not as {move}")
            self.holder[move.what] = move.to
        elif move.move == "turn_over":
            down = move.what in self.face_down
            if (move.from_, move.to) != (("mortgaged", "unmortgaged") if down else ("unmortgaged", "mortgaged")):
                raise BadMove(f"{move.what} is face {'down' if down else 'up'}: {move}")
            self.face_down ^= {move.what}
        elif move.move == "jail_card":
            if move.from_ != BANK:
                if self.cards[(move.from_, move.what)] < 1:
                    raise BadMove(f"{move.from_} has no {move.what} jail card: {move}")
                self.cards[(move.from_, move.what)] -= 1
            if move.to != BANK:
                self.cards[(move.to, move.what)] += 1
            self.cards = +self.cards
        else:
            raise BadMove(f"unknown move {move}")


def hold(before: GameState | None, after: GameState, action: Action) -> tuple[BoardMove, ...]:
    """Check that the action's moves turn the board of ``before`` into the board of ``after``."""
    moves = board_moves(before, after, action)
    board = Board.of(before, after)
    for move in moves:
        board.make(move)
    assert board == Board.of(after, after), (action, moves)
    return moves


def self_played(seed: int, players: int, **rules: object) -> tuple[list[Action], list[GameState]]:
    game = Game(seed, lineup(seed, players), rules=dict(rules), check=False)
    game.play(max_turns=400)
    actions = accepted_actions(game.log)
    result = replay_lines([a.to_line() for a in actions], keep_states=True)
    return actions, result.states


GAMES = [(seed, players, rules) for seed in range(10) for players, rules in
         ((2, {}), (3, {}), (4, {"short_game": True}), (4, {"free_parking_pot": True}))][:24]


@pytest.mark.parametrize(("seed", "players", "rules"), GAMES)
def test_the_moves_of_every_self_played_action_and_of_its_undo_give_the_next_board(
        seed: int, players: int, rules: dict[str, object]) -> None:
    actions, states = self_played(seed, players, **rules)
    before: GameState | None = None
    for action, after in zip(actions, states, strict=True):
        hold(before, after, action)
        if before is not None:
            undone, _ = apply(after, Undo())
            moves = hold(after, undone, Undo())
            assert moves == tuple(m.reversed() for m in reversed(board_moves(before, after, action)))
        before = after


def test_self_play_makes_every_kind_of_move_and_action_that_moves_cardboard() -> None:
    kinds: Counter[str] = Counter()
    acting: set[str] = set()
    for seed, players, rules in GAMES:
        actions, states = self_played(seed, players, **rules)
        before: GameState | None = None
        for action, after in zip(actions, states, strict=True):
            moves = board_moves(before, after, action)
            kinds.update(m.move for m in moves)
            if moves:
                acting.add(action.name)
            before = after
    assert set(kinds) == set(ALL_MOVES), kinds
    assert {"buy", "build", "sell_building", "mortgage", "unmortgage", "trade", "bankrupt", "auction_close",
            "card", "use_jail_card"} <= acting, acting


def replay(*lines: dict[str, object]) -> tuple[list[Action], list[GameState]]:
    result = replay_lines([json.dumps(line) for line in lines], keep_states=True, check=True)
    return [parse_action(json.dumps(line)) for line in lines], result.states


def moves_json(*lines: dict[str, object]) -> list[list[dict[str, object]]]:
    actions, states = replay(*lines)
    out = []
    before: GameState | None = None
    for action, after in zip(actions, states, strict=True):
        out.append([m.to_json() for m in hold(before, after, action)])
        before = after
    return out


START = {"action": "new_game", "edition": "us", "players": ["Ann", "Bob"], "rules": {}}


def buy(player: str, *deeds: str) -> list[dict[str, object]]:
    return [{"action": "buy", "player": player, "property": d} for d in deeds]


def build(player: str, times: int, *deeds: str) -> list[dict[str, object]]:
    return [{"action": "build", "player": player, "property": d} for _ in range(times) for d in deeds]


def test_a_hotel_goes_up_for_four_houses_and_a_break_down_takes_it_off_for_houses() -> None:
    moves = moves_json(START, *buy("Ann", "mediterranean", "baltic"), *build("Ann", 5, "mediterranean", "baltic"),
                       {"action": "sell_building", "player": "Ann", "property": "baltic"})
    assert moves[-2] == [{"move": "house", "what": "baltic", "count": 4, "from": "baltic", "to": "bank"},
                         {"move": "hotel", "what": "baltic", "count": 1, "from": "bank", "to": "baltic"}]
    assert moves[-1] == [{"move": "hotel", "what": "baltic", "count": 1, "from": "baltic", "to": "bank"},
                         {"move": "house", "what": "baltic", "count": 4, "from": "bank", "to": "baltic"}]


def test_a_break_down_in_a_house_shortage_lists_the_hotel_off_and_the_houses_on() -> None:
    # The bank has 6 houses: the hotel on Boardwalk and a house on Park Place come down in one go, the hotel
    # to 3 houses that the bank supplies (a hotel broken down as far as the bank's houses allow).
    start = {**START, "rules": {"houses": 12}}
    lines = [start, *buy("Ann", "park_place", "boardwalk", "mediterranean", "baltic"),
             {"action": "collect", "player": "Ann", "amount": 5000},
             *build("Ann", 4, "park_place", "boardwalk"), *build("Ann", 1, "boardwalk"),
             *build("Ann", 1, "mediterranean", "baltic"), *build("Ann", 1, "mediterranean"),
             {"action": "sell_building", "player": "Ann", "property": "mediterranean"},
             {"action": "sell_buildings", "player": "Ann", "levels": {"boardwalk": 3, "park_place": 3}}]
    moves = moves_json(*lines)
    assert moves[-1] == [{"move": "house", "what": "park_place", "count": 1, "from": "park_place", "to": "bank"},
                         {"move": "hotel", "what": "boardwalk", "count": 1, "from": "boardwalk", "to": "bank"},
                         {"move": "house", "what": "boardwalk", "count": 3, "from": "bank", "to": "boardwalk"}]


def test_a_bankruptcy_to_a_player_moves_every_deed_the_buildings_and_the_jail_card() -> None:
    lines = [START, *buy("Bob", "oriental", "vermont", "connecticut", "reading_railroad"),
             *build("Bob", 1, "oriental", "vermont", "connecticut"),
             {"action": "mortgage", "player": "Bob", "property": "reading_railroad"},
             {"action": "card", "player": "Bob", "deck": "chance", "card": "jail_free"},
             {"action": "pay", "player": "Bob", "amount": 5000, "to": "Ann"},
             {"action": "bankrupt", "player": "Bob"}]
    moves = moves_json(*lines)
    assert moves[-1] == [
        {"move": "house", "what": "oriental", "count": 1, "from": "oriental", "to": "bank"},
        {"move": "house", "what": "vermont", "count": 1, "from": "vermont", "to": "bank"},
        {"move": "house", "what": "connecticut", "count": 1, "from": "connecticut", "to": "bank"},
        {"move": "deed", "what": "reading_railroad", "count": 1, "from": "Bob", "to": "Ann"},
        {"move": "deed", "what": "oriental", "count": 1, "from": "Bob", "to": "Ann"},
        {"move": "deed", "what": "vermont", "count": 1, "from": "Bob", "to": "Ann"},
        {"move": "deed", "what": "connecticut", "count": 1, "from": "Bob", "to": "Ann"},
        {"move": "jail_card", "what": "chance", "count": 1, "from": "Bob", "to": "Ann"}]
    assert moves[-3] == [{"move": "jail_card", "what": "chance", "count": 1, "from": "bank", "to": "Bob"}]


def test_a_bankruptcy_to_the_bank_returns_the_deeds_face_up_and_the_card_to_its_deck() -> None:
    three = {**START, "players": ["Ann", "Bob", "Cy"]}
    lines = [three, *buy("Bob", "oriental", "reading_railroad"),
             {"action": "mortgage", "player": "Bob", "property": "reading_railroad"},
             {"action": "card", "player": "Bob", "deck": "community_chest", "card": "jail_free"},
             {"action": "pay", "player": "Bob", "amount": 5000, "to": "bank"},
             {"action": "bankrupt", "player": "Bob"}]
    moves = moves_json(*lines)
    assert moves[-1] == [
        {"move": "deed", "what": "reading_railroad", "count": 1, "from": "Bob", "to": "bank"},
        {"move": "deed", "what": "oriental", "count": 1, "from": "Bob", "to": "bank"},
        {"move": "turn_over", "what": "reading_railroad", "count": 1, "from": "mortgaged", "to": "unmortgaged"},
        {"move": "jail_card", "what": "community_chest", "count": 1, "from": "Bob", "to": "bank"}]


def test_a_trade_moves_deeds_both_ways_and_a_jail_card() -> None:
    lines = [START, *buy("Ann", "baltic"), *buy("Bob", "oriental"),
             {"action": "card", "player": "Ann", "deck": "chance", "card": "jail_free"},
             {"action": "trade", "from": "Ann", "to": "Bob", "give": {"properties": ["baltic"], "jail_cards": 1},
              "take": {"properties": ["oriental"], "cash": 10}}]
    assert moves_json(*lines)[-1] == [
        {"move": "deed", "what": "baltic", "count": 1, "from": "Ann", "to": "Bob"},
        {"move": "deed", "what": "oriental", "count": 1, "from": "Bob", "to": "Ann"},
        {"move": "jail_card", "what": "chance", "count": 1, "from": "Ann", "to": "Bob"}]


def test_the_short_game_deals_its_deeds_from_the_bank() -> None:
    deal = {"Ann": ["baltic", "oriental"], "Bob": ["vermont", "boardwalk"]}
    moves = moves_json({**START, "rules": {"short_game": True}, "deal": deal})
    assert [(m["what"], m["from"], m["to"]) for m in moves[0]] == [
        ("baltic", "bank", "Ann"), ("oriental", "bank", "Ann"), ("vermont", "bank", "Bob"),
        ("boardwalk", "bank", "Bob")]


def test_actions_that_move_only_money_move_nothing_on_the_board() -> None:
    moves = moves_json(START, *buy("Ann", "baltic"), {"action": "rent", "player": "Bob", "property": "baltic"},
                       {"action": "salary", "player": "Bob"}, {"action": "end_turn"})
    assert moves[2:] == [[], [], []]


def test_an_undo_carries_the_reverse_moves_and_what_it_undid() -> None:
    actions, states = replay(START, *buy("Ann", "mediterranean", "baltic"), *build("Ann", 1, "baltic"))
    undone, events = apply(states[-1], Undo())
    event = board_event(states[-1], undone, Undo())
    assert event.params["moves"] == [{"move": "house", "what": "baltic", "count": 1, "from": "baltic", "to": "bank"}]
    assert [e["kind"] for e in event.params["undone"]] == ["built"]
    assert event.params["undone"][0]["property"] == "baltic"


@pytest.mark.parametrize(("language", "text"), [
    ("en", "On the board: take 4 houses off Baltic Avenue; put a hotel on Baltic Avenue."),
    ("ru", "На доске — Baltic Avenue: снимите 4 дома; Baltic Avenue: поставьте отель."),
    ("bg", "На дъската: махнете 4 къщи от Baltic Avenue; сложете хотел на Baltic Avenue."),
])
def test_the_moves_read_as_instructions_in_each_language(language: str, text: str) -> None:
    _, states = replay(START, *buy("Ann", "mediterranean", "baltic"), *build("Ann", 5, "mediterranean", "baltic"))
    moves = list(board_moves(states[-2], states[-1]))
    assert board_line(states[-1].edition, moves, language) == text


def test_each_kind_of_move_has_its_instruction() -> None:
    _, states = replay(START)
    edition = states[0].edition
    said = [describe_move(edition, BoardMove(*m), "en") for m in (
        ("house", "baltic", 2, "bank", "baltic"), ("house", "baltic", 1, "baltic", "bank"),
        ("hotel", "baltic", 1, "bank", "baltic"), ("hotel", "baltic", 1, "baltic", "bank"),
        ("deed", "oriental", 1, "bank", "Ann"), ("deed", "oriental", 1, "Ann", "bank"),
        ("turn_over", "oriental", 1, "unmortgaged", "mortgaged"),
        ("turn_over", "oriental", 1, "mortgaged", "unmortgaged"),
        ("jail_card", "chance", 1, "Ann", "Bob"), ("jail_card", "community_chest", 1, "Bob", "bank"))]
    assert said == ["Put 2 houses on Baltic Avenue", "Take 1 house off Baltic Avenue", "Put a hotel on Baltic Avenue",
                    "Take the hotel off Baltic Avenue", "Give Oriental Avenue to Ann",
                    "Return Oriental Avenue to the bank", "Turn Oriental Avenue face down",
                    "Turn Oriental Avenue face up", "Give the Chance jail card to Bob",
                    "Put the Community Chest jail card back under its deck"]


def test_moves_ride_in_the_events_as_one_board_event() -> None:
    state, _ = apply(None, NewGame("us", ("Ann", "Bob")))
    after, events = apply(state, parse_action('{"action": "buy", "player": "Ann", "property": "baltic"}'))
    event = board_event(state, after, parse_action('{"action": "buy", "player": "Ann", "property": "baltic"}'))
    assert moves_of((*events, event)) == [BoardMove("deed", "baltic", 1, "bank", "Ann")]
    assert moves_of(events) == []
