"""Tournament results: an HTML table (``_repr_html_``) and the Elo ratings with their 95%
intervals as a matplotlib chart (the optional ``plot`` extra)."""

from __future__ import annotations

import html
import math
from typing import Any


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.1f}%"


def tournament_html(result: Any) -> str:
    """The standings (best Elo first) and the pairwise scores as an HTML table."""
    names = [str(n) for n in result.names]
    order = list(result.ranking())
    totals = result.totals
    elo = result.elo
    esc = html.escape
    rows = []
    for rank, i in enumerate(order, 1):
        t, e = totals[i], elo[i]
        cells = "".join(
            "<td>–</td>" if i == j else f"<td>{_pct(result.pairwise(i, j).score)}</td>"
            for j in order
        )
        rows.append(
            f"<tr><td>{rank}</td><th>{esc(names[i])}</th><td>{e.elo:+.0f}</td>"
            f"<td>[{e.lo:+.0f}, {e.hi:+.0f}]</td><td>{t.wins}</td><td>{t.draws}</td>"
            f"<td>{t.losses}</td><td>{_pct(t.score)}</td>{cells}</tr>"
        )
    heads = "".join(f"<th>vs {esc(names[j])}</th>" for j in order)
    caption = (
        f"{esc(str(result.game))}: {result.games} games, {esc(str(result.pairing))}, "
        f"seed {result.seed}"
    )
    return (
        '<table class="kingdoms-tournament">'
        f"<caption>{caption}</caption>"
        "<thead><tr><th>#</th><th>agent</th><th>Elo</th><th>95% interval</th><th>W</th>"
        f"<th>D</th><th>L</th><th>score</th>{heads}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


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
