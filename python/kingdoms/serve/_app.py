"""The web app: a Starlette application over `Sessions`, with the token, Host and Origin
checks in front of every route.

Every route answers 401 without the token and 403 with a wrong one, a Host that is not the
server's own address (DNS rebinding) or an Origin that is not the page's own. The first page
load carries the token in its URL (`/?token=...`); the answer sets it as an HttpOnly,
SameSite=Strict cookie and sends the browser on to `/`. Changes (POST) must also carry the
token in the `X-Kingdoms-Token` header, which only the page's own script can send.

Engine work (pictures, moves as seen, agents, hints) runs in a thread pool; an agent's move
is time-limited (`bot_seconds`) and a late or failing agent forfeits its seat. Long polls
(`GET .../state?since=N`) wait for the next change, at most `POLL_SECONDS`.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

import kingdoms
from kingdoms._subprocess import Forfeit
from kingdoms.serve._catalogue import catalogue, options_of
from kingdoms.serve._sessions import (
    HUMAN,
    NoSession,
    Session,
    SessionError,
    Sessions,
    SessionsFull,
    load_record,
)

COOKIE = "kingdoms_token"
HEADER = "x-kingdoms-token"
#: Longest wait of a long poll, in seconds.
POLL_SECONDS = 20.0
#: Largest request body (a record to load), in bytes.
MAX_BODY = 1 << 20

CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
# The replay page is one self-contained file with its own inline script and style.
REPLAY_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


def _static(name: str) -> bytes:
    return resources.files("kingdoms.serve").joinpath("static", name).read_bytes()


class Guard:
    """Token, Host and Origin checks on every request (HTTP; other scopes pass through to
    the app, which has none)."""

    def __init__(self, app: ASGIApp, token: str, hosts: set[str], origins: set[str]) -> None:
        self.app = app
        self.token = token.encode()
        self.hosts = hosts
        self.origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        request = Request(scope)
        refusal = self.refuse(request)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _match(self, given: str | None) -> bool:
        return given is not None and secrets.compare_digest(given.encode(), self.token)

    def refuse(self, request: Request) -> Response | None:
        host = request.headers.get("host", "")
        if self.hosts and host not in self.hosts:
            return _error(403, f"host {host[:60]!r} is not this server's address")
        origin = request.headers.get("origin")
        # listening on every address, the page's origin is the address it was loaded from
        origins = self.origins or {f"http://{host}"}
        if origin is not None and origin not in origins:
            return _error(403, f"origin {origin[:60]!r} is not this server's page")
        query = request.query_params.get("token")
        if request.url.path == "/" and query is not None:
            if not self._match(query):
                return _error(403, "wrong token")
            return None  # the page route sets the cookie
        header = request.headers.get(HEADER)
        cookie = request.cookies.get(COOKIE)
        if request.method not in ("GET", "HEAD"):
            if header is None:
                return _error(401, f"a change needs the token in the {HEADER} header")
            if not self._match(header):
                return _error(403, "wrong token")
            return None
        given = header if header is not None else cookie
        if given is None:
            return _error(401, "no token: open the URL kingdoms serve printed")
        if not self._match(given):
            return _error(403, "wrong token")
        return None


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=SECURITY_HEADERS)


class App:
    """The routes, the sessions and the thread pool of one server."""

    def __init__(
        self,
        token: str,
        *,
        bots: dict[str, str] | None = None,
        sessions: Sessions | None = None,
        bot_seconds: float = 60.0,
        workers: int | None = None,
    ) -> None:
        self.token = token
        self.bots = dict(bots or {})
        self.sessions = sessions or Sessions()
        self.bot_seconds = bot_seconds
        # Searches (agents' moves, hints) in their own pool, so that a long search never
        # holds up another game's pictures and moves.
        self.pool = ThreadPoolExecutor(max_workers=4, thread_name_prefix="kingdoms-serve")
        self.search_pool = ThreadPoolExecutor(
            max_workers=workers or max(2, os.cpu_count() or 2), thread_name_prefix="kingdoms-search"
        )
        self.changed: dict[str, asyncio.Event] = {}
        self.drivers: dict[str, asyncio.Task[None]] = {}

    # ---- helpers ---------------------------------------------------------------------------

    async def run(self, func: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.pool, func, *args)

    async def search(self, func: Any, *args: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(self.search_pool, func, *args)

    def notify(self, session: Session) -> None:
        event = self.changed.pop(session.id, None)
        if event is not None:
            event.set()

    def kick(self, session: Session) -> None:
        """Start the session's agents on their turns, unless they are already at it."""
        # forget the finished drivers and the waits of dropped sessions (bounded by them)
        for sid in [k for k, t in self.drivers.items() if t.done()]:
            del self.drivers[sid]
        for sid in [k for k in self.changed if k not in self.sessions.by_id]:
            self.changed.pop(sid).set()
        task = self.drivers.get(session.id)
        if task is None or task.done():
            self.drivers[session.id] = asyncio.get_running_loop().create_task(self.drive(session))

    async def drive(self, session: Session) -> None:
        while True:
            turn = session.bot_turn()
            if turn is None:
                return
            self.notify(session)
            player, generation, game, agent = turn
            move = None
            failure = None
            try:
                move = await asyncio.wait_for(
                    self.search(session.think, player, game, agent), self.bot_seconds
                )
            except asyncio.TimeoutError:
                failure = f"no move in {self.bot_seconds:g} s"
            except Forfeit as e:
                failure = e.reason
            except kingdoms.KingdomsError as e:
                failure = str(e)[:200]
            await self.run(session.bot_done, player, generation, move, failure)
            self.notify(session)
            if session.id not in self.sessions.by_id:
                return

    async def body(self, request: Request) -> dict[str, Any]:
        declared = request.headers.get("content-length", "0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            raise kingdoms.KingdomsError(f"request: more than {MAX_BODY} bytes")
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_BODY:
                raise kingdoms.KingdomsError(f"request: more than {MAX_BODY} bytes")
            chunks.append(chunk)
        raw = b"".join(chunks)
        try:
            data = json.loads(raw or b"{}")
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise kingdoms.KingdomsError(
                f"request: not JSON ({e.msg if hasattr(e, 'msg') else e})"
            ) from None
        if not isinstance(data, dict):
            raise kingdoms.KingdomsError("request: a JSON object expected")
        return data

    def session(self, request: Request) -> Session:
        return self.sessions.get(request.path_params["sid"])

    @staticmethod
    def seat(data: dict[str, Any] | Any) -> int:
        seat = data.get("seat") if isinstance(data, dict) else data
        if isinstance(seat, str) and seat.isdigit() and len(seat) < 4:
            seat = int(seat)
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise kingdoms.KingdomsError("seat: a seat number expected")
        return seat

    # ---- routes ----------------------------------------------------------------------------

    async def page(self, request: Request) -> Response:
        if "token" in request.query_params:
            out = RedirectResponse("/", status_code=303, headers=SECURITY_HEADERS)
            out.set_cookie(COOKIE, self.token, httponly=True, samesite="strict", path="/")
            return out
        html = _static("index.html").decode().replace("__TOKEN__", self.token)
        return HTMLResponse(html, headers={**SECURITY_HEADERS, "content-security-policy": CSP})

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        types = {"app.js": "text/javascript", "style.css": "text/css"}
        if name not in types:
            return _error(404, "no such file")
        return Response(_static(name), media_type=types[name], headers=SECURITY_HEADERS)

    async def games(self, request: Request) -> Response:
        return JSONResponse(catalogue(self.bots), headers=SECURITY_HEADERS)

    async def create(self, request: Request) -> Response:
        data = await self.body(request)
        name = data.get("game")
        if name not in kingdoms.games():
            raise kingdoms.KingdomsError(f"game: one of {', '.join(kingdoms.games())} expected")
        options = options_of(name, data.get("options"))
        seats = data.get("seats")
        if not isinstance(seats, list) or not all(
            isinstance(s, str) and len(s) <= 80 for s in seats
        ):
            raise kingdoms.KingdomsError("seats: a list of seat specs expected")

        def make() -> Session:
            game = kingdoms.new_game(name, seed=secrets.randbits(63), **options)
            return Session(game, seats, self.bots)

        session = await self.run(make)
        return await self.start(session)

    async def load(self, request: Request) -> Response:
        data = await self.body(request)
        text = data.get("record")
        if not isinstance(text, str):
            raise kingdoms.KingdomsError("record: the record's text expected")
        seats = data.get("seats")

        def make() -> Session:
            game = load_record(text)
            chosen = seats if isinstance(seats, list) else [HUMAN] * game.num_players
            if not all(isinstance(s, str) and len(s) <= 80 for s in chosen):
                raise kingdoms.KingdomsError("seats: a list of seat specs expected")
            return Session(game, chosen, self.bots)

        session = await self.run(make)
        return await self.start(session)

    async def start(self, session: Session) -> Response:
        self.sessions.add(session)
        self.kick(session)
        seat = session.humans()[0]
        return JSONResponse(await self.run(session.state, seat), headers=SECURITY_HEADERS)

    async def state(self, request: Request) -> Response:
        session = self.session(request)
        seat = self.seat(request.query_params.get("seat"))
        session.check_seat(seat)
        since = request.query_params.get("since")
        if since is not None and since.isdigit() and int(since) == session.version:
            event = self.changed.setdefault(session.id, asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), POLL_SECONDS)
            except asyncio.TimeoutError:
                pass
        return JSONResponse(await self.run(session.state, seat), headers=SECURITY_HEADERS)

    async def change(self, request: Request) -> Response:
        session = self.session(request)
        data = await self.body(request)
        seat = self.seat(data)
        what = request.path_params["what"]
        if what == "move":
            move = data.get("move")
            if not isinstance(move, str) or len(move) > 200:
                raise kingdoms.KingdomsError("move: a move's notation expected")
            await self.run(session.play, seat, move)
        elif what == "undo":
            if not await self.run(session.undo, seat):
                raise SessionError("nothing to undo yet")
        elif what == "resign":
            await self.run(session.resign, seat)
        elif what == "hint":
            return JSONResponse(await self.search(session.hint, seat), headers=SECURITY_HEADERS)
        else:
            return _error(404, "no such change")
        self.notify(session)
        self.kick(session)
        return JSONResponse(await self.run(session.state, seat), headers=SECURITY_HEADERS)

    async def record(self, request: Request) -> Response:
        session = self.session(request)
        text = await self.run(session.record_text)
        return PlainTextResponse(
            text,
            headers={
                **SECURITY_HEADERS,
                "content-disposition": f'attachment; filename="{session.game.name}.txt"',
            },
        )

    async def replay(self, request: Request) -> Response:
        session = self.session(request)
        seat = self.seat(request.query_params.get("seat"))
        page = await self.run(session.replay_page, seat)
        return HTMLResponse(
            page, headers={**SECURITY_HEADERS, "content-security-policy": REPLAY_CSP}
        )

    def close(self) -> None:
        for sid in list(self.sessions.by_id):
            self.sessions.drop(sid)
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.search_pool.shutdown(wait=False, cancel_futures=True)


def _handler(
    app: App, method: Callable[[Request], Awaitable[Response]]
) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            return await method(request)
        except NoSession as e:
            return _error(404, str(e))
        except SessionsFull as e:
            return _error(503, str(e))
        except SessionError as e:
            return _error(409, str(e))
        except kingdoms.KingdomsError as e:
            return _error(400, str(e))

    return endpoint


def addresses(host: str, port: int) -> tuple[set[str], set[str]]:
    """The Host headers and Origins the server answers: its own address and port, and the
    loopback names when it listens on loopback. Listening on every address (`0.0.0.0`,
    `::`), any Host (the machine's names are not known), with the Origin of that Host."""
    if host in ("0.0.0.0", "::", ""):
        return set(), set()
    names = {host}
    if host in ("127.0.0.1", "localhost", "::1"):
        names |= {"127.0.0.1", "localhost", "[::1]"}
    names = {f"[{n}]" if ":" in n and not n.startswith("[") else n for n in names}
    hosts = {f"{n}:{port}" for n in names}
    origins = {f"http://{h}" for h in hosts}
    return hosts, origins


def create_app(
    token: str,
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    bots: dict[str, str] | None = None,
    sessions: Sessions | None = None,
    bot_seconds: float = 60.0,
    search_workers: int | None = None,
) -> tuple[ASGIApp, App]:
    """The ASGI app of `kingdoms serve` for a server at `host:port` with access `token`,
    and the `App` behind it (its sessions and pools). `search_workers`: threads for the
    agents' searches and hints (default: one per core, at least 2)."""
    if len(token) < 16:
        raise kingdoms.KingdomsError("token: at least 16 characters")
    app = App(token, bots=bots, sessions=sessions, bot_seconds=bot_seconds, workers=search_workers)
    routes = [
        Route("/", _handler(app, app.page), methods=["GET"]),
        Route("/static/{name}", _handler(app, app.static), methods=["GET"]),
        Route("/api/games", _handler(app, app.games), methods=["GET"]),
        Route("/api/sessions", _handler(app, app.create), methods=["POST"]),
        Route("/api/load", _handler(app, app.load), methods=["POST"]),
        Route("/api/sessions/{sid}/state", _handler(app, app.state), methods=["GET"]),
        Route("/api/sessions/{sid}/record", _handler(app, app.record), methods=["GET"]),
        Route("/api/sessions/{sid}/replay", _handler(app, app.replay), methods=["GET"]),
        Route("/api/sessions/{sid}/{what}", _handler(app, app.change), methods=["POST"]),
    ]

    @contextlib.asynccontextmanager
    async def lifespan(_: Starlette) -> AsyncIterator[None]:
        yield
        app.close()

    star = Starlette(routes=routes, lifespan=lifespan)
    hosts, origins = addresses(host, port)
    return Guard(star, token, hosts, origins), app


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


__all__ = ["COOKIE", "HEADER", "App", "Guard", "addresses", "create_app"]
