"""The HTTP API driven from its own OpenAPI document with random requests (hypothesis and Flask's
test client): every answer is a status the document lists for that operation, never a 500 or a
stack trace, errors are the documented JSON, and a refusal changes nothing.

Bodies come from the operation's schema (valid ones), from the schema with a field broken or
missing, or are any JSON or any bytes at all, JSON nested thousands deep, with a key given twice,
with texts far too long or carrying control characters and direction marks; the Idempotency-Key
and CSRF headers are present, missing, junk, or a key already used for another request; the caller
is the banker, a player, or a phone without a cookie, from the table's own computer or a phone's
address, under the table's name or a foreign one (which must answer 421 and do nothing).

A second fuzz sends the pages' forms (the same fields, junk, duplicated fields, hostile ``next``
targets): never a 500, and a redirect never leaves the table.
"""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from flask import Flask
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from banker.actions import NewGame
from banker.journal import Journal
from banker.session import Session
from tests.webui.conftest import PIN, Phone
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import set_pin
from webui.openapi import document

DOC = document()
NAMES = ["Ann", "Bob", "Cy", "Zed", "", "baltic", "boardwalk", "reading_railroad", "house", "hotel", "chance",
         "dividend", "luxury_tax", "us", "ru"]
SKIPPED = {("get", "/api/stream")}  # an endless body; its refusals are covered in test_stream.py
OPERATIONS = sorted((method, path) for path, ops in DOC["paths"].items() for method in ops
                    if (method, path) not in SKIPPED)

JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False) | st.text(max_size=20)
    | st.sampled_from(NAMES),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
    max_leaves=12)


def resolve(schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    found: dict[str, Any] = DOC
    for part in ref.removeprefix("#/").split("/"):
        found = found[part]
    return found


def from_schema(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values that match ``schema`` (the subset of JSON Schema the document uses)."""
    schema = resolve(schema)
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([from_schema(option) for option in schema[key]])
    kind = schema.get("type")
    if kind == "object":
        properties: dict[str, Any] = schema.get("properties", {})
        required = set(schema.get("required", ()))
        if not properties:
            extra = schema.get("additionalProperties")
            values = from_schema(extra) if isinstance(extra, dict) else JSON_VALUES
            return st.dictionaries(st.sampled_from(NAMES), values, max_size=3)
        return st.fixed_dictionaries(
            {k: from_schema(v) for k, v in properties.items() if k in required},
            optional={k: from_schema(v) for k, v in properties.items() if k not in required})
    if kind == "array":
        return st.lists(from_schema(schema.get("items", {})), max_size=4)
    if kind == "string":
        return st.sampled_from(NAMES) | st.text(min_size=schema.get("minLength", 0), max_size=12)
    if kind == "integer":
        return st.integers(schema.get("minimum", -5), 2000) | st.integers()
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return JSON_VALUES


def body_schema(op: dict[str, Any]) -> dict[str, Any] | None:
    content = op.get("requestBody", {}).get("content", {}).get("application/json")
    return None if content is None else resolve(content["schema"])


@st.composite
def requests(draw: st.DrawFn) -> dict[str, Any]:
    method, path = draw(st.sampled_from(OPERATIONS))
    op = DOC["paths"][path][method]
    url = path.replace("{id}", str(draw(st.integers(-1, 5)))).replace(
        "{answer}", draw(st.sampled_from(["accept", "refuse", "cancel", "maybe", "x" * 30])))
    schema = body_schema(op)
    kind = draw(st.sampled_from(["valid", "valid", "broken", "json", "bytes", "none", "deep", "duplicate",
                                 "hostile_text"]))
    body: bytes | None
    if kind == "deep":
        depth = draw(st.sampled_from([17, 1000, 5000, 100_000]))
        body = b'{"player": "Ann", "x": ' + b"[" * depth + b"]" * depth + b"}"
    elif kind == "duplicate":
        body = b'{"player": "Ann", "amount": 1, "to": "Bob", "code": "A", "pin": "1", "amount": 999999999}'
    elif kind == "hostile_text" and schema is not None:
        value = draw(from_schema(schema))
        if isinstance(value, dict):
            key = draw(st.sampled_from([*sorted(schema.get("properties", {})), "reason"]))
            value[key] = draw(HOSTILE_TEXT)
        body = json.dumps(value).encode()
    elif kind in ("valid", "broken", "hostile_text") and schema is not None:
        value = draw(from_schema(schema))
        if kind == "broken" and isinstance(value, dict):
            if value and draw(st.booleans()):
                value.pop(draw(st.sampled_from(sorted(value))))
            else:
                value[draw(st.sampled_from([*sorted(schema.get("properties", {})), "junk"]))] = draw(JSON_VALUES)
        body = json.dumps(value).encode()
    elif kind == "bytes":
        body = draw(st.binary(max_size=64))
    elif kind == "none":
        body = None
    else:
        body = json.dumps(draw(JSON_VALUES)).encode()
    return {
        "method": method, "path": path, "url": url, "body": body if method == "post" else None,
        "caller": draw(st.sampled_from(["banker", "banker", "Ann", "Bob", "watcher", "stranger"])),
        "key": draw(st.sampled_from(["new", "new", "new", "none", "short", "bad chars here", "reused"])),
        "csrf": draw(st.sampled_from(["good", "good", "good", "none", "junk"])),
        "address": draw(st.sampled_from(["127.0.0.1", "127.0.0.7", "127.0.0.7", "192.0.2.1"])),
        "host": draw(st.sampled_from(["", "", "", "127.0.0.1:8080", "evil.example", "127.0.0.1.evil.example",
                                      "[::1]", "localhost:1"])),
    }


HOSTILE_TEXT = st.sampled_from(["x" * 15_000, "\u202eAnn", "Ann\u200b", "\u0410nn", "B\u0000b", "line\nbreak",
                                "\u2066$1,500\u2069", "\ud800", "A" * 81]) | st.text(min_size=81, max_size=200)
FOREIGN = {"evil.example", "127.0.0.1.evil.example"}


class World:
    """One app for every example (setting the PIN once: scrypt is slow on purpose)."""

    def __init__(self, tmp: Path) -> None:
        self.journal = Journal(tmp / "fuzz.sqlite3")
        self.session = Session(self.journal)
        self.session.submit(NewGame("us", ("Ann", "Bob", "Cy"), {}))
        set_pin(self.journal, PIN)
        self.table = FakeTable(self.session)
        self.app: Flask = create_app(self.session, self.table, {"TESTING": True, "DATA_DIR": str(tmp)})
        self.phones = {"banker": Phone(self.app.test_client(), self.app).join(None).banker(),
                       "Ann": Phone(self.app.test_client(), self.app).join("Ann"),
                       "Bob": Phone(self.app.test_client(), self.app).join("Bob"),
                       "watcher": Phone(self.app.test_client(), self.app).join(None)}
        self.statuses: dict[int, int] = {}
        self.used_keys: list[str] = []

    def snapshot(self) -> str:
        game = self.session.game_id
        state = self.session.state
        return json.dumps([state and state.seq, game, game and self.journal.action_lines(game),
                           state and state.proposals, self.journal.setting("webui_banker_pin"),
                           self.journal.setting("webui_join_code"), self.journal.banker_generation()],
                          sort_keys=True, default=str)

    def send(self, request: dict[str, Any]) -> Any:
        caller = request["caller"]
        if caller == "stranger":
            phone = Phone(self.app.test_client(), self.app)
        else:
            phone = self.phones[caller]
            if caller == "banker":
                me = phone.me()
                if not me["banker"]:
                    # The fuzz may have left the role ({"leave": true}), changed the PIN or used up the
                    # wrong tries: the banker is the banker again, as the table would grant it.
                    self.journal.grant_banker(me["phone"], self.session.game_id, 0.0)
        phone.client.environ_base["REMOTE_ADDR"] = request["address"]
        headers: dict[str, str] = {}
        if request["csrf"] == "good" and phone.token:
            headers["X-CSRFToken"] = phone.token
        elif request["csrf"] == "junk":
            headers["X-CSRFToken"] = "junk"
        keys = {"new": uuid.uuid4().hex, "none": None, "short": "abc", "bad chars here": "bad chars here",
                "reused": self.used_keys[-1] if self.used_keys else uuid.uuid4().hex}
        key = keys[request["key"]]
        if key is not None:
            headers["Idempotency-Key"] = key
            self.used_keys = [*self.used_keys[-20:], key]
        if request["host"]:
            headers["Host"] = request["host"]
        if request["method"] == "get":
            return phone.client.get(request["url"], headers=headers)
        return phone.client.post(request["url"], data=request["body"], headers=headers,
                                 content_type="application/json")


def check(world: World, request: dict[str, Any]) -> None:
    op = DOC["paths"][request["path"]][request["method"]]
    before = world.snapshot()
    response = world.send(request)
    status = response.status_code
    world.statuses[status] = world.statuses.get(status, 0) + 1
    text = response.get_data(as_text=True)
    where = (f"{request['method'].upper()} {request['url']} ({request['caller']} at {request['address']}, "
             f"Host {request['host'] or 'localhost'}) -> {status}: {text[:300]}")
    assert status != 500, where
    if request["host"] in FOREIGN:
        assert status == 421, "a foreign Host was answered: " + where
    assert str(status) in op["responses"], "undocumented status: " + where
    assert "Traceback" not in text and 'File "' not in text, where
    if status >= 400:
        if "content" in op["responses"][str(status)]:
            error = json.loads(text)
            assert set(error) == {"error", "message"} and error["message"], where
        assert world.snapshot() == before, "a refusal changed something: " + where


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(batch=st.lists(requests(), min_size=1, max_size=5))
def test_random_requests_get_documented_answers(batch: list[dict[str, Any]], tmp_path_factory: Any) -> None:
    world = WORLDS.get("world")
    if world is None:
        world = WORLDS["world"] = World(tmp_path_factory.mktemp("fuzz"))
    for request in batch:
        check(world, request)


WORLDS: dict[str, World] = {}


def test_the_fuzz_reaches_every_kind_of_answer() -> None:
    """The fuzz above is not vacuous: it got successes and refusals of every kind."""
    world = WORLDS.get("world")
    if world is None:  # run alone: nothing to look at
        return
    for status in (200, 400, 401, 403, 409, 421, 422):
        assert world.statuses.get(status, 0) > 0, world.statuses


FORM_PATHS = ["/do", "/lang", "/join", "/setup", "/banker", "/trades/propose", "/trades/1/accept", "/table/tap",
              "/table/press", "/j/AAAA"]
FORM_FIELDS = ["action", "player", "amount", "to", "reason", "property", "players", "edition", "lang", "code",
               "do", "pin", "new_pin", "meaning", "button", "long", "give_cash", "give_properties", "next", "me"]
HOSTILE_NEXT = st.sampled_from(["/\n/x", "/\r\n/x", "/\t/evil.example", "//evil.example", "/\\evil.example",
                                "https://evil.example", "/ /evil.example", "/%09/evil.example", "/\x00", "/deeds",
                                "/trades?with=Bob", "/\u3000/evil.example", "javascript:alert(1)", ""])


@st.composite
def forms(draw: st.DrawFn) -> dict[str, Any]:
    pairs = draw(st.lists(st.tuples(st.sampled_from(FORM_FIELDS), st.sampled_from(NAMES) | HOSTILE_TEXT
                                    | st.sampled_from(["salary", "pay", "new_code", "leave", "ok", "player:1", "50"])),
                          max_size=8))
    pairs.append(("next", draw(HOSTILE_NEXT)))
    return {"path": draw(st.sampled_from(FORM_PATHS)), "pairs": pairs,
            "caller": draw(st.sampled_from(["banker", "Ann", "watcher"])),
            "address": draw(st.sampled_from(["127.0.0.1", "127.0.0.7"]))}


def lands_on_the_table(location: str) -> bool:
    """Whether a redirect stays on this table, however a browser reads it (it drops tabs and line breaks)."""
    cleaned = "".join(c for c in location if c not in "\t\r\n")
    if location.startswith("http://localhost/"):
        cleaned = cleaned.removeprefix("http://localhost")
    return cleaned.startswith("/") and not cleaned.startswith(("//", "/\\")) and "\\" not in cleaned \
        and not any(c.isspace() or ord(c) < 32 for c in cleaned)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(form=forms())
def test_random_forms_never_crash_nor_leave_the_table(form: dict[str, Any], tmp_path_factory: Any) -> None:
    world = WORLDS.get("forms")
    if world is None:
        world = WORLDS["forms"] = World(tmp_path_factory.mktemp("forms"))
    phone = world.phones[form["caller"]]
    phone.client.environ_base["REMOTE_ADDR"] = form["address"]
    if form["caller"] == "banker" and not phone.me()["banker"]:
        world.journal.grant_banker(phone.me()["phone"], world.session.game_id, 0.0)
    fields = [*form["pairs"], ("csrf_token", phone.token), ("idem", uuid.uuid4().hex)]
    if form["path"].startswith("/j/"):
        response = phone.client.get(form["path"] + "?" + urlencode([p for p in fields if p[0] == "next"],
                                                                   errors="surrogatepass"))
    else:
        response = phone.client.post(form["path"], data=urlencode(fields, errors="surrogatepass"),
                                     content_type="application/x-www-form-urlencoded")
    text = response.get_data(as_text=True)
    where = f"POST {form['path']} {form['pairs']!r} -> {response.status_code}: {text[:200]}"
    assert response.status_code < 500, where
    assert "Traceback" not in text, where
    location = response.headers.get("Location")
    if location is not None:
        assert lands_on_the_table(location), "a redirect off the table: " + where

