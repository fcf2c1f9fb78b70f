"""What notebooks display: an SVG string that shows as a picture (python-chess's
``SvgWrapper``), and a record as its replay page, inline."""

from __future__ import annotations

from typing import Any


class SvgWrapper(str):
    """An SVG picture: a ``str`` in every way, which Jupyter and IPython show as the
    picture (``_repr_svg_``) rather than as its text."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def record_html(record: Any) -> str:
    """``record``'s replay page (``kingdoms view``), framed for a notebook: an ``iframe``
    whose ``srcdoc`` is the whole page, so its styles, ids and keys stay its own."""
    from kingdoms._svg._draw import srcdoc
    from kingdoms._svg.replay import replay_html

    page = replay_html(record)
    return (
        f'<iframe srcdoc="{srcdoc(page)}" title="replay" '
        'style="width: 100%; height: 720px; border: 1px solid #d8cfbb;"></iframe>'
    )
