"""The compiled build of the engine (banker.native): asked for, it is what runs, and it is rebuilt only when needed.

``make test`` runs this file twice: on the Python build, and with ``BANKER_NATIVE=1`` on the compiled one.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from banker import native


def test_the_build_asked_for_is_the_one_that_runs() -> None:
    import banker.engine

    if os.environ.get("BANKER_NATIVE") == "1":
        assert native.is_native(), f"the Python engine ran: {banker.engine.__file__}"
    else:
        assert not native.is_native(), f"a compiled engine ran: {banker.engine.__file__}"


def test_the_digest_follows_the_sources_only(tmp_path: Path) -> None:
    package = tmp_path / "banker"
    (package / "sim").mkdir(parents=True)
    (package / "engine.py").write_text("X = 1\n")
    (package / "sim" / "game.py").write_text("Y = 2\n")
    first = native.source_digest(package)
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "engine.cpython-311.pyc").write_bytes(b"\0")
    (package / "engine.cpython-311-x86_64-linux-gnu.so").write_bytes(b"\0")
    assert native.source_digest(package) == first
    (package / "sim" / "game.py").write_text("Y = 3\n")
    assert native.source_digest(package) != first


def test_a_current_build_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "compiled"
    out.mkdir()
    (out / native.DIGEST_FILE).write_text(native.source_digest())
    ran: list[object] = []
    monkeypatch.setattr(native.subprocess, "run", lambda *args, **kwargs: ran.append(args))
    assert native.build(out) is False
    assert ran == []


def test_a_failed_compilation_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    class Failed:
        returncode = 1
        stdout = "banker/engine.py:1: error: something mypyc cannot compile"
        stderr = ""

    monkeypatch.setattr(native.subprocess, "run", lambda *args, **kwargs: Failed())
    with pytest.raises(RuntimeError, match="failed in .*: banker/engine.py:1: error: something mypyc cannot compile"):
        native.build(tmp_path / "compiled")
    shutil.rmtree(tmp_path / "compiled")


def test_sim_compiled_plays_the_same_games_on_the_compiled_engine(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from banker.sim.peer import compiled_build

    if compiled_build() is None:
        pytest.skip("no current compiled build: make compiled")
    command = [sys.executable, "-m", "banker", "sim", "--games", "8", "--seed", "5", "--quiet", "--json"]
    pure = subprocess.run(command, capture_output=True, text=True, check=True, cwd=tmp_path)
    compiled = subprocess.run([*command, "--compiled"], capture_output=True, text=True, check=True, cwd=tmp_path)
    first, second = json.loads(pure.stdout), json.loads(compiled.stdout)
    assert (first["compiled"], second["compiled"]) == (False, True)
    for key in ("mean_turns", "mean_actions", "ended_by", "win_share_by_strategy", "win_share_by_seat"):
        assert first[key] == second[key], key


def test_without_mypyc_the_build_says_what_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(native.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(RuntimeError, match="mypyc is not installed"):
        native.build(tmp_path / "compiled")


@pytest.mark.pure_python
def test_sim_compiled_without_a_compiler_says_what_is_needed(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from banker.cli import main

    def failing(out: Path = native.DEFAULT_OUT, *, quiet: bool = True) -> bool:
        raise RuntimeError(f"mypyc failed in {out}: error: command 'gcc' failed: No such file or directory")

    monkeypatch.setattr(native, "build", failing)
    assert main(["sim", "--games", "1", "--quiet", "--compiled"]) == 1
    err = capsys.readouterr().err
    assert "command 'gcc' failed" in err and "build-essential python3-dev" in err
