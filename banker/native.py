"""The engine and the bots compiled to C with mypyc, from the very same source, for long self-play runs.

    python -m banker.native                   # builds build/compiled (make compiled does the same)
    PYTHONPATH=build/compiled banker sim --games 100000

The build is a copy of the ``banker`` package in which the modules of :data:`MODULES` sit beside their
compiled extension modules; Python imports an extension module before a ``.py`` of the same name, so
with that directory first on the path the rules, the invariant checks and the bots run as C, and
everything else (the actions, the editions, the messages, the journal) as the same Python as always.
There is one rule book: nothing here is a second implementation, and the tests run on both builds
(``make test``). A build whose sources have not changed since is kept.

Self-play is about twice as fast compiled (``banker bench`` reports both); the table does not need it.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
DEFAULT_OUT = PACKAGE.parent / "build" / "compiled"

MODULES = (
    "state", "ledger", "rules", "work", "checks", "deeds", "payments", "buildings", "settlement", "engine",
    "invariants", "worth", "edition", "offer", "sim/game", "sim/movement", "sim/strategies",
)
"""The modules compiled: the engine, its invariant checks, the board, the offers and the bots (paths under ``banker/``,
without ``.py``). The action vocabulary stays Python: mypyc does not compile its dataclasses' inheritance."""

DIGEST_FILE = ".source-digest"


def is_native() -> bool:
    """Whether this process runs the compiled engine."""
    import banker.engine

    return not banker.engine.__file__.endswith(".py")


def source_digest(package: Path = PACKAGE) -> str:
    """A digest of every source file of the package and of this Python: a build from the same one is current."""
    digest = hashlib.sha256(sys.version.encode())
    for path in sorted(package.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts and path.suffix not in (".so", ".pyd", ".pyc"):
            digest.update(str(path.relative_to(package)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def is_current(out: Path = DEFAULT_OUT) -> bool:
    """Whether ``out`` holds a build of the sources as they are now."""
    stamp = out / DIGEST_FILE
    return stamp.exists() and stamp.read_text() == source_digest()


def build(out: Path = DEFAULT_OUT, *, quiet: bool = True) -> bool:
    """Build the compiled copy in ``out`` unless it is current; returns whether it built.

    Raises:
        RuntimeError: mypyc or the C compiler failed (its output is in the message).
    """
    if is_current(out):
        return False
    if importlib.util.find_spec("mypyc") is None:
        raise RuntimeError("mypyc is not installed: it comes with mypy (pip install 'mypy==2.4.1', or the dev extra)")
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    shutil.copytree(PACKAGE, out / "banker", ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.pyc"))
    sources = [f"banker/{module}.py" for module in MODULES]
    done = subprocess.run([sys.executable, "-m", "mypyc", *sources], cwd=out, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        output = (done.stdout + done.stderr).strip()
        last = output.splitlines()[-1] if output else "no output"
        raise RuntimeError(f"mypyc failed in {out}: {last}\n{output[-4000:]}")
    if not quiet:
        print(done.stdout[-2000:])
    shutil.rmtree(out / "build", ignore_errors=True)  # mypyc's C sources and object files
    (out / DIGEST_FILE).write_text(source_digest())
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m banker.native", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help=f"where to build (default {DEFAULT_OUT})")
    parser.add_argument("--verbose", action="store_true", help="show mypyc's output")
    args = parser.parse_args(argv)
    try:
        built = build(args.out, quiet=not args.verbose)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    print(f"{args.out}: {'built' if built else 'up to date'} ({len(MODULES)} modules compiled)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
