"""The attacks of tests/webui/attacks.py against a fresh ``banker run --simulated`` each: a phone on the
Wi-Fi (another loopback address) cannot press the simulated table's buttons, hold every connection or
stream, keep a banker role it gave back, out-guess the join code, rebind a name to the table, crash a
request, slip past the parser, or see the players before joining; nor, in the second round, put more
than one question to the table from one device or pass as another phone of the same player, type a
code, number, PIN or name the engine would refuse, accept an offer other than the one it was shown,
act on a banker role a new PIN took away, or share the first PIN's role with phones setting it at the
same moment; ``banker run`` says in one line why it cannot start, and a damaged journal row leaves a
playable table."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.webui import attacks


@pytest.mark.parametrize("name", sorted(attacks.ATTACKS))
def test_the_attack_is_refused(name: str, tmp_path: Path) -> None:
    attack: Callable[[attacks.Table], None] = attacks.ATTACKS[name]
    before = attacks.COUNTS.refusals_checked
    with attacks.running_table(tmp_path) as table:
        attack(table)
    assert attacks.COUNTS.requests > 0
    if name in ("table", "banker_role", "rebinding", "500s", "inputs", "typed", "offers", "role_race"):
        assert attacks.COUNTS.refusals_checked > before  # the attack checked its refusals changed nothing


def test_banker_run_refuses_unusable_data_in_one_line(tmp_path: Path) -> None:
    attacks.attack_startup(tmp_path)


def test_six_phones_setting_the_first_pin_at_once_make_one_banker(tmp_path: Path) -> None:
    attacks.attack_first_pin(tmp_path)
