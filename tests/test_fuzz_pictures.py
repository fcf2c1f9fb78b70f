"""Fuzzing pictures and pages (issue 51): every SVG a game, a map or the drawing layer writes,
every replay page and tournament table, from hostile content (names with markup, quotes,
ESC, bidi controls, very long text; hostile maps, labels and colours) and random positions
of every game. Every SVG must parse as XML and every page with html.parser, hold only
allowlisted elements and attributes (no script but the page's own, no on* handler, no
foreignObject, no javascript: URL, no href) and no control character; every text
rendering (`render`) must hold no control character but newlines. Content with unprintable
names must be refused with a DataError. Long run:
``python -m pytest tests/test_fuzz_pictures.py -m slow -s``.
"""

from __future__ import annotations

import random
import re
import time
from types import SimpleNamespace
from typing import Any

import kingdoms
import pytest
from _fuzz import CALLS, QUICK, count, long_run
from _fuzz import call as _call
from _markup import UNPRINTABLE, check_page, check_svg
from hypothesis import given
from hypothesis import strategies as st
from kingdoms import _text, arte, hex, strifull, zinordia
from kingdoms._svg import _draw as d_
from kingdoms._svg.replay import replay_html
from kingdoms._svg.results import tournament_html

HOSTILE = [
    "<script>alert(1)</script>",
    '" onload="alert(1)',
    "' onclick='alert(1)'",
    "&amp;&lt;&#x3c;",
    "]]><!--",
    "</svg><script>",
    "</script><script>alert(1)</script>",
    "<foreignObject><body onload=alert(1)>",
    "javascript:alert(1)",
    "url(javascript:alert(1))",
    "$title ${plies} {0} %s",
    "\x1b[2J\x1b]0;pwned\x07",
    "\x1b[31mred",
    "\u202eevil\u202c",
    "\u2066iso\u2069",
    "line\u2028sep",
    "nel\x85",
    "nul\x00",
    "tab\tnew\nline\r",
    "\ufffe\uffff",
    "é ★ 𝄞 漢字",
    "x" * 70,
    "<" * 300,
]
COLOURS = ["red", "#f00", "#ABCDEF", "none", "Teal", "#ff00", "red;x", "url(#k0)", '"', ""]
SURFACES = ["layer", "content", "positions", "hexmaps", "pages", "tables"]


def call(surface: str, f: Any, *args: Any, **kwargs: Any) -> Any:
    """`_fuzz.call` (a result, or the KingdomsError/TypeError raised), counted apart from
    the inputs."""
    return _call(f"{surface} calls", f, *args, **kwargs)


def hostile(rng: random.Random) -> str:
    parts = [rng.choice(HOSTILE) for _ in range(rng.randrange(1, 3))]
    if rng.random() < 0.3:
        parts.append("".join(chr(rng.randrange(0, 0x3000)) for _ in range(rng.randrange(8))))
    return "".join(parts)


def toml_string(s: str) -> str:
    """`s` as a TOML basic string, everything outside printable ASCII escaped."""
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif " " <= c <= "~":
            out.append(c)
        elif ord(c) < 0x10000:
            out.append(f"\\u{ord(c):04X}")
        else:
            out.append(f"\\U{ord(c):08X}")
    return '"' + "".join(out) + '"'


def check_render(text: str) -> None:
    assert not UNPRINTABLE.search(text.replace("\n", " ")), repr(text)[:200]


# ---- the drawing layer -------------------------------------------------------------------


def fuzz_layer(rng: random.Random) -> None:
    """One hostile string at one place of the drawing layer (text, attribute, tooltip, card
    glyph), or as a colour."""
    count("layer")
    s = hostile(rng)
    canvas = d_.canvas(rng.randrange(1, 900), rng.randrange(1, 900))
    kind = rng.randrange(6)
    if kind == 0:
        canvas.append(d_.text(1, 2, s, 9, anchor=rng.choice(["start", "end"]), weight="bold"))
    elif kind == 1:
        canvas.append(d_.Group(class_=s, data_card=s))
    elif kind == 2:
        g = d_.Group()
        g.append_title(s)
        canvas.append(g)
    elif kind == 3:
        canvas.append(d_.card_face(0, 0, 9, 9, name=s, fill="#fff", lines=[(s, 8)], title=s))
    elif kind == 4:
        canvas.append(d_.card_back(0, 0, 9, 9, back=s, fill="#000", label=s))
        d_.arrow(canvas, 0, 0, rng.random() * 100, 50)
    else:
        out = call("layer", d_.colour, rng.choice([*COLOURS, s]))
        if isinstance(out, BaseException):
            assert isinstance(out, kingdoms.KingdomsError), out
            return
        canvas.append(d_.Rectangle(0, 0, 5, 5, fill=out, stroke=out))
    check_svg(d_.svg_text(canvas))


# ---- content with hostile names ----------------------------------------------------------

STRIFULL_TOML = "\n".join(strifull.reference_files().values())
ARTE_TOML = "\n".join(arte.reference_files().values())
ROSTER_TOML = zinordia.reference_files()["roster.toml"]
NAME_LINE = re.compile(r'^(\s*name\s*=\s*)".*"\s*$', re.MULTILINE)


def with_names(text: str, rng: random.Random) -> tuple[str, list[str]]:
    """`text` with some `name = "..."` lines replaced by hostile names (as TOML strings):
    half the sets only printable ones (markup, quotes, long text), which load and are drawn."""
    used: list[str] = []
    loadable = rng.random() < 0.5

    def swap(m: re.Match[str]) -> str:
        if rng.random() < 0.3:
            s = hostile(rng)
            if loadable:
                s = _text.UNPRINTABLE.sub("", s)[:40] or "x"
            used.append(s)
            return m.group(1) + toml_string(s)
        return m.group(0)

    return NAME_LINE.sub(swap, text), used


def printable(s: str) -> bool:
    return not _text.UNPRINTABLE.search(s) and bool(s.strip())


def play(g: kingdoms.Game, rng: random.Random, plies: int) -> list[kingdoms.Game]:
    along = [g.clone()]
    for _ in range(plies):
        if g.is_terminal:
            break
        g.apply(rng.choice(g.legal_actions()))
        along.append(g.clone())
    return along


def draw_all(g: kingdoms.Game, rng: random.Random) -> None:
    acts = g.legal_actions() if not g.is_terminal else []
    action = rng.choice(acts) if acts and rng.random() < 0.5 else None
    check_svg(g.svg(action=action))
    for p in range(g.num_players):
        check_svg(g.svg(p))
        check_render(g.render(p))
    check_render(g.render())


def fuzz_content(rng: random.Random) -> None:
    count("content")
    kind = rng.randrange(3)
    if kind == 0:
        text, used = with_names(STRIFULL_TOML, rng)
        g = call("content", strifull.Strifull, seed=rng.randrange(2**32), cards_toml=text)
    elif kind == 1:
        text, used = with_names(ARTE_TOML, rng)
        g = call("content", arte.Arte, seed=rng.randrange(2**32), cards_toml=text)
    else:
        text, used = with_names(ROSTER_TOML, rng)
        g = call("content", zinordia.Zinordia, seed=rng.randrange(2**32), roster_toml=text)
    if isinstance(g, BaseException):
        # refused: only for a name that is not printable text or too long
        assert isinstance(g, kingdoms.DataError), g
        assert any(not printable(s) or len(s) > 40 for s in used), (str(g)[:200], used)
        return
    assert all(printable(s) for s in used)
    for h in play(g, rng, rng.randrange(0, 40))[:: rng.randrange(5, 12)]:
        draw_all(h, rng)


# ---- random positions of every game ------------------------------------------------------


def fuzz_positions(rng: random.Random) -> None:
    name = rng.choice(kingdoms.games())
    g = kingdoms.new_game(name, seed=rng.randrange(2**32))
    along = play(g, rng, rng.randrange(0, 120))
    h = rng.choice(along)
    count("positions")
    draw_all(h, rng)
    junk = rng.choice([[0], [9], ["R1"], [(0, "aA1")], [[1, "b2"]], ["0,0"], [hostile(rng)]])
    out = call("positions", h.svg, rng.choice([None, 0]), highlight=junk)
    if isinstance(out, str):
        check_svg(out)


# ---- hex maps ------------------------------------------------------------------------------

MAP = """
name = {name}
orientation = "{o}"
picture = '''
 . x . .
. . x .
'''
[legend]
"." = "plain"
"x" = {{ terrain = {terrain}, tags = [{tag}] }}
[terrain]
plain = {{}}
{terrain} = {{ cost = 2 }}
"""


def fuzz_hexmaps(rng: random.Random) -> None:
    count("hexmaps")
    names = [toml_string(hostile(rng)) for _ in range(3)]
    text = MAP.format(
        name=names[0], terrain=names[1], tag=names[2], o=rng.choice(["pointy", "flat"])
    )
    m = call("hexmaps", hex.HexMap.from_text, text)
    if isinstance(m, BaseException):
        assert isinstance(m, kingdoms.DataError), m
        m = hex.HexMap.from_cells({(q, r): 1 + (q * r) % 3 for q in range(4) for r in range(3)})
    zones = m.zones()
    labels = {rng.choice(zones): hostile(rng) for _ in range(rng.randrange(4))}
    colour = rng.choice(COLOURS + [hostile(rng)])
    highlight = {colour: rng.sample(zones, min(3, len(zones)))} if rng.random() < 0.7 else None
    path = rng.sample(zones, min(2, len(zones))) if rng.random() < 0.5 else None
    out = call(
        "hexmaps",
        m.svg,
        highlight=highlight,
        path=path,
        labels=labels,
        coordinates=rng.random() < 0.5,
        size=rng.choice([4, 10, 28.0, 500]),
    )
    if isinstance(out, str):
        check_svg(out)
    else:
        assert isinstance(out, kingdoms.KingdomsError) and "colour" in str(out), out


# ---- replay pages and tables ---------------------------------------------------------------


def fuzz_pages(rng: random.Random) -> None:
    name = rng.choice(kingdoms.games())
    g = kingdoms.new_game(name, seed=rng.randrange(2**32))
    play(g, rng, rng.randrange(0, 25))
    count("pages")
    player = rng.choice([None, *range(g.num_players)])
    pictures = check_page(replay_html(g.record(), player))
    assert pictures[-1] == g.svg(player)


def fuzz_tables(rng: random.Random) -> None:
    count("tables")
    n = rng.randrange(1, 4)
    totals = [SimpleNamespace(wins=1, draws=0, losses=1, score=0.5) for _ in range(n)]
    elo = [SimpleNamespace(elo=0.0, lo=-10.0, hi=10.0) for _ in range(n)]
    result = SimpleNamespace(
        names=[hostile(rng) for _ in range(n)],
        game=hostile(rng),
        games=2,
        pairing=hostile(rng),
        seed=1,
        totals=totals,
        elo=elo,
        ranking=lambda: list(range(n)),
        pairwise=lambda i, j: SimpleNamespace(score=0.5),
    )
    check_page(tournament_html(result))


FUZZERS: dict[str, Any] = {
    "layer": fuzz_layer,
    "content": fuzz_content,
    "positions": fuzz_positions,
    "hexmaps": fuzz_hexmaps,
    "pages": fuzz_pages,
    "tables": fuzz_tables,
}
# Inputs per hypothesis example in the long run, per surface (cheap surfaces batch more).
BATCH = {"layer": 100, "content": 1, "positions": 2, "hexmaps": 10, "pages": 1, "tables": 50}


def run_one(surface: str, seed: int) -> None:
    rng = random.Random(f"{surface} {seed}")
    for _ in range(BATCH[surface]):
        FUZZERS[surface](rng)


@pytest.mark.parametrize("surface", SURFACES)
@QUICK
@given(seed=st.integers(0, 2**32))
def test_fuzz_pictures(surface: str, seed: int) -> None:
    run_one(surface, seed)


# Hypothesis examples per surface at scale 1 (about a minute of CPU in all; the figures in
# docs/protocol.md are scale 10).
LONG = {"layer": 330, "content": 30, "positions": 60, "hexmaps": 200, "pages": 10}
LONG["tables"] = 100


@pytest.mark.slow
@pytest.mark.parametrize("surface", SURFACES)
def test_fuzz_pictures_long(surface: str) -> None:
    CALLS[surface] = 0
    start = time.perf_counter()
    long_run(LONG[surface])(
        given(seed=st.integers(0, 2**32))(lambda seed: run_one(surface, seed))
    )()
    seconds = time.perf_counter() - start
    print(
        f"\npictures fuzz, {surface}: {CALLS.get(surface, 0)} inputs in {seconds:.0f} s, "
        "every SVG and page inside the allowlist"
    )
