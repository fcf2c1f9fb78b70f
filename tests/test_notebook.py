"""Pictures in a notebook: a notebook executed by a real Jupyter kernel shows game and map
pictures with overlays as SVG (not as their text), and a record as its inline replay page."""

from __future__ import annotations

import html

import kingdoms
import pytest
from kingdoms._svg import SvgWrapper

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

CELLS = [
    "import kingdoms\nfrom kingdoms import hex\ng = kingdoms.new_game('battleline', seed=7)",
    "g.svg(0, action=g.legal_actions()[0], highlight=[4])",
    "kingdoms.new_game('zinordia', seed=2).svg(1)",
    (
        "m = hex.HexMap.from_cells({(q, r): 1 for q in range(6) for r in range(5)})\n"
        "reach = m.reachable((0, 0), 3)\n"
        "m.svg(highlight=list(reach), path=m.path((0, 0), (5, 4)), labels=reach)"
    ),
    (
        "r = kingdoms.new_game('arte', seed=3)\n"
        "for _ in range(6): r.apply(r.legal_actions()[0])\n"
        "r.record()"
    ),
]


def test_pictures_are_str_that_display_as_svg() -> None:
    g = kingdoms.new_game("strifull", seed=1)
    picture = g.svg(0, highlight=[(0, "aA1")])
    assert isinstance(picture, SvgWrapper) and isinstance(picture, str)
    assert picture._repr_svg_() == str(picture) and picture.startswith("<svg")
    m = kingdoms.hex.HexMap.from_cells({(0, 0): 1, (1, 0): 1})
    assert isinstance(m.svg(highlight=[(0, 0)], coordinates=True), SvgWrapper)


def test_a_record_shows_as_its_replay_page_in_a_frame() -> None:
    g = kingdoms.new_game("battleline", seed=4)
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    shown = g.record()._repr_html_()
    assert shown.startswith("<iframe srcdoc=")
    page = html.unescape(shown.split('srcdoc="', 1)[1].split('"', 1)[0])
    assert page.startswith("<!DOCTYPE html>") and page.count('class="ply"') == 4


def test_an_executed_notebook_shows_overlay_pictures_as_svg() -> None:
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(src) for src in CELLS]
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3").execute()
    outputs = [cell.outputs for cell in nb.cells]
    assert outputs[0] == []
    for cell in outputs[1:4]:
        (out,) = cell
        assert out.output_type == "execute_result"
        assert out.data["image/svg+xml"].startswith("<svg")
    (record,) = outputs[4]
    assert record.data["text/html"].startswith("<iframe srcdoc=")
