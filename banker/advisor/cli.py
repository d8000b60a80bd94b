"""``banker advise``: landing chances and payback tables for an edition and its house rules."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from banker.advisor.heatmap import board_svg
from banker.advisor.markov import FINE_OR_CHANCE, JAIL_STAYS, MoveRules
from banker.advisor.payback import MAX_HOUSES, SHORT_GAME_MAX_HOUSES
from banker.advisor.report import TABLES, build_report, csv_tables, render_text
from banker.edition import load_edition
from banker.errors import BankerError
from banker.messages import LANGUAGES

EXAMPLES = """examples:
  banker advise --edition ru --jail long
  banker advise --table deeds --csv > deeds.csv
  banker advise --table all --csv-dir tables/ --svg board.svg"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``advise`` subcommand to a ``banker`` command line."""
    parser = subparsers.add_parser(
        "advise",
        help="landing chances and payback times of every deed and building",
        description="Print the long-run share of throws ending on each square and how many opponent "
                    "throws each purchase (deeds, each round of houses, hotels) takes to pay back.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--edition", default="us", help="edition id: us, uk, ru (default: us)")
    parser.add_argument("--jail", choices=JAIL_STAYS, default="short",
                        help="short: leave jail at once; long: throw for a double up to three times")
    parser.add_argument("--fine-or-chance", choices=FINE_OR_CHANCE, default="pay",
                        help='the "pay a fine or take a Chance" card: pay or draw (default: pay)')
    parser.add_argument("--short-game", action="store_true", help="hotel after 3 houses")
    parser.add_argument("--table", choices=TABLES, default="summary",
                        help="which tables to print (default: summary = landing and payback)")
    parser.add_argument("--csv", action="store_true",
                        help="print one table (--table landing, payback or deeds) as CSV instead of text")
    parser.add_argument("--csv-dir", metavar="DIR", type=Path,
                        help="write each chosen table to DIR/<table>.csv (landing.csv, payback.csv, deeds.csv)")
    parser.add_argument("--svg", metavar="FILE", type=Path, help="also write the board heat map to FILE")
    parser.add_argument("--lang", choices=LANGUAGES, help="language of the headings (default: the edition's)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Print the tables; 0 on success, 2 for bad input, 1 if the SVG file cannot be written."""
    language: str = args.lang or "en"
    try:
        edition = load_edition(args.edition)
        if args.lang is None and edition.language in LANGUAGES:
            language = edition.language
        rules = MoveRules(jail=args.jail, fine_or_chance=args.fine_or_chance)
        max_houses = SHORT_GAME_MAX_HOUSES if args.short_game else MAX_HOUSES
        report = build_report(edition, rules, max_houses=max_houses)
    except BankerError as error:
        print(error.translated(language), file=sys.stderr)
        return 2
    tables = csv_tables(report, args.table)
    if args.csv and len(tables) > 1:
        print(f"--table {args.table} is {len(tables)} tables ({', '.join(tables)}): choose one with --table, "
              "or write each to its own file with --csv-dir DIR", file=sys.stderr)
        return 2
    if args.csv_dir is not None:
        try:
            args.csv_dir.mkdir(parents=True, exist_ok=True)
            for name, text_ in tables.items():
                (args.csv_dir / f"{name}.csv").write_text(text_, encoding="utf-8")
        except OSError as error:
            print(f"{args.csv_dir}: {error.strerror or error}", file=sys.stderr)
            return 1
        print("\n".join(str(args.csv_dir / f"{name}.csv") for name in tables))
    elif args.csv:
        sys.stdout.write(next(iter(tables.values())))
    else:
        sys.stdout.write(render_text(report, args.table, language))
    if args.svg is not None:
        try:
            args.svg.write_text(board_svg(edition, report.landing, language=language, max_houses=max_houses),
                                encoding="utf-8")
        except OSError as error:
            print(f"{args.svg}: {error.strerror or error}", file=sys.stderr)
            return 1
    return 0
