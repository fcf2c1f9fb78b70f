"""The environments' ``render()``: what one viewer may see, as text or as an SVG picture.

``"ansi"`` is :meth:`Game.render`, ``"svg"`` is :meth:`Game.svg` (the picture of the same
view, so it holds nothing the viewer's view does not). There is no ``"rgb_array"``: the SVG
rasteriser made for the job (``cairosvg``) needs the system library libcairo (a Debian
package, not something pip installs), and the core install stays free of system libraries.
"""

from __future__ import annotations

from kingdoms._kingdoms import Game
from kingdoms._svg import DRAWERS

#: The render modes every environment accepts (besides None).
RENDER_MODES = ["ansi", "svg"]


def check_render_mode(game: Game, render_mode: str | None) -> None:
    """Raise ``ValueError`` unless ``render_mode`` is None or one ``game`` can show."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be one of {RENDER_MODES} or None, got {str(render_mode)[:40]!r}"
        )
    if render_mode == "svg" and game.name not in DRAWERS:
        raise ValueError(f"render_mode 'svg': the game {game.name!r} has no picture yet")


def render(game: Game, render_mode: str, viewer: int | None) -> str:
    """The picture of what ``viewer`` may see (``None``: the whole state)."""
    if render_mode == "svg":
        return game.svg(viewer)
    return game.render(viewer)
