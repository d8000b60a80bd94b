"""banker run limits the C library's malloc arenas (firmware.run.limit_malloc_arenas): counted with
glibc's malloc_info in a fresh interpreter whose threads allocate at the same time."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap

import pytest

from firmware.run import MALLOC_ARENAS

try:
    ctypes.CDLL(None).malloc_info  # noqa: B018
    GLIBC = True
except (OSError, AttributeError):
    GLIBC = False

pytestmark = pytest.mark.skipif(not GLIBC, reason="malloc arenas and malloc_info are glibc's")

PROGRAM = textwrap.dedent("""
    import ctypes, os, sys, tempfile, threading
    from firmware.run import limit_malloc_arenas
    took = limit_malloc_arenas() if sys.argv[1] == "limit" else None
    libc = ctypes.CDLL(None)
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = (ctypes.c_char_p, ctypes.c_char_p)
    libc.malloc_info.argtypes = (ctypes.c_int, ctypes.c_void_p)
    libc.fclose.argtypes = (ctypes.c_void_p,)
    ready = threading.Barrier(8)
    def work():
        ready.wait()
        kept = [bytearray(4096) for _ in range(200)]  # from malloc: larger than Python's small objects
        ready.wait()
        del kept
    threads = [threading.Thread(target=work) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    path = os.path.join(tempfile.mkdtemp(), "malloc.xml")
    stream = libc.fopen(path.encode(), b"w")
    libc.malloc_info(0, stream)
    libc.fclose(stream)
    print(took, open(path).read().count("<heap nr="))
""")


def arenas(mode: str, environ: dict[str, str] | None = None) -> tuple[str, int]:
    env = {key: value for key, value in os.environ.items() if key != "MALLOC_ARENA_MAX"}
    env.update(environ or {})
    done = subprocess.run([sys.executable, "-c", PROGRAM, mode], capture_output=True, text=True, env=env,
                          timeout=60, check=True)
    took, count = done.stdout.split()
    return took, int(count)


def test_banker_run_keeps_at_most_two_arenas_where_glibc_would_give_a_thread_each() -> None:
    assert arenas("limit") == ("True", MALLOC_ARENAS)
    untouched, unlimited = arenas("none")
    assert untouched == "None" and unlimited > MALLOC_ARENAS  # 8 threads: an arena each, up to 8 per core


def test_malloc_arena_max_in_the_environment_decides_instead() -> None:
    assert arenas("limit", {"MALLOC_ARENA_MAX": "3"}) == ("False", 3)
