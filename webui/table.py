"""/table: the simulated table in the browser (``banker run --simulated`` only): the OLED mirror, the
four buttons and a tap pad of every enrolled card, driving the real table loop through TablePort."""

from __future__ import annotations

import json
from itertools import groupby

from flask import Blueprint, Response, abort, render_template, request, session
from werkzeug.wrappers import Response as BaseResponse

from webui.auth import NotAllowed, Phone
from webui.core import idempotency_key, phone, services
from webui.guard import from_the_table_computer
from webui.pages import form_post, need_phone
from webui.tableport import TablePort
from webui.texts import text
from webui.views import join_as

table_pages = Blueprint("table", __name__)

BUTTONS = ("ok", "cancel", "up", "down")
KINDS = ("player", "deed", "square", "card")
SCALE = 4


def simulated() -> TablePort:
    table = services().table
    if table is None or not table.simulated:
        abort(404)
    return table


def local_visitor() -> None:
    """The simulated table on the computer it runs on: the address ``banker run`` prints works at
    once, as a watcher (other phones join with the code as usual)."""
    if phone() is None and from_the_table_computer():
        session["code_ok"] = True
        join_as(None, services().default_lang)


def the_table_computer_only() -> None:
    """The simulated table's buttons and cards are the table's own: only the computer that runs it
    presses and taps them (by its address and the name it is asked under). A phone may watch the screen.

    Raises:
        NotAllowed: another device (403).
    """
    if not from_the_table_computer():
        raise NotAllowed("web_table_computer_only", status=403)


@table_pages.get("/table")
def page() -> str:
    table = simulated()
    local_visitor()
    need_phone()
    cards = sorted(table.cards(), key=lambda c: KINDS.index(c.kind) if c.kind in KINDS else len(KINDS))
    groups = [(kind, list(items)) for kind, items in groupby(cards, key=lambda c: c.kind)]
    return render_template("table.html", groups=groups, frame=table.frame_number, buttons=BUTTONS, scale=SCALE,
                           speech=table.speech())


@table_pages.get("/table/frame.png")
def frame() -> Response:
    table = simulated()
    local_visitor()
    need_phone()
    response = Response(table.frame_png(SCALE), mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


def _do(run: str, who: Phone) -> tuple[int, str, bool]:
    table = simulated()
    the_table_computer_only()
    key = idempotency_key(request.form)

    def act() -> tuple[int, str]:
        try:
            if run == "tap":
                table.tap(request.form.get("meaning", ""))
            else:
                table.press(request.form.get("button", ""), long=bool(request.form.get("long")))
        except ValueError:
            return 422, json.dumps({"error": "web_table_refused", "message": text("web_table_refused", who.lang)})
        return 200, json.dumps({"ok": True, "log": []})

    return services().requests.run(key, act)


@table_pages.post("/table/tap")
def tap() -> BaseResponse:
    simulated()
    the_table_computer_only()
    return form_post(lambda who: _do("tap", who), "/table")


@table_pages.post("/table/press")
def press() -> BaseResponse:
    simulated()
    the_table_computer_only()
    return form_post(lambda who: _do("press", who), "/table")
