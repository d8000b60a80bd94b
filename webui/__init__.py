"""The phone page: a Flask app served by the table program (``banker run``) on the same Session.

:func:`create_app` builds it; :func:`webui.server.start` serves it with waitress.
"""

from __future__ import annotations

import logging
import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any

from flask import Flask, Response, redirect, render_template, request
from flask_wtf.csrf import CSRFError, CSRFProtect
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response as BaseResponse

from banker.errors import BankerError, CardFull
from banker.journal import out_of_space
from banker.messages import LANGUAGES
from banker.session import Session
from webui import guard, limits, texts
from webui.auth import Approvals, Limiter, NotAllowed
from webui.core import RequestCache, Services, error_body, error_status
from webui.join import JoinCodes
from webui.stream import KEEPALIVE_SECONDS, Broker
from webui.tableport import TablePort

__all__ = ["create_app"]

SECRET_FILE = "webui-secret.key"
MAX_BODY = 16 * 1024
log = logging.getLogger(__name__)


def secret_key(data_dir: str | None) -> bytes:
    """The cookie-signing key, kept in ``data_dir`` (created 0600 on first run) so phones stay
    joined across a restart; a fresh one per run without a data directory, or on a full card."""
    if not data_dir:
        return secrets.token_bytes(32)
    path = Path(data_dir) / SECRET_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_bytes()
        if len(key) >= 32:
            return key
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC, 0o600)
    key = secrets.token_bytes(32)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(key)
    except OSError as error:
        if not out_of_space(error):
            raise
        # A full card: the key holds for this run (phones join again after a restart) and is kept once there is room.
        path.unlink(missing_ok=True)
        log.warning("the card is full: the phone page's key %s is not kept", path)
    return key


def create_app(session: Session, table: TablePort | None = None, config: dict[str, Any] | None = None) -> Flask:
    """The phone page for ``session``; ``table`` is the table loop (None: no table, e.g. a laptop)."""
    config = dict(config or {})
    app = Flask(__name__)
    app.config.update(
        SECRET_KEY=secret_key(config.get("DATA_DIR")),
        MAX_CONTENT_LENGTH=MAX_BODY,
        PROPAGATE_EXCEPTIONS=False,
        DEBUG=False,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_NAME="banker",
        PERMANENT_SESSION_LIFETIME=timedelta(days=400),
        WTF_CSRF_TIME_LIMIT=None,
        WTF_CSRF_SSL_STRICT=False,
        WTF_CSRF_HEADERS=["X-CSRFToken"],
        MAX_STREAMS=64,
        LANGUAGE="en",
        BASE_URL=None,
        KEEPALIVE=KEEPALIVE_SECONDS,
    )
    for key, value in config.items():
        if key != "DATA_DIR" or value:
            app.config[key] = value
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.debug = False
    app.json.sort_keys = False  # type: ignore[attr-defined]
    language = app.config["LANGUAGE"] if app.config["LANGUAGE"] in LANGUAGES else "en"
    guard.install(app)  # before CSRFProtect: a request under a foreign name is refused first
    limits.install(app)  # then a phone past its rate or with too many heavy reads running
    CSRFProtect(app)
    app.extensions["banker"] = services = Services(
        session=session,
        table=table,
        broker=Broker(session, table, int(app.config["MAX_STREAMS"]), float(app.config["KEEPALIVE"]),
                      instance=secrets.token_hex(8)),
        limiter=Limiter(session.journal),
        codes=JoinCodes(session.journal),
        approvals=Approvals(),
        requests=RequestCache(),
        default_lang=language,
        base_url=app.config["BASE_URL"],
    )

    from webui.api import api
    from webui.family import setup_family
    from webui.pages import pages, setup_templates
    from webui.table import table_pages

    follow_join_codes(services)
    app.register_blueprint(api)
    app.register_blueprint(pages)
    app.register_blueprint(table_pages)
    setup_templates(app)
    setup_family(app)
    register_errors(app)
    return app


def follow_join_codes(services: Services) -> None:
    """A new game after the first gets a new join code, and a new code makes every wrong guess so far
    worthless (the table's count and every device's start again: a lock-out ends)."""
    services.session.subscribe(services.codes.on_action)

    def forget_guesses(_code: str) -> None:
        services.limiter.clear("code")

    services.codes.listen(forget_guesses)


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def register_errors(app: Flask) -> None:
    from webui.core import lang

    def answer(status: int, key: str, message: str) -> BaseResponse:
        if wants_json():
            response = Response(error_body(key, message), status=status, mimetype="application/json")
        else:
            response = Response(render_template("error.html", message=message, status=status), status=status)
        return response

    @app.errorhandler(NotAllowed)
    def not_allowed(error: NotAllowed) -> BaseResponse:
        if error.key == "web_join_first" and not wants_json():
            return redirect("/join")
        return answer(error.status, error.key, error.translated(lang()))

    @app.errorhandler(BankerError)
    def refused(error: BankerError) -> BaseResponse:
        return answer(error_status(error), error.key, error.translated(lang()))

    @app.errorhandler(CSRFError)
    def csrf(error: CSRFError) -> BaseResponse:
        return answer(400, "web_csrf", texts.text("web_csrf", lang()))

    @app.errorhandler(HTTPException)
    def http(error: HTTPException) -> BaseResponse:
        status = error.code or 500
        key = {404: "web_not_found", 405: "web_method", 413: "web_too_large"}.get(status, "web_http")
        return answer(status, key, texts.text(key, lang(), status=status))

    @app.errorhandler(Exception)
    def crash(error: Exception) -> BaseResponse:
        if out_of_space(error):
            # A write of the table's own (a setting, a counter) on a full card: it says so, as an action does.
            full = CardFull("card_full")
            return answer(error_status(full), full.key, full.translated(lang()))
        # The details go to the program's log, never to the phone.
        log.error("request %s %s failed: %s", request.method, request.path, type(error).__name__,
                  exc_info=error)
        return answer(500, "web_crash", texts.text("web_crash", lang()))

    @app.after_request
    def headers(response: Response) -> Response:
        response.headers.setdefault("X-Content-Type-Options", "nosniff")
        response.headers.setdefault("Referrer-Policy", "same-origin")
        response.headers.setdefault("X-Frame-Options", "DENY")
        response.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
            "script-src 'self'; connect-src 'self'; frame-ancestors 'none'")
        return response

