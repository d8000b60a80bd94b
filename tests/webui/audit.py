"""The accessibility audit: axe-core in Debian's Chromium on every page of the phone page, in every
language, for a player, a watcher and the banker, on a 360×800 phone.

``python -m tests.webui.audit`` prints every violation and the counts; ``tests/webui/test_accessibility.py``
fails on any serious or critical one. axe-core is shipped with the tests (``tests/webui/axe/``, from the
npm package ``axe-core``, version :data:`AXE_VERSION`, checked against its published hash).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from banker.actions import NewGame, parse_action
from banker.journal import Journal
from banker.messages import LANGUAGES
from banker.session import Session
from tests.webui.browser import ARGS, CHROMIUM, PHONE
from tests.webui.fake_table import FakeTable
from webui import create_app
from webui.auth import set_pin
from webui.join import join_code
from webui.server import RunningServer, start

AXE = Path(__file__).parent / "axe" / "axe.min.js"
AXE_VERSION = "4.14.1"
AXE_SHA256 = "KTSJmUUM3yhJqOcLeRL8LahahJ2jnA0NU5T1HUqe2Vw="
"""The integrity hash npm's axe-core publishes for this version's axe.min.js (its sri-history.json)."""

PIN = "2468"
BLOCKING = ("serious", "critical")

PAGES = ("/", "/deeds", "/money", "/auction", "/trades", "/debts", "/history", "/setup", "/end", "/banker", "/strategy",
         "/more", "/table", "/records", "/simple", "/missing-page")
"""Every page of the phone page (the last one shows the error page)."""
NEWCOMER_PAGES = ("/join",)
"""What a phone sees before it has joined."""

SCRIPT = [
    {"action": "buy", "player": "Ann", "property": "st_charles"},
    {"action": "buy", "player": "Ann", "property": "states"},
    {"action": "buy", "player": "Ann", "property": "virginia"},
    {"action": "build", "player": "Ann", "property": "st_charles"},
    {"action": "build", "player": "Ann", "property": "states"},
    {"action": "buy", "player": "Ann", "property": "reading_railroad"},
    {"action": "buy", "player": "Bob", "property": "park_place"},
    {"action": "mortgage", "player": "Bob", "property": "park_place"},
    {"action": "rent", "player": "Cy", "property": "states"},
    {"action": "salary", "player": "Bob"},
    {"action": "end_turn"},
    {"action": "buy", "player": "Cy", "property": "baltic"},
    {"action": "propose_trade", "from": "Cy", "to": "Ann", "give": {"properties": ["baltic"]}, "take": {"cash": 200}},
    {"action": "propose_trade", "from": "Bob", "to": "Ann", "give": {"cash": 5}},
    {"action": "refuse_trade", "player": "Ann", "proposal": 2, "reason": "Not for 5"},
    {"action": "rent", "player": "Bob", "property": "reading_railroad"},
    {"action": "end_turn"},
    {"action": "pay", "player": "Cy", "amount": 1400, "to": "bank", "reason": "repairs"},
    {"action": "rent", "player": "Cy", "property": "st_charles"},
    {"action": "trade", "from": "Bob", "to": "Ann", "give": {"cash": 0, "properties": ["park_place"]},
     "take": {"cash": 10}},
    {"action": "auction", "property": "boardwalk", "declined_by": "Bob"},
    {"action": "bid", "player": "Bob", "amount": 120},
]
"""The middle of a game. Ann has built houses, a mortgaged deed received in a trade to decide on, a trade
proposed to her (which her decision holds up), one she refused, and the open auction to bid in; Cy owes the
bank and Ann."""


@dataclass
class Finding:
    """One violated axe rule on one page."""

    page: str
    role: str
    lang: str
    rule: str
    impact: str
    help: str
    targets: list[str] = field(default_factory=list)

    def line(self) -> str:
        where = ", ".join(self.targets[:3]) + (" …" if len(self.targets) > 3 else "")
        return f"{self.impact:8} {self.rule:28} {self.role:15} {self.lang} {self.page:14} {self.help} [{where}]"


@dataclass
class Audit:
    findings: list[Finding] = field(default_factory=list)
    visits: list[tuple[str, str, str]] = field(default_factory=list)
    """(page, role, language) of every page audited."""
    failures: list[str] = field(default_factory=list)
    """Pages that answered with a server error."""

    def blocking(self) -> list[Finding]:
        return [f for f in self.findings if f.impact in BLOCKING]

    def summary(self) -> str:
        pages = {v[0] for v in self.visits}
        roles = {v[1] for v in self.visits}
        langs = {v[2] for v in self.visits}
        by_impact = Counter(f.impact for f in self.findings)
        rules = Counter(f.rule for f in self.findings)
        lines = [f"axe-core {AXE_VERSION}: {len(pages)} pages, {len(roles)} roles, {len(langs)} languages, "
                 f"{len(self.visits)} page views",
                 "violations (a rule failing on one page view): " + (", ".join(
                     f"{impact} {by_impact[impact]}" for impact in ("critical", "serious", "moderate", "minor")
                     if by_impact[impact]) or "none")]
        lines += [f"  {rule}: {count}" for rule, count in rules.most_common()]
        return "\n".join(lines)


def axe_source() -> str:
    """axe.min.js, after checking it is the published file of :data:`AXE_VERSION`.

    Raises:
        RuntimeError: the file differs from the published one.
    """
    data = AXE.read_bytes()
    digest = base64.b64encode(hashlib.sha256(data).digest()).decode()
    if digest != AXE_SHA256:
        raise RuntimeError(f"{AXE} is not axe-core {AXE_VERSION} as published (sha256-{digest})")
    return data.decode()


DEAL_SEED = 1
"""The seed of the deeds a timed game deals (:meth:`banker.session.Session.resolve_randomness`)."""
GAME_OVER = [
    {"action": "buy", "player": "Ann", "property": "boardwalk"},
    {"action": "rent", "player": "Bob", "property": "boardwalk"},
    {"action": "end_game"},
]
"""A timed game the banker has ended."""


@dataclass
class Scenario:
    """A table in one situation and the phones that look at it."""

    name: str
    players: tuple[str, ...]
    script: list[dict[str, Any]]
    phones: dict[str, str | None]
    """Each audited phone: its role and its player."""
    rules: dict[str, Any] = field(default_factory=dict)
    newcomer: bool = False
    """Also audit the pages a phone sees before joining."""


SCENARIOS = (
    Scenario("playing", ("Ann", "Bob", "Cy"), SCRIPT,
             {"player": "Ann", "player in debt": "Cy", "watcher": None, "banker": None}, newcomer=True),
    Scenario("game over", ("Ann", "Bob"), GAME_OVER, {"player": "Ann"}, {"timed_game": True}),
    Scenario("no game", (), [], {"watcher": None}, newcomer=True),
    Scenario("hidden balances", ("Ann", "Bob", "Cy"), SCRIPT, {"player": "Ann"}, {"hidden_balances": "bands"}),
)
"""The middle of a game (houses, a mortgage, debts, a decision, an open auction, a trade proposal), a game
that has ended, a table with no game yet, and the middle of a game whose phones see the others' cash as
bands only (hidden balances)."""


def build_session(path: Path, scenario: Scenario) -> Session:
    journal = Journal(path / "game.sqlite3")
    # The same deal every time: a timed game deals two deeds to each player, and a deed the script buys must
    # stay with the bank.
    session = Session(journal, rng=random.Random(DEAL_SEED))
    if scenario.players:
        session.submit(NewGame("us", scenario.players, scenario.rules))
    for line in scenario.script:
        session.submit(parse_action(line))
    set_pin(journal, PIN)
    return session


@contextmanager
def served_table(scenario: Scenario) -> Iterator[tuple[Session, RunningServer]]:
    with tempfile.TemporaryDirectory() as tmp:
        session = build_session(Path(tmp), scenario)
        app = create_app(session, FakeTable(session), {"DATA_DIR": tmp})
        server = start(app, "127.0.0.1", 0)
        try:
            yield session, server
        finally:
            server.close()
            session.journal.close()


def check(page: Any, source: str) -> list[dict[str, Any]]:
    """axe-core's violations on the page as loaded (every rule axe runs by default)."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(source)
    result: list[dict[str, Any]] = page.evaluate("axe.run(document).then(r => r.violations)")
    return result


CHOOSE_LANGUAGE = """lang => fetch("/lang", {method: "POST", credentials: "same-origin",
    body: new URLSearchParams({lang: lang, csrf_token: document.querySelector('meta[name=csrf-token]').content})})"""
"""A phone that has not joined yet chooses its language (as the page's language form does)."""


def join(browser: Any, server: RunningServer, code: str, role: str, player: str | None, lang: str,
         **options: Any) -> Any:
    """A phone of ``role`` that joined as ``player`` in ``lang`` (``options``: the browser context's, a
    viewport other than the 360×800 phone's…)."""
    # bypass_csp: the page forbids eval, and axe is injected by evaluating its source.
    settings: dict[str, Any] = {"viewport": PHONE, "device_scale_factor": 1, "locale": lang, "bypass_csp": True}
    context = browser.new_context(**{**settings, **options})
    page = context.new_page()
    page.goto(f"{server.url}/j/{code}")
    page.select_option("select[name=lang]", lang)
    page.click(f"button[name=player][value='{player or '-'}']")
    page.wait_for_url(f"{server.url}/")
    if role == "banker":
        page.goto(server.url + "/banker")
        page.fill("input[name=pin]", PIN)
        page.click("[data-testid=pin-form] button")
        page.wait_for_selector("[name=new_pin]")
    return page


def run(languages: tuple[str, ...] = LANGUAGES, scenarios: tuple[Scenario, ...] = SCENARIOS,
        pages: tuple[str, ...] = PAGES, browser: Any = None) -> Audit:
    """Audit ``pages`` in each scenario and language (in ``browser``, or a Chromium of its own)."""
    if browser is None:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as playwright:
            chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            try:
                return run(languages, scenarios, pages, chromium)
            finally:
                chromium.close()
    source = axe_source()
    audit = Audit()

    def visit(page: Any, base: str, path: str, role: str, lang: str) -> None:
        response = page.goto(base + path)
        if response is None or response.status >= 500:
            audit.failures.append(f"{path} as {role} in {lang}: {response.status if response else 'no answer'}")
        for v in check(page, source):
            audit.findings.append(Finding(path, role, lang, v["id"], v.get("impact") or "minor", v["help"],
                                          [", ".join(map(str, n["target"])) for n in v["nodes"]]))
        audit.visits.append((path, role, lang))

    for scenario in scenarios:
        with served_table(scenario) as (session, server):
            code = join_code(session.journal)
            for lang in languages:
                if scenario.newcomer:
                    newcomer = browser.new_context(viewport=PHONE, device_scale_factor=1, locale=lang,
                                                   bypass_csp=True).new_page()
                    newcomer.goto(server.url + "/join")
                    newcomer.evaluate(CHOOSE_LANGUAGE, lang)
                    for path in NEWCOMER_PAGES:
                        visit(newcomer, server.url, path, "newcomer", lang)
                    newcomer.context.close()
                for role, player in scenario.phones.items():
                    phone = join(browser, server, code, role, player, lang)
                    for path in pages:
                        visit(phone, server.url, path, role.split()[0], lang)
                    phone.context.close()
    return audit


def main(argv: list[str]) -> int:
    audit = run()
    for finding in audit.findings:
        print(finding.line())
    print(audit.summary())
    if "--json" in argv:
        print(json.dumps([f.__dict__ for f in audit.findings], ensure_ascii=False))
    return 1 if audit.blocking() else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
