"""The accessibility audit (tests/webui/audit.py): axe-core on every page, language and role finds no serious
or critical violation."""

from __future__ import annotations

from typing import Any

import pytest

from banker.messages import LANGUAGES
from tests.webui import audit
from tests.webui.browser import PHONE, browser  # noqa: F401 - the fixture


def test_axe_is_the_published_file() -> None:
    assert audit.axe_source().startswith(f"/*! axe v{audit.AXE_VERSION}")


def test_the_audit_finds_a_select_without_a_name_and_a_page_without_a_heading(browser: Any) -> None:  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    page.set_content('<html lang="en"><title>x</title><main><select><option>1</option></select></main></html>')
    found = {(v["id"], v["impact"]) for v in audit.check(page, audit.axe_source())}
    page.close()
    assert ("select-name", "critical") in found
    assert ("page-has-heading-one", "moderate") in found


@pytest.mark.parametrize("scenario", audit.SCENARIOS, ids=lambda s: s.name)
def test_no_serious_or_critical_violation_on_any_page(browser: Any, scenario: audit.Scenario) -> None:  # noqa: F811
    result = audit.run(scenarios=(scenario,), browser=browser)
    pages = {visit[0] for visit in result.visits}
    assert pages >= set(audit.PAGES) | (set(audit.NEWCOMER_PAGES) if scenario.newcomer else set())
    assert {visit[2] for visit in result.visits} == set(LANGUAGES)
    assert {visit[1] for visit in result.visits} >= {role.split()[0] for role in scenario.phones}
    assert not result.failures
    assert not result.blocking(), "\n" + "\n".join(f.line() for f in result.blocking())
