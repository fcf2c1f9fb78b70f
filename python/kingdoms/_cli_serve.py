"""`kingdoms serve`: the browser app (kingdoms.serve, docs/serve.md) on a local port."""

from __future__ import annotations

import argparse
import secrets
import socket
import sys
import threading
import webbrowser
from typing import Any


def add_serve_parser(sub: Any) -> None:
    """Register the `serve` subcommand on the CLI's subparsers."""
    p = sub.add_parser(
        "serve",
        help="play in the browser: every game against the bots or people at the same screen",
        description="A local web app to play every game by clicking on its picture, against "
        "the agents or people at the same screen. The first line printed is the URL with its "
        "access token. Needs the serve extra: pip install 'kingdoms[serve]'.",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default 127.0.0.1, this machine only)",
    )
    p.add_argument(
        "--port", type=int, default=8000, help="the port (default 8000; 0: any free port)"
    )
    p.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="NAME=SPEC",
        help="offer an agent a page cannot name itself, repeatable: a bot program "
        "(NAME=cmd:./mybot) or a Python agent (NAME=mymod:MyAgent) (default: built-in agents only)",
    )
    p.add_argument(
        "--sessions", type=int, default=64, help="games held at once, at most (default 64)"
    )
    p.add_argument(
        "--bot-seconds",
        type=float,
        default=60.0,
        help="an agent's time per move before it forfeits (default 60)",
    )
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from kingdoms.serve import Sessions, create_app
    except ImportError as e:
        print(
            f"kingdoms: serve needs the serve extra (pip install 'kingdoms[serve]'): {e}",
            file=sys.stderr,
        )
        return 2
    bots: dict[str, str] = {}
    for pair in args.bot:
        name, sep, spec = pair.partition("=")
        if not sep or not name or not spec:
            raise SystemExit(f"kingdoms: --bot takes NAME=SPEC, not {pair[:60]!r}")
        bots[name] = spec
    if not 1 <= args.sessions <= 10_000:
        raise SystemExit("kingdoms: --sessions must be 1..10000")
    family = socket.AF_INET6 if ":" in args.host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((args.host, args.port))
    except OSError as e:
        print(f"kingdoms: cannot listen on {args.host}:{args.port}: {e.strerror}", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    token = secrets.token_urlsafe(24)
    asgi, _ = create_app(
        token,
        args.host,
        port,
        bots=bots,
        sessions=Sessions(limit=args.sessions),
        bot_seconds=args.bot_seconds,
    )
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{shown}:{port}/?token={token}"
    print(url, flush=True)
    print(f"kingdoms serve: listening on {shown}:{port}; Ctrl-C stops", flush=True)
    if not args.no_browser:
        threading.Timer(0.5, webbrowser.open, args=(url,)).start()
    config = uvicorn.Config(asgi, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return 0
