"""Dice, tokens, jail and shuffled decks: the physical side of the game that the engine leaves out."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from banker.edition import Card, Edition


@dataclass
class Deck:
    """A shuffled deck; a kept Get Out of Jail Free card leaves it until used (§5.3)."""

    cards: list[Card]
    out: list[Card] = field(default_factory=list)

    @classmethod
    def shuffled(cls, cards: tuple[Card, ...], rng: random.Random) -> Deck:
        order = list(cards)
        rng.shuffle(order)
        return cls(order)

    def draw(self) -> Card:
        card = self.cards.pop(0)
        if card.kind == "jail_free":
            self.out.append(card)
        else:
            self.cards.append(card)
        return card

    def put_back(self) -> None:
        """A used jail card goes to the bottom of its deck."""
        if self.out:
            self.cards.append(self.out.pop(0))


@dataclass
class Table:
    """Token positions, jail turns and the two decks of one simulated game."""

    edition: Edition
    rng: random.Random
    positions: list[int]
    jail_turns: list[int]
    decks: dict[str, Deck]

    @classmethod
    def start(cls, edition: Edition, players: int, rng: random.Random) -> Table:
        decks = {name: Deck.shuffled(cards, rng) for name, cards in edition.decks.items()}
        return cls(edition, rng, [0] * players, [0] * players, decks)

    def roll(self) -> tuple[int, int]:
        """Two dice: the numbers ``randrange(1, 7)`` gives, drawn as it draws them, at a third of its cost."""
        bits = self.rng.getrandbits
        first = bits(3)
        while first >= 6:  # randrange(1, 7) is 1 + _randbelow(6): 3 random bits, drawn again while >= 6
            first = bits(3)
        second = bits(3)
        while second >= 6:
            second = bits(3)
        return first + 1, second + 1
