"""``python -m banker.advisor advise ...``: the advisor's command without the rest of ``banker``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from banker.advisor.cli import register


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m banker.advisor")
    subparsers = parser.add_subparsers(dest="command", required=True)
    register(subparsers)
    args = parser.parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
