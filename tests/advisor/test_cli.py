import argparse
import csv
import io
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from banker.advisor.cli import register
from banker.advisor.markov import MoveRules, landing_distribution
from banker.edition import load_edition


def advise(*argv):
    parser = argparse.ArgumentParser(prog="banker")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["advise", *argv])
    return args.func(args)


def csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def test_landing_csv_lists_every_square_and_the_jail_twice(capsys):
    assert advise("--edition", "us", "--jail", "long", "--table", "landing", "--csv") == 0
    rows = csv_rows(capsys.readouterr().out)
    assert len(rows) == 41
    assert [r["id"] for r in rows if r["square"] == "10"] == ["jail", "in_jail"]
    assert sum(float(r["share"]) for r in rows) == pytest.approx(1.0, abs=1e-4)
    exact = landing_distribution(load_edition("us"), MoveRules(jail="long"))
    illinois = next(r for r in rows if r["id"] == "illinois")
    assert float(illinois["share"]) == pytest.approx(exact.cells[24], abs=1e-6)


def test_payback_csv_has_every_step_of_every_group(capsys):
    assert advise("--table", "payback", "--csv") == 0
    rows = csv_rows(capsys.readouterr().out)
    assert len(rows) == 8 * 6 + 4 + 2
    third = next(r for r in rows if r["group"] == "orange" and r["step"] == "house" and r["level"] == "3")
    assert (int(third["cost"]), int(third["total_cost"])) == (300, 1460)
    assert float(third["payback_throws"]) == pytest.approx(9.5, abs=0.1)


def test_short_game_stops_houses_at_three(capsys):
    assert advise("--table", "payback", "--csv", "--short-game") == 0
    rows = csv_rows(capsys.readouterr().out)
    assert len(rows) == 8 * 5 + 4 + 2
    assert {r["level"] for r in rows if r["step"] == "hotel"} == {"4"}


def test_deed_csv_gives_each_deed_alone_and_in_its_group(capsys):
    assert advise("--table", "deeds", "--csv") == 0
    rows = csv_rows(capsys.readouterr().out)
    boardwalk = [r for r in rows if r["id"] == "boardwalk"]
    assert [r["step"] for r in boardwalk] == ["alone", "deeds", "house", "house", "house", "house", "hotel"]
    assert len([r for r in rows if r["group"] == "railroad"]) == 4


def test_text_tables_in_the_editions_language(capsys):
    assert advise("--edition", "ru") == 0
    out = capsys.readouterr().out
    assert "Советник: Россия (Москва)" in out
    assert "Оранжевые" in out and "В тюрьме" in out
    assert advise("--edition", "ru", "--lang", "en", "--table", "payback") == 0
    out = capsys.readouterr().out
    assert "Orange" in out and "In jail" not in out


def test_uk_house_rule_for_the_fine_or_chance_card(capsys):
    assert advise("--edition", "uk", "--fine-or-chance", "draw", "--table", "landing") == 0
    assert "take a Chance" in capsys.readouterr().out


def test_svg_heat_map_is_written(tmp_path, capsys):
    target = tmp_path / "board.svg"
    assert advise("--edition", "us", "--jail", "long", "--svg", str(target), "--table", "landing") == 0
    capsys.readouterr()
    root = ET.fromstring(target.read_text(encoding="utf-8"))
    titles = [t.text for t in root.iter("{http://www.w3.org/2000/svg}title")]
    assert len(titles) == 40
    assert any(t.startswith("Illinois Ave.: 3.00%") for t in titles)


def test_bad_input_exits_with_a_message(tmp_path, capsys):
    assert advise("--edition", "xx") == 2
    assert "xx" in capsys.readouterr().err
    assert advise("--svg", str(tmp_path / "missing" / "board.svg"), "--table", "landing") == 1
    assert "board.svg" in capsys.readouterr().err


def test_module_entry_point():
    done = subprocess.run(
        [sys.executable, "-m", "banker.advisor", "advise", "--edition", "ru", "--table", "landing", "--csv"],
        capture_output=True, text=True, encoding="utf-8", check=False,
    )
    assert done.returncode == 0, done.stderr
    rows = csv_rows(done.stdout)
    assert len(rows) == 41 and rows[0]["name"] == "Вперёд"
    refused = subprocess.run([sys.executable, "-m", "banker.advisor", "advise", "--jail", "forever"],
                             capture_output=True, text=True, check=False)
    assert refused.returncode == 2 and "forever" in refused.stderr
