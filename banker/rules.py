"""House rules: one frozen config with defaults from the edition and overrides at ``new_game``."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from banker.errors import BadInput

ROUNDINGS = ("up", "down", "nearest")
HIDDEN_BALANCES = ("off", "bands", "hidden")
"""The values of the house rule ``hidden_balances``: every phone shows everybody's cash (off); a phone shows
its own player's cash and only a band of the others' ("under $500"); or nothing of the others' cash."""
CHOICES: dict[str, tuple[str, ...]] = {"rounding": ROUNDINGS, "hidden_balances": HIDDEN_BALANCES}
"""The house rules that take one of a few words, and those words."""


PRESETS: dict[str, dict[str, Any]] = {
    "standard": {},
    "free_parking": {"free_parking_pot": True},
    "family": {"free_parking_pot": True, "double_salary_on_go": True},
    "no_auctions": {"bankruptcy_auctions": False, "decliner_may_bid": False},
}
"""Sets of house rules offered by name, in the order offered (every rule can also be set one by one)."""
MODES: dict[str, dict[str, Any]] = {
    "classic": {},
    "short": {"short_game": True},
    "timed": {"timed_game": True},
}
"""The ways a game ends (§10): the last player standing, the short game, the timed game."""
TIMED_MINUTES = (30, 45, 60, 90, 120, 180)
"""The lengths of a timed game offered, in minutes."""
TIMED_MINUTES_FIRST = 60
"""The length of a timed game offered first: an evening's hour."""


def preset_rules(preset: str = "standard", mode: str = "classic") -> dict[str, Any]:
    """The house rules of a preset and a mode, as ``new_game`` takes them.

    Raises:
        BadInput: no such preset or mode.
    """
    if preset not in PRESETS:
        raise BadInput("bad_rule_value", rule="preset", value=repr(preset), expected=" / ".join(PRESETS))
    if mode not in MODES:
        raise BadInput("bad_rule_value", rule="mode", value=repr(mode), expected=" / ".join(MODES))
    return {**PRESETS[preset], **MODES[mode]}


MAX_AMOUNT = 1_000_000_000
"""The largest amount an action or a house rule may name: far beyond any game, and exact in any
phone's JavaScript (whose integers are exact up to 2**53)."""


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule that differs between printings or tables (docs/rules.md names each one)."""

    starting_cash: int = 1500
    """§1.2: cash each player starts with."""
    salary: int = 200
    """§2.1: paid for passing or landing on GO."""
    double_salary_on_go: bool = False
    """§2.1 house rule: landing exactly on GO pays twice the salary."""
    jail_fine: int = 50
    """§5.4: the fine to leave jail."""
    jail_double_fine: int = 0
    """§5.4 house rule: a fee for leaving jail on a double; 0 means free."""
    free_parking_pot: bool = False
    """§5.5 house rule: taxes, fines and card payments go to a pot that Free Parking collects."""
    double_rent_with_mortgage: bool = True
    """§4.2: unimproved streets of a complete group earn double rent while another street is mortgaged."""
    income_tax_percent: int = 0
    """§5.1 house rule: the income tax square offers "flat or this % of total worth"; 0 means off."""
    decliner_may_bid: bool = True
    """§3.2: the player who declined to buy may bid in the auction."""
    bankruptcy_auctions: bool = True
    """§9.2: after a bankruptcy to the bank its deeds are auctioned; off: they simply return unowned."""
    mortgage_interest_percent: int = 10
    """§7.2: interest charged on lifting a mortgage and on receiving a mortgaged deed."""
    rounding: str = "up"
    """§7.2: rounding of percentages (interest, tax): "up", "down" or "nearest"."""
    short_game: bool = False
    """§10.2: deeds dealt at the start, hotels after 3 houses, the game ends at the second bankruptcy."""
    timed_game: bool = False
    """§10.3: deeds dealt at the start, the game ends with ``end_game`` at the agreed time."""
    deal_deeds: int = -1
    """Deeds dealt to each player at the start; -1 means 2 in a short or timed game, else 0."""
    luxury_tax: int = -1
    """§5.1: what the Luxury Tax square takes; -1 means the amount printed in the edition. An older
    US printing's $75 is ``luxury_tax = 75``."""
    houses: int = 32
    """§6.5: the bank's stock of houses."""
    hotels: int = 12
    """§6.5: the bank's stock of hotels."""
    hidden_balances: str = "off"
    """Not a rule of play: what a phone shows of the other players' cash, "off" (everything), "bands" (a
    band such as "under $500") or "hidden" (nothing); its own player's cash is always shown, the banker
    sees all, and the table shows a player's cash only when that player taps their card
    (:mod:`banker.balances` decides, docs/rules.md)."""
    advice: bool = True
    """Not a rule of play: the phones and the table show the strategy advisor's figures (what each
    deed and building earns and how fast it pays back); off for tables that would rather not know."""

    @property
    def max_houses(self) -> int:
        """Houses a street holds before a hotel: 3 in the short game (§6.3), else 4."""
        return 3 if self.short_game else 4

    @property
    def hotel_level(self) -> int:
        return self.max_houses + 1

    @property
    def deeds_dealt(self) -> int:
        if self.deal_deeds >= 0:
            return self.deal_deeds
        return 2 if (self.short_game or self.timed_game) else 0

    @property
    def ends_at_bankruptcies(self) -> int:
        """The game ends (richest wins) when this many players went bankrupt; 0: last one standing."""
        return 2 if self.short_game else 0

    def percent(self, amount: int, percent: int) -> int:
        """``percent`` % of ``amount`` as a whole number, rounded as the table agreed."""
        whole, rest = divmod(amount * percent, 100)
        if rest == 0 or self.rounding == "down":
            return whole
        if self.rounding == "up":
            return whole + 1
        return whole + (1 if rest >= 50 else 0)

    def interest(self, mortgage_value: int) -> int:
        return self.percent(mortgage_value, self.mortgage_interest_percent)

    def lift_cost(self, mortgage_value: int) -> int:
        """§7.2: what lifting a mortgage costs, the value plus the interest."""
        return mortgage_value + self.interest(mortgage_value)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def build(cls, defaults: dict[str, Any], overrides: dict[str, Any]) -> Rules:
        """Edition defaults, then the table's overrides; :class:`BadInput` on an unknown or bad value."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for source in (defaults, overrides):
            for key, value in source.items():
                if key not in known:
                    raise BadInput("unknown_rule", rule=key, known=", ".join(sorted(known)))
                default = known[key].default
                if isinstance(default, bool):
                    if not isinstance(value, bool):
                        raise BadInput("bad_rule_value", rule=key, value=repr(value), expected="true or false")
                elif isinstance(default, int):
                    if isinstance(value, bool) or not isinstance(value, int):
                        raise BadInput("bad_rule_value", rule=key, value=repr(value), expected="a whole number")
                    if value < (-1 if key in ("deal_deeds", "luxury_tax") else 0):
                        raise BadInput("bad_rule_value", rule=key, value=repr(value), expected="not negative")
                    if value > MAX_AMOUNT:
                        raise BadInput("amount_too_large", field=key, limit=MAX_AMOUNT)
                elif isinstance(default, str) and value not in CHOICES[key]:
                    raise BadInput("bad_rule_value", rule=key, value=repr(value), expected=" / ".join(CHOICES[key]))
                values[key] = value
        rules = cls(**values)
        if rules.starting_cash <= 0:
            raise BadInput("bad_rule_value", rule="starting_cash", value=str(rules.starting_cash),
                           expected="a positive amount")
        for name in ("income_tax_percent", "mortgage_interest_percent"):
            if getattr(rules, name) > 100:
                raise BadInput("bad_rule_value", rule=name, value=str(getattr(rules, name)), expected="0-100")
        if rules.deeds_dealt > 3:
            raise BadInput("bad_rule_value", rule="deal_deeds", value=str(rules.deal_deeds), expected="0-3")
        return rules
