"""Tournament results: an HTML table (``_repr_html_``) and the Elo ratings with their 95%
intervals as a matplotlib chart (the optional ``plot`` extra)."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from typing import Any

from kingdoms._text import clean


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.1f}%"


def tournament_html(result: Any) -> str:
    """The standings (best Elo first) and the pairwise scores as an HTML table, built with
    ElementTree (names are escaped by it, after kingdoms._svg._draw.clean)."""
    names = [clean(n) for n in result.names]
    order = list(result.ranking())
    table = ET.Element("table", {"class": "kingdoms-tournament"})
    ET.SubElement(table, "caption").text = clean(
        f"{result.game}: {result.games} games, {result.pairing}, seed {result.seed}"
    )
    head = ET.SubElement(ET.SubElement(table, "thead"), "tr")
    for label in ("#", "agent", "Elo", "95% interval", "W", "D", "L", "score"):
        ET.SubElement(head, "th").text = label
    for j in order:
        ET.SubElement(head, "th").text = f"vs {names[j]}"
    body = ET.SubElement(table, "tbody")
    for rank, i in enumerate(order, 1):
        t, e = result.totals[i], result.elo[i]
        row = ET.SubElement(body, "tr")
        ET.SubElement(row, "td").text = str(rank)
        ET.SubElement(row, "th").text = names[i]
        for cell in (
            f"{e.elo:+.0f}",
            f"[{e.lo:+.0f}, {e.hi:+.0f}]",
            str(t.wins),
            str(t.draws),
            str(t.losses),
            _pct(t.score),
        ):
            ET.SubElement(row, "td").text = cell
        for j in order:
            ET.SubElement(row, "td").text = "–" if i == j else _pct(result.pairwise(i, j).score)
    return ET.tostring(table, encoding="unicode", method="html")


def plot_ratings(result: Any, ax: Any = None) -> Any:
    """Each agent's Elo with its 95% interval as a horizontal error bar, best at the top;
    returns the matplotlib axes. Needs matplotlib (``pip install 'kingdoms[plot]'``)."""
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError(
            "plotting tournament results needs matplotlib: pip install 'kingdoms[plot]'"
        ) from e
    if ax is None:
        _, ax = plt.subplots(figsize=(6.4, 1.4 + 0.5 * len(result.names)))
    order = list(reversed(result.ranking()))  # best at the top
    elo = result.elo
    ys = list(range(len(order)))
    values = [elo[i].elo for i in order]
    lo = [elo[i].elo - elo[i].lo for i in order]
    hi = [elo[i].hi - elo[i].elo for i in order]
    ax.errorbar(
        values,
        ys,
        xerr=[lo, hi],
        fmt="o",
        color="#2e6f8e",
        ecolor="#7a9cb0",
        capsize=4,
        label="Elo, 95% interval",
    )
    ax.set_yticks(ys, [str(result.names[i]) for i in order])
    ax.axvline(0, color="#999999", linewidth=0.8, linestyle="--")
    ax.set_xlabel("Elo (pool average 0)")
    ax.set_title(f"{result.game}: {result.games} games")
    return ax
