"""The ``banker`` command: replay scripts, saved games, benchmarks, self-play and the advisor."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from banker.export import state_to_json
from banker.replay import ScriptError, replay_lines
from banker.text import describe_event, summary_lines

DEFAULT_DB = Path.home() / ".local" / "share" / "table-banker" / "banker.sqlite3"


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    result: int = args.func(args)
    return result


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="banker", description="The table banker.")
    sub = parser.add_subparsers(metavar="COMMAND")

    p = sub.add_parser("replay", help="apply a JSON-lines script and print the final state")
    p.add_argument("script", help="the script file, or - for standard input")
    p.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    p.add_argument("--lang", default="en", choices=["en", "ru", "bg"], help="language of the text output")
    p.add_argument("--events", action="store_true", help="print what each line did")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("games", help="list the saved games of a journal")
    p.add_argument("--db", default=str(DEFAULT_DB))
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("export", help="print a saved game as a replay script")
    p.add_argument("game", type=int)
    p.add_argument("--db", default=str(DEFAULT_DB))
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("demo", help="play a short scripted game through the journal and show it")
    p.add_argument("--db", default="", help="journal file (default: a temporary one)")
    p.add_argument("--lang", default="en", choices=["en", "ru", "bg"])
    p.set_defaults(func=cmd_demo)

    from banker import bench, sim

    bench.register(sub)
    sim.register(sub)
    from banker.advisor.cli import register as register_advisor

    register_advisor(sub)
    return parser


def cmd_replay(args: argparse.Namespace) -> int:
    source = sys.stdin if args.script == "-" else None
    try:
        if source is not None:
            lines = source.read().splitlines()
        else:
            lines = Path(args.script).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        print(f"cannot read {args.script}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        result = replay_lines(lines)
    except ScriptError as exc:
        print(f"line {exc.line}: {exc.error.translated(args.lang)}", file=sys.stderr)
        return 1
    if args.events:
        for number, events in result.events:
            for event in events:
                print(f"{number:>4}  {describe_event(result.state.edition, event, args.lang)}")
    if args.json:
        print(json.dumps(state_to_json(result.state), ensure_ascii=False))
    else:
        print("\n".join(summary_lines(result.state, args.lang)))
    return 0


def cmd_games(args: argparse.Namespace) -> int:
    from banker.journal import Journal

    with Journal(args.db) as journal:
        current = journal.current_game()
        for info in journal.games():
            mark = "*" if info.id == current else " "
            print(f"{mark}{info.id:>4}  {info.edition}  {info.actions:>5} actions  {', '.join(info.players)}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from banker.errors import BankerError
    from banker.journal import Journal

    with Journal(args.db) as journal:
        try:
            sys.stdout.write(journal.export_script(args.game))
        except BankerError as exc:
            print(str(exc), file=sys.stderr)
            return 1
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from banker.demo import run_demo

    return run_demo(args.db, args.lang)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
