"""The replay page: one self-contained HTML file stepping through a record (first, previous,
next, last, a clickable move list, the keyboard's arrows), with the SVG of the position at
every ply. No scripts, styles or fonts from the network.

The pictures of consecutive plies share most of their elements, so the page stores each
distinct top-level element once (``pieces``, a JSON block) and each ply as the list of its
pieces; the page's script assembles a ply when it is first shown (ply 0 is inline, so the
page shows the start without scripts). A long Zinordia game so takes a few MB, not 74.
The page is bounded: at most ``MAX_PAGE_BYTES``, else a ``KingdomsError``."""

from __future__ import annotations

import json
import string
from collections.abc import Iterator
from typing import Any

import kingdoms
from kingdoms._seen import seen_move
from kingdoms._svg import _draw as d_
from kingdoms.records import GameRecord

#: Largest replay page, in bytes (about 20,000 plies of a long Zinordia game).
MAX_PAGE_BYTES = 32 * 1024 * 1024

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
#headers { display: grid; grid-template-columns: max-content auto; gap: 2px 12px;
           margin: 0 0 8px; font-size: 13px; }
#headers dt { font-weight: bold; }
#headers dd { margin: 0; }
#moves li .comment { color: #6b5f48; font-style: italic; }
</style>
</head>
<body>
<h1>$title</h1>
$headers
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
<script type="application/json" id="frames">$frames</script>
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
  var data = JSON.parse(document.getElementById("frames").textContent);
  var current = 0;
  function show(n) {
    n = Math.max(0, Math.min(plies.length - 1, n));
    if (plies[n].childElementCount === 0) {
      plies[n].innerHTML = data.frames[n].map(function (i) { return data.pieces[i]; }).join("\\n");
    }
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


def positions(record: Any, player: int | None = None) -> Iterator[tuple[str, str]]:
    """``(move that led here, svg)`` for ply 0 (the deal) to the end of ``record``. With a
    ``player``, the pictures are that player's views and other players' moves are listed
    as the rules show them to that player (``kingdoms._seen.seen_move``, ``action_seen``): a
    record names secret cards (Arte da Guerra's hidden draft card, deployments), which a
    player's page must not show, but a Battle Line troop played in the open reads as
    itself."""
    # Through `replay`, the one validated path for a record: a record's options never name
    # a file to read (`cards_file`) nor pass for other arguments (`seed`, `position`).
    start = kingdoms.Record(record.game, record.seed, [], record.options, record.position)
    game = kingdoms.replay(start)
    yield ("start", game.svg(player))
    for i, text in enumerate(record.actions):
        mover = game.current_player
        try:
            action = game.parse_action(text)
            move = f"P{mover}: {seen_move(game, action, player)}"
            game.apply(action)
        except kingdoms.KingdomsError as e:
            raise kingdoms.StateError(f"record action {i}: {e}") from None
        yield (move, game.svg(player))


def _json(value: Any) -> str:
    """JSON for a ``<script type="application/json">`` block: nothing in it can end the block
    or open markup (``<``, ``>`` and ``&`` are written as escapes)."""
    text = json.dumps(value, ensure_ascii=True, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _headers(about: GameRecord, player: int | None) -> str:
    """The record's Event, Date, players, other headers and result, as a list (a player's
    page too: none of them is hidden information; the seed is not among them)."""
    rows = [("Event", about.event), ("Date", about.date)]
    rows += [(f"Player {i}", name) for i, name in enumerate(about.players)]
    rows += sorted(about.headers.items())
    rows.append(("Result", about.result))
    items = [
        f"<dt>{d_.html_text(k, 40)}</dt><dd>{d_.html_text(v)}</dd>"
        for k, v in rows
        if v is not None
    ]
    return f'<dl id="headers">{"".join(items)}</dl>' if items else ""


def replay_html(record: Any, player: int | None = None) -> str:
    """The replay page of ``record`` (a :class:`kingdoms.Record`, or a
    :class:`kingdoms.records.GameRecord` whose headers the page lists), as one HTML string.
    A player's page is built from that player's views only: its title leaves out the seed
    (which would let the player rebuild every hidden card and die), and it leaves out the
    record's comments (an annotator may name hidden cards)."""
    about = record if isinstance(record, GameRecord) else GameRecord(record)
    record = about.record
    if player is None:
        title = f"{record.game}, seed {record.seed}: {len(record.actions)} actions (everything)"
    else:
        title = f"{record.game}: {len(record.actions)} actions (as player {player} sees it)"
    pieces: dict[str, int] = {}
    frames: list[list[int]] = []
    moves: list[str] = []
    start = ""
    size = 0
    plies = len(record.actions)
    for i, (move, svg) in enumerate(positions(record, player)):
        note = about.comments.get(i - 1) if player is None and i else None
        comment = f' <span class="comment">{d_.html_text(note)}</span>' if note else ""
        moves.append(f'<li data-ply="{i}">{i}. {d_.html_text(move)}{comment}</li>')
        start = start or svg
        frame = []
        for line in svg.split("\n"):
            if line not in pieces:
                pieces[line] = len(pieces)
                size += len(line.encode()) + 8
            frame.append(pieces[line])
        frames.append(frame)
        size += 6 * len(frame)
        if size > MAX_PAGE_BYTES:
            raise kingdoms.KingdomsError(
                f"the replay page would be larger than {MAX_PAGE_BYTES // 2**20} MB "
                f"(at ply {i} of {plies})"
            )
    divs = [f'<div class="ply" data-ply="0">{start}</div>']
    divs += [f'<div class="ply" data-ply="{i}" hidden></div>' for i in range(1, len(frames))]
    return PAGE.substitute(
        title=d_.html_text(title),
        headers=_headers(about, player),
        plies="\n".join(divs),
        moves="\n".join(moves),
        frames=_json({"pieces": list(pieces), "frames": frames}),
    )
