"""The ``banker`` command with the table's commands added: ``run``, ``table`` and ``enroll``.

The engine's commands (replay, sim, advise…) come from :mod:`banker.cli`; the engine does not import
the table, so the table adds its commands here.
"""

from __future__ import annotations

import argparse
import json
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from banker.cli import build_parser as build_banker_parser
from banker.cli import main as banker_main
from banker.messages import LANGUAGES


def main(argv: Sequence[str] | None = None) -> int:
    return banker_main(argv, build_parser())


def build_parser() -> argparse.ArgumentParser:
    parser = build_banker_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    from firmware import check, run

    run.register(sub)
    check.register(sub)
    bench = sub.choices["bench"]
    bench.add_argument("--table", action="store_true",
                       help="only the table's figures: tap to frame through the emulated reader and display")
    bench.add_argument("--program", action="store_true",
                       help="only the running program's figures: banker run --simulated with phones over HTTP")
    bench.add_argument("--advice", action="store_true",
                       help="only GET /api/advice on the running program: its first answer and the later ones")
    bench.add_argument("--speech", action="store_true",
                       help="only the table's voice: how long espeak-ng takes to say the common announcements")
    bench.add_argument("--long", action="store_true",
                       help="only what a long game and a long journal cost: 1,000/10,000/100,000 actions and "
                            "10/100/1,000 saved games (some minutes)")
    bench.add_argument("--long-actions", metavar="N,N,…",
                       help="with --long: the game lengths (default 1000,10000,100000)")
    bench.add_argument("--long-games", metavar="N,N,…",
                       help="with --long: the journal sizes in games (default 10,100,1000)")
    bench.add_argument("--write", metavar="FILE",
                       help="with --table/--program/--long: write the figures as Markdown to FILE "
                            "(docs/performance.md)")
    bench.add_argument("--calibrate", action="store_true",
                       help="on a Raspberry Pi: measure its costs for the --table model (an xfer2 loop, short "
                            "sleeps, 1 KiB to the OLED) and print the options that give them to --table")
    pi = bench.add_argument_group("the Pi model of --table (default: a Zero 2 W; --calibrate prints a Pi's own)")
    for name, unit, what in (("spi-message", "us", "one SPI system call besides its bits"),
                             ("spi-segment", "us", "each further transfer in one SPI message"),
                             ("sleep-overshoot", "us", "how late a short sleep wakes"),
                             ("sleep-cpu", "us", "the kernel's CPU for one sleep"),
                             ("i2c-transaction", "us", "one I²C call besides its bytes on the wire"),
                             ("panel-scan", "ms", "the OLED's frame period")):
        pi.add_argument(f"--{name}-{unit}", type=float, metavar="N", help=what)
    pi.add_argument("--cpu-factor", type=float, metavar="F", help="how many times slower the Pi runs this Python")
    pi.add_argument("--pi-workload-ms", type=float, metavar="MS",
                    help="cpu_workload_ms from --calibrate on the Pi: the CPU factor against this machine")
    engine_bench = bench.get_default("func")
    bench.set_defaults(func=lambda args: cmd_bench(args, engine_bench))
    p = sub.add_parser("table", help="replay a script of taps and button presses through the table's grammar",
                       description='Example: banker table flows.jsonl --json. Line 1 is a new_game action; then '
                                   'one input a line: {"tap": "Ann"}, {"tap": "baltic"}, {"press": "ok"}, '
                                   '{"hold": "cancel"}, {"wait": 31}.')
    p.add_argument("script", help="the script file, or - for standard input")
    p.add_argument("--json", action="store_true", help="end with the final state as JSON (as banker replay --json)")
    p.add_argument("--lang", default="en", choices=LANGUAGES, help="the table's language")
    p.add_argument("--quiet", action="store_true", help="print only the final state")
    p.set_defaults(func=cmd_table)

    p = sub.add_parser("enroll", help="teach the table its cards: tap each bank card, deed and special tag",
                       description="Example: banker enroll --config /etc/table-banker.toml")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--simulated", action="store_true", help="no hardware (for trying the flow)")
    mode.add_argument("--emulated", action="store_true", help="the real drivers over emulated chips")
    p.add_argument("--config", help="the settings file (TOML)")
    p.add_argument("--data-dir", help="directory of the journal, where the tags are kept")
    p.add_argument("--lang", choices=LANGUAGES, help="the table's language")
    p.set_defaults(func=cmd_enroll)
    return parser


def cmd_bench(args: argparse.Namespace, engine_bench: Callable[[argparse.Namespace], int]) -> int:
    """``banker bench``: the engine's figures; with ``--table``, ``--program`` or ``--advice`` only the table's,
    the running program's or its ``/api/advice``'s; ``--all`` all of them; ``--write FILE`` keeps the table's
    and program's as Markdown."""
    from datetime import UTC, datetime

    from banker.bench import print_figures
    from firmware.bench import bench_advice, bench_program, bench_table, machine, performance_markdown, pi_costs

    if args.long:
        return cmd_bench_long(args)
    if args.calibrate:
        from hardware.calibrate import calibrate

        print_figures(calibrate(), as_json=args.json)
        return 0
    try:
        costs = pi_costs(args)
    except ValueError as error:
        print(f"banker bench: {error}", file=sys.stderr)
        return 2
    if not args.table and not args.program and not args.advice and not args.speech:
        status = engine_bench(args)
        if not args.all:
            return status
    figures: dict[str, object] = {}
    if args.speech or args.all:
        from firmware.speech_bench import bench_speech

        figures.update(bench_speech())
    if args.table or args.all:
        figures.update(bench_table(costs))
    if args.program or args.all:
        figures.update(bench_program())
    elif args.advice:
        figures.update(bench_advice())
    print_figures(figures, as_json=args.json)
    if args.write:
        when = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
        path = Path(args.write)
        old = path.read_text(encoding="utf-8") if path.exists() else ""
        kept = old[old.index(SOAK_MARK):] if SOAK_MARK in old else ""
        path.write_text(performance_markdown(figures, when, machine()) + kept, encoding="utf-8")
        print(f"written to {path}")
    return 0


def cmd_bench_long(args: argparse.Namespace) -> int:
    """``banker bench --long``: firmware/bench_long.py's figures; ``--write FILE`` puts its section in FILE."""
    from datetime import UTC, datetime

    from banker.bench import print_figures
    from firmware.bench import machine
    from firmware.bench_long import GAMES, LENGTHS, markdown, run_long, write_section

    try:
        lengths = tuple(int(v) for v in args.long_actions.split(",")) if args.long_actions else LENGTHS
        games = tuple(int(v) for v in args.long_games.split(",")) if args.long_games else GAMES
    except ValueError:
        print("--long-actions and --long-games are whole numbers separated by commas", file=sys.stderr)
        return 2
    if any(n < 2 for n in lengths) or any(n < 1 for n in games):
        print("a game has at least 2 actions and a journal at least 1 game", file=sys.stderr)
        return 2
    figures = run_long(lengths, games, log=sys.stderr)
    flat: dict[str, object] = {f"{axis}_{key}": value for axis, found in figures.items()
                               for key, value in found.items()}
    print_figures(flat, as_json=args.json)
    if args.write:
        path = Path(args.write)
        write_section(path, markdown(figures, datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), machine()))
        print(f"written to {path}")
    return 0


SOAK_MARK = "## Soak"
"""docs/performance.md keeps the section from this heading on (the soak's results) when rewritten."""


def cmd_table(args: argparse.Namespace) -> int:
    from banker.export import state_to_json
    from banker.text import summary_lines
    from firmware.script import TableScript, TableScriptError, screen_text

    try:
        text = sys.stdin.read() if args.script == "-" else Path(args.script).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"cannot read {args.script}: {error}", file=sys.stderr)
        return 2
    with TableScript(language=args.lang) as script:
        try:
            frames = script.run(text.splitlines())
        except TableScriptError as error:
            print(str(error), file=sys.stderr)
            return 1
        if not args.quiet:
            for frame in frames:
                beeps = f"   (beep: {', '.join(frame.beeps)})" if frame.beeps else ""
                print(f"> {frame.text}{beeps}")
                print(screen_text(frame.view))
        state = script.session.state
        assert state is not None
        if args.json:
            print(json.dumps(state_to_json(state), ensure_ascii=False))
        else:
            print("\n".join(summary_lines(state, args.lang)))
    return 0


def cmd_enroll(args: argparse.Namespace) -> int:
    from banker.journal import Journal
    from banker.session import Session
    from firmware import grammar as g
    from firmware.config import ConfigError, load_config
    from firmware.loop import TableLoop
    from hardware.errors import HardwareError
    from hardware.factory import open_table

    try:
        config = load_config(args.config)
        mode = "simulated" if args.simulated else "emulated" if args.emulated else "pi"
        table_config = config.table_config(mode)
    except ConfigError as error:
        print(f"banker enroll: {error}", file=sys.stderr)
        return 2
    data_dir = Path(args.data_dir) if args.data_dir else config.data_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    try:
        table = open_table(table_config)
    except HardwareError as error:
        print(f"banker enroll: {error}", file=sys.stderr)
        return 3
    with table, Journal(data_dir / "banker.sqlite3") as journal:
        session = Session.resume(journal)
        loop = TableLoop(session, table, language=args.lang or config.language)
        loop.grammar = g.GrammarState(step=g.enrollment(), last_input=loop.clock())
        stop = threading.Event()

        def watch(_number: int) -> None:
            if not isinstance(loop.grammar.step, (g.Enrolling, g.Notice)):
                stop.set()

        loop.add_frame_listener(watch)
        print("Tap each card as the display asks; OK skips one, Cancel stops.", flush=True)
        try:
            loop.run(stop)
        except KeyboardInterrupt:
            pass
        finally:
            loop.stop()
        print(f"{len(journal.tags())} tags enrolled in {journal.path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
