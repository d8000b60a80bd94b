"""Self-play speed, ours and the public simulator github.com/gamescomputersplay/monopoly's, each in a fresh process.

Used by ``banker bench`` and benchmarks/peer.py. Each measurement is one single process (no
multiprocessing, logs off). A "turn" is one player's turn (rolling again after a double is the same
turn) on both sides. The peer is never imported into this process: its code runs in the child only.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

OURS = """
import json
from banker.native import is_native
from banker.sim.cli import simulate
s = simulate({games}, 4, 1, check={check})
print(json.dumps({{"games": s["games"], "seconds": s["seconds"], "turns": s["mean_turns"] * s["games"],
                  "native": is_native()}}))
"""

# The peer's own game loop (monopoly.core.game.monopoly_game), its seeds drawn as its scripts/simulate.py
# draws them; its logs are disabled, and top-level moves (not the re-roll after a double) are counted as turns.
PEER = """
import json, random, sys, time
sys.path.insert(0, {path!r})
import monopoly.core.game as game
from monopoly.core.player import Player
from monopoly.log import Log
from monopoly.log_settings import LogSettings
LogSettings.KEEP_GAME_LOG = False
game.Log = lambda name, disabled=False: Log(name, disabled=True)
turns = 0
move = Player.make_a_move
def counted(self, *args):
    global turns
    if not self.is_bankrupt and not self.had_doubles:
        turns += 1
    return move(self, *args)
Player.make_a_move = counted
rng = random.Random(0)
pairs = [(i + 1, rng.getrandbits(32)) for i in range({games})]
started = time.perf_counter()
for pair in pairs:
    game.monopoly_game(pair)
elapsed = time.perf_counter() - started
print(json.dumps({{"games": {games}, "seconds": elapsed, "turns": turns}}))
"""


def peer_path(given: str | Path | None = None) -> Path | None:
    """The peer's checkout: ``given``, else $PEER_MONOPOLY; None when neither holds the simulator."""
    where = given if given is not None else os.environ.get("PEER_MONOPOLY")
    if not where:
        return None
    path = Path(where)
    return path if (path / "monopoly" / "core" / "game.py").is_file() else None


def _run(code: str, cwd: Path | None = None, path: Path | None = None) -> dict[str, float]:
    env = dict(os.environ)
    if path is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(path.resolve()), *filter(None, [env.get("PYTHONPATH")])])
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True, cwd=cwd, env=env)
    figures: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return figures


def measure_ours(games: int, check: bool, compiled: Path | None = None) -> dict[str, float]:
    """{"games", "seconds", "turns", "native"} of ``banker sim`` (4 players, seed 1) in a fresh process;
    on the compiled build of :mod:`banker.native` in ``compiled`` when given.

    Raises:
        RuntimeError: ``compiled`` was given but the child did not run the compiled engine.
    """
    here = Path(__file__).resolve().parents[2]  # the engine of this checkout, not another one on the path
    figures = _run(OURS.format(games=games, check=check), cwd=here if compiled is None else compiled, path=compiled)
    if compiled is not None and not figures["native"]:
        raise RuntimeError(f"{compiled} holds no compiled engine (python -m banker.native --out {compiled})")
    return figures


def compiled_build() -> Path | None:
    """The compiled build of :mod:`banker.native` in its default place, if it is there and current."""
    from banker.native import DEFAULT_OUT, is_current

    return DEFAULT_OUT if is_current(DEFAULT_OUT) else None


def measure_peer(path: Path, games: int) -> dict[str, float]:
    """{"games", "seconds", "turns"} of the peer simulator (4 players) in a fresh process."""
    return _run(PEER.format(games=games, path=str(path.resolve())), cwd=path)


def rates(figures: dict[str, float]) -> tuple[float, float]:
    """(games per second, turns per second)."""
    return figures["games"] / figures["seconds"], figures["turns"] / figures["seconds"]
