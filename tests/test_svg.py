"""Pictures (issue 15): every game's SVG parses, shows what the state holds, never shows what
a player may not see, and is deterministic; hex map overlays; tournament tables and plots;
the `render` / `view` commands."""

from __future__ import annotations

import hashlib
import itertools
import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import kingdoms
import pytest
from kingdoms import hex
from kingdoms.cli import main

NS = "{http://www.w3.org/2000/svg}"
GAMES = ["battleline", "strifull", "arte"]


def played(name: str, seed: int, plies: int) -> kingdoms.Game:
    """A game after `plies` actions chosen by a fixed rule (varied, reproducible)."""
    g = kingdoms.new_game(name, seed=seed)
    for i in range(plies):
        if g.is_terminal:
            break
        acts = g.legal_actions()
        g.apply(acts[(i * 7 + seed) % len(acts)])
    return g


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    return root


def cards(root: ET.Element) -> list[str]:
    """The face-up card glyphs' names."""
    return [g.get("data-card", "") for g in root.iter(f"{NS}g") if g.get("class") == "card"]


def backs(root: ET.Element) -> list[str]:
    return [g.get("data-back", "") for g in root.iter(f"{NS}g") if g.get("class") == "card back"]


POSITIONS = [(name, seed, plies) for name in GAMES for seed, plies in ((1, 0), (2, 25), (3, 60))]


@pytest.mark.parametrize(("name", "seed", "plies"), POSITIONS)
def test_every_picture_parses_as_svg(name: str, seed: int, plies: int) -> None:
    g = played(name, seed, plies)
    for player in (None, 0, 1):
        parse(g.svg(player))
    parse(g._repr_svg_())
    assert g._repr_svg_() == g.svg()


@pytest.mark.parametrize(("name", "seed", "plies"), POSITIONS)
def test_player_pictures_leak_nothing_across_determinizations(
    name: str, seed: int, plies: int
) -> None:
    """A player's picture is a function of their view: identical for every state
    `resample_hidden` can draw (the same leak property as views)."""
    g = played(name, seed, plies)
    for p in (0, 1):
        mine = g.svg(p)
        for s in range(5):
            assert g.resample_hidden(p, s).svg(p) == mine


@pytest.mark.parametrize("name", GAMES)
def test_pictures_are_deterministic_across_copies_and_processes(name: str) -> None:
    g = played(name, 4, 30)
    svg = g.svg()
    assert g.clone().svg() == svg
    assert kingdoms.from_json(g.to_json()).svg() == svg
    code = (
        "import hashlib, kingdoms, sys; g = kingdoms.from_json(sys.stdin.read()); "
        "print(hashlib.sha256(g.svg(0).encode()).hexdigest())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=g.to_json(), capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == hashlib.sha256(g.svg(0).encode()).hexdigest()


def test_battle_line_picture_shows_every_card_where_the_state_has_it() -> None:
    """BL: one face-up glyph per table card, Fog/Mud, hand card and discard top; the
    opponent's hand as backs in a player's picture, split troop/tactics as the backs show."""
    for seed, plies in ((2, 40), (5, 70), (9, 120)):
        g = played("battleline", seed, plies)
        s = g.to_dict()
        table = [c for f in s["flags"] for side in f["sides"] for c in side]
        env = [e["card"] for f in s["flags"] for e in f["env"]]
        top = s["discard"][-1:]
        everything = cards(parse(g.svg()))
        assert sorted(everything) == sorted(table + env + s["hands"][0] + s["hands"][1] + top)
        for p in (0, 1):
            v = g.view(p)
            root = parse(g.svg(p))
            opp = v["hands"][1 - p]
            known = [c for c in opp if c is not None]
            assert sorted(cards(root)) == sorted(table + env + s["hands"][p] + known + top)
            hidden = backs(root)
            decks = [k for k in ("troop", "tactics") if s[f"{k}_deck"]]
            assert sorted(hidden) == sorted(
                ["troop"]
                * (
                    s["hand_counts"][1 - p]["troops"]
                    - sum(1 for c in known if c[0] in "ROYGBP" and c[1:].isdigit())
                )
                + ["tactics"]
                * (
                    s["hand_counts"][1 - p]["tactics"]
                    - sum(1 for c in known if not (c[0] in "ROYGBP" and c[1:].isdigit()))
                )
                + decks
            )
            # no card of the opponent's hidden hand appears anywhere in the picture
            secret = set(s["hands"][1 - p]) - set(known) - set(table + env + top)
            text = g.svg(p)
            assert not any(f'data-card="{c}"' in text for c in secret)


def test_battle_line_claimed_flags_and_environment_are_drawn() -> None:
    g = played("battleline", 7, 400)
    s = g.to_dict()
    root = parse(g.svg())
    claimed = {
        int(e.get("data-flag", "-1")): int(e.get("data-claimed", "-1"))
        for e in root.iter(f"{NS}g")
        if e.get("class") == "flag claimed"
    }
    assert claimed == {
        f: x["claimed"] for f, x in enumerate(s["flags"]) if x["claimed"] is not None
    }
    assert claimed  # a finished game has claimed flags


def test_strifull_face_down_troops_are_backs_for_the_opponent_only() -> None:
    g = played("strifull", 3, 40)
    s = g.to_dict()
    for p in (0, 1):
        root = parse(g.svg(p))
        mine = s["sides"][p]["field"]
        theirs = s["sides"][1 - p]["field"]
        up = [c["card"] for c in theirs.values() if c["revealed"]]
        down = [c for c in theirs.values() if not c["revealed"]]
        grave = [side["graveyard"][-1] for side in s["sides"] if side["graveyard"]]
        assert sorted(cards(root)) == sorted([c["card"] for c in mine.values()] + up + grave)
        piles = sum(1 for side in s["sides"] if side["pile"])
        assert len(backs(root)) == len(down) + piles
    everything = parse(g.svg())
    on_field = [c["card"] for side in s["sides"] for c in side["field"].values()]
    grave = [side["graveyard"][-1] for side in s["sides"] if side["graveyard"]]
    assert sorted(cards(everything)) == sorted(on_field + grave)


def test_arte_hands_and_fields_match_the_state() -> None:
    for plies in (0, 12, 30, 45, 60):
        g = played("arte", 5, plies)
        for p in (None, 0, 1):
            v = g.to_dict() if p is None else g.view(p)
            root = parse(g.svg(p))
            shown: list[str] = []
            hidden = 0
            for pl in v["players"]:
                for key in ("terrains", "units", "victory", "defeated"):
                    shown += [c for c in pl[key] if c is not None]
                    hidden += sum(1 for c in pl[key] if c is None)
                shown += [c for c in pl["rows"] if c is not None]
                shown += [c for c in pl["field"].values() if c is not None]
            draft = v["draft"]
            if draft:
                for c, taken in zip(draft["slots"], draft["taken"], strict=True):
                    if taken is None:
                        if c is None:
                            hidden += 1
                        else:
                            shown.append(c)
            assert sorted(cards(root)) == sorted(shown)
            assert len(backs(root)) == hidden


def test_actions_draw_arrows_and_highlights_mark_places() -> None:
    g = played("battleline", 2, 10)
    play = next(a for a in g.legal_actions() if g.describe_action(a)["kind"] == "play")
    root = parse(g.svg(g.current_player, action=play))
    assert [e for e in root.iter() if e.get("class") == "arrow"]
    assert not [e for e in parse(g.svg()).iter() if e.get("class") == "arrow"]
    root = parse(g.svg(highlight=[0, 4]))
    assert len([e for e in root.iter() if e.get("class") == "highlight"]) == 2
    s = played("strifull", 3, 40)
    attack = next((a for a in s.legal_actions() if str(a).startswith("attack")), None)
    if attack is not None:
        assert "arrow" in s.svg(action=attack)
    assert 'class="highlight"' in s.svg(highlight=[(0, "aA1")])
    a = played("arte", 5, 60)
    assert 'class="highlight"' in a.svg(highlight=[(1, "b2")])


@pytest.mark.parametrize("name", GAMES)
def test_bad_picture_arguments_raise_clear_errors(name: str) -> None:
    g = played(name, 1, 5)
    before = g.to_json()
    with pytest.raises(kingdoms.KingdomsError, match="out of range"):
        g.svg(2)
    with pytest.raises(kingdoms.KingdomsError, match="out of range"):
        g.svg(-1)
    with pytest.raises(kingdoms.KingdomsError, match="out of range"):
        g.svg(10**30)
    with pytest.raises(TypeError, match="player"):
        g.svg("0")  # type: ignore[arg-type]
    with pytest.raises(kingdoms.NotationError):
        g.svg(action="no such move")
    with pytest.raises(TypeError, match="highlight"):
        g.svg(highlight=object())
    with pytest.raises(TypeError, match="player"):
        g.svg(True)  # type: ignore[arg-type]
    assert g.to_json() == before


# ---- hex maps ----------------------------------------------------------------------------

MAP = """
name = "Crossing"
orientation = "{o}"
picture = '''{picture}'''
[legend]
"." = "plain"
"#" = "rock"
"~" = "water"
"S" = {{ terrain = "plain", tags = ["start"] }}
"R" = {{ terrain = "plain", tags = ["renown"] }}
[terrain]
plain = {{}}
water = {{ cost = 2 }}
rock = {{ passable = false, blocks_sight = true }}
"""


PICTURES = {
    "pointy": "\n . . # . .\nS . ~ ~ . R\n . . #   .\n",
    "flat": "\n.   #   .\n  .   ~   .\nS   .   ~\n  .   .   R\n",
}


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_hex_map_picture_and_overlays(orientation: str) -> None:
    m = hex.HexMap.from_text(MAP.format(o=orientation, picture=PICTURES[orientation]))
    assert m.orientation == orientation
    start = m.zones()[0]
    m.set_occupant(start, 7)
    reach = m.reachable(start, 3)
    far = max(reach, key=lambda h: (reach[h], h))
    path = m.path(start, far)
    assert path is not None
    svg = m.svg(highlight=list(reach), path=path, labels=reach, coordinates=True)
    root = parse(svg)
    classes = [e.get("class") for e in root.iter()]
    assert classes.count("zone") == len(m)
    assert classes.count("highlight") == len(reach)
    assert classes.count("path") == 1
    assert classes.count("occupant") == 1
    assert classes.count("coord") == len(m)
    labels = [e.text for e in root.iter() if e.get("class") == "label"]
    assert sorted(labels, key=str) == sorted((str(c) for c in reach.values()), key=str)
    # two areas in two colours, two paths
    two = m.svg(highlight={"#ff0000": [start], "#0000ff": [far]}, path=[path, path[:2]])
    assert [e.get("class") for e in parse(two).iter()].count("path") == 2
    assert m.svg() == m.copy().svg() == m._repr_svg_()


def test_hex_map_picture_bad_input() -> None:
    m = hex.HexMap.from_cells({(0, 0): 1, (1, 0): 2})
    with pytest.raises(TypeError, match="highlight"):
        m.svg(highlight=[("a", 1)])
    with pytest.raises(TypeError, match="path"):
        m.svg(path=5)
    with pytest.raises(kingdoms.KingdomsError, match="size"):
        m.svg(size=-1)
    with pytest.raises(kingdoms.KingdomsError, match="size"):
        m.svg(size=float("nan"))


# ---- tournaments -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def result() -> kingdoms.TournamentResult:
    from kingdoms.agents import Greedy, Random

    return kingdoms.tournament("battleline", [Random(), Greedy()], games=6, seed=1)


def test_tournament_html_table(result: kingdoms.TournamentResult) -> None:
    table = ET.fromstring(result._repr_html_())
    assert table.tag == "table"
    rows = table.findall("./tbody/tr")
    assert [r.find("th").text for r in rows] == [result.names[i] for i in result.ranking()]  # type: ignore[union-attr]


def test_tournament_plot(result: kingdoms.TournamentResult) -> None:
    pytest.importorskip("matplotlib")
    ax = result.plot()
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == [result.names[i] for i in reversed(result.ranking())]
    assert len(ax.lines) >= 1


# ---- command line -------------------------------------------------------------------------


def test_render_and_view_commands(tmp_path: Path) -> None:
    g = played("arte", 3, 40)
    rec = tmp_path / "game.json"
    rec.write_text(g.record().to_json(), encoding="utf-8")
    out = tmp_path / "board.svg"
    assert main(["render", "arte", "--record", str(rec), "-o", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == g.svg()
    assert (
        main(
            ["render", "arte", "--record", str(rec), "--ply", "10", "--player", "1", "-o", str(out)]
        )
        == 0
    )
    assert out.read_text(encoding="utf-8") == played("arte", 3, 10).svg(1)
    page = tmp_path / "game.html"
    assert main(["view", str(rec), "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    assert html.count('class="ply"') == len(g.record().actions) + 1
    assert "http://" not in html.replace("http://www.w3.org", "")
    assert "https://" not in html
    with pytest.raises(SystemExit, match="not battleline"):
        main(["render", "battleline", "--record", str(rec)])
    with pytest.raises(SystemExit, match="--ply"):
        main(["render", "arte", "--record", str(rec), "--ply", "999"])


def test_player_replay_page_hides_other_players_moves(tmp_path: Path) -> None:
    g = played("arte", 3, 30)
    rec = tmp_path / "game.json"
    rec.write_text(json.dumps(g.record().to_dict()), encoding="utf-8")
    page = tmp_path / "p0.html"
    assert main(["view", str(rec), "--player", "0", "-o", str(page)]) == 0
    html = page.read_text(encoding="utf-8")
    # each of P1's moves as P0's views tell it (kingdoms._seen.seen_move), no more
    from kingdoms._seen import seen_move

    h = kingdoms.new_game("arte", seed=3)
    for i, text in enumerate(g.record().actions, 1):
        a = h.parse_action(text)
        shown = f"{i}. P{h.current_player}: {seen_move(h, a, 0)}"
        assert shown in html, shown
        h.apply(a)


def test_player_replay_page_shows_public_moves_and_the_records_headers(tmp_path: Path) -> None:
    from kingdoms.records import GameRecord

    g = played("battleline", 2, 20)
    about = GameRecord(
        g.record(),
        players=["Ana", "Bia"],
        event="Club night",
        date="2026.12.07",
        comments={0: "a bold start"},
        headers={"Round": "3"},
    )
    rec = tmp_path / "game.txt"
    kingdoms.write_records([about], rec)
    for player in (None, 0):
        page = tmp_path / "p.html"
        args = [] if player is None else ["--player", str(player)]
        assert main(["view", str(rec), *args, "-o", str(page)]) == 0
        html = page.read_text(encoding="utf-8")
        for shown in ("Club night", "2026.12.07", "Ana", "Bia", "Round", "Result"):
            assert shown in html, shown
        # the opponent's troop, played in the open, reads as itself
        assert f"3. P1: {g.record().actions[2]}" in html
        assert "(hidden)" not in html and "(secret)" not in html
        assert ("a bold start" in html) == (player is None)


def test_arte_secret_orders_show_to_their_owner_only() -> None:
    """AG-9: a player sees their own secret deployments where they put them (face down), the
    opponent sees only that orders were made."""
    g = played("arte", 5, 45)
    s = g.to_dict()
    orders = {p: [o["card"] for o in s["players"][p]["deploying"]] for p in (0, 1)}
    owner = next(p for p in (0, 1) if orders[p])
    mine = g.svg(owner)
    theirs = g.svg(1 - owner)
    dashed = 'stroke-dasharray="4 3"'  # a card its owner sees lying face down
    for card in orders[owner]:
        assert mine.count(f'data-card="{card}"') == 1
    assert mine.count(dashed) == len(orders[owner])
    assert theirs.count(dashed) == len(orders[1 - owner])
    assert "secret order" in theirs


DOCS = Path(__file__).resolve().parent.parent / "docs" / "pictures.md"
DOC_BLOCKS = re.findall(r"```python\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.DOTALL)


@pytest.mark.parametrize("index", range(len(DOC_BLOCKS)))
def test_pictures_doc_examples_run(index: int) -> None:
    code = compile(DOC_BLOCKS[index], f"docs/pictures.md[python block {index}]", "exec")
    exec(code, {})  # noqa: S102 - running our own docs is the point


@pytest.mark.parametrize(("name", "seed", "plies"), POSITIONS)
def test_every_legal_action_draws_as_an_arrow_or_ring(name: str, seed: int, plies: int) -> None:
    """Moves that go somewhere draw an arrow or a ring on their target, in the picture of
    everything and in the mover's own picture."""
    g = played(name, seed, plies)
    if g.is_terminal:
        return
    marked = 0
    acts = g.legal_actions()
    acts = acts[:: max(1, len(acts) // 12)]  # a dozen, spread over the kinds (id order)
    for a in acts:
        for p in (None, g.current_player):
            root = parse(g.svg(p, action=a))
            if any(e.get("class") == "arrow" for e in root.iter()):
                marked += 1
    kinds = {g.describe_action(a)["kind"] for a in acts}
    silent = {"pass", "done", "element", "leader", "step_up", "scout"}
    if kinds - silent:
        assert marked > 0, f"no arrow for any of {sorted(kinds)}"


# ---- hostile text, colours and sizes (issue 51) -------------------------------------------

HOSTILE_MAP = """
name = "<script>alert(1)</script> & \\"quoted\\""
picture = '''
 . x .
'''
[legend]
"." = "plain"
"x" = { terrain = "bad\\" onmouseover=\\"alert(1)", tags = ["<b onload=x>"] }
[terrain]
plain = {}
"bad\\" onmouseover=\\"alert(1)" = {}
"""


def test_hex_map_picture_escapes_names_labels_and_tags() -> None:
    """A map file's names reach attributes and text escaped: nothing becomes an element or
    an attribute, and labels with control characters still give valid XML."""
    from _markup import check_svg

    m = hex.HexMap.from_text(HOSTILE_MAP)
    svg = m.svg(labels={(0, 0): "\x1b[2J<i>", (1, 0): "\u202eevil"}, coordinates=True)
    root = check_svg(svg)
    terrains = {e.get("data-terrain") for e in root.iter() if e.get("class") == "zone"}
    assert 'bad" onmouseover="alert(1)' in terrains
    assert all(e.get("onmouseover") is None for e in root.iter())
    texts = [e.text or "" for e in root.iter()]
    assert any("<script>alert(1)</script>" in t for t in texts)  # shown as text, escaped
    assert "\x1b" not in svg and "\u202e" not in svg


def test_hex_map_names_must_be_printable_text() -> None:
    """Names in a map are printable text, refused at load with the field named."""
    bad = HOSTILE_MAP.replace("<script>", "\\u001b[31m")
    with pytest.raises(kingdoms.DataError, match=r"name.*U\+001B"):
        hex.HexMap.from_text(bad)
    with pytest.raises(kingdoms.DataError, match=r"terrain.*U\+202E"):
        hex.HexMap.from_text(HOSTILE_MAP.replace("bad", "\\u202ebad"))
    m = hex.HexMap.from_cells({(0, 0): 1})
    with pytest.raises(kingdoms.DataError, match="tag"):
        m.add_tag((0, 0), "a\x07b")
    with pytest.raises(kingdoms.DataError, match="map name"):
        m.name = "x" * 65
    m.name = "Crossing ★"
    assert m.name == "Crossing ★"


def test_hex_map_highlight_colours_follow_the_grammar() -> None:
    m = hex.HexMap.from_cells({(0, 0): 1, (1, 0): 1})
    for ok in ("#f00", "#FF0000", "red", "Teal"):
        check = m.svg(highlight={ok: [(0, 0)]})
        assert 'class="highlight"' in check
    for bad in ('red" onload="alert(1)', "url(javascript:x)", "#ff00", "", "reddish"):
        with pytest.raises(kingdoms.KingdomsError, match="highlight key 0: expected a colour"):
            m.svg(highlight={bad: [(0, 0)]})


def test_hex_map_picture_size_is_bounded() -> None:
    """At most MAX_PICTURE_HEXES zones and overlay hexes, refused before drawing."""
    from kingdoms._svg.hexmap import MAX_PICTURE_HEXES

    side = 142  # 142 * 142 = 20,164 zones
    big = hex.HexMap.from_cells({(q, r): 1 for q in range(side) for r in range(side)})
    with pytest.raises(kingdoms.KingdomsError, match=f"at most {MAX_PICTURE_HEXES}"):
        big.svg()
    small = hex.HexMap.from_cells({(0, 0): 1})
    with pytest.raises(kingdoms.KingdomsError, match=f"at most {MAX_PICTURE_HEXES}"):
        small.svg(highlight=[(0, 0)] * (MAX_PICTURE_HEXES + 1))
    with pytest.raises(kingdoms.KingdomsError, match=f"at most {MAX_PICTURE_HEXES}"):
        small.svg(path=iter([(0, 0)] * 10**7))  # refused after the limit, not after 10^7


def test_every_drawer_writes_through_the_one_layer() -> None:
    """No drawer imports an SVG or XML writer: every element, attribute and text goes
    through kingdoms._svg._draw, which escapes and checks it."""
    import kingdoms._svg as pictures

    folder = Path(pictures.__file__).parent
    for module in folder.glob("*.py"):
        if module.name in ("_draw.py", "results.py"):  # results: ElementTree escapes too
            continue
        src = module.read_text(encoding="utf-8")
        assert "drawsvg" not in src and "ElementTree" not in src, module.name
        assert "html.escape" not in src, f"{module.name}: escape through _draw.html_text"


def test_draw_layer_refuses_unknown_elements_attributes_and_colours() -> None:
    from kingdoms._svg import _draw as d_

    with pytest.raises(ValueError, match="script"):
        d_.Element("script")
    with pytest.raises(ValueError, match="onclick"):
        d_.Group(onclick="x")
    with pytest.raises(ValueError, match="href"):
        d_.Group(href="javascript:x")
    with pytest.raises(kingdoms.KingdomsError, match="fill"):
        d_.Rectangle(0, 0, 1, 1, fill="x;y")
    assert d_.clean("a\x1b\x85\u202e\u2028b") == "a\ufffd\ufffd\ufffd\ufffdb"
    assert len(d_.clean("x" * 10**6)) == d_.MAX_TEXT


def test_player_replay_page_hides_the_seed(tmp_path: Path) -> None:
    """The seed rebuilds every hidden card: only the page of everything shows it."""
    g = played("battleline", 987654321, 20)
    rec = tmp_path / "game.json"
    rec.write_text(g.record().to_json(), encoding="utf-8")
    for player in (0, 1):
        page = tmp_path / f"p{player}.html"
        assert main(["view", str(rec), "--player", str(player), "-o", str(page)]) == 0
        assert "987654321" not in page.read_text(encoding="utf-8")
    page = tmp_path / "all.html"
    assert main(["view", str(rec), "-o", str(page)]) == 0
    assert "seed 987654321" in page.read_text(encoding="utf-8")


def test_long_zinordia_replay_page_is_bounded() -> None:
    """Plies share their pictures' elements: a 4-player Zinordia game of a few thousand
    actions is a few MB, not tens; past MAX_PAGE_BYTES the page is refused."""
    from _markup import check_page
    from kingdoms._svg import replay

    g = kingdoms.new_game("zinordia", seed=5, mode="free_for_all", players=4, max_rounds=1000)
    while not g.is_terminal and len(g.record().actions) < 800:
        acts = g.legal_actions()
        g.apply(acts[len(g.record().actions) * 7 % len(acts)])
    page = replay.replay_html(g.record())
    per_ply = len(page) / (len(g.record().actions) + 1)
    assert per_ply < 2_000, per_ply  # a ply's full picture is about 15,000 bytes
    pictures = check_page(page)
    assert len(pictures) == len(g.record().actions) + 1
    assert pictures[-1] == g.svg()
    old = replay.MAX_PAGE_BYTES
    try:
        replay.MAX_PAGE_BYTES = 100_000
        with pytest.raises(kingdoms.KingdomsError, match="larger than"):
            replay.replay_html(g.record())
    finally:
        replay.MAX_PAGE_BYTES = old


def test_picture_caches_are_keyed_by_a_hash_and_bounded() -> None:
    from kingdoms._svg import strifull, zinordia

    for i in range(12):
        kingdoms.new_game("zinordia", seed=i, max_rounds=10 + i).svg()
    store = zinordia._map.store  # type: ignore[attr-defined]
    assert 0 < len(store) <= 8
    assert all(isinstance(k, bytes) and len(k) == 32 for k in store)
    kingdoms.new_game("strifull", seed=1).svg()
    assert all(isinstance(k, bytes) for k in strifull._cards.store)  # type: ignore[attr-defined]


ALL_GAMES = ["battleline", "strifull", "arte", "zinordia"]


@pytest.mark.parametrize("name", ALL_GAMES)
def test_a_seats_picture_render_and_page_are_identical_across_resample_hidden(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bytes a seat receives (its picture, its text rendering, its replay page) are the
    same for every state `resample_hidden` can draw from its view, at random positions of
    random games (issue 51)."""
    import random

    from kingdoms._svg import replay

    rng = random.Random(f"resample {name}")
    for _ in range(2):
        g = kingdoms.new_game(name, seed=rng.randrange(2**32))
        along = [g.clone()]
        for _ in range(rng.randrange(10, 45)):
            if g.is_terminal:
                break
            g.apply(rng.choice(g.legal_actions()))
            along.append(g.clone())
        for at in rng.sample(range(len(along)), 3):
            h = along[at]
            for p in range(h.num_players):
                mine = (h.svg(p), h.render(p))
                for s in range(4):
                    r = h.resample_hidden(p, rng.randrange(2**32))
                    assert (r.svg(p), r.render(p)) == mine, (at, p, s)
        record = g.record()
        real = replay.positions
        for p in range(g.num_players):
            page = replay.replay_html(record, p)
            assert str(record.seed) not in page.split("<svg", 1)[0]

            def resampled(
                record: Any, player: Any, p: int = p, along: list[Any] = along, real: Any = real
            ) -> Any:
                for i, (move, _) in enumerate(real(record, player)):
                    yield move, along[i].resample_hidden(p, rng.randrange(2**32)).svg(p)

            monkeypatch.setattr(replay, "positions", resampled)
            assert replay.replay_html(record, p) == page
            monkeypatch.setattr(replay, "positions", real)


@pytest.mark.parametrize("game", ["strifull", "arte", "zinordia"])
@pytest.mark.parametrize("bad", ["\x1b]0;pwned\x07", "\u202eevil", "nel\x85", "x" * 100])
def test_content_names_must_be_printable_text(game: str, bad: str) -> None:
    """Card, faction, Star and ability names reach terminals and pictures: a name with a
    control character, a bidi override or over the length limit is refused at load, with
    the field named and the name not quoted (issue 51)."""
    from kingdoms import arte, strifull, zinordia

    if game == "strifull":
        text = "\n".join(strifull.reference_files().values())
        load: Any = lambda t: strifull.Strifull(seed=1, cards_toml=t)
    elif game == "arte":
        text = "\n".join(arte.reference_files().values())
        load = lambda t: arte.Arte(seed=1, cards_toml=t)
    else:
        text = zinordia.reference_files()["roster.toml"]
        load = lambda t: zinordia.Zinordia(seed=1, roster_toml=t)
    names = re.findall(r'^name = "(.*)"$', text, flags=re.MULTILINE)
    target = names[len(names) // 2]
    hostile = text.replace(f'name = "{target}"', f"name = {json.dumps(bad)}", 1)
    with pytest.raises(kingdoms.DataError, match="name") as e:
        load(hostile)
    assert bad not in str(e.value) and "\x1b" not in str(e.value)
    load(text.replace(f'name = "{target}"', 'name = "<b>\\"ok\\" & fine</b>"', 1)).svg()


def test_terminal_text_from_data_carries_no_control_characters() -> None:
    """`kingdoms play` prints every rendering and move through `colour`, which goes through
    the one sanitiser: no ESC sequence (title, colours, clearing) reaches the terminal."""
    from kingdoms._cli_play import colour
    from kingdoms._text import terminal

    shown = colour("battleline", "R10 \x1b]0;pwned\x07\x1b[2J \u202eevil\nG3 \x85").plain
    assert not re.search("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]", shown), repr(shown)
    assert shown.count("\n") == 1 and "R10" in shown and "G3" in shown
    assert terminal("a\nb\tc") == "a\nb\ufffdc"


def card_text(root: ET.Element, cls: str = "card") -> dict[str, str]:
    """Each glyph of class ``cls``: its ``data-card`` (or ``data-leader``) to its text."""
    return {
        g.get("data-card") or g.get("data-leader") or "": " ".join(
            t.text or "" for t in g.iter(f"{NS}text")
        )
        for g in root.iter(f"{NS}g")
        if g.get("class") == cls
    }


def test_strifull_cards_show_whole_names_and_one_legend() -> None:
    from kingdoms.strifull import card_set

    by_id = {
        c["id"]: c for c in [*card_set(None, None)["troops"], *card_set(None, None)["leaders"]]
    }
    g = played("strifull", 3, 40)
    root = parse(g.svg())
    shown = card_text(root)
    assert shown
    for cid, words in shown.items():
        c = by_id[cid]
        # the whole name, over two lines, and the element's code next to the numbers
        assert " ".join(words.split()).startswith(c["name"]), (cid, words)
        assert (
            f"{c['atk']}" in words
            and {"fire": "Fi", "water": "Wa", "wind": "Wi", "earth": "Ea"}[c["element"]] in words
        )
    svg = g.svg()
    assert svg.lower().count("atk / def") == 1  # said once, in the legend
    legends = [e for e in root.iter(f"{NS}g") if e.get("class") == "legend"]
    assert len(legends) == 1
    legend = " ".join(t.text or "" for t in legends[0].iter(f"{NS}text"))
    for element in ("fire", "water", "wind", "earth"):
        assert element in legend
    leaders = card_text(root, "leader")
    for side in g.to_dict()["sides"]:
        words = " ".join(leaders[side["leader"]].split())
        assert by_id[side["leader"]]["name"] in words and "leader" in words


def test_strifull_names_wrap_between_words_and_cut_only_past_two_lines() -> None:
    from kingdoms._svg.strifull import wrap_name

    assert wrap_name("Ilusionista dos Espelhos d'Água") == ["Ilusionista dos", "Espelhos d'Água"]
    assert wrap_name("Adepto do Fogo") == ["Adepto do Fogo", ""]
    first, second = wrap_name("a" * 40)
    assert len(first) <= 16 and second.endswith("…")


def test_battle_line_troops_carry_their_colours_letter() -> None:
    g = played("battleline", 2, 55)
    for player in (None, 0):
        shown = card_text(parse(g.svg(player)))
        troops = {k: v for k, v in shown.items() if k[1:].isdigit()}
        assert len(troops) > 10
        for name, words in troops.items():
            # "5 R": the value and the colour's letter, not colour alone
            assert f"{name[1:]} {name[0]}" in words, (name, words)


def test_arte_victory_and_defeated_piles_show_every_card_whole() -> None:
    g = played("arte", 3, 400)
    state = g.to_dict()
    root = parse(g.svg())
    boxes = {
        grp.get("data-card"): next(grp.iter(f"{NS}rect"))
        for grp in root.iter(f"{NS}g")
        if grp.get("class") == "card"
    }
    piles = [pl[k] for pl in state["players"] for k in ("victory", "defeated")]
    assert max(map(len, piles)) >= 5
    for pile in piles:
        rects = sorted((float(boxes[c].get("x", 0)), float(boxes[c].get("width", 0))) for c in pile)
        # no card of a pile covers another: every name can be read
        for (x, w), (nx, _) in itertools.pairwise(rects):
            assert nx >= x + w, pile


@pytest.mark.parametrize("name", [*GAMES, "zinordia"])
def test_the_whole_picture_marks_the_last_move(name: str) -> None:
    g = played(name, 2, 25)
    last = g.to_dict()["history"][-1]
    root = parse(g.svg())
    marks = [e for e in root.iter(f"{NS}g") if e.get("class") == "last-move"]
    assert len(marks) == 1
    assert " ".join(t.text or "" for t in marks[0].iter(f"{NS}text")) == f"last move: {last}"
    fresh = parse(kingdoms.new_game(name, seed=2).svg())
    assert not [e for e in fresh.iter(f"{NS}g") if e.get("class") == "last-move"]


def test_arte_cards_show_whole_names() -> None:
    # every card drawn, in the hands, the fields and the piles, carries its whole name
    # (over two lines where it is long), not a name cut to a dozen letters
    g = played("arte", 3, 400)
    names = {
        c["id"]: c["name"] for kind in ("terrain", "units") for c in g.to_dict()["cards"][kind]
    }
    for player in (None, 0, 1):
        shown = card_text(parse(g.svg(player)))
        assert len(shown) > 10
        for cid, words in shown.items():
            assert names[cid] in " ".join(words.split()), (cid, words)
            assert "…" not in words
    assert max(map(len, names.values())) > 16  # a name that a 12-letter cut would lose
