"""`kingdoms serve` in a real browser: Debian's headless Chromium driven by selenium (as
tests/test_view_page.py). For every game and each Zinordia mode a whole game is played by
clicking on the picture (the list beside it for the moves it cannot show) against an agent;
one game also takes a hint, undoes, saves its record and loads it back. The console stays
clean and the page requests nothing outside the server.

The latency figures (click -> updated picture; an agent's turn -> its move on the page,
ISMCTS at its default budget) are measured here and printed (`pytest -s`), not asserted:
timings belong in benches, and this machine is shared."""

from __future__ import annotations

import os
import socket
import statistics
import threading
import time
from collections.abc import Iterator
from typing import Any

import _browser
import pytest

_browser.require()
pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
from kingdoms.serve import Sessions, create_app
from selenium.common.exceptions import (
    ElementClickInterceptedException,
    StaleElementReferenceException,
    TimeoutException,
)
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

TOKEN = "browser-test-token-" + "k" * 20


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    asgi, _ = create_app(TOKEN, "127.0.0.1", port, sessions=Sessions(limit=16))
    srv = uvicorn.Server(uvicorn.Config(asgi, log_level="warning", lifespan="on"))
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert srv.started
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        srv.should_exit = True
        srv.force_exit = True  # a page's open long poll must not hold the shutdown
        thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser(server: str, latencies: None) -> Iterator[Any]:
    # asks for the server so it quits first: the server then has no open connection to wait on
    with _browser.chrome((1500, 1000), ("browser", "performance")) as driver:
        yield driver


TIMINGS: dict[str, list[float]] = {"clicks": [], "bots": []}


@pytest.fixture(scope="module")
def latencies() -> Iterator[None]:
    """Print the latencies the module's games measured (run with -s): medians and 90th
    percentiles, click -> updated picture and agent's turn -> its move on the page."""
    yield
    for key, label in (
        ("clicks", "click -> updated picture"),
        ("bots", "agent's turn -> its move on the page"),
    ):
        values = sorted(TIMINGS[key])
        if values:
            p90 = values[int(0.9 * (len(values) - 1))]
            print(
                f"\n{label}: median {statistics.median(values):.0f} ms, "
                f"90th percentile {p90:.0f} ms over {len(values)}"
            )


def errors(driver: Any) -> list[dict[str, Any]]:
    return [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def requests(driver: Any) -> list[str]:
    import json

    urls = []
    for entry in driver.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") == "Network.requestWillBeSent":
            urls.append(msg["params"]["request"]["url"])
    return urls


def body(driver: Any, key: str) -> str:
    return str(driver.execute_script(f"return document.body.dataset.{key} || '';"))


def open_page(driver: Any, server: str) -> None:
    driver.get(f"{server}/?token={TOKEN}")
    _browser.wait(driver, 20).until(lambda d: body(d, "loaded") == "1")


def start(driver: Any, game: str, seats: list[str], options: dict[str, str]) -> None:
    Select(driver.find_element(By.ID, "game")).select_by_value(game)
    for key, label in options.items():
        sel = Select(driver.find_element(By.CSS_SELECTOR, f'#options select[data-key="{key}"]'))
        sel.select_by_visible_text(label)
    for p, spec in enumerate(seats):
        Select(
            driver.find_element(By.CSS_SELECTOR, f'#seats select[data-seat="{p}"]')
        ).select_by_value(spec)
    driver.find_element(By.ID, "start").click()
    _browser.wait(driver, 30).until(lambda d: body(d, "ready") != "")


def settle(driver: Any, timeout: float = 120) -> dict[str, Any]:
    """Wait until it is our turn or the game is over; the page's state then."""
    _browser.wait(driver, timeout).until(  # read in one script: a render never splits it
        lambda d: d.execute_script(
            "var b = document.body.dataset; return b.over === '1' || "
            "(b.toMove === '0' && b.ready === b.version && b.busy !== '1');"
        )
    )
    state: dict[str, Any] = driver.execute_script(
        "return {version: document.body.dataset.version, over: document.body.dataset.over};"
    )
    return state


def click(driver: Any, element: Any) -> None:
    try:
        element.click()
    except ElementClickInterceptedException:
        driver.execute_script(
            "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}));", element
        )


def hits(driver: Any) -> list[Any]:
    return list(driver.find_elements(By.CSS_SELECTOR, "#board svg rect.hit:not(.picked)"))


def one_move(driver: Any, n: int) -> str:
    """Play one move: on the picture when it offers targets, else from the list. Returns
    how it was played. (A picture redrawn under the pointer is clicked afresh.)"""
    version = body(driver, "version")
    for _ in range(3):
        try:
            return _one_move(driver, n, version)
        except StaleElementReferenceException:
            # a click may have sent the move already: wait for its answer
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline and body(driver, "version") == version:
                time.sleep(0.1)
            if body(driver, "version") != version:
                return "picture"
            driver.execute_script("var c = document.getElementById('cancel'); if (c) c.click();")
    return _one_move(driver, n, version)


def _one_move(driver: Any, n: int, version: str) -> str:
    how = "list"
    targets = hits(driver)
    if targets and n % 5 != 4:  # now and then from the list, to play both ways
        how = "picture"
        click(driver, targets[n % len(targets)])
        for _ in range(4):
            # a move on its way: the page answers no click until it is back
            if body(driver, "version") != version or body(driver, "busy") == "1":
                break
            choices = driver.find_elements(By.CSS_SELECTOR, "#choices button[data-move]")
            more = hits(driver)
            if more:
                click(driver, more[n % len(more)])
            elif choices:
                click(driver, choices[n % len(choices)])
            else:
                break
    if body(driver, "version") == version and how == "list":
        moves = driver.find_elements(By.CSS_SELECTOR, "#moves button")
        if not moves and body(driver, "version") != version:
            return how
        assert moves, "our turn without moves: " + str(
            driver.execute_script(
                "return [document.body.dataset.version, document.body.dataset.ready,"
                " document.body.dataset.toMove, document.getElementById('status').textContent,"
                " document.getElementById('error').textContent];"
            )
        )
        click(driver, moves[n % len(moves)])
    _browser.wait(driver, 60).until(lambda d: body(d, "version") != version)
    return how


# The three- and four-seat Zinordia games take the page's quick length: still whole games,
# to the end (by Renown, or by the tie rule after the last round), at a third of the clicks.
QUICK = "8 rounds (quick)"
GAMES = [
    ("battleline", 2, {}),
    ("strifull", 2, {}),
    ("arte", 2, {}),
    ("zinordia", 2, {"mode": "Duelo: 2 players — One against one, three Stars each."}),
    (
        "zinordia",
        3,
        {
            "mode": "Todos Contra Todos: 3 players — Three or four players, each alone, two "
            "Stars each; everyone starts on privilege zones.",
            "max_rounds": QUICK,
        },
    ),
    (
        "zinordia",
        4,
        {
            "mode": "Todos Contra Todos: 4 players — Three or four players, each alone, two "
            "Stars each; everyone starts on privilege zones.",
            "max_rounds": QUICK,
        },
    ),
    (
        "zinordia",
        4,
        {
            "mode": "Equipes: 4 players — Two teams of two players, two Stars each; Renown counts per team.",
            "max_rounds": QUICK,
        },
    ),
]


@pytest.mark.parametrize(
    ("game", "players", "options"),
    GAMES,
    ids=[
        "battleline",
        "strifull",
        "arte",
        "zinordia-duel",
        "zinordia-ffa3",
        "zinordia-ffa4",
        "zinordia-teams",
    ],
)
def test_a_whole_game_played_by_clicking(
    browser: Any, server: str, game: str, players: int, options: dict[str, str]
) -> None:
    open_page(browser, server)
    errors(browser)
    requests(browser)
    start(browser, game, ["human"] + ["heuristic"] * (players - 1), options)
    ways = {"picture": 0, "list": 0}
    n = 0
    while settle(browser)["over"] != "1":
        ways[one_move(browser, n)] += 1
        n += 1
        assert n < 2000
    status = browser.find_element(By.ID, "status").text
    assert status.startswith("game over: ")
    assert ways["picture"] > ways["list"] / 2, ways
    assert browser.find_elements(By.CSS_SELECTOR, "#log li")
    TIMINGS["clicks"] += browser.execute_script("return window.kingdomsTimings.clicks;")
    assert errors(browser) == []
    outside = [u for u in requests(browser) if not u.startswith(server + "/")]
    assert outside == []


def test_hint_undo_save_load_and_replay(browser: Any, server: str) -> None:
    open_page(browser, server)
    errors(browser)
    requests(browser)
    start(browser, "battleline", ["human", "ismcts"], {})
    settle(browser)
    for n in range(4):  # a few moves against ISMCTS at its default budget
        one_move(browser, n)
        settle(browser)
    # hint: ISMCTS's top moves with their visit shares
    browser.find_element(By.ID, "hint").click()
    _browser.wait(browser, 60).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#hints li[data-move]")
    )
    shares = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#hints li")]
    assert all(s.split("%")[0].replace(".", "").strip().isdigit() for s in shares)
    legal = {
        b.get_attribute("data-move")
        for b in browser.find_elements(By.CSS_SELECTOR, "#moves button")
    }
    hinted = {
        li.get_attribute("data-move") for li in browser.find_elements(By.CSS_SELECTOR, "#hints li")
    }
    assert hinted <= legal
    # undo: back to before our last move, the agent's reply gone too
    log_before = len(browser.find_elements(By.CSS_SELECTOR, "#log li"))
    svg_before = browser.find_element(By.ID, "board").get_attribute("innerHTML")
    # exactly one move, from the list: a click on the picture may be followed by the next
    # move's click when the page redraws in between, and undo takes back only the last
    version = body(browser, "version")
    click(browser, browser.find_elements(By.CSS_SELECTOR, "#moves button")[0])
    _browser.wait(browser, 60).until(lambda d: body(d, "version") != version)
    settle(browser)
    browser.find_element(By.ID, "undo").click()
    try:
        _browser.wait(browser, 30).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#log li")) == log_before
        )
    except TimeoutException:
        seen = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#log li")]
        status = browser.find_element(By.ID, "status").text
        error = browser.find_element(By.ID, "error").text
        sent = [u.rsplit("/", 1)[-1] for u in requests(browser) if "/api/sessions/" in u]
        raise AssertionError(
            f"undo: {log_before} moves expected, {seen} ({status}; {error}; {sent[-12:]})"
        )
    settle(browser)
    assert browser.find_element(By.ID, "board").get_attribute("innerHTML") == svg_before
    # play on to the end
    n = 0
    while settle(browser, 300)["over"] != "1":
        one_move(browser, n)
        n += 1
    TIMINGS["clicks"] += browser.execute_script("return window.kingdomsTimings.clicks;")
    TIMINGS["bots"] += browser.execute_script("return window.kingdomsTimings.bots;")
    # save: the record's text form, from the page's own link
    save = browser.find_element(By.ID, "save")
    assert save.is_displayed()
    text = browser.execute_script(
        "return fetch(arguments[0]).then(function (r) { return r.text(); });",
        save.get_attribute("href"),
    )
    assert text.startswith('[Game "battleline"]') and '[Player1 "ismcts"]' in text
    # load it back: the finished game, with its replay page
    browser.find_element(By.CSS_SELECTOR, "#loading summary").click()
    area = browser.find_element(By.ID, "record-text")
    browser.execute_script("arguments[0].value = arguments[1];", area, text)
    version = body(browser, "ready")
    browser.find_element(By.ID, "load").click()
    _browser.wait(browser, 30).until(
        lambda d: body(d, "over") == "1" and body(d, "ready") != version
    )
    assert browser.find_element(By.ID, "status").text.startswith("game over")
    assert errors(browser) == []
    replay = browser.find_element(By.ID, "replay").get_attribute("href")
    browser.get(replay)
    _browser.wait(browser, 20).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#moves li"))
    assert browser.find_elements(By.CSS_SELECTOR, "#board .ply")
    assert errors(browser) == []
    outside = [u for u in requests(browser) if not u.startswith(server + "/")]
    assert outside == []


def test_any_agent_spec_for_a_seat_and_a_refused_one(browser: Any, server: str) -> None:
    open_page(browser, server)
    Select(browser.find_element(By.ID, "game")).select_by_value("arte")
    seat = Select(browser.find_element(By.CSS_SELECTOR, '#seats select[data-seat="1"]'))
    seat.select_by_value("")  # another agent spec
    spec = browser.find_element(By.CSS_SELECTOR, '#seats input[data-spec="1"]')
    assert spec.is_displayed()
    spec.send_keys("cmd:touch /tmp/kingdoms-serve-pwned")
    browser.find_element(By.ID, "start").click()
    _browser.wait(browser, 20).until(lambda d: d.find_element(By.ID, "error").is_displayed())
    assert "--bot NAME=SPEC" in browser.find_element(By.ID, "error").text
    assert not os.path.exists("/tmp/kingdoms-serve-pwned")
    spec.clear()
    spec.send_keys("ismcts:200,c=0.5")
    browser.find_element(By.ID, "start").click()
    _browser.wait(browser, 30).until(lambda d: body(d, "ready") != "")
    settle(browser)
    one_move(browser, 0)
    _browser.wait(browser, 60).until(
        lambda d: (
            "ismcts:200,c=0.5" in d.find_element(By.ID, "log").text
            or "ismcts:200,c=0.5" in d.find_element(By.ID, "status").text
        )
    )
    assert not browser.find_element(By.ID, "error").is_displayed()


def test_people_at_one_screen_pass_it_behind_a_curtain(browser: Any, server: str) -> None:
    open_page(browser, server)
    errors(browser)
    start(browser, "battleline", ["human", "human"], {})
    for turn in range(4):
        me = turn % 2
        _browser.wait(browser, 20).until(
            lambda d, me=me: (
                body(d, "toMove") == str(me) and d.find_elements(By.CSS_SELECTOR, "#moves button")
            )
        )
        board = browser.find_element(By.ID, "board")
        assert board.is_displayed() and not browser.find_element(By.ID, "curtain").is_displayed()
        mine = board.get_attribute("innerHTML")
        while body(browser, "toMove") == str(me):
            one_move(browser, turn)
        # the next person's turn: the picture is covered until they ask for their side
        _browser.wait(browser, 20).until(lambda d: d.find_element(By.ID, "curtain").is_displayed())
        assert not browser.find_element(By.ID, "board").is_displayed()
        assert f"player {1 - me}'s turn" in browser.find_element(By.ID, "curtain").text
        browser.find_element(By.ID, "reveal").click()
        status = f"your move, player {1 - me}"
        _browser.wait(browser, 20).until(
            lambda d, status=status: (
                d.find_element(By.ID, "board").is_displayed()
                and d.find_element(By.ID, "status").text == status
            )
        )
        assert browser.find_element(By.ID, "board").get_attribute("innerHTML") != mine
    assert errors(browser) == []
