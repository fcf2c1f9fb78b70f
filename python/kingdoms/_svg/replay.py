"""The replay page: one self-contained HTML file stepping through a record (first, previous,
next, last, a clickable move list, the keyboard's arrows), with the SVG of the position at
every ply inline. No scripts, styles or fonts from the network."""

from __future__ import annotations

import html
import string
from typing import Any

import kingdoms

PAGE = string.Template("""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>$title</title>
<style>
body { font-family: DejaVu Sans, Verdana, Arial, sans-serif; margin: 16px; color: #1d1d1f;
       background: #fbf8f1; }
h1 { font-size: 18px; margin: 0 0 8px; }
#main { display: flex; gap: 16px; align-items: flex-start; }
#board svg { max-width: 100%; height: auto; border: 1px solid #d8cfbb; border-radius: 6px; }
#controls { margin: 8px 0; display: flex; gap: 6px; align-items: center; }
#controls button { font-size: 14px; padding: 4px 10px; }
#moves { list-style: none; margin: 0; padding: 0; max-height: 80vh; overflow-y: auto;
         min-width: 190px; font-size: 13px; }
#moves li { padding: 2px 6px; cursor: pointer; border-radius: 4px; }
#moves li.current { background: #ffd400; font-weight: bold; }
#moves li:hover { background: #efe6cf; }
.ply[hidden] { display: none; }
</style>
</head>
<body>
<h1>$title</h1>
<div id="controls">
<button id="first" type="button" title="first (Home)">|◀ first</button>
<button id="prev" type="button" title="previous (←)">◀ previous</button>
<button id="next" type="button" title="next (→)">next ▶</button>
<button id="last" type="button" title="last (End)">last ▶|</button>
<span id="status" aria-live="polite"></span>
</div>
<div id="main">
<div id="board">
$plies
</div>
<ol id="moves">
$moves
</ol>
</div>
<script>
(function () {
  "use strict";
  var plies = document.querySelectorAll("#board .ply");
  var moves = document.querySelectorAll("#moves li");
  var status = document.getElementById("status");
  var current = 0;
  function show(n) {
    n = Math.max(0, Math.min(plies.length - 1, n));
    plies[current].hidden = true;
    moves[current].classList.remove("current");
    current = n;
    plies[current].hidden = false;
    moves[current].classList.add("current");
    moves[current].scrollIntoView({block: "nearest"});
    status.textContent = "ply " + current + " of " + (plies.length - 1);
    document.body.dataset.ply = String(current);
  }
  document.getElementById("first").addEventListener("click", function () { show(0); });
  document.getElementById("prev").addEventListener("click", function () { show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { show(current + 1); });
  document.getElementById("last").addEventListener("click", function () { show(plies.length - 1); });
  moves.forEach(function (li, i) { li.addEventListener("click", function () { show(i); }); });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowLeft") { show(current - 1); }
    else if (e.key === "ArrowRight") { show(current + 1); }
    else if (e.key === "Home") { show(0); }
    else if (e.key === "End") { show(plies.length - 1); }
  });
  show(0);
}());
</script>
</body>
</html>
""")


def positions(record: Any, player: int | None = None) -> list[tuple[str, str]]:
    """``(move that led here, svg)`` for ply 0 (the deal) to the end of ``record``. With a
    ``player``, the pictures are that player's views and other players' moves are listed
    only as whose they were: a record names secret cards (Arte da Guerra's hidden draft
    card, deployments), which a player's page must not show."""
    # Through `replay`, the one validated path for a record: a record's options never name
    # a file to read (`cards_file`) nor pass for other arguments (`seed`, `position`).
    start = kingdoms.Record(record.game, record.seed, [], record.options, record.position)
    game = kingdoms.replay(start)
    out = [("start", game.svg(player))]
    for i, text in enumerate(record.actions):
        mover = game.current_player
        try:
            game.apply(text)
        except kingdoms.KingdomsError as e:
            raise kingdoms.StateError(f"record action {i}: {e}") from None
        if player is None or mover == player:
            move = f"P{mover}: {game.parse_action(text)}"
        else:
            move = f"P{mover}: (hidden)"
        out.append((move, game.svg(player)))
    return out


def replay_html(record: Any, player: int | None = None) -> str:
    """The replay page of ``record`` (a :class:`kingdoms.Record`), as one HTML string."""
    steps = positions(record, player)
    who = "everything" if player is None else f"as player {player} sees it"
    title = html.escape(f"{record.game}, seed {record.seed}: {len(record.actions)} actions ({who})")
    plies = "\n".join(
        f'<div class="ply" data-ply="{i}"{"" if i == 0 else " hidden"}>{svg}</div>'
        for i, (_, svg) in enumerate(steps)
    )
    moves = "\n".join(
        f'<li data-ply="{i}">{i}. {html.escape(move)}</li>' for i, (move, _) in enumerate(steps)
    )
    return PAGE.substitute(title=title, plies=plies, moves=moves)
