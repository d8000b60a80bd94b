"""One simulated game: the movement model rolls, the bots decide, the engine rules on every action."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter, is_not
from typing import Any

from banker.actions import (
    Action,
    AuctionClose,
    Bankrupt,
    Bid,
    Build,
    BuildingAuction,
    Bundle,
    Buy,
    DrawCard,
    EndGame,
    EndTurn,
    FreeParking,
    GoToJail,
    JailFine,
    KeepMortgaged,
    LeaveJail,
    Mortgage,
    NewGame,
    PayDebt,
    Rent,
    Salary,
    StartAuction,
    Tax,
    Trade,
    Unmortgage,
    UseJailCard,
)
from banker.edition import BOARD_SIZE, Property, load_edition
from banker.engine import apply
from banker.errors import BankerError
from banker.invariants import invariant_errors
from banker.ledger import Event
from banker.offer import Offer, is_legal, iter_ways_to_raise, make
from banker.sim.movement import Table
from banker.sim.strategies import Strategy
from banker.state import GameState, PropertyState
from banker.worth import liquidation_value, total_worth

JAIL = 10
MORTGAGED = attrgetter("mortgaged")
MAX_JAIL_ROLLS = 3


class InvariantViolation(Exception):
    """Self-play failed (an invariant broke, or the engine refused a bot's action, or anything else):
    carries the seed and the action sequence that reproduces it."""

    def __init__(self, seed: int, actions: list[Action], problem: str) -> None:
        self.seed = seed
        self.actions = actions
        self.problem = problem
        super().__init__(f"seed {seed}, after action {len(actions)}: {problem}")

    def script(self) -> str:
        return "".join(a.to_line() + "\n" for a in self.actions)


@dataclass
class GameResult:
    seed: int
    actions: int
    turns: int
    ended_by: str
    """"last_standing", "short_game" (second bankruptcy) or "turn_limit" (end_game at the agreed time)."""
    winner: str | None
    winner_seat: int | None
    strategies: list[str]
    bankruptcies: int
    net_worth_history: list[list[int]] = field(default_factory=list)


class Game:
    def __init__(self, seed: int, strategies: list[Strategy], edition: str = "us",
                 rules: dict[str, Any] | None = None, check: bool = True) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.strategies = strategies
        self.check = check
        names = tuple(f"P{i + 1}" for i in range(len(strategies)))
        start = NewGame(edition, names, rules or {}, seed=seed)
        self.log: list[Action] = []
        self.state: GameState = self._first(start)
        self.edition = load_edition(edition)
        self.table = Table.start(self.edition, len(names), self.rng)
        self.streets = [(g, m) for g, m in self.edition.groups.items()
                        if self.edition.properties[m[0]].kind == "street"]
        self.street_of = [-1] * len(self.edition.properties)
        """Each deed's index in ``streets`` (-1 for a railroad or a utility)."""
        for index, (_group, members) in enumerate(self.streets):
            for number in members:
                self.street_of[number] = index
        self._view: BoardView | None = None
        self._clean: GameState | None = None
        """The last state the invariants were checked on and held: what an action left alone is not checked again."""

    def _first(self, action: NewGame) -> GameState:
        state, _ = apply(None, action)
        self.log.append(action)
        return state

    # --- talking to the engine ---------------------------------------------------------------
    def act(self, action: Action) -> tuple[Event, ...]:
        self.log.append(action)  # first, so that a refused action ends the reproducing script
        self.state, events = apply(self.state, action)
        self.checked()
        return events

    def take(self, offer: Offer) -> tuple[Event, ...]:
        """Do what an offer made on the current state offers: its preview is the engine's answer."""
        assert offer.action is not None
        self.log.append(offer.action)
        self.state, events = offer.applied(self.state)
        self.checked()
        return events

    def checked(self) -> None:
        """Every invariant on the state an action left (what it left alone was found clean before)."""
        if self.check:
            errors = invariant_errors(self.state, self._clean)
            if errors:
                raise InvariantViolation(self.seed, self.log, "; ".join(errors))
            self._clean = self.state

    def name(self, seat: int) -> str:
        return self.state.players[seat].name

    # --- a whole game ------------------------------------------------------------------------
    def play(self, max_turns: int = 1000) -> GameResult:
        turns = 0
        while not self.state.ended and turns < max_turns:
            seat = self.state.turn
            self.turn(seat)
            turns += 1
            if not self.state.ended:
                self.act(EndTurn())
        ended_by = "last_standing"
        if not self.state.ended:
            self.settle()  # the game ends settled: no debt, decision or auction left
        if not self.state.ended:
            self.act(EndGame())
            ended_by = "turn_limit"
        elif self.state.rules.ends_at_bankruptcies and len(self.state.active_seats()) > 1:
            ended_by = "short_game"
        winner = self.state.winner
        winner_seat = self.state.seat(winner) if winner is not None else None
        return GameResult(self.seed, len(self.log) if self.check else -1, turns, ended_by, winner, winner_seat,
                          [s.name for s in self.strategies], len(self.state.bankrupt_order))

    def turn(self, seat: int) -> None:
        doubles = 0
        while not self.state.ended and not self.state.players[seat].bankrupt:
            if self.state.players[seat].in_jail:
                roll = self.jail_turn(seat)
                if roll is None:
                    break
                self.move(seat, sum(roll))
                self.manage(seat)
                break
            d1, d2 = self.table.roll()
            if d1 == d2:
                doubles += 1
                if doubles == 3:
                    self.to_jail(seat)
                    break
            self.move(seat, d1 + d2)
            self.manage(seat)
            if d1 != d2 or self.state.players[seat].in_jail:
                break

    def jail_turn(self, seat: int) -> tuple[int, int] | None:
        """Leave jail by card, fine or double; returns the roll to move by, or None to stay."""
        player = self.state.players[seat]
        strategy = self.strategies[seat]
        if player.jail_cards and not self.state.debts_of(seat):
            deck = player.jail_cards[0]
            self.act(UseJailCard(player.name))
            self.table.decks[deck].put_back()
            self.table.jail_turns[seat] = 0
            return self.table.roll()
        if player.cash - self.state.rules.jail_fine >= strategy.reserve + 200 and not self.state.debts_of(seat):
            self.act(JailFine(player.name))
            self.settle()
            self.table.jail_turns[seat] = 0
            return self.table.roll()
        d1, d2 = self.table.roll()
        if d1 == d2:
            self.act(LeaveJail(player.name))
            self.settle()
            self.table.jail_turns[seat] = 0
            return d1, d2
        self.table.jail_turns[seat] += 1
        if self.table.jail_turns[seat] >= MAX_JAIL_ROLLS:
            self.act(JailFine(player.name))
            self.settle()
            self.table.jail_turns[seat] = 0
            return d1, d2
        return None

    def to_jail(self, seat: int) -> None:
        self.act(GoToJail(self.name(seat)))
        self.table.positions[seat] = JAIL
        self.table.jail_turns[seat] = 0

    def move(self, seat: int, steps: int) -> None:
        start = self.table.positions[seat]
        position = (start + steps) % BOARD_SIZE
        self.table.positions[seat] = position
        if start + steps >= BOARD_SIZE:
            self.act(Salary(self.name(seat), landed=position == 0))
        self.land(seat, position, steps)

    def land(self, seat: int, position: int, dice: int, rent_card: str | None = None) -> None:
        if self.state.ended or self.state.players[seat].bankrupt:
            return
        square = self.edition.squares[position]
        name = self.name(seat)
        prop = self.edition.by_square.get(position)
        if prop is not None:
            owner = self.state.props[prop.number].owner
            if owner is None:
                self.offer(seat, prop)
            elif owner != seat:
                if rent_card == "nearest_utility":
                    dice = sum(self.table.roll())
                needs_dice = prop.kind == "utility"
                self.act(Rent(name, prop.id, dice if needs_dice else None, rent_card))
                self.settle()
        elif square.kind == "tax":
            choice = None
            if square.id == "income_tax" and self.state.rules.income_tax_percent:
                worth = total_worth(self.state, seat)
                percent = self.state.rules.percent(worth, self.state.rules.income_tax_percent)
                choice = "percent" if percent < square.amount else "flat"
            self.act(Tax(name, square.id, choice))
            self.settle()
        elif square.kind in ("chance", "community_chest"):
            self.draw(seat, square.kind, position, dice)
        elif square.kind == "go_to_jail":
            self.to_jail(seat)
        elif square.kind == "free_parking" and self.state.rules.free_parking_pot and self.state.pot:
            self.act(FreeParking(name))

    def draw(self, seat: int, deck: str, position: int, dice: int) -> None:
        card = self.table.decks[deck].draw()
        name = self.name(seat)
        choice = None
        if card.kind == "pay_or_draw":
            choice = "pay" if self.state.players[seat].cash >= card.amount * 10 else "draw"
        events = self.act(DrawCard(name, deck, card.id, square=str(position), choice=choice))
        self.settle()
        if self.state.players[seat].bankrupt or self.state.ended:
            return
        if card.kind == "go_to_jail":
            self.table.positions[seat] = JAIL
            self.table.jail_turns[seat] = 0
        elif card.kind == "pay_or_draw" and choice == "draw":
            self.draw(seat, card.draw, position, dice)
        elif card.kind in ("advance", "nearest", "back"):
            moved = next(e for e in events if e.kind == "moved")
            target = self.edition.square(moved.params["square"]).index
            self.table.positions[seat] = target
            rent_card = moved.params.get("rent_card")
            self.land(seat, target, dice, rent_card if isinstance(rent_card, str) else None)

    # --- decisions ---------------------------------------------------------------------------
    def offer(self, seat: int, prop: Property) -> None:
        strategy = self.strategies[seat]
        if not self.state.debts_of(seat) and strategy.wants(self.state, seat, prop):
            self.act(Buy(self.name(seat), prop.id))
            return
        self.act(StartAuction(prop.id, declined_by=self.name(seat)))
        self.run_auction()

    def run_auction(self) -> None:
        while self.state.auction is not None and not self.state.ended:
            auction = self.state.auction
            assert auction.property is not None
            prop = self.edition.properties[auction.property]
            tops = []
            for seat, player in enumerate(self.state.players):
                if player.bankrupt or seat in auction.excluded or self.state.debts_of(seat):
                    continue
                top = self.strategies[seat].top_bid(self.state, seat, prop)
                if top > 0:
                    tops.append((top, -seat, seat))
            tops.sort(reverse=True)
            if tops:
                if len(tops) > 1:
                    self.act(Bid(self.name(tops[1][2]), tops[1][0]))
                    price = tops[1][0] + 1 if tops[0][0] > tops[1][0] else None
                else:
                    price = max(1, prop.price // 2) if tops[0][0] >= prop.price // 2 else tops[0][0]
                if price is not None:
                    self.act(Bid(self.name(tops[0][2]), price))
            self.act(AuctionClose())
            self.settle()

    def settle(self) -> None:
        """Debts, decisions about received mortgaged deeds, and bankruptcy auctions, until none is left."""
        while not self.state.ended:
            if self.state.decisions:
                d = self.state.decisions[0]
                prop = self.edition.properties[d.property]
                cost = self.state.rules.lift_cost(prop.mortgage)
                player = self.state.players[d.player]
                if player.cash - cost >= self.strategies[d.player].reserve and not self.state.debts_of(d.player):
                    self.act(Unmortgage(player.name, prop.id))
                else:
                    self.act(KeepMortgaged(player.name, prop.id))
                continue
            if self.state.debts:
                self.pay_or_fold(self.state.debts[0].debtor)
                continue
            if self.state.auction is not None:
                self.run_auction()
                continue
            return

    def pay_or_fold(self, seat: int) -> None:
        name = self.name(seat)
        owed = self.state.debt_total(seat)
        if liquidation_value(self.state, seat) < owed:
            self.act(Bankrupt(name))
            return
        while self.state.players[seat].cash < owed:
            if not self.raise_money(seat):  # pragma: no cover - liquidation value covers the debt
                break
        self.act(PayDebt(name))

    def raise_money(self, seat: int) -> bool:
        """Take the engine's first way to raise cash (the cheapest sacrifice: a bare deed mortgaged, then
        one building sold, a hotel broken down as the bank's houses allow)."""
        way = next(iter_ways_to_raise(self.state, self.name(seat), preview=False), None)
        if way is None or way.action is None:
            return False
        self.act(way.action)
        return True

    def owns_group(self, seat: int, prop: Property) -> bool:
        return all(self.state.props[n].owner == seat for n in self.edition.groups[prop.group])

    def view(self) -> BoardView:
        """Who holds what, worked out again only when a deed changed (the deeds tuple is then new)."""
        props = self.state.props
        if self._view is None or self._view.props is not props:
            self._view = BoardView.of(self, props, self._view)
        return self._view

    def manage(self, seat: int) -> None:
        """Between rolls: trade for a missing street, lift mortgages, build up to the strategy's level."""
        state = self.state
        if state.ended or state.players[seat].bankrupt or state.debts_of(seat) or state.decisions:
            return
        if seat in self.view().wants:
            self.trade_for_groups(seat)
            state = self.state
            # A trade's settlement may have ended the game or left the seat owing or deciding.
            if state.ended or state.players[seat].bankrupt or state.debts_of(seat) or state.decisions:
                return
        strategy = self.strategies[seat]
        name = self.name(seat)
        rules = state.rules
        for number in self.view().mortgaged.get(seat, ()):
            prop = self.edition.properties[number]
            cost = rules.lift_cost(prop.mortgage)
            if self.state.players[seat].cash - cost >= strategy.reserve + 100:
                self.act(Unmortgage(name, prop.id))
        hotel_level = rules.hotel_level
        max_level = min(strategy.build_to, hotel_level)
        if 0 < self.state.bank_houses <= 2:
            self.house_auction()
        for members in self.view().complete.get(seat, ()):
            while True:
                low, number = min((self.state.level(n), n) for n in members)
                prop = self.edition.properties[number]
                if low >= max_level or self.state.players[seat].cash - prop.house_price < strategy.reserve:
                    break
                hotel_next = low + 1 == hotel_level
                if (self.state.bank_hotels if hotel_next else self.state.bank_houses) < 1:
                    break
                self.act(Build(name, prop.id))

    def house_auction(self) -> None:
        """§6.6: when the last houses are wanted by two or more players, the bank auctions one."""
        bids: list[tuple[int, int, Property]] = []  # (top bid, seat, street)
        for seat in self.state.active_seats():
            if self.state.debts_of(seat):
                continue
            for members in self.view().complete.get(seat, ()):
                low, number = min((self.state.level(n), n) for n in members)
                prop = self.edition.properties[number]
                if low + 1 < self.state.rules.hotel_level:
                    top = min(prop.house_price * 2, self.state.players[seat].cash - self.strategies[seat].reserve)
                    if top >= prop.house_price:
                        bids.append((top, seat, prop))
                    break
        if len({seat for _, seat, _ in bids}) < 2:
            return
        opening = make(self.state, "building_auction", BuildingAuction("house"))
        if not opening.allowed:
            return  # the bank auctions houses only in a shortage (§6.6): the engine says when there is one
        bids.sort(key=lambda b: (-b[0], b[1]))
        (top, winner, prop), (second, loser, lost_on) = bids[0], bids[1]
        self.take(opening)
        self.act(Bid(self.name(loser), second, lost_on.id))
        price = max(second + 1, prop.house_price)
        if top >= price:
            self.act(Bid(self.name(winner), price, prop.id))
            # The high bid stands: the winner cannot mortgage the group it builds on meanwhile.
            street = self.edition.properties[self.edition.groups[prop.group][0]]
            assert not is_legal(self.state, Mortgage(self.name(winner), street.id))
        self.act(AuctionClose())
        self.settle()

    def trade_for_groups(self, seat: int) -> None:
        """Swap deeds so both sides complete a group, or buy the one street missing from a group."""
        state = self.state
        for want, other, swap in self.view().wants.get(seat, ()):
            if state.debts_of(other) or any(d.player == other for d in state.decisions):
                continue
            if swap is not None:
                self.act(Trade(self.name(seat), self.name(other),
                               give=Bundle(properties=(self.edition.properties[swap].id,)),
                               take=Bundle(properties=(self.edition.properties[want].id,))))
                self.settle()
                return
            factor = self.strategies[other].sell_factor
            offer = int(self.edition.properties[want].price * factor)
            if factor and state.players[seat].cash - offer >= self.strategies[seat].reserve + 200:
                self.act(Trade(self.name(seat), self.name(other), give=Bundle(cash=offer),
                               take=Bundle(properties=(self.edition.properties[want].id,))))
                self.settle()
                return


GroupPart = tuple[int | None, list[tuple[int, int, int]]]
"""What one street group tells the bots: the seat owning it whole and unmortgaged (else None), and
(seat, deed it lacks, that deed's holder) for each seat one deed short of it."""


@dataclass
class BoardView:
    """What the bots need to know about the deeds, per seat."""

    props: tuple[PropertyState, ...]
    mortgaged: dict[int, list[int]]
    """Mortgaged deeds of each seat, in board order."""
    complete: dict[int, list[tuple[int, ...]]]
    """Street groups a seat owns whole, with nothing mortgaged."""
    wants: dict[int, list[tuple[int, int, int | None]]]
    """Streets that would complete a group: (deed, its owner, a deed to swap for it or None)."""
    parts: list[GroupPart]
    """Each street group's part, in the order of ``Game.streets``."""

    @classmethod
    def of(cls, game: Game, props: tuple[PropertyState, ...], before: BoardView | None = None) -> BoardView:
        """The view of ``props``; the parts of the street groups whose deeds are the very objects they were
        in ``before`` are taken from it (an action replaces only the deeds it changes)."""
        mortgaged: dict[int, list[int]] = {}
        for number in compress(range(len(props)), map(MORTGAGED, props)):
            owner = props[number].owner
            if owner is not None:
                mortgaged.setdefault(owner, []).append(number)
        # The street groups (indexes into game.streets) with a deed that is not the object it was.
        changed = set() if before is None else set(compress(game.street_of, map(is_not, props, before.props)))
        complete: dict[int, list[tuple[int, ...]]] = {}
        lacking: dict[int, list[tuple[int, int, int]]] = {}  # seat -> (deed it lacks, holder, group index)
        parts: list[GroupPart] = []
        for index, (_group, members) in enumerate(game.streets):
            if before is not None and index not in changed:
                part = before.parts[index]
            else:
                part = cls.group_part(members, props)
            parts.append(part)
            whole, short = part
            if whole is not None:
                complete.setdefault(whole, []).append(members)
            for seat, number, holder in short:
                lacking.setdefault(seat, []).append((number, holder, index))
        wants: dict[int, list[tuple[int, int, int | None]]] = {}
        for seat, needs in lacking.items():
            for number, other, index in needs:
                swap = next((n for n, holder, other_index in lacking.get(other, ())
                             if holder == seat and other_index != index), None)
                members = game.streets[index][1]
                sole = sum(1 for n in members if props[n].owner == other) == 1
                if swap is not None or sole:
                    wants.setdefault(seat, []).append((number, other, swap))
        return cls(props, mortgaged, complete, wants, parts)

    @staticmethod
    def group_part(members: tuple[int, ...], props: tuple[PropertyState, ...]) -> GroupPart:
        states = [props[n] for n in members]
        holders = [ps.owner for ps in states]
        first = holders[0]
        if first is not None and holders.count(first) == len(holders):
            return (None if any(ps.mortgaged for ps in states) else first), []
        if any(ps.houses or ps.hotel for ps in states):
            return None, []
        short = []
        for seat in set(holders):
            if seat is not None and holders.count(seat) == len(holders) - 1:
                number = members[next(i for i, owner in enumerate(holders) if owner != seat)]
                holder = props[number].owner
                if holder is not None:
                    short.append((seat, number, holder))
        return None, short


def accepted_actions(log: list[Action]) -> list[Action]:
    """The actions of a game's log that the engine accepted, in order: a bot's try that the engine refused
    stays in the log (so that a failure's script reproduces it), but a journal never has it."""
    state: GameState | None = None
    accepted: list[Action] = []
    for action in log:
        try:
            state, _ = apply(state, action)
        except BankerError:
            continue
        accepted.append(action)
    return accepted


def play_game(seed: int, strategies: list[Strategy], *, edition: str = "us",
              rules: dict[str, Any] | None = None, check: bool = True, max_turns: int = 1000) -> GameResult:
    """Play one complete game; raises :class:`InvariantViolation` if anything goes wrong in it."""
    game = Game(seed, strategies, edition, rules, check)
    try:
        return game.play(max_turns)
    except InvariantViolation:
        raise
    except Exception as exc:
        raise InvariantViolation(seed, game.log, f"{type(exc).__name__}: {exc}") from exc
