"""`kingdoms serve`: play every game in the browser, against the bots or people at the same
screen (docs/serve.md).

The server holds each game; the page of a seat receives only what that seat's view holds
(its picture, its legal moves and where to click them, the other seats' moves as its view
tells them), never the seed, the RNG state or another seat's hidden cards. Every route
checks the access token printed with the URL, the Host and the Origin. Needs the optional
extra: ``pip install 'kingdoms[serve]'`` (Starlette and uvicorn).

>>> from kingdoms.serve import create_app
>>> asgi, app = create_app("a-token-of-16-chars-or-more")
"""

from __future__ import annotations

from kingdoms.serve._app import COOKIE, HEADER, App, create_app
from kingdoms.serve._sessions import HUMAN, MAX_PLIES, MAX_UNDOS, Session, Sessions

__all__ = [
    "COOKIE",
    "HEADER",
    "HUMAN",
    "MAX_PLIES",
    "MAX_UNDOS",
    "App",
    "Session",
    "Sessions",
    "create_app",
]
