"""The ``banker`` command: replay scripts, saved games, benchmarks, self-play and the advisor.

Exit codes: 0 done; 1 the script, the game or the self-play failed (one line on standard error says
where); 2 the command line or a file cannot be used (one line on standard error says why).
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from banker.actions import Action
from banker.board import moves_of
from banker.edition import Edition
from banker.errors import BankerError, UnknownName
from banker.export import state_to_json
from banker.journal import Journal
from banker.ledger import Event
from banker.messages import LANGUAGES, render
from banker.replay import ReplayResult, ScriptError, replay_lines
from banker.speech import say
from banker.text import log_lines, summary_lines

DEFAULT_DB = Path.home() / ".local" / "share" / "table-banker" / "banker.sqlite3"
"""Where ``games`` and ``export`` look for a journal without ``--db`` (they never create one)."""
LANGS = list(LANGUAGES)

Command = Callable[[argparse.Namespace], int]


def main(argv: Sequence[str] | None = None, parser: argparse.ArgumentParser | None = None) -> int:
    """Run a ``banker`` command; ``parser`` is this module's unless another part adds commands to it."""
    parser = parser or build_parser()
    args = parser.parse_args(argv)
    if not hasattr(args, "func"):
        parser.print_help()
        return 2
    result: int = args.func(args)
    return result


def _examples(*lines: str) -> str:
    return "examples:\n" + "\n".join(f"  {line}" for line in lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="banker", description="The table banker.")
    sub = parser.add_subparsers(metavar="COMMAND")
    raw = argparse.RawDescriptionHelpFormatter

    p = sub.add_parser("replay", help="apply a JSON-lines script and print the final state",
                       description="Apply a JSON-lines script (one action a line) and print the final state. "
                                   "On a line that cannot be applied: 'line N: <message>' and exit 1; "
                                   "a file that cannot be read (or is not UTF-8 text): exit 2.",
                       epilog=_examples("banker replay game.jsonl", "banker replay game.jsonl --json",
                                        "banker replay - --events --lang ru < game.jsonl"),
                       formatter_class=raw)
    p.add_argument("script", help="the script file, or - for standard input")
    p.add_argument("--json", action="store_true", help="print the final state as one JSON object")
    p.add_argument("--lang", default="en", choices=LANGS, help="language of the text output and of errors")
    p.add_argument("--events", action="store_true",
                   help="print what each line did (with --json: one JSON object a line, "
                        "{line, action, log, say, board}, before the final state)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("offers", help="replay a script and print what a player can do now, and what it costs",
                       description="Replay a JSON-lines script, then print the engine's offers (docs/actions.md, "
                                   "Offers) one JSON object a line: at a deed (--deed), a square (--square), "
                                   "the player's own card (neither), or the table's (no --player); "
                                   "--raise AMOUNT prints the ways to raise that much cash instead.",
                       epilog=_examples("banker offers game.jsonl --player Ann --deed baltic",
                                        "banker offers game.jsonl --player Ann --square go --lang ru",
                                        "banker offers game.jsonl --player Bob --raise 40"),
                       formatter_class=raw)
    p.add_argument("script", help="the script file, or - for standard input")
    p.add_argument("--player", help="the player the offers are for (none: the table's offers)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--deed", help="a deed's id: what the player can do with it")
    where.add_argument("--square", help="a square that is not a deed: go, income_tax, luxury_tax, jail, "
                                         "free_parking, chance, community_chest")
    where.add_argument("--raise", dest="raise_", type=int, metavar="AMOUNT",
                       help="the ways to raise AMOUNT in cash, cheapest sacrifice first")
    p.add_argument("--lang", default="en", choices=LANGS, help="language of the labels, log lines and errors")
    p.add_argument("--front", default="phone", choices=("phone", "table"),
                   help="whose offers: a player's phone (the default) or the table's menus, which differ in what "
                        "only one of them offers (docs/actions.md, Offers)")
    p.add_argument("--json", action="store_true",
                   help="print the offers as one JSON list, each with its words (menu, button, sentence)")
    p.set_defaults(func=cmd_offers)

    p = sub.add_parser("games", help="list the saved games of a journal",
                       description="List the saved games of an existing journal (this never creates one).",
                       epilog=_examples("banker games --db .table-data/banker.sqlite3"), formatter_class=raw)
    p.add_argument("--db", default=str(DEFAULT_DB),
                   help=f"the journal file (default {DEFAULT_DB}; banker run keeps its journal as "
                        "banker.sqlite3 in its data directory)")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("export", help="print a saved game as a replay script",
                       description="Print a saved game of an existing journal as a replay script.",
                       epilog=_examples("banker export 1 --db .table-data/banker.sqlite3 > game.jsonl",
                                        "banker replay game.jsonl"), formatter_class=raw)
    p.add_argument("game", type=int, help="the game's number, as banker games lists it")
    p.add_argument("--db", default=str(DEFAULT_DB),
                   help=f"the journal file (default {DEFAULT_DB}; banker run keeps its journal as "
                        "banker.sqlite3 in its data directory)")
    p.set_defaults(func=cmd_export)

    p = sub.add_parser("demo", help="play a short scripted game through the journal and show it",
                       description="Play a short scripted game through a journal, resume it and show the result.",
                       epilog=_examples("banker demo", "banker demo --lang bg", "banker demo --db demo.sqlite3 && "
                                        "banker games --db demo.sqlite3"), formatter_class=raw)
    p.add_argument("--db", default="", help="journal file to keep (default: a temporary one, deleted at the end)")
    p.add_argument("--lang", default="en", choices=LANGS, help="language of the lines printed")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("texts", help="print every text of the catalogue filled in with a played game's values",
                       description="Every text of the catalogue in one language, one 'key: text' a line, filled in "
                                   "with values taken from a game played through the engine, for a native "
                                   "speaker to read.", epilog=_examples("banker texts --lang ru"),
                       formatter_class=raw)
    p.add_argument("--lang", default="en", choices=LANGS, help="the language of the texts")
    p.set_defaults(func=cmd_texts)

    from banker import bench, sim

    bench.register(sub)
    sim.register(sub)
    from banker.advisor.cli import register as register_advisor

    register_advisor(sub)
    for command in sub.choices.values():
        func = command.get_default("func")
        if func is not None:
            command.set_defaults(func=pipe_safe(func))
    return parser


def pipe_safe(func: Command) -> Command:
    """A command whose reader went away (``banker demo | head``) ends quietly instead of with a traceback."""
    if getattr(func, "pipe_safe", False):
        return func

    @functools.wraps(func)
    def wrapper(args: argparse.Namespace) -> int:
        try:
            return func(args)
        except BrokenPipeError:
            try:  # nothing more can be written; stop Python's flush at exit from failing again
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError, AttributeError):
                pass
            return 0

    wrapper.pipe_safe = True  # type: ignore[attr-defined]
    return wrapper


def shown(name: str) -> str:
    """A file name as it can be printed (a name that is not UTF-8 gets replacement marks)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


class ScriptUnreadable(Exception):
    """A script file that cannot be read or is not UTF-8 text; the message is for the player."""


def read_script(name: str, language: str = "en") -> list[str]:
    """The lines of a script file, or of standard input for ``-``; :class:`ScriptUnreadable` if it cannot be."""
    try:
        if name == "-":
            stream = getattr(sys.stdin, "buffer", None)
            data = stream.read() if stream is not None else sys.stdin.read().encode("utf-8", "surrogateescape")
        else:
            data = Path(name).read_bytes()
    except (OSError, ValueError) as exc:
        problem = getattr(exc, "strerror", None) or str(exc)
        raise ScriptUnreadable(render("file_unreadable", {"file": shown(name), "problem": problem},
                                      language)) from exc
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise ScriptUnreadable(render("file_not_utf8", {"file": "standard input" if name == "-" else shown(name),
                                                        "line": line}, language)) from exc
    return text.splitlines()


def replay_script(args: argparse.Namespace, *, board: bool = False) -> ReplayResult | int:
    """The script of ``args`` replayed, or the exit status after saying why not (2: unreadable, 1: a line
    refused, as ``line N: <message>``)."""
    try:
        lines = read_script(args.script, args.lang)
    except ScriptUnreadable as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        return replay_lines(lines, board=board)
    except ScriptError as exc:
        print(render("script_line", {"line": exc.line, "message": exc.error.translated(args.lang)}, args.lang),
              file=sys.stderr)
        return 1


def cmd_replay(args: argparse.Namespace) -> int:
    result = replay_script(args, board=args.events)
    if isinstance(result, int):
        return result
    if args.events:
        edition = result.state.edition
        for (number, events), action in zip(result.events, result.actions, strict=True):
            if args.json:
                print(json.dumps(line_json(edition, number, action, events, args.lang), ensure_ascii=False))
                continue
            for line in log_lines(edition, events, args.lang):
                print(f"{number:>4}  {line}")
    if args.json:
        print(json.dumps(state_to_json(result.state), ensure_ascii=False))
    else:
        print("\n".join(summary_lines(result.state, args.lang)))
    return 0


def cmd_offers(args: argparse.Namespace) -> int:
    from banker import choice as choosing
    from banker import offer as offering

    result = replay_script(args)
    if isinstance(result, int):
        return result
    state = result.state
    try:
        if args.raise_ is not None:
            if args.player is None:
                raise UnknownName("unknown_player", player="", players=", ".join(p.name for p in state.players))
            items = [choosing.item(state, o, args.lang) for o in offering.raise_cash(state, args.player, args.raise_)]
        else:
            items = list(choosing.choice(state, args.player, deed=args.deed, square=args.square, language=args.lang,
                                         front=args.front))
    except BankerError as exc:
        print(exc.translated(args.lang), file=sys.stderr)
        return 1
    shown = [item.to_json(state, args.lang) for item in items]
    if args.json:
        print(json.dumps(shown, ensure_ascii=False))
    else:
        for line in shown:
            print(json.dumps(line, ensure_ascii=False))
    return 0


def line_json(edition: Edition, number: int, action: Action, events: tuple[Event, ...],
              language: str) -> dict[str, Any]:
    """What ``banker replay --events --json`` prints for one script line (docs/actions.md)."""
    return {"line": number, "action": action.to_json(),
            "log": log_lines(edition, [e for e in events if e.kind != "board"], language),
            "say": say(edition, events, language),
            "board": [m.to_json() for m in moves_of(events)]}


def open_journal_to_read(db: str) -> tuple[Journal | None, str]:
    """An existing journal, or ``(None, why not)``: the read-only commands never create one."""
    path = Path(db)
    if not path.is_file():
        return None, (f"no journal at {shown(db)}: give the journal's file with --db "
                      "(banker run keeps it as banker.sqlite3 in its data directory; banker demo --db FILE keeps one)")
    try:
        with path.open("rb") as f:
            header = f.read(16)
        if header != b"SQLite format 3\x00":
            return None, f"{shown(db)} is not a journal (not an SQLite file)"
        probe = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        try:
            found = probe.execute("SELECT name FROM sqlite_master WHERE type='table' AND name='games'").fetchone()
        finally:
            probe.close()
        if found is None:
            return None, f"{shown(db)} is not a journal (it has no saved games table)"
        return Journal(path), ""
    except (OSError, sqlite3.Error) as exc:
        return None, f"cannot read {shown(db)}: {exc}"


def cmd_games(args: argparse.Namespace) -> int:
    journal, problem = open_journal_to_read(args.db)
    if journal is None:
        print(problem, file=sys.stderr)
        return 2
    with journal:
        current = journal.current_game()
        for info in journal.games():
            mark = "*" if info.id == current else " "
            print(f"{mark}{info.id:>4}  {info.edition}  {info.actions:>5} actions  {', '.join(info.players)}")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    from banker.errors import BankerError

    journal, problem = open_journal_to_read(args.db)
    if journal is None:
        print(problem, file=sys.stderr)
        return 2
    with journal:
        try:
            sys.stdout.write(journal.export_script(args.game))
        except BankerError as exc:
            print(str(exc), file=sys.stderr)
            return 1
    return 0


def cmd_texts(args: argparse.Namespace) -> int:
    from banker.samples import main_lines

    print("\n".join(main_lines(args.lang)))
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from banker.demo import run_demo

    return run_demo(args.db, args.lang)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
