"""The environments' ``render()``: what one viewer may see, as text, an SVG picture or pixels.

``"ansi"`` is :meth:`Game.render`, ``"human"`` prints that text to standard output (and
``render()`` returns None, as Gymnasium and PettingZoo expect), ``"svg"`` is :meth:`Game.svg` (the picture of the same
view, so it holds nothing the viewer's view does not), and ``"rgb_array"`` is that SVG
rasterised to a ``(height, width, 3)`` ``uint8`` array. The rasteriser is ``resvg`` (through
the ``resvg-py`` wheel, self-contained: no system library), its PNG decoded by Pillow; both
come with the ``kingdoms[rl]`` extra. The picture is generated here, never read from a file,
and references nothing outside itself.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np

from kingdoms._games import drawer
from kingdoms._kingdoms import Game

#: The render modes every environment accepts (besides None).
RENDER_MODES = ["ansi", "human", "svg", "rgb_array"]

_RGB_NEEDS = (
    "render_mode 'rgb_array' needs the packages resvg-py and pillow: pip install 'kingdoms[rl]'"
)


def check_render_mode(game: Game, render_mode: str | None) -> None:
    """Raise ``ValueError`` unless ``render_mode`` is None or one ``game`` can show (and
    ``ImportError`` when ``"rgb_array"`` lacks its packages)."""
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(
            f"render_mode must be one of {RENDER_MODES} or None, got {str(render_mode)[:40]!r}"
        )
    if render_mode in ("svg", "rgb_array") and drawer(game.name) is None:
        raise ValueError(f"render_mode {render_mode!r}: the game {game.name!r} has no picture")
    if render_mode == "rgb_array":
        _rasteriser()


def _rasteriser() -> Any:
    try:
        import PIL.Image
        import resvg_py
    except ImportError as e:
        raise ImportError(_RGB_NEEDS) from e
    return resvg_py, PIL.Image


def rasterise(svg: str, background: str = "#ffffff") -> np.ndarray:
    """An SVG picture as an RGB ``uint8`` array of shape ``(height, width, 3)``, at the
    picture's own size, on an opaque ``background``."""
    resvg_py, image = _rasteriser()
    png = resvg_py.svg_to_bytes(svg_string=svg, background=background)
    with image.open(io.BytesIO(bytes(png))) as im:
        return np.asarray(im.convert("RGB"), dtype=np.uint8)


def render(game: Game, render_mode: str, viewer: int | None) -> str | np.ndarray | None:
    """The picture of what ``viewer`` may see (``None``: the whole state)."""
    if render_mode == "human":
        print(game.render(viewer), flush=True)
        return None
    if render_mode == "svg":
        return game.svg(viewer)
    if render_mode == "rgb_array":
        return rasterise(game.svg(viewer))
    return game.render(viewer)


def action_id(action: Any, num_actions: int) -> int:
    """``action`` as an action id: an int (or numpy integer, or 0-d integer array) in
    ``0..num_actions``; ``TypeError`` for anything else (a float is refused, never
    truncated), ``ValueError`` when out of range."""
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise TypeError(f"an action is an int id, got {type(action).__name__} {str(action)[:40]}")
    if not 0 <= action < num_actions:
        raise ValueError(f"action {int(action)} out of range 0..{num_actions - 1}")
    return int(action)
