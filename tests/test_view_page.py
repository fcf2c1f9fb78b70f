"""The replay page (`kingdoms view`) in a real browser: headless Chromium from Debian driven
by selenium through Debian's chromedriver (nothing downloads a browser). Clicks through a
whole game and checks that the position changes and that the console stays clean.

Skipped where Chromium is not installed, except under CI (``CI=true``), where `.ci/run`
installs it and a missing browser is a failure."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import _browser
import kingdoms
import pytest
from kingdoms.cli import main

_browser.require()
from selenium.webdriver.common.by import By


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with _browser.chrome((1400, 1000)) as driver:
        yield driver


# The displayed positions (laid out, not hidden), as the browser sees them: one round trip.
SHOWN = """
return Array.from(document.querySelectorAll('#board .ply'))
  .filter(function (p) { return p.getClientRects().length > 0; })
  .map(function (p) { return [p.dataset.ply, p.innerHTML]; });
"""


def shown(driver: Any) -> tuple[int, str]:
    """The ply the page shows and its SVG; exactly one position is displayed."""
    plies = driver.execute_script(SHOWN)
    assert len(plies) == 1, "exactly one position is shown"
    n, svg = plies[0]
    assert int(driver.find_element(By.TAG_NAME, "body").get_attribute("data-ply")) == int(n)
    return int(n), str(svg)


def errors(driver: Any) -> list[dict[str, Any]]:
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


@pytest.mark.parametrize("name", ["battleline", "strifull", "arte"])
def test_replay_page_steps_through_a_whole_game(browser: Any, tmp_path: Path, name: str) -> None:
    g = kingdoms.new_game(name, seed=11)
    while not g.is_terminal:
        acts = g.legal_actions()
        g.apply(acts[len(g.record().actions) * 5 % len(acts)])
    n = len(g.record().actions)
    record = tmp_path / "game.json"
    record.write_text(g.record().to_json(), encoding="utf-8")
    page = tmp_path / "game.html"
    assert main(["view", str(record), "-o", str(page)]) == 0

    browser.get(page.as_uri())
    errors(browser)  # clear the log
    ply, first = shown(browser)
    assert ply == 0
    seen = [first]
    nxt = browser.find_element(By.ID, "next")
    for i in range(1, n + 1):
        nxt.click()
        ply, svg = shown(browser)
        assert ply == i
        seen.append(svg)
    # every action changes the picture of the whole state
    unchanged = [i for i in range(1, n + 1) if seen[i] == seen[i - 1]]
    assert unchanged == [], f"plies {unchanged} did not change the picture"
    assert f"ply {n} of {n}" in browser.find_element(By.ID, "status").text
    nxt.click()  # past the end: stays on the last ply
    assert shown(browser) == (n, seen[n])
    browser.find_element(By.ID, "prev").click()
    assert shown(browser) == (n - 1, seen[n - 1])
    browser.find_element(By.ID, "first").click()
    assert shown(browser) == (0, first)
    browser.find_element(By.ID, "last").click()
    assert shown(browser) == (n, seen[n])
    moves = browser.find_elements(By.CSS_SELECTOR, "#moves li")
    assert len(moves) == n + 1
    moves[n // 2].click()
    assert shown(browser) == (n // 2, seen[n // 2])
    assert "current" in str(moves[n // 2].get_attribute("class"))
    assert errors(browser) == []
