import pytest

from banker.advisor.linalg import stationary
from banker.errors import BadInput


def test_two_state_chain_matches_the_closed_form():
    a, b = 0.3, 0.1
    pi = stationary([{0: 1 - a, 1: a}, {0: b, 1: 1 - b}])
    assert pi == pytest.approx([b / (a + b), a / (a + b)], abs=1e-15)


def test_a_cycle_spends_equal_time_in_each_state():
    size = 7
    pi = stationary([{(i + 1) % size: 1.0} for i in range(size)])
    assert pi == pytest.approx([1 / size] * size, abs=1e-15)


def test_a_doubly_stochastic_chain_is_uniform():
    rows = [{i: 0.5, (i + 1) % 5: 0.25, (i + 3) % 5: 0.25} for i in range(5)]
    assert stationary(rows) == pytest.approx([0.2] * 5, abs=1e-15)


def test_rows_must_be_probabilities():
    with pytest.raises(BadInput) as caught:
        stationary([{0: 0.5}, {0: 1.0}])
    assert caught.value.key == "advisor_bad_chain"


def test_a_chain_with_a_trap_has_no_answer():
    with pytest.raises(BadInput):
        stationary([{0: 0.5, 1: 0.5}, {1: 1.0}])


def test_no_states():
    with pytest.raises(BadInput):
        stationary([])
