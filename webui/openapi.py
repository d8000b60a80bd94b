"""The OpenAPI 3.1 document of /api, generated from the action dataclasses themselves, so the API
and its description cannot drift apart."""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, fields
from functools import cache
from typing import Any, Union

from banker.actions import ACTION_TYPES, Action, Bundle
from banker.session import AGAIN_S, ASKS_AGAIN
from webui.limits import HEAVY_PATHS

BUNDLE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "cash": {"type": "integer", "minimum": 0, "default": 0},
        "properties": {"type": "array", "items": {"type": "string"}, "default": []},
        "jail_cards": {"type": "integer", "minimum": 0, "default": 0},
    },
}

ERROR_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["error", "message"],
    "properties": {"error": {"type": "string"}, "message": {"type": "string"}},
}


def type_schema(hint: Any) -> dict[str, Any]:
    """The JSON schema of one field type of an action dataclass."""
    origin = typing.get_origin(hint)
    if origin in (Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        inner = type_schema(options[0])
        return {"anyOf": [inner, {"type": "null"}]}
    if hint is str:
        return {"type": "string", "minLength": 1}
    if hint is bool:
        return {"type": "boolean"}
    if hint is int:
        return {"type": "integer"}
    if hint is Bundle:
        return {"$ref": "#/components/schemas/Bundle"}
    if origin is tuple:
        return {"type": "array", "items": {"type": "string", "minLength": 1}}
    if origin is dict:
        args = typing.get_args(hint)
        if len(args) == 2 and typing.get_origin(args[1]) is tuple:
            return {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}}
        if len(args) == 2 and args[1] in (int, str, bool):
            return {"type": "object", "additionalProperties": type_schema(args[1])}
        return {"type": "object"}
    raise TypeError(f"no schema for field type {hint!r}")


def action_schema(cls: type[Action]) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    properties: dict[str, Any] = {"action": {"const": cls.name}}
    required: list[str] = []
    for f in fields(cls):
        key = f.name.rstrip("_")
        schema = type_schema(hints[f.name])
        if f.default is not MISSING and f.default is not None and not isinstance(f.default, Bundle):
            schema = {**schema, "default": f.default}
        properties[key] = schema
        if f.default is MISSING and f.default_factory is MISSING:
            required.append(key)
    doc = (cls.__doc__ or "").strip()
    out: dict[str, Any] = {"type": "object", "title": cls.name, "additionalProperties": False,
                           "properties": properties, "required": required}
    if doc and not doc.startswith(cls.__name__ + "("):
        out["description"] = doc
    return out


def example(cls: type[Action]) -> dict[str, Any]:
    """A schema-valid example body (required fields only), for the documentation and the tests."""
    hints = typing.get_type_hints(cls)
    body: dict[str, Any] = {"action": cls.name}
    for f in fields(cls):
        if f.default is not MISSING or f.default_factory is not MISSING:
            continue
        hint = hints[f.name]
        key = f.name.rstrip("_")
        if hint is int:
            body[key] = 100
        elif hint is str:
            body[key] = {"player": "Ann", "to": "Bob", "from": "Ann", "property": "baltic",
                         "square": "luxury_tax", "deck": "chance", "card": "dividend", "building": "house",
                         "edition": "us"}.get(key, "x")
        elif typing.get_origin(hint) is tuple:
            body[key] = ["Ann", "Bob"]
        elif typing.get_origin(hint) is dict:
            value = typing.get_args(hint)[1] if typing.get_args(hint) else str
            body[key] = {"baltic": 0 if value is int else "x"}
        else:  # pragma: no cover - no other required field type exists
            body[key] = None
    return body


NUMBER_OR_NULL: dict[str, Any] = {"anyOf": [{"type": "number"}, {"type": "null"}]}
"""A payback: ``null`` when it never comes (the step adds no rent, or nobody is left to pay)."""

STEP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "One step of a group (banker advise --table payback --csv): the deeds, one more building on "
                   "every street, the hotels; railroads and utilities one more each.",
    "required": ["step", "level", "cost", "total_cost", "rent_per_throw", "gain_per_throw", "payback_throws"],
    "properties": {
        "step": {"enum": ["deeds", "house", "hotel", "railroad", "utility"]},
        "level": {"type": "integer", "description": "Houses after the step (a hotel: max houses + 1), or the "
                                                    "railroads or utilities owned"},
        "cost": {"type": "integer"}, "total_cost": {"type": "integer"},
        "rent_per_throw": {"type": "number"}, "gain_per_throw": {"type": "number"},
        "payback_throws": NUMBER_OR_NULL,
        "payback_rounds": {**NUMBER_OR_NULL, "description": "In the player's groups only: for this game's players"},
    },
}

PURCHASE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "Something the player could spend money on, the engine's answer and its payback.",
    "required": ["kind", "property", "cost", "possible", "refused", "action", "gain_per_throw", "payback_throws",
                 "payback_rounds"],
    "properties": {
        "kind": {"enum": ["build", "unmortgage", "buy"]},
        "building": {"anyOf": [{"enum": ["house", "hotel"]}, {"type": "null"}]},
        "property": {"type": "string"},
        "cost": {"type": "integer", "description": "What the engine would take from the player's cash"},
        "possible": {"type": "boolean"},
        "refused": {"anyOf": [{"$ref": "#/components/schemas/Error"}, {"type": "null"}]},
        "action": {"type": "object", "description": "The action to submit (POST /api/actions/<kind>)"},
        "gain_per_throw": {"type": "number"},
        "payback_throws": NUMBER_OR_NULL, "payback_rounds": NUMBER_OR_NULL,
    },
}

ADVICE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "description": "The strategy advisor's figures (docs/phone.md, Strategy advice).",
    "required": ["edition", "assumptions", "throws_per_turn", "landing", "payback", "deeds", "player"],
    "properties": {
        "edition": {"type": "string"},
        "assumptions": {"type": "object", "properties": {
            "jail": {"enum": ["short", "long"]}, "fine_or_chance": {"enum": ["pay", "draw"]},
            "short_game": {"type": "boolean"}, "max_houses": {"type": "integer"}}},
        "throws_per_turn": {"type": "number"},
        "landing": {"type": "array", "description": "Every square, the jail square twice; the shares sum to 1",
                    "items": {"type": "object", "required": ["square", "id", "name", "group", "share", "percent"],
                              "properties": {"square": {"type": "integer"}, "id": {"type": "string"},
                                             "name": {"type": "string"},
                                             "group": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                                             "share": {"type": "number"}, "percent": {"type": "number"}}}},
        "payback": {"type": "array", "items": {"allOf": [
            {"type": "object", "properties": {"group": {"type": "string"}}},
            {"$ref": "#/components/schemas/AdviceStep"}]}},
        "deeds": {"type": "array", "items": {"type": "object", "properties": {
            "id": {"type": "string"}, "group": {"type": "string"}, "share": {"type": "number"},
            "alone": {"$ref": "#/components/schemas/AdviceStep"},
            "steps": {"type": "array", "items": {"$ref": "#/components/schemas/AdviceStep"}}}}},
        "player": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {
            "name": {"type": "string"}, "cash": {"type": "integer"}, "opponents": {"type": "integer"},
            "throws_per_round": {"type": "number"}, "income_per_throw": {"type": "number"},
            "groups": {"type": "array", "items": {"type": "object", "properties": {
                "group": {"type": "string"}, "status": {"enum": ["complete", "open", "blocked"]},
                "owned": {"type": "integer"}, "size": {"type": "integer"},
                "share": {"type": "number"}, "percent": {"type": "number"}, "level": {"type": "integer"},
                "rent_per_throw": {"type": "number"},
                "deeds": {"type": "array", "items": {"type": "object", "properties": {
                    "property": {"type": "string"}, "name": {"type": "string"}, "square": {"type": "integer"},
                    "share": {"type": "number"}, "percent": {"type": "number"},
                    "owner": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                    "houses": {"type": "integer"}, "hotel": {"type": "boolean"}, "mortgaged": {"type": "boolean"},
                    "rent": {"type": "integer"}, "rent_times_dice": {"type": "boolean"},
                    "rent_per_throw": {"type": "number"},
                    "next": {"anyOf": [{"$ref": "#/components/schemas/Purchase"}, {"type": "null"}]}}}},
                "steps": {"type": "array", "items": {"$ref": "#/components/schemas/AdviceStep"}},
                "next_step": {"anyOf": [{"$ref": "#/components/schemas/AdviceStep"}, {"type": "null"}]},
                "next": {"anyOf": [{"$ref": "#/components/schemas/Purchase"}, {"type": "null"}]}}}},
            "best": {"anyOf": [{"$ref": "#/components/schemas/Purchase"}, {"type": "null"}]},
            "for_sale": {"type": "array", "items": {"$ref": "#/components/schemas/Purchase"}},
            "auction": {"anyOf": [{"type": "null"}, {"type": "object", "properties": {
                "property": {"type": "string"}, "gain_per_throw": {"type": "number"}, "high_bid": {"type": "integer"},
                "at_price": {"type": "object"}, "at_next_bid": {"type": "object"}}}]}}}]},
    },
}


@cache
def document() -> dict[str, Any]:
    schemas: dict[str, Any] = {"Bundle": BUNDLE_SCHEMA, "Error": ERROR_SCHEMA, "AdviceStep": STEP_SCHEMA,
                               "Purchase": PURCHASE_SCHEMA, "Advice": ADVICE_SCHEMA}
    paths: dict[str, Any] = {}
    unjoined = {"description": "This phone has not joined the table (no or an unknown cookie)",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    no_game = {"description": "No game is in progress",
               "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    gone = {"description": "Not an answer: accept, refuse or cancel",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    errors = {
        "400": {"description": "No Idempotency-Key or CSRF token, or a body that is not JSON",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        "401": unjoined,
        "403": {"description": "This phone may not do this (another player's money, or banker only)",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        "409": {"description": "The rules refuse it now; the message says why, in the phone's language",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
        "413": {"description": "The body is too large"},
        "422": {"description": "A malformed action or an unknown name, or an Idempotency-Key already used for "
                               "another request",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
    }
    headers = [
        {"name": "Idempotency-Key", "in": "header", "required": True, "schema": {"type": "string", "maxLength": 80},
         "description": "A new random key per intended action; a retry with the same key gets the first answer "
                        "and changes nothing again."},
        {"name": "X-CSRFToken", "in": "header", "required": True, "schema": {"type": "string"},
         "description": "The csrf_token of GET /api/me."},
    ]
    again = {"type": "boolean", "default": False,
             "description": f"Yes, once more: the same action for the same player within {AGAIN_S:.0f} s is "
                            "answered 409 with the error \"again\" (and the seconds since the first) and applied "
                            "only when sent with \"again\": true"}
    asked = {"description": "The rules refuse it now, or (error \"again\", with \"seconds\") the same action was "
                            f"applied less than {AGAIN_S:.0f} s ago: send it with \"again\": true to do it once more",
             "content": {"application/json": {"schema": {"allOf": [
                 {"$ref": "#/components/schemas/Error"},
                 {"type": "object", "properties": {"seconds": {"type": "integer"}}}]}}}}
    for name, cls in ACTION_TYPES.items():
        schema_name = "Action_" + name
        schemas[schema_name] = action_schema(cls)
        body: dict[str, Any] = {"$ref": f"#/components/schemas/{schema_name}"}
        if name in ASKS_AGAIN:
            body = {**schemas[schema_name], "properties": {**schemas[schema_name]["properties"], "again": again}}
        paths[f"/api/actions/{name}"] = {"post": {
            "operationId": f"action_{name}",
            "summary": f"Submit the action {name}",
            "parameters": headers,
            "requestBody": {"required": True, "content": {"application/json": {
                "schema": body, "example": example(cls)}}},
            "responses": {"200": {"description": "Applied: the new seq and what happened",
                                  "content": {"application/json": {"schema": {"type": "object"}}}}, **errors,
                          **({"409": asked} if name in ASKS_AGAIN else {})},
        }}
    json_ok = {"200": {"description": "OK", "content": {"application/json": {"schema": {"type": "object"}}}}}
    joined_ok = {**json_ok, "401": unjoined}
    paths["/api/state"] = {"get": {"operationId": "state", "summary": "The state JSON (as banker replay --json)",
                                   "description": "Under the house rule hidden_balances, the other players' "
                                                  "cash, net worth, liquidation value and missing are null, "
                                                  "cash_band gives a band, and bank.balance is null "
                                                  "(docs/state.md, Hidden balances).",
                                   "responses": {**joined_ok, "409": no_game}}}
    paths["/api/me"] = {"get": {"operationId": "me", "summary": "This phone: role, player, language, CSRF token",
                                "responses": json_ok}}
    paths["/api/history"] = {"get": {"operationId": "history", "summary": "Every action of the game with its log",
                                     "responses": joined_ok}}
    paths["/api/scores"] = {"get": {"operationId": "scores", "summary": "The standings and the net worth series",
                                    "description": "Under hidden_balances, before the end: only the phone's "
                                                   "own net worth and series, the players in seating order.",
                                    "responses": {**joined_ok, "409": no_game}}}
    paths["/api/advice"] = {"get": {
        "operationId": "advice",
        "summary": "The strategy advisor's figures (banker advise) and the advice for the phone's player",
        "parameters": [
            {"name": "player", "in": "query", "required": False, "schema": {"type": "string"},
             "description": "Another player (the banker only); default: the phone's own"},
            {"name": "jail", "in": "query", "required": False,
             "schema": {"enum": ["short", "long"], "default": "short"},
             "description": "The stay in jail the figures assume"}],
        "responses": {"200": {"description": "The figures", "content": {"application/json": {
            "schema": {"$ref": "#/components/schemas/Advice"}}}},
            "401": unjoined,
            "403": {"description": "Another player's advice, asked by a phone that is not the banker",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
            "409": {"description": "No game is in progress, or it plays without advice (advisor_off)",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
            "422": {"description": "An unknown player or jail stay",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}}}}
    paths["/api/stream"] = {"get": {"operationId": "stream", "summary": "Server-sent events: state, frame, role",
                                    "responses": {"200": {"description": "text/event-stream"}, "401": unjoined,
                                                  "503": {"description": "Too many open streams"}}}}
    paths["/api/trades"] = {"get": {"operationId": "trades", "summary": "Open trade proposals and the latest "
                                    "refused ones (the game's state)",
                                    "responses": joined_ok},
                            "post": {"operationId": "propose_trade", "summary": "Propose a trade from my player",
                                     "parameters": headers, "responses": {**json_ok, **errors}}}
    paths["/api/trades/{id}/{answer}"] = {"post": {
        "operationId": "answer_trade", "summary": "accept, refuse or cancel a proposal (409 proposal_gone "
        "when it is no longer open)", "parameters": [
            *headers, {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}},
            {"name": "answer", "in": "path", "required": True,
             "schema": {"enum": ["accept", "refuse", "cancel"]}}],
        "responses": {**json_ok, **errors, "404": gone}}}
    paths["/api/join"] = {"post": {"operationId": "join", "summary": "Pick a player or watch",
                                   "responses": {**json_ok, **errors}}}
    paths["/api/banker"] = {"post": {"operationId": "banker", "summary": "Become the banker with the PIN, or ask "
                                     "the table", "parameters": headers,
                                     "responses": {**json_ok, **errors}}}
    paths["/api/banker/pin"] = {"post": {"operationId": "banker_pin", "summary": "Set the banker PIN (the banker, "
                                         "or the first phone while none is set)", "parameters": headers,
                                         "responses": {**json_ok, **errors}}}
    wrong_host = {"description": "The Host header is not one of the table's names or addresses (a page elsewhere "
                                  "whose name points at the table); nothing is read or done",
                  "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    too_fast = {"description": "Too many wrong tries (wait the seconds the message says), or this phone sends too "
                               "many requests at once (web_too_fast, with Retry-After)",
                "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    too_many_reads = {"description": "This phone has too many reads of the whole game running at once "
                                     "(web_too_many_reads, with Retry-After)",
                      "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    card_full = {"description": "The table's card is full: nothing was saved (card_full); the same request goes "
                                "through once there is room",
                 "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    for path, operations in paths.items():
        for method, operation in operations.items():
            operation["responses"]["421"] = wrong_host
            operation["responses"]["507"] = card_full
            if method == "post":
                operation["responses"]["429"] = too_fast
            elif path in HEAVY_PATHS:
                operation["responses"]["429"] = too_many_reads
    return {
        "openapi": "3.1.0",
        "info": {"title": "Table banker", "version": "1",
                 "description": "The phone page's API. Every action is the same JSON as a line of a replay script "
                                "(docs/actions.md); the state is the JSON of docs/state.md."},
        "paths": paths,
        "components": {"schemas": schemas},
    }
