"""The real server: waitress in a thread, sized for the streams, answering on loopback."""

from __future__ import annotations

import json
import urllib.request

from flask import Flask

from webui.server import REQUEST_WORKERS, start, thread_count


def test_threads_are_sized_for_the_streams() -> None:
    assert thread_count(64) == 64 + REQUEST_WORKERS


def test_start_serves_and_closes(app: Flask) -> None:
    server = start(app, "127.0.0.1", 0)
    try:
        assert server.port > 0 and server.url == f"http://127.0.0.1:{server.port}"
        assert server.threads == app.config["MAX_STREAMS"] + REQUEST_WORKERS
        with urllib.request.urlopen(server.url + "/api/openapi.json", timeout=5) as response:
            assert json.load(response)["openapi"].startswith("3.1")
            assert response.headers["Server"] == "banker"
    finally:
        server.close()


def test_the_load_script_runs_and_stops_by_itself(capsys: object) -> None:
    from webui.load import main

    assert main(["--streams", "3", "--actions", "5", "--max-streams", "6", "--step", "3"]) == 0
    out = capsys.readouterr().out  # type: ignore[attr-defined]
    assert "median" in out and "p99" in out and "VmRSS" in out
    assert "stream 7 refused with 503" in out
