"""A trade proposal survives the program killed with SIGKILL, and is accepted once after the restart.

``banker run --simulated`` is started as the kill test starts it; Ann's phone proposes Baltic for $100 to
Bob, the program is killed (no handler runs), started again: the proposal is still listed, with its id,
and Bob's phone sends eight accepts of it at once: one is applied, seven are refused with the reason.
Killed and started once more, the trade is there once and the proposal is gone.
"""

from __future__ import annotations

import threading
import uuid
from pathlib import Path
from typing import Any

from tests.soak.program import Answer, Client, Program, set_up_game

AT_ONCE = 8


def accepts_at_once(client: Client, number: int) -> list[tuple[str, Answer]]:
    """Eight accepts of proposal ``number`` from Bob's phone, each with its own key, released together."""
    barrier = threading.Barrier(AT_ONCE)
    keys = [uuid.uuid4().hex for _ in range(AT_ONCE)]
    answers: list[Any] = [None] * AT_ONCE

    def send(index: int) -> None:
        mine = Client(client.port, dict(client.cookies), client.token, client.phone)
        barrier.wait()
        answers[index] = mine.post_json(f"/api/trades/{number}/accept", {}, keys[index])

    threads = [threading.Thread(target=send, args=(i,)) for i in range(AT_ONCE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert all(a is not None for a in answers)
    return list(zip(keys, answers, strict=True))


def restart(program: Program, clients: list[Client]) -> None:
    program.start()
    for client in clients:
        client.port = program.port


def test_a_proposal_survives_sigkill_and_is_accepted_once(tmp_path: Path) -> None:
    program = Program(tmp_path)
    program.start()
    try:
        banker, phones, table = set_up_game(program)
        ann, bob = phones["Ann"], phones["Bob"]
        assert ann.act({"action": "buy", "player": "Ann", "property": "baltic"}, uuid.uuid4().hex).status == 200
        made = ann.post_json("/api/trades", {"from": "Ann", "to": "Bob", "give": {"properties": ["baltic"]},
                                             "take": {"cash": 100}}, uuid.uuid4().hex)
        assert made.status == 200, made.body
        proposal = made.json()["proposal"]
    finally:
        program.kill()
    clients = [banker, ann, bob, table]

    restart(program, clients)
    try:
        listed = bob.request("GET", "/api/trades").json()["proposals"]
        assert [(p["id"], p["from"], p["to"], p["give"], p["take"]) for p in listed] == [
            (proposal["id"], "Ann", "Bob", proposal["give"], proposal["take"])], listed
        assert "Ann → Bob" in bob.request("GET", "/trades").body.decode()
        answers = accepts_at_once(bob, proposal["id"])
        statuses = sorted(answer.status for _, answer in answers)
        assert statuses == [200] + [409] * (AT_ONCE - 1), statuses
        assert all(a.json()["error"] == "proposal_gone" for _, a in answers if a.status == 409)
        first_key, first = next((k, a) for k, a in answers if a.status == 200)
        again = bob.post_json(f"/api/trades/{proposal['id']}/accept", {}, first_key)
        assert again.status == 200 and again.headers.get("idempotent-replayed") == "true"
        assert again.body == first.body
        state = bob.state()
        assert state["properties"]["baltic"]["owner"] == "Bob" and state["proposals"] == []
        assert state["players"]["Bob"]["cash"] == 1400 and state["players"]["Ann"]["cash"] == 1500 - 60 + 100
    finally:
        program.kill()

    restart(program, clients)
    try:
        state = bob.state()
        assert state["properties"]["baltic"]["owner"] == "Bob" and state["proposals"] == []
        assert state["players"]["Bob"]["cash"] == 1400, "the accepted trade was applied once"
        late = bob.post_json(f"/api/trades/{proposal['id']}/accept", {}, uuid.uuid4().hex)
        assert late.status == 409 and late.json()["error"] == "proposal_gone"
        assert bob.state()["players"]["Bob"]["cash"] == 1400
        print(f"\nkilled twice with SIGKILL; after the first restart {AT_ONCE} accepts at once answered {statuses}; "
              f"after the second: Bob {state['players']['Bob']['cash']}, proposals {state['proposals']}")
    finally:
        program.stop()
