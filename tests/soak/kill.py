"""The running program under SIGKILL: ``python -m tests.soak.kill --kills 200``.

It starts ``banker run --simulated`` as a child process, drives it from several threads at once
(two players' phones paying over the API, the table page tapping a player's card and a deed and
pressing OK, every phone holding its event stream) and kills it with SIGKILL at a random moment.
Then, with the program dead, it reads the journal file and checks:

- every acknowledged phone request (a 2xx, or a refusal) is in the journal with the answer it got;
- every state a phone or the table saw (through ``/api/state``) is the replay of the journal's
  first ``seq`` actions: nothing acknowledged is lost and nothing was visible before it was durable;
- the journal's snapshot load equals the replay from scratch.

It starts the program again and checks:

- ``/api/state`` is the replay of the journal (nothing half-applied is visible);
- the table shows the "resumed" notice with the journal's action count;
- every request that had no answer when the program died, sent again with the same idempotency
  key, is done once: the journal holds exactly one action per key answered 200;
- every phone's stream reconnected by itself and gets the next action's event.

Every loop is bounded by the number of kills and each wait by a deadline.
"""

from __future__ import annotations

import argparse
import http.client
import json
import random
import sqlite3
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware.grammar import CONFIRM_GUARD_S
from tests.soak.program import PLAYERS, Client, Program, ProgramError, Stream, set_up_game, wait_for

DEEDS = (1, 3, 6, 8, 9, 11, 13, 14, 16, 18, 19, 21, 23, 24, 26, 27, 29, 31, 32, 34, 37, 39)
PHONE_ACTIONS = ("salary", "pay")
DOWN = (OSError, http.client.HTTPException)


class LostAction(AssertionError):
    """An acknowledged action is missing from the journal, or the journal and the program disagree."""


@dataclass
class Sent:
    """A phone request and what came back (None: the program died before it answered)."""

    client: Client
    action: dict[str, Any]
    key: str
    status: int | None = None
    body: bytes = b""

    @property
    def journal_key(self) -> str:
        return f"{self.client.phone}:{self.key}"


@dataclass
class Record:
    sent: list[Sent] = field(default_factory=list)
    seen: dict[int, str] = field(default_factory=dict)
    """seq -> the state JSON a phone or the table saw at that seq."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    table_rounds: int = 0

    def see(self, state: dict[str, Any]) -> None:
        with self.lock:
            self.seen[int(state["seq"])] = json.dumps(state, sort_keys=True)


def phone_worker(name: str, client: Client, record: Record, stop: threading.Event, rng: random.Random,
                 pause: float = 0.01) -> None:
    other = [p for p in PLAYERS if p != name]
    while not stop.is_set():
        if rng.random() < 0.5:
            action: dict[str, Any] = {"action": "salary", "player": name}
        else:
            action = {"action": "pay", "player": name, "to": rng.choice(other), "amount": rng.randint(1, 40)}
        action["again"] = True  # the same payment again within seconds is meant here, not asked
        sent = Sent(client, action, uuid.uuid4().hex)
        with record.lock:
            record.sent.append(sent)
        try:
            answer = client.act(action, sent.key)
            sent.status, sent.body = answer.status, answer.body
            if answer.status >= 500 or answer.status not in (200, 409):
                raise ProgramError(f"{action} answered {answer.status}: {answer.body[:300]!r}")
            if rng.random() < 0.3:
                record.see(client.state())
            stop.wait(rng.uniform(0, pause))
        except DOWN:
            return


def table_worker(table: Client, record: Record, stop: threading.Event, rng: random.Random) -> None:
    while not stop.is_set():
        try:
            seat = rng.randint(1, len(PLAYERS))
            # The table ignores an OK pressed within CONFIRM_GUARD_S of the confirmation appearing.
            deed = rng.choice(DEEDS)
            for (kind, value), pause in (((("tap", f"player:{seat}")), 0.05),
                                         ((("tap", f"deed:{deed}")), CONFIRM_GUARD_S + 0.1),
                                         ((("press", "ok")), 0.1)):
                answer = table.tap(value) if kind == "tap" else table.press(value)
                if answer.status != 303:
                    raise ProgramError(f"the table page answered {answer.status}: {answer.body[:300]!r}")
                stop.wait(pause)
            record.see(table.state())
            table.press("cancel")
            with record.lock:
                record.table_rounds += 1
        except DOWN:
            return


def replay(journal_path: Path, wanted: set[int] | None = None) -> tuple[int, dict[int, str], str]:
    """(game id, the state JSON after each wanted seq and the last, the snapshot load's JSON) of the
    journal file, replayed action by action from the start."""
    from banker.engine import apply
    from banker.export import state_to_json
    from banker.journal import Journal

    wanted = wanted or set()
    with Journal(journal_path) as journal:
        game_id = journal.current_game()
        assert game_id is not None
        states: dict[int, str] = {}
        state = None
        for action in journal.actions(game_id):
            state, _ = apply(state, action)
            if state.seq in wanted:
                states[state.seq] = json.dumps(state_to_json(state), sort_keys=True)
        assert state is not None
        states[state.seq] = json.dumps(state_to_json(state), sort_keys=True)
        loaded = json.dumps(state_to_json(journal.load(game_id)), sort_keys=True)
    return game_id, states, loaded


def requests_of(journal_path: Path) -> dict[str, tuple[int, str]]:
    with sqlite3.connect(journal_path) as db:
        return {str(k): (int(s), str(b)) for k, s, b in db.execute("SELECT key, status, body FROM requests")}


def phone_action_count(journal_path: Path, game_id: int) -> int:
    from banker.journal import Journal

    with Journal(journal_path) as journal:
        return sum(1 for action in journal.actions(game_id) if action.name in PHONE_ACTIONS)


def check_dead(journal_path: Path, record: Record) -> None:
    """The checks on the journal file while the program is dead."""
    _, states, loaded = replay(journal_path, set(record.seen))
    last = max(states)
    if states[last] != loaded:
        raise LostAction("the snapshot load differs from the replay of the journal")
    answers = requests_of(journal_path)
    for sent in record.sent:
        if sent.status is None or sent.status >= 300:
            continue  # a refusal moved nothing and is remembered in memory only
        first = answers.get(sent.journal_key)
        if first is None:
            raise LostAction(f"acknowledged {sent.action} ({sent.status}) is not in the journal")
        if first != (sent.status, sent.body.decode()):
            raise LostAction(f"the journal's answer to {sent.action} is {first}, the phone got {sent.status}")
    for seq, seen in record.seen.items():
        if seq > last:
            raise LostAction(f"a phone saw seq {seq}; the journal ends at seq {last}")
        if states[seq] != seen:
            raise LostAction(f"the state seen at seq {seq} is not the replay of the journal")


def expected_resume_frame(actions: int) -> bytes:
    """The pixels of the table's "resumed" notice for a game of ``actions`` actions, at the page's scale."""
    from PIL import Image

    from firmware import grammar as g
    from firmware import screens
    from hardware.display import render_view
    from webui.table import SCALE

    view = screens.view(g.GrammarState(step=g.Notice("resumed", g.params(actions=actions), until=1e12,
                                                     then=g.Idle())),
                        g.Context(game=None, now=0.0))
    image = render_view(view).convert("1")
    return image.resize((image.width * SCALE, image.height * SCALE), Image.Resampling.NEAREST).tobytes()


def frame_pixels(client: Client) -> bytes:
    import io

    from PIL import Image

    answer = client.request("GET", "/table/frame.png")
    return Image.open(io.BytesIO(answer.body)).convert("1").tobytes()


@dataclass
class Totals:
    kills: int = 0
    requests: int = 0
    acknowledged: int = 0
    retried: int = 0
    retried_already_done: int = 0
    table_rounds: int = 0
    actions: int = 0
    lost: int = 0


def run(kills: int, data_dir: Path, seed: int = 1, max_alive_s: float = 3.0, log: Any = None) -> Totals:
    """Start, drive, SIGKILL and check ``kills`` times. Raises :class:`LostAction` at the first loss."""
    rng = random.Random(seed)
    totals = Totals()
    program = Program(data_dir)
    program.start()
    try:
        banker, phones, table = set_up_game(program)
    finally:
        program.kill()
    clients = [banker, *phones.values(), table]
    journal_path = data_dir / "banker.sqlite3"
    pending: list[Sent] = []
    resolved: dict[str, int] = {}
    for number in range(1, kills + 1):
        dead = last_state(journal_path)
        program.start()
        for client in clients:
            client.port = program.port
        try:
            game_id, seq, state_json = check_alive(program, journal_path, dead, banker, phones, table, pending,
                                                   resolved, totals)
            record = Record()
            record.seen[seq] = state_json
            stop = threading.Event()
            streams = [Stream(client, stop) for client in phones.values()]
            for stream in streams:
                stream.last_id = f"{game_id}-{seq}"
                stream.start()
            workers = [threading.Thread(target=phone_worker, daemon=True,
                                        args=(name, client, record, stop, random.Random(rng.random())))
                       for name, client in phones.items()]
            workers.append(threading.Thread(target=table_worker, daemon=True,
                                            args=(table, record, stop, random.Random(rng.random()))))
            for worker in workers:
                worker.start()
            time.sleep(rng.uniform(0.02, max_alive_s))
        finally:
            program.kill()
        totals.kills += 1
        stop.set()
        for worker in workers:
            worker.join(10)
        for stream in streams:
            stream.join()
        check_dead(journal_path, record)
        totals.requests += len(record.sent)
        totals.acknowledged += sum(1 for s in record.sent if s.status is not None)
        totals.table_rounds += record.table_rounds
        for sent in record.sent:
            if sent.status is None:
                pending.append(sent)
            else:
                resolved[sent.journal_key] = sent.status
        if log is not None and (number % 10 == 0 or number == kills):
            print(f"kill {number}: {totals}", file=log, flush=True)
    dead = last_state(journal_path)
    program.start()
    for client in clients:
        client.port = program.port
    try:
        _, seq, _ = check_alive(program, journal_path, dead, banker, phones, table, pending, resolved, totals)
        totals.actions = seq + 1
    finally:
        program.stop()
    return totals


def last_state(journal_path: Path) -> tuple[int, int, str]:
    """(game id, the last seq, its state JSON) of the journal's replay."""
    game_id, states, _ = replay(journal_path)
    seq = max(states)
    return game_id, seq, states[seq]


def check_alive(program: Program, journal_path: Path, dead: tuple[int, int, str], banker: Client,
                phones: dict[str, Client], table: Client, pending: list[Sent], resolved: dict[str, int],
                totals: Totals) -> tuple[int, int, str]:
    """The checks after a restart (``dead``: the journal's replay before it); resends the unanswered
    requests with their keys."""
    game_id, seq, state_json = dead
    if seq > 0:
        # First, while the notice is up (a few seconds from the start).
        expected = expected_resume_frame(seq)
        wait_for(lambda: frame_pixels(table) == expected, 5.0, "the table's resumed notice")
    if json.dumps(banker.state(), sort_keys=True) != state_json:
        raise LostAction("after the restart /api/state is not the replay of the journal")
    while pending:
        sent = pending.pop()
        answer = sent.client.act(sent.action, sent.key)
        if answer.status not in (200, 409):
            raise ProgramError(f"the retry of {sent.action} answered {answer.status}: {answer.body[:300]!r}")
        totals.retried += 1
        totals.retried_already_done += answer.headers.get("idempotent-replayed") == "true"
        again = sent.client.act(sent.action, sent.key)
        if (again.status, again.body) != (answer.status, answer.body):
            raise LostAction(f"a second retry of {sent.action} got another answer")
        resolved[sent.journal_key] = answer.status
    paid = sum(1 for status in resolved.values() if status == 200)
    if phone_action_count(journal_path, game_id) != paid:
        raise LostAction(f"the journal holds {phone_action_count(journal_path, game_id)} phone actions "
                         f"for {paid} requests answered 200")
    # The phones' streams reconnect by themselves and get the next action.
    stop = threading.Event()
    streams = [Stream(client, stop) for client in phones.values()]
    try:
        for stream in streams:
            stream.last_id = f"{game_id}-{seq}"
            stream.start()
        wait_for(lambda: all(s.connects for s in streams), 5.0, "the streams to reconnect")
        key = uuid.uuid4().hex
        answer = banker.act({"action": "salary", "player": PLAYERS[2], "again": True}, key)
        if answer.status != 200:
            raise ProgramError(f"salary answered {answer.status}: {answer.body!r}")
        resolved[f"{banker.phone}:{key}"] = 200
        wanted = f"{game_id}-{answer.json()['seq']}"
        wait_for(lambda: all(wanted in s.arrivals for s in streams), 5.0, f"event {wanted} on every stream")
    finally:
        stop.set()
        for stream in streams:
            stream.join()
    return last_state(journal_path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="SIGKILL the running table program and check the journal.")
    parser.add_argument("--kills", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data-dir", help="keep the data here (default: a temporary directory)")
    args = parser.parse_args(argv)
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        data_dir = Path(args.data_dir) if args.data_dir else Path(tmp)
        try:
            totals = run(args.kills, data_dir, args.seed, log=sys.stdout)
        except (LostAction, ProgramError) as error:
            print(f"FAILED: {type(error).__name__}: {error}")
            return 1
    print(f"{totals.kills} kills in {time.monotonic() - started:.0f} s: {totals.requests} phone requests "
          f"({totals.acknowledged} answered before a kill, {totals.retried} resent after one, "
          f"{totals.retried_already_done} of them already done), {totals.table_rounds} table rounds, "
          f"{totals.actions} actions in the journal, 0 acknowledged actions lost")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
