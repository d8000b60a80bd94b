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
    Build,
    BuildingAuction,
    Bundle,
    DrawCard,
    EndGame,
    EndTurn,
    FreeParking,
    NewGame,
    Salary,
    Trade,
)
from banker.edition import BOARD_SIZE, Property, load_edition
from banker.engine import apply
from banker.errors import BankerError
from banker.invariants import invariant_errors
from banker.ledger import Event
from banker.offer import (
    CASH_SHORT,
    Offer,
    bid_offer,
    card_offer,
    complete,
    debt_offers,
    deed_offers,
    group_build_offer,
    iter_ways_to_raise,
    make,
    mortgage_offer,
    square_offers,
)
from banker.sim.movement import Table
from banker.sim.strategies import Strategy
from banker.state import GameState, PropertyState

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
        """Leave jail by card, fine or double, among the engine's jail offers; returns the roll to move by,
        or None to stay."""
        player = self.state.players[seat]
        strategy = self.strategies[seat]
        ways = {o.kind: o for o in square_offers(self.state, player.name, "jail")}
        card = ways.get("use_jail_card")
        if card is not None and not self.state.debts_of(seat) and card.allowed:
            deck = player.jail_cards[0]
            self.take(card)
            self.table.decks[deck].put_back()
            self.table.jail_turns[seat] = 0
            return self.table.roll()
        fine = ways["jail_fine"]
        if player.cash + fine.price >= strategy.reserve + 200 and not self.state.debts_of(seat):
            self.take(fine)
            self.settle()
            self.table.jail_turns[seat] = 0
            return self.table.roll()
        d1, d2 = self.table.roll()
        if d1 == d2:
            self.take(ways["leave_jail"])
            self.settle()
            self.table.jail_turns[seat] = 0
            return d1, d2
        self.table.jail_turns[seat] += 1
        if self.table.jail_turns[seat] >= MAX_JAIL_ROLLS:
            self.take(fine)  # the third roll without a double: the fine is due (a debt if the cash is short)
            self.settle()
            self.table.jail_turns[seat] = 0
            return d1, d2
        return None

    def to_jail(self, seat: int) -> None:
        self.take(square_offers(self.state, self.name(seat), "go_to_jail")[0])
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
                rent = deed_offers(self.state, name, prop.id, rent_card=rent_card)[0]
                if rent.needs == ("dice",):  # a utility's rent: the engine asks for the dice
                    rent = complete(self.state, rent, dice=dice)
                self.take(rent)
                self.settle()
        elif square.kind == "tax":
            # The cheaper of the tax's offers (the flat sum or the percent of the worth, under that house rule)
            self.take(min(square_offers(self.state, name, square.id), key=charged))
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
        drawn = card_offer(self.state, DrawCard(name, deck, card.id, square=str(position)))
        choice = None
        if drawn.needs == ("choice",):  # pay a fine or take a card of the other deck
            pay, other = drawn.choices
            drawn = pay if self.state.players[seat].cash >= -pay.price * 10 else other
            choice = "pay" if drawn is pay else "draw"
        events = self.take(drawn)
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
        """Buy the deed landed on, or let it go to auction: the engine's two offers."""
        buy, auction = deed_offers(self.state, self.name(seat), prop.id)
        if self.strategies[seat].wants(self.state.players[seat].cash, -buy.price) and buy.allowed:
            self.take(buy)
            return
        self.take(auction)
        self.run_auction()

    def run_auction(self) -> None:
        while self.state.auction is not None and not self.state.ended:
            auction = self.state.auction
            assert auction.property is not None
            prop = self.edition.properties[auction.property]
            tops: list[tuple[int, int, int, Offer]] = []
            for seat, player in enumerate(self.state.players):
                bid = bid_offer(self.state, player.name)
                if bid.refused:  # the engine's reason: a decliner kept out, a debt, bankrupt, no cash
                    continue
                top = self.strategies[seat].top_bid(self.state, seat, prop)
                if top > 0:
                    tops.append((top, -seat, seat, bid))
            tops.sort(key=lambda t: t[:3], reverse=True)
            if tops:
                if len(tops) > 1:
                    self.take(complete(self.state, tops[1][3], amount=tops[1][0]))
                    price = tops[1][0] + 1 if tops[0][0] > tops[1][0] else None
                else:
                    price = max(1, prop.price // 2) if tops[0][0] >= prop.price // 2 else tops[0][0]
                if price is not None:
                    self.take(complete(self.state, tops[0][3], amount=price))
            self.take(make(self.state, "auction_close", AuctionClose()))  # the banker closes it
            self.settle()

    def settle(self) -> None:
        """Debts, decisions about received mortgaged deeds, and bankruptcy auctions, until none is left."""
        while not self.state.ended:
            if self.state.decisions:
                d = self.state.decisions[0]
                player = self.state.players[d.player]
                lift, keep = deed_offers(self.state, player.name, self.edition.properties[d.property].id)
                if player.cash + lift.price >= self.strategies[d.player].reserve and lift.allowed:
                    self.take(lift)
                else:
                    self.take(keep)
                continue
            if self.state.debts:
                self.pay_or_fold(self.state.debts[0].debtor)
                continue
            if self.state.auction is not None:
                self.run_auction()
                continue
            return

    def pay_or_fold(self, seat: int) -> None:
        """Go bankrupt when the engine allows it (nothing left would cover the debts), else raise the cash
        until paying is allowed, and pay."""
        name = self.name(seat)
        pay, fold = debt_offers(self.state, name)
        if fold.allowed:
            self.take(fold)
            return
        while self.state.players[seat].cash + pay.price < 0:  # short of what paying costs: raise it
            if not self.raise_money(seat):  # pragma: no cover - the assets cover the debt
                break
        self.take(pay)

    def raise_money(self, seat: int) -> bool:
        """Take the engine's first way to raise cash (the cheapest sacrifice: a bare deed mortgaged, then
        one building sold, a hotel broken down as the bank's houses allow)."""
        way = next(iter_ways_to_raise(self.state, self.name(seat), preview=False), None)
        if way is None:
            return False
        self.take(way)
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
        for number in self.view().mortgaged.get(seat, ()):
            prop = self.edition.properties[number]
            if self.state.players[seat].cash - prop.mortgage < strategy.reserve + 100:
                continue  # lifting costs the printed mortgage value and more: not asked for
            lift = mortgage_offer(self.state, name, prop.id)
            if self.state.players[seat].cash + lift.price >= strategy.reserve + 100 and lift.allowed:
                self.take(lift)
        if self.wants_a_house(seat):
            self.house_auction()
        for members in self.view().complete.get(seat, ()):
            while True:
                build = self.next_building(seat, members, strategy.build_to)
                if build is None:
                    break
                self.take(build)

    def next_building(self, seat: int, members: tuple[int, ...], build_to: int) -> Offer | None:
        """The engine's offer of the next building on a group (where even building puts it), if the
        strategy wants it (below its level, with the reserve left after it) and the engine allows it (the
        bank's stock); None otherwise."""
        state = self.state
        cash = state.players[seat].cash
        reserve = self.strategies[seat].reserve
        if cash - self.edition.properties[members[0]].house_price < reserve:
            return None  # not wanted at the printed price: the engine is not asked
        build = group_build_offer(state, self.name(seat), self.edition.properties[members[0]].id)
        if build is None or not isinstance(build.action, Build):
            return None
        street = state.edition.property(build.action.property)
        if state.level(street.number) >= build_to or cash + build.price < reserve or not build.allowed:
            return None
        return build

    def wants_a_house(self, seat: int) -> bool:
        """Whether the seat's strategy would still build on a group it has whole, with its reserve left, while
        another player has a whole group too (someone to compete with for the bank's houses)."""
        complete = self.view().complete
        if len(complete) < 2 or seat not in complete:
            return False
        cash = self.state.players[seat].cash
        strategy = self.strategies[seat]
        return any(self.state.level(n) < strategy.build_to
                   and cash - self.edition.properties[n].house_price >= strategy.reserve
                   for members in self.view().complete.get(seat, ()) for n in members)

    def house_auction(self) -> None:
        """§6.6: when two or more players want more houses than the bank has, the bank auctions one: asked
        for when the engine offers it, and held when two bots bid."""
        opening = make(self.state, "building_auction", BuildingAuction("house"))
        if not opening.allowed:
            return  # no shortage: the engine says when there is one
        bids: list[tuple[int, int, Property]] = []  # (top bid, seat, street)
        for seat in self.state.active_seats():
            if self.state.debts_of(seat):
                continue
            for members in self.view().complete.get(seat, ()):
                wanted = self.next_street(seat, members)
                if wanted is None or wanted[0].kind != "build_house":
                    continue  # a hotel comes next there (or nothing): another group may want a house
                build, street = wanted
                top = min(-build.price * 2, self.state.players[seat].cash - self.strategies[seat].reserve)
                if top >= -build.price:
                    bids.append((top, seat, street))
                break
        if len({seat for _, seat, _ in bids}) < 2:
            return
        bids.sort(key=lambda b: (-b[0], b[1]))
        (top, winner, prop), (second, loser, lost_on) = bids[0], bids[1]
        self.take(opening)
        self.take(self.bid_on(loser, lost_on, second))
        price = max(second + 1, prop.house_price)
        if top >= price:
            self.take(self.bid_on(winner, prop, price))
            # The high bid stands: the winner cannot mortgage the group it builds on meanwhile.
            street = self.edition.properties[self.edition.groups[prop.group][0]]
            assert mortgage_offer(self.state, self.name(winner), street.id).refused
        self.take(make(self.state, "auction_close", AuctionClose()))  # the banker closes it
        self.settle()

    def next_street(self, seat: int, members: tuple[int, ...]) -> tuple[Offer, Property] | None:
        """The engine's offer of the next building on a group of the seat, and its street, where even
        building puts it, unless the engine refuses it for more than the cash (the bank's stock)."""
        build = group_build_offer(self.state, self.name(seat), self.edition.properties[members[0]].id)
        if build is None or not isinstance(build.action, Build):
            return None
        if build.refusal is not None and build.refusal.key != CASH_SHORT:
            return None
        return build, self.state.edition.property(build.action.property)

    def bid_on(self, seat: int, street: Property, amount: int) -> Offer:
        """The seat's bid of ``amount`` for the building on auction, on ``street``: one of the engine's
        choices of streets to bid on."""
        choice = next(c for c in bid_offer(self.state, self.name(seat)).choices if c.figure("property") == street.id)
        return complete(self.state, choice, amount=amount)

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


def charged(offer: Offer) -> int:
    """What an offer takes from its actor: the money paid, or owed when it becomes a debt."""
    paid = -offer.amount
    if paid > 0 or offer.refused:
        return paid
    return sum(int(e.params.get("amount", 0)) for e in offer.events if e.kind == "debt")


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
