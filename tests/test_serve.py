"""`kingdoms serve` without a browser: the token, Host and Origin checks on every route, the
loopback default, hidden information (a seat's bytes across `resample_hidden`), the click
steps of every legal move, bad input, bounded sessions and their memory."""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import kingdoms
import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")
from kingdoms.serve import MAX_UNDOS, Session, Sessions, create_app
from kingdoms.serve._catalogue import options_of
from kingdoms.serve._sessions import SessionError, SessionsFull
from starlette.testclient import TestClient

TOKEN = "test-token-" + "x" * 24
BASE = "http://127.0.0.1:8000"
H = {"X-Kingdoms-Token": TOKEN}

#: Every game, and each Zinordia mode (rules options as the page sends them).
MODES: list[tuple[str, dict[str, Any]]] = [
    ("battleline", {}),
    ("strifull", {}),
    ("arte", {}),
    ("zinordia", {"mode": "duel/2"}),
    ("zinordia", {"mode": "free_for_all/3"}),
    ("zinordia", {"mode": "free_for_all/4"}),
    ("zinordia", {"mode": "teams/4"}),
    ("zinordia", {"mode": "duel/2", "selection": "draft"}),
]


@pytest.fixture
def client() -> Iterator[TestClient]:
    asgi, _ = create_app(TOKEN, "127.0.0.1", 8000, sessions=Sessions(limit=8))
    with TestClient(asgi, base_url=BASE) as c:
        yield c


def new(client: TestClient, game: str, seats: list[str], **options: Any) -> dict[str, Any]:
    r = client.post(
        "/api/sessions", json={"game": game, "options": options, "seats": seats}, headers=H
    )
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


ROUTES = [
    ("GET", "/"),
    ("GET", "/static/app.js"),
    ("GET", "/static/style.css"),
    ("GET", "/api/games"),
    ("POST", "/api/sessions"),
    ("POST", "/api/load"),
    ("GET", "/api/sessions/SID/state?seat=0"),
    ("GET", "/api/sessions/SID/record"),
    ("GET", "/api/sessions/SID/replay?seat=0"),
    ("POST", "/api/sessions/SID/move"),
    ("POST", "/api/sessions/SID/undo"),
    ("POST", "/api/sessions/SID/hint"),
    ("POST", "/api/sessions/SID/resign"),
]


def test_every_route_needs_the_token(client: TestClient) -> None:
    sid = new(client, "battleline", ["human", "heuristic"])["session"]
    client.cookies.clear()
    for method, path in ROUTES:
        url = path.replace("SID", sid)
        body = {"seat": 0, "move": "pass"} if method == "POST" else None
        none = client.request(method, url, json=body)
        assert none.status_code == 401, (method, path, none.status_code)
        wrong = client.request(method, url, json=body, headers={"X-Kingdoms-Token": "y" * 35})
        assert wrong.status_code == 403, (method, path, wrong.status_code)
        assert "error" in none.json() and "error" in wrong.json()
    assert client.get("/?token=" + "z" * 35).status_code == 403
    # a wrong cookie is refused as well
    client.cookies.set("kingdoms_token", "w" * 35)
    assert client.get("/api/games").status_code == 403
    client.cookies.clear()
    # the session is untouched by all of it
    state = client.get(f"/api/sessions/{sid}/state?seat=0", headers=H).json()
    assert state["log"] == [] and state["over"] is False


def test_the_token_in_the_url_becomes_a_cookie(client: TestClient) -> None:
    r = client.get("/?token=" + TOKEN, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    page = client.get("/")  # the cookie now
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/app.js").status_code == 200
    # changes need the header, not only the cookie (a cross-site form cannot set it)
    r = client.post("/api/sessions", json={"game": "arte", "seats": ["human", "random"]})
    assert r.status_code == 401


def test_foreign_origin_and_host_are_refused(client: TestClient) -> None:
    for origin in ("http://evil.example", "http://127.0.0.1:8001", "null"):
        r = client.get("/api/games", headers={**H, "Origin": origin})
        assert r.status_code == 403, origin
        r = client.post(
            "/api/sessions",
            json={"game": "arte", "seats": ["human", "random"]},
            headers={**H, "Origin": origin},
        )
        assert r.status_code == 403, origin
    ok = client.get("/api/games", headers={**H, "Origin": "http://localhost:8000"})
    assert ok.status_code == 200
    # DNS rebinding: a page of another name resolving to this machine
    r = client.get("/api/games", headers={**H, "Host": "evil.example:8000"})
    assert r.status_code == 403


def test_listening_on_every_address_checks_the_origin_against_the_host() -> None:
    asgi, _ = create_app(TOKEN, "0.0.0.0", 8000)
    with TestClient(asgi, base_url="http://192.0.2.7:8000") as c:
        assert c.get("/api/games", headers=H).status_code == 200
        own = {**H, "Origin": "http://192.0.2.7:8000"}
        assert c.get("/api/games", headers=own).status_code == 200
        foreign = {**H, "Origin": "http://evil.example"}
        assert c.get("/api/games", headers=foreign).status_code == 403


def test_the_cli_prints_the_url_first_and_listens_on_loopback() -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "kingdoms", "serve", "--no-browser", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline().strip()
        m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/\?token=([A-Za-z0-9_-]{32})", first)
        assert m, first
        port = int(m.group(1))
        # the listening socket is bound to 127.0.0.1 only (/proc/net/tcp: local address)
        deadline = time.monotonic() + 10
        bound: list[str] = []
        while time.monotonic() < deadline and not bound:
            with open("/proc/net/tcp") as f:
                rows = [line.split() for line in f.readlines()[1:]]
            bound = [r[1] for r in rows if r[3] == "0A" and int(r[1].split(":")[1], 16) == port]
            time.sleep(0.1)
        assert bound == [f"0100007F:{port:04X}"]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_bad_input_names_what_and_changes_nothing(client: TestClient) -> None:
    s = new(client, "battleline", ["human", "heuristic"])
    sid = s["session"]

    def post(path: str, body: Any) -> tuple[int, str]:
        r = client.post(
            path, content=body if isinstance(body, bytes) else json.dumps(body), headers=H
        )
        return r.status_code, r.json()["error"]

    assert post("/api/sessions", {"game": "chess", "seats": []}) == (
        400,
        "game: one of battleline, strifull, arte, zinordia expected",
    )
    code, msg = post("/api/sessions", {"game": "arte", "seats": ["human", "cmd:rm -rf /"]})
    assert code == 400 and "--bot NAME=SPEC" in msg
    code, msg = post("/api/sessions", {"game": "arte", "seats": ["human", "os:system"]})
    assert code == 400 and "--bot NAME=SPEC" in msg
    code, msg = post("/api/sessions", {"game": "arte", "seats": ["human"]})
    assert code == 400 and "2 players" in msg
    code, msg = post(
        "/api/sessions",
        {"game": "arte", "options": {"cards_file": "/etc/passwd"}, "seats": ["human", "random"]},
    )
    assert code == 400 and "cards_file" in msg
    code, msg = post("/api/sessions", b" " * (1 << 20) + b"{}")
    assert code == 400 and "more than 1048576 bytes" in msg
    code, msg = post("/api/sessions", b"\xff not json")
    assert code == 400 and "not JSON" in msg
    code, msg = post(f"/api/sessions/{sid}/move", {"seat": 0, "move": "Z99@4"})
    assert code == 400
    code, msg = post(f"/api/sessions/{sid}/move", {"seat": 1, "move": "pass"})
    assert code == 400 and "seat 1" in msg
    code, msg = post(f"/api/sessions/{sid}/move", {"seat": "0", "move": "claim 3"})
    assert code == 409 and "not legal" in msg
    code, msg = post(f"/api/sessions/{sid}/undo", {"seat": 0})
    assert code == 409 and "nothing to undo" in msg
    code, msg = post("/api/sessions/nope/move", {"seat": 0, "move": "pass"})
    assert code == 404 and "no such session" in msg
    code, msg = post("/api/load", {"record": '[Game "battleline"]\n1. Q9@9\n'})
    assert code == 400
    assert client.get(f"/api/sessions/{sid}/record", headers=H).status_code == 409
    after = client.get(f"/api/sessions/{sid}/state?seat=0", headers=H).json()
    assert after["log"] == [] and after["moves"] == s["moves"] and after["svg"] == s["svg"]


def test_options_are_offered_choices_only() -> None:
    assert options_of("zinordia", {"mode": "teams/4"}) == {"mode": "teams", "players": 4}
    assert options_of("strifull", {"faction0": "magos"}) == {"factions": ["magos", None]}
    assert options_of("zinordia", {"max_rounds": 8}) == {"max_rounds": 8}
    assert options_of("zinordia", {"max_rounds": None, "map": None}) == {}
    for bad in ({"mode": "duel/9"}, {"max_rounds": 1}, {"selection": True}, [1]):
        with pytest.raises(kingdoms.KingdomsError):
            options_of("zinordia", bad)


def _walk(game: kingdoms.Game, seat: int, rng: random.Random) -> Iterator[kingdoms.Game]:
    """Positions of one random game where `seat` is to move (and the end)."""
    while not game.is_terminal:
        if game.current_player == seat:
            yield game.clone()
        game.apply(rng.choice(game.legal_actions()))
    yield game


def _seat_bytes(game: kingdoms.Game, seat: int, seats: list[str]) -> bytes:
    s = Session(game, seats, {})
    s.id = "fixed"
    return json.dumps(s.state(seat), sort_keys=True).encode()


@pytest.mark.parametrize(("name", "choice"), MODES, ids=[f"{n}-{o}" for n, o in MODES])
def test_a_seats_bytes_are_the_same_across_resample_hidden(
    name: str, choice: dict[str, Any]
) -> None:
    options = options_of(name, choice)
    rng = random.Random(5)
    game = kingdoms.new_game(name, seed=9, **options)
    players = game.num_players
    for seat in range(players):
        seats = ["human" if p == seat else "random" for p in range(players)]
        deal = kingdoms.new_game(name, seed=8_765_432_109_876 + seat, **options)
        positions = list(_walk(deal, seat, rng))
        for g in positions[:: max(1, len(positions) // 6)]:
            mine = _seat_bytes(g, seat, seats)
            for k in range(3):
                other = g.resample_hidden(seat, 1000 + k)
                assert _seat_bytes(other, seat, seats) == mine
            assert b'"seed"' not in mine and str(g.seed).encode() not in mine


@pytest.mark.parametrize(("name", "choice"), MODES, ids=[f"{n}-{o}" for n, o in MODES])
def test_every_move_with_steps_names_elements_of_the_seats_picture(
    name: str, choice: dict[str, Any]
) -> None:
    """Each step names an element the picture has; two moves never share all steps
    unless the page offers them as buttons; the steps are unique per move where given."""
    options = options_of(name, choice)
    rng = random.Random(3)
    game = kingdoms.new_game(name, seed=4, **options)
    clickable = total = 0
    while not game.is_terminal:
        seat = game.current_player
        assert seat is not None
        s = Session(game.clone(), ["human"] * game.num_players, {})
        state = s.state(seat)
        svg = state["svg"]
        for m in state["moves"]:
            total += 1
            clickable += bool(m["steps"])
            for step in m["steps"]:
                attr, _, value = step.partition("=")
                assert f'data-{attr}="{value}"' in svg, (m["notation"], step)
        game.apply(rng.choice(game.legal_actions()))
    # most moves are played on the picture (the rest: pass, done, picks, ...)
    assert clickable / total > 0.6, (clickable, total)


def test_undo_redraws_what_the_person_has_not_seen_and_hint_lists_shares() -> None:
    game = kingdoms.new_game("battleline", seed=1)
    s = Session(game, ["human", "heuristic"], {})
    first = s.state(0)
    while s.game.current_player == 0:  # the play, then the draw
        s.play(0, str(s.game.legal_actions()[0]))
    while s.game.current_player == 1:
        turn = s.bot_turn()
        assert turn is not None and s.state(0)["thinking"] == 1 and s.state(0)["moves"] == []
        player, generation, copy, agent = turn
        s.bot_done(player, generation, s.think(player, copy, agent), None)
    assert [e.mover for e in s.log][-1] == 1
    before = s.state(0)["svg"]
    s.play(0, str(s.game.legal_actions()[0]))
    assert s.undo(0)  # back to before the person's last move
    assert len(s.log) == 4 and s.state(0)["svg"] == before
    assert s.undo(0) and len(s.log) == 1  # before the draw: the agent's replies went too
    assert s.undo(0) and s.log == [] and s.state(0)["svg"] == first["svg"]
    assert not s.undo(0)
    assert s.game.seed != game.seed or s.game.position() != game.position()
    hint = s.hint(0, seed=3)
    shares = [m["share"] for m in hint["moves"]]
    assert shares == sorted(shares, reverse=True) and 0 < sum(shares) <= 1.0 + 1e-9
    legal = {str(a) for a in s.game.legal_actions()}
    assert {m["notation"] for m in hint["moves"]} <= legal
    with pytest.raises(kingdoms.KingdomsError, match="not a person's seat"):
        s.play(1, "pass")  # an agent's seat


def test_undos_are_bounded() -> None:
    s = Session(kingdoms.new_game("arte", seed=2), ["human", "human"], {})
    s.table.undos = MAX_UNDOS
    with pytest.raises(SessionError, match=f"at most {MAX_UNDOS} undos"):
        s.undo(0)


def test_sessions_are_bounded_and_expire() -> None:
    reg = Sessions(limit=2, idle=60, evict=30)
    a = Session(kingdoms.new_game("arte", seed=1), ["human", "random"], {})
    b = Session(kingdoms.new_game("arte", seed=2), ["human", "random"], {})
    c = Session(kingdoms.new_game("arte", seed=3), ["human", "random"], {})
    reg.add(a)
    reg.add(b)
    with pytest.raises(SessionsFull, match="all 2 are in use"):
        reg.add(c)
    a.touched -= 40  # quiet for longer than `evict`: makes room
    reg.add(c)
    assert set(reg.by_id) == {b.id, c.id}
    reg.expire(now=time.monotonic() + 61)
    assert reg.by_id == {}


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


#: The documented bound (docs/serve.md): 50 sessions in play take at most this much memory.
FIFTY_SESSIONS_BYTES = 50 * 1024 * 1024


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs /proc")
def test_fifty_sessions_stay_within_the_documented_memory_bound() -> None:
    asgi, app = create_app(TOKEN, "127.0.0.1", 8000, sessions=Sessions(limit=64))
    with TestClient(asgi, base_url=BASE) as c:
        new(c, "battleline", ["human", "random"])  # warm: imports, caches, first pictures
        before = _rss()
        rng = random.Random(1)
        for i in range(50):
            name, choice = MODES[i % len(MODES)]
            g = kingdoms.new_game(name, seed=1, **options_of(name, choice))
            seats = ["human"] + ["random"] * (g.num_players - 1)
            s = new(c, name, seats, **choice)
            for _ in range(12):  # a dozen moves each, the agents answering
                if s["over"]:
                    break
                if s["to_move"] != 0 or not s["moves"]:
                    s = c.get(
                        f"/api/sessions/{s['session']}/state?seat=0&since={s['version']}", headers=H
                    ).json()
                    continue
                move = rng.choice(s["moves"])["notation"]
                s = c.post(
                    f"/api/sessions/{s['session']}/move", json={"seat": 0, "move": move}, headers=H
                ).json()
        grown = _rss() - before
        assert len(app.sessions.by_id) == 51
        assert len(app.drivers) <= 51 and set(app.changed) <= set(app.sessions.by_id)
    print(f"50 sessions: {grown / 2**20:.1f} MiB")
    assert grown < FIFTY_SESSIONS_BYTES, grown


def test_people_at_one_screen_each_get_their_own_side(client: TestClient) -> None:
    s = new(client, "battleline", ["human", "human"])
    sid = s["session"]
    assert s["seat"] == 0 and s["humans"] == [0, 1] and s["moves"]
    other = client.get(f"/api/sessions/{sid}/state?seat=1", headers=H).json()
    assert other["moves"] == [] and other["to_move"] == 0 and other["svg"] != s["svg"]
    while s["to_move"] == 0:
        move = s["moves"][0]["notation"]
        s = client.post(
            f"/api/sessions/{sid}/move", json={"seat": 0, "move": move}, headers=H
        ).json()
    other = client.get(f"/api/sessions/{sid}/state?seat=1", headers=H).json()
    assert other["to_move"] == 1 and other["moves"]
    # seat 1 sees seat 0's moves as its view tells them
    assert [e["player"] for e in other["log"]] == [0] * len(other["log"])
    code = client.post(f"/api/sessions/{sid}/move", json={"seat": 0, "move": "pass"}, headers=H)
    assert code.status_code == 409 and "not your turn" in code.json()["error"]


def test_a_late_agent_forfeits_and_never_blocks_another_game() -> None:
    asgi, _ = create_app(TOKEN, "127.0.0.1", 8000, bot_seconds=0.2, search_workers=1)
    with TestClient(asgi, base_url=BASE) as c:
        slow = new(c, "arte", ["ismcts:time=3", "human"])  # seat 0 thinks first
        sid = slow["session"]
        new(c, "arte", ["ismcts:time=3", "human"])  # a second search waits for the thread
        # another game is played while the agent thinks
        quick = new(c, "battleline", ["human", "human"])
        move = quick["moves"][0]["notation"]
        r = c.post(
            f"/api/sessions/{quick['session']}/move", json={"seat": 0, "move": move}, headers=H
        )
        assert r.status_code == 200 and len(r.json()["log"]) == 1
        state = slow
        while not state["over"]:
            state = c.get(
                f"/api/sessions/{sid}/state?seat=1&since={state['version']}", headers=H
            ).json()
        assert state["result"] == "player 0 (ismcts:time=3) forfeits: no move in 0.2 s"
        assert c.get(f"/api/sessions/{sid}/record", headers=H).status_code == 200


def test_a_loaded_record_goes_on_from_its_end(client: TestClient) -> None:
    g = kingdoms.new_game("arte", seed=12)
    for _ in range(6):
        g.apply(g.legal_actions()[0])
    from kingdoms.records import write_records

    text = write_records([g.record()])
    r = client.post("/api/load", json={"record": text, "seats": ["human", "human"]}, headers=H)
    assert r.status_code == 200, r.text
    s = r.json()
    assert s["over"] is False and s["log"] == [] and s["svg"] == str(g.svg(0))
    r = client.post("/api/load", json={"record": text, "seats": ["human"]}, headers=H)
    assert r.status_code == 400 and "2 players" in r.json()["error"]


def test_zinordias_secret_picks_read_as_secret_until_the_reveal() -> None:
    s = Session(kingdoms.new_game("zinordia", seed=5), ["human", "heuristic"], {})
    while not any("note" in e for e in s.state(0)["log"]):
        if s.game.current_player == 0:
            s.play(0, str(s.game.legal_actions()[0]))
            continue
        turn = s.bot_turn()
        assert turn is not None
        player, generation, copy, agent = turn
        s.bot_done(player, generation, s.think(player, copy, agent), None)
    log = s.state(0)["log"]
    theirs = [e["move"] for e in log if e["player"] == 1]
    assert theirs and all("secret" in m for m in theirs)
    picks = s.game.view(0)["picks"]
    assert log[-1]["note"] == "picks revealed: " + "; ".join(
        f"player {i} {', '.join(p)}" for i, p in enumerate(picks)
    )


def test_the_other_seats_moves_are_marked_only_where_seen_in_full() -> None:
    s = Session(kingdoms.new_game("battleline", seed=3), ["human", "heuristic"], {})
    while not s.log or s.log[-1].mover != 1 or "@" not in s.log[-1].seen[0]:
        if s.game.current_player == 0:
            s.play(0, str(s.game.legal_actions()[0]))
            continue
        turn = s.bot_turn()
        assert turn is not None
        player, generation, copy, agent = turn
        s.bot_done(player, generation, s.think(player, copy, agent), None)
    card, _, flag = s.log[-1].seen[0].partition("@")
    state = s.state(0)
    assert state["marks"] == [f"card={card}", f"flag={flag}"]
    assert f'data-card="{card}"' in state["svg"]
    # Arte's secret deployment reads as secret: nothing is marked
    a = Session(kingdoms.new_game("arte", seed=3), ["human", "random"], {})
    while not a.game.is_terminal:
        if a.game.current_player == 0:
            a.play(0, str(a.game.legal_actions()[-1]))
            continue
        turn = a.bot_turn()
        assert turn is not None
        player, generation, copy, agent = turn
        a.bot_done(player, generation, a.think(player, copy, agent), None)
    secret = [e for e in a.log if e.mover == 1 and "secret" in e.seen[0]]
    assert secret and all(0 not in e.marks for e in secret)
    shown = [e for e in a.log if e.mover == 1 and 0 in e.marks]
    assert shown
