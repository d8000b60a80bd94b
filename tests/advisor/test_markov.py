from dataclasses import replace
from fractions import Fraction

import pytest

from banker.advisor.markov import IN_JAIL, Chain, MoveRules, landing_distribution, solve_chain, throws
from banker.edition import Edition, load_edition
from banker.errors import BadInput

from .simulate import simulate

EDITIONS = ("us", "uk", "ru")
RULES = [MoveRules(jail, fine) for jail in ("short", "long") for fine in ("pay", "draw")]


def plain_board(edition: Edition) -> Edition:
    """The board with every card square and Go to Jail turned into a square where nothing happens."""
    squares = tuple(
        replace(s, kind="free_parking") if s.kind in ("chance", "community_chest", "go_to_jail") else s
        for s in edition.squares
    )
    return replace(edition, squares=squares)


def names(edition: Edition) -> dict[str, int]:
    return {s.id: s.index for s in edition.squares}


@pytest.mark.parametrize("edition_id", EDITIONS)
@pytest.mark.parametrize("rules", RULES)
def test_shares_are_a_distribution(edition_id, rules):
    landing = landing_distribution(load_edition(edition_id), rules)
    assert sum(landing.cells) == pytest.approx(1.0, abs=1e-12)
    assert all(share >= 0 for share in landing.cells)
    go_to_jail = next(s.index for s in load_edition(edition_id).squares if s.kind == "go_to_jail")
    assert landing.cells[go_to_jail] == 0.0
    assert all(landing.cells[i] > 0.005 for i in range(40) if i != go_to_jail)


def test_dice_outcomes():
    outcomes = throws()
    assert sum(p for _, _, p in outcomes) == pytest.approx(1.0)
    assert sum(p for _, double, p in outcomes if double) == pytest.approx(1 / 6)
    assert sum(total * p for total, _, p in outcomes) == pytest.approx(7.0)


def test_plain_board_short_stay_jail_rate_is_three_doubles_per_throw():
    # Without cards or Go to Jail, only the third double sends a token to jail: once in 216 turns,
    # and a turn has 1 + 1/6 + 1/36 = 43/36 throws, so 1 throw in 216 * 43/36 = 258 ends in jail.
    landing = solve_chain(plain_board(load_edition("us")), MoveRules(jail="short"))
    assert landing.in_jail == pytest.approx(1 / 258, rel=1e-12)
    assert landing.throws_per_turn == pytest.approx(43 / 36, rel=1e-12)


def test_plain_board_long_stay_jail_rate():
    # A visit to jail: the throw that sent the token there, then up to three throws for a double, of
    # which 5/6 + 25/36 fail and stay in jail. Between visits 216 turns of 43/36 throws each.
    landing = solve_chain(plain_board(load_edition("us")), MoveRules(jail="long"))
    jail_turns = 1 + Fraction(5, 6) + Fraction(25, 36)
    in_jail = (1 + Fraction(5, 6) + Fraction(25, 36)) / (258 + jail_turns)
    assert landing.in_jail == pytest.approx(float(in_jail), rel=1e-12)
    assert landing.throws_per_turn == pytest.approx(float((258 + jail_turns) / (216 + jail_turns)), rel=1e-12)


def test_plain_board_far_from_jail_is_nearly_uniform():
    landing = solve_chain(plain_board(load_edition("us")), MoveRules())
    for index in range(25, 40):
        assert landing.cells[index] == pytest.approx((1 - landing.in_jail) / 40, rel=0.02)


def test_back_three_from_chance_36_draws_community_chest():
    chain = Chain(load_edition("us"), MoveRules())
    endings = chain.landing(36)
    # Chance: 1 of 16 cards goes to GO, 1 goes to jail; "back 3" (1 of 16) reaches Community Chest 33,
    # where again 1 of 16 goes to GO and 1 to jail, and 14 leave the token on 33.
    assert endings[(0, False)] == pytest.approx(1 / 16 + 1 / 256)
    assert endings[(IN_JAIL, False)] == pytest.approx(1 / 16 + 1 / 256)
    assert endings[(33, False)] == pytest.approx(14 / 256)
    assert endings[(36, False)] == pytest.approx(6 / 16)
    assert (33, False) not in chain.landing(7)
    assert endings[(5, True)] == pytest.approx(2 / 16)  # the two nearest-railroad cards
    assert endings[(12, True)] == pytest.approx(1 / 16)  # nearest utility, passing GO
    assert sum(endings.values()) == pytest.approx(1.0)


def test_fine_or_chance_takes_a_chance_card_when_the_table_says_draw():
    edition = load_edition("uk")
    paid = Chain(edition, MoveRules(fine_or_chance="pay")).landing(2)
    drawn = Chain(edition, MoveRules(fine_or_chance="draw")).landing(2)
    assert paid[(0, False)] == pytest.approx(1 / 16)
    # The Chance deck then has 1 card to GO of 16; its "back 3" from square 2 reaches Mayfair (39).
    assert drawn[(0, False)] == pytest.approx(1 / 16 + 1 / 256)
    assert drawn[(39, False)] == pytest.approx(2 / 256)
    # 7 of the 16 Chance cards move the token (GO, jail, back 3 and four "advance" cards).
    assert paid[(2, False)] - drawn[(2, False)] == pytest.approx(1 / 16 * 7 / 16)


def test_long_stay_raises_in_jail_and_lowers_most_other_squares():
    edition = load_edition("us")
    short = landing_distribution(edition, MoveRules(jail="short"))
    long = landing_distribution(edition, MoveRules(jail="long"))
    assert long.in_jail > 2 * short.in_jail
    lower = [i for i in range(40) if long.cells[i] < short.cells[i]]
    assert len(lower) >= 35
    assert long.cells[10] < short.cells[10]


def test_taking_the_chance_moves_tokens_off_community_chest():
    edition = load_edition("uk")
    pay = landing_distribution(edition, MoveRules(fine_or_chance="pay"))
    draw = landing_distribution(edition, MoveRules(fine_or_chance="draw"))
    squares = names(edition)
    for chest in ("community_chest_1", "community_chest_2", "community_chest_3"):
        assert draw.cells[squares[chest]] < pay.cells[squares[chest]]
    assert draw.cells[0] > pay.cells[0]
    assert draw.in_jail > pay.in_jail


def test_us_board_against_published_figures():
    edition = load_edition("us")
    squares = names(edition)
    long = landing_distribution(edition, MoveRules(jail="long"))
    short = landing_distribution(edition, MoveRules(jail="short"))
    # Durrett, "Essentials of Stochastic Processes", simulation of the long stay: 9.46% in jail,
    # 2.14% just visiting. Illinois Avenue is the most visited deed in both strategies.
    assert long.in_jail == pytest.approx(0.0946, abs=0.001)
    assert long.cells[10] == pytest.approx(0.0214, abs=0.0003)
    assert long.cells[squares["illinois"]] == pytest.approx(0.030, abs=0.0005)
    assert long.cells[squares["b_and_o_railroad"]] == pytest.approx(0.029, abs=0.0005)
    assert long.cells[squares["new_york"]] == pytest.approx(0.028, abs=0.0005)
    assert short.in_jail == pytest.approx(0.039, abs=0.001)
    assert short.cells[0] == pytest.approx(0.031, abs=0.0005)
    for landing in (short, long):
        deeds = sorted(edition.by_square, key=lambda i: landing.cells[i])
        assert deeds[-1] == squares["illinois"]
        chances = [i for i in range(40) if edition.squares[i].kind == "chance"]
        assert sorted(range(40), key=lambda i: landing.cells[i])[1:4] == sorted(chances, key=lambda i: landing.cells[i])


@pytest.mark.parametrize(
    ("edition_id", "rules", "seed"),
    [("us", MoveRules(jail="short"), 11), ("us", MoveRules(jail="long"), 12),
     ("uk", MoveRules(jail="long", fine_or_chance="draw"), 13)],
)
def test_chain_agrees_with_a_seeded_monte_carlo_run(edition_id, rules, seed):
    edition = load_edition(edition_id)
    landing = landing_distribution(edition, rules)
    tally = simulate(edition, jail=rules.jail, fine_or_chance=rules.fine_or_chance, seed=seed)
    for which, exact in (("cells", landing.cells), ("nearest", landing.nearest_card), ("dice", landing.dice_total)):
        for cell in range(41):
            mean, error = tally.mean_and_error(which, cell)
            assert abs(mean - exact[cell]) <= 4 * error + 1e-12, (which, cell, mean, exact[cell], error)


def test_bad_rules_and_boards_are_refused():
    with pytest.raises(BadInput) as caught:
        MoveRules(jail="forever")
    assert caught.value.key == "advisor_bad_option"
    with pytest.raises(BadInput):
        MoveRules(fine_or_chance="haggle")
    edition = load_edition("us")
    no_jail = replace(edition, squares=tuple(replace(s, kind="free_parking") if s.kind == "jail" else s
                                             for s in edition.squares))
    with pytest.raises(BadInput):
        landing_distribution(no_jail)
    with pytest.raises(BadInput):
        landing_distribution(edition).square(40)


def test_the_jail_square_counts_both_prisoners_and_visitors():
    landing = landing_distribution(load_edition("us"), MoveRules(jail="long"))
    assert landing.square(10) == landing.in_jail + landing.just_visiting == landing.cells[10] + landing.cells[40]
    assert landing.square(24) == landing.cells[24]
    assert sum(landing.square(i) for i in range(40)) == pytest.approx(1.0)


def test_results_are_cached_per_board_and_rules():
    edition = load_edition("us")
    assert landing_distribution(edition, MoveRules()) is landing_distribution(edition, MoveRules())
    assert landing_distribution(edition, MoveRules()) is not landing_distribution(edition, MoveRules("long"))
    assert landing_distribution(load_edition("uk")).cells != landing_distribution(edition).cells
