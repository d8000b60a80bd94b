"""A token thrown around the board turn by turn with real random dice: the Monte-Carlo twin of the chain.

Written independently of :mod:`banker.advisor.markov`, following the rules as a player would: a turn
is a loop of throws, cards are drawn at random from the deck, the jail is a flag with a turn count.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from banker.edition import Edition

JAIL_CELL = 40


@dataclass
class Tally:
    """Per batch of throws: how many ended on each cell, by a nearest card, and the dice totals."""

    batches: list[list[float]]
    nearest: list[list[float]]
    dice: list[list[float]]
    batch_size: int

    def mean_and_error(self, which: str, cell: int) -> tuple[float, float]:
        """Mean per throw and its standard error from the spread of the batch means."""
        rows = {"cells": self.batches, "nearest": self.nearest, "dice": self.dice}[which]
        values = [row[cell] / self.batch_size for row in rows]
        mean = sum(values) / len(values)
        variance = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
        return mean, math.sqrt(variance / len(values))


class Token:
    def __init__(self, edition: Edition, *, jail: str, fine_or_chance: str, seed: int) -> None:
        self.squares = edition.squares
        self.decks = edition.decks
        self.jail_square = next(s.index for s in edition.squares if s.kind == "jail")
        self.long_stay = jail == "long"
        self.draw_chance = fine_or_chance == "draw"
        self.rng = random.Random(seed)
        self.position = 0
        self.in_jail = False
        self.failed_attempts = 0

    def dice(self) -> tuple[int, int]:
        return self.rng.randint(1, 6), self.rng.randint(1, 6)

    def arrive(self, square: int) -> tuple[int, bool]:
        """Where the token ends after arriving on ``square``, and whether a nearest card took it there."""
        kind = self.squares[square].kind
        if kind == "go_to_jail":
            return JAIL_CELL, False
        if kind in ("chance", "community_chest"):
            return self.draw(kind, square)
        return square, False

    def draw(self, deck: str, square: int) -> tuple[int, bool]:
        card = self.rng.choice(self.decks[deck])
        if card.kind == "advance":
            return self.arrive(card.to)
        if card.kind == "back":
            return self.arrive((square - card.spaces) % 40)
        if card.kind == "go_to_jail":
            return JAIL_CELL, False
        if card.kind == "nearest":
            target = (square + 1) % 40
            while self.squares[target].kind != card.target:
                target = (target + 1) % 40
            return target, True
        if card.kind == "pay_or_draw" and self.draw_chance:
            return self.draw(card.draw, square)
        return square, False

    def turn(self) -> list[tuple[int, bool, int]]:
        """One turn: for each throw, (cell where it ended, by a nearest card, dice total)."""
        throws: list[tuple[int, bool, int]] = []
        if self.in_jail and self.long_stay:
            first, second = self.dice()
            if first != second and self.failed_attempts < 2:
                self.failed_attempts += 1
                return [(JAIL_CELL, False, first + second)]
            self.in_jail = False
            return [self.move(self.jail_square, first + second)]
        start = self.jail_square if self.in_jail else self.position
        self.in_jail = False
        self.position = start
        doubles = 0
        while True:
            first, second = self.dice()
            if first == second:
                doubles += 1
                if doubles == 3:
                    self.go_to_jail()
                    throws.append((JAIL_CELL, False, first + second))
                    return throws
            throws.append(self.move(self.position, first + second))
            if self.in_jail or first != second:
                return throws

    def move(self, origin: int, total: int) -> tuple[int, bool, int]:
        cell, by_card = self.arrive((origin + total) % 40)
        if cell == JAIL_CELL:
            self.go_to_jail()
        else:
            self.position = cell
        return cell, by_card, total

    def go_to_jail(self) -> None:
        self.in_jail = True
        self.failed_attempts = 0
        self.position = self.jail_square


def simulate(edition: Edition, *, jail: str = "short", fine_or_chance: str = "pay", batches: int = 100,
             batch_size: int = 4000, seed: int = 1) -> Tally:
    token = Token(edition, jail=jail, fine_or_chance=fine_or_chance, seed=seed)
    tally = Tally([[0.0] * 41 for _ in range(batches)], [[0.0] * 41 for _ in range(batches)],
                  [[0.0] * 41 for _ in range(batches)], batch_size)
    for _ in range(200):  # forget the start on GO
        token.turn()
    batch, in_batch = 0, 0
    while batch < batches:
        for cell, by_card, total in token.turn():
            if batch == batches:
                break
            tally.batches[batch][cell] += 1
            if by_card:
                tally.nearest[batch][cell] += 1
            elif cell != JAIL_CELL:
                tally.dice[batch][cell] += total
            in_batch += 1
            if in_batch == batch_size:
                batch, in_batch = batch + 1, 0
    return tally
