"""Zinordia through the Python API: construction and modes, notation, views hiding the secret
selection (ZN-4.2), team results (ZN-12.8), one's own content with clear errors, pictures.
Rule ids refer to docs/rules/zinordia.md."""

from __future__ import annotations

import html
import random
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import kingdoms
import numpy as np
import pytest
from kingdoms.zinordia import MODES, Zinordia, content_options, reference_files

if sys.version_info >= (3, 11):
    import tomllib
else:  # the test extra installs tomli there
    import tomli as tomllib

#: Every second reading of the rules chosen (docs/rules/zinordia.md, each **Option**).
SECOND_READINGS: dict[str, object] = {
    "unique_stars": "game",
    "lines": "drawn",
    "durations_tick": "turn_end",
    "split_movement": False,
    "reaction_order": "initiative",
    "untimed_buffs": "round",
    "marks_stack": True,
    "reactions_interrupt": False,
    "ally_defeat": "pays",
}

MODE_OPTIONS = [
    {},
    {"mode": "free_for_all", "players": 3},
    {"mode": "free_for_all", "players": 4, "selection": "draft"},
    {"mode": "teams", "placement": "blocks"},
    {"mode": "free_for_all", "players": 3, **SECOND_READINGS},
]


def play_out(g: Zinordia, seed: int = 0, limit: int = 20_000) -> Zinordia:
    rng = random.Random(seed)
    for _ in range(limit):
        if g.is_terminal:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def test_construction_and_modes() -> None:
    g = Zinordia(seed=1)
    assert g.name == "zinordia" and g.num_players == 2
    assert kingdoms.new_game("zinordia", seed=1).to_dict() == g.to_dict()
    assert "zinordia" in kingdoms.games()
    assert set(MODES) == {"duel", "free_for_all", "teams"}
    assert Zinordia(seed=1, mode="free_for_all", players=4).num_players == 4
    t = Zinordia(seed=1, mode="teams")
    assert [t.team(p) for p in range(4)] == [0, 1, 0, 1]
    with pytest.raises(kingdoms.RulesOptionError, match="players"):
        Zinordia(seed=1, mode="duel", players=3)
    with pytest.raises(kingdoms.RulesOptionError, match="mode"):
        Zinordia(seed=1, mode="chess")
    with pytest.raises(kingdoms.RulesOptionError):
        Zinordia(seed=1, no_such_option=True)


def test_second_readings_are_keywords_carried_in_saved_states() -> None:
    g = Zinordia(seed=1, **SECOND_READINGS)
    assert {k: g.options[k] for k in SECOND_READINGS} == SECOND_READINGS
    d = g.to_dict()
    assert {k: d["options"][k] for k in SECOND_READINGS} == SECOND_READINGS
    assert kingdoms.from_dict(d).to_dict() == d
    # The defaults: every option is listed, a saved state leaves the readings out.
    plain = Zinordia(seed=1)
    assert plain.options["lines"] == "axis" and plain.options["split_movement"] is True
    assert not set(SECOND_READINGS) & set(plain.to_dict()["options"])
    with pytest.raises(kingdoms.RulesOptionError, match="drawn"):
        Zinordia(seed=1, lines="curved")


@pytest.mark.parametrize(
    "options", MODE_OPTIONS, ids=["duel", "ffa3", "ffa4", "teams", "second-readings"]
)
def test_random_games_end_and_round_trip(options: dict[str, object]) -> None:
    g = play_out(Zinordia(seed=7, **options), seed=7)
    assert g.is_terminal
    back = kingdoms.from_dict(g.to_dict())
    assert back.to_dict() == g.to_dict()
    returns = g.returns()
    if g.winner is not None:
        team = g.team(g.winner)
        assert returns == [1.0 if g.team(p) == team else -1.0 for p in range(g.num_players)]


def test_notation_round_trips_and_names_bad_text() -> None:
    g = Zinordia(seed=2)
    for a in g.legal_actions():
        assert g.parse_action(str(a)) == a
    g.apply("pick ignara")
    with pytest.raises(kingdoms.NotationError, match="no Star"):
        g.parse_action("pick nobody")
    with pytest.raises(kingdoms.NotationError):
        g.parse_action("move here")
    with pytest.raises(kingdoms.IllegalActionError, match="ZN-4.2"):
        g.apply("end turn")


def test_views_hide_the_secret_selection_until_the_reveal() -> None:
    g = Zinordia(seed=3)
    g.apply("pick ignara")
    assert g.view(0)["picks"][0] == ["ignara"]
    assert g.view(1)["picks"][0] == [None]
    assert g.view(0)["rng"] is None
    assert "ignara" not in g.render(1)
    with pytest.raises(kingdoms.StateError, match="rng"):
        kingdoms.from_dict(g.view(0))
    # Player 1's observation is the same whichever Star player 0 picked.
    h = Zinordia(seed=3)
    h.apply(h.legal_actions()[-1])
    assert np.array_equal(g.observation_tensor(1), h.observation_tensor(1))
    # Every determinization agrees with the view.
    for seed in range(5):
        assert g.resample_hidden(1, seed).view(1) == g.view(1)


def test_observation_shape_is_fixed_and_bounded() -> None:
    g = Zinordia(seed=4)
    shape = g.observation_shape
    for _ in range(200):
        if g.is_terminal:
            break
        obs = g.observation_tensor(g.current_player)
        assert obs.shape == tuple(shape)
        assert obs.min() >= 0.0 and obs.max() <= 1.0
        g.apply(random.Random(4).choice(g.legal_actions()))


def test_own_content_from_files(tmp_path: Path) -> None:
    files = reference_files()
    assert {"roster.toml", "modes.toml", "maps/arena.toml"} <= set(files)
    roster = tmp_path / "roster.toml"
    roster.write_text(files["roster.toml"].replace('name = "Ignara"', 'name = "Ignara II"'))
    opts = content_options(roster=roster)
    g = Zinordia(seed=1, **opts)
    assert "roster_toml" in g.to_dict()["options"]
    assert kingdoms.from_dict(g.to_dict()).to_dict() == g.to_dict()

    maps = tmp_path / "maps"
    maps.mkdir()
    (maps / "arena.toml").write_text(files["maps/arena.toml"])
    assert set(content_options(maps=maps)["maps_toml"]) == {"arena"}

    bad = tmp_path / "bad.toml"
    bad.write_text(files["roster.toml"].replace("vida = ", "vida = 500 #", 1))
    with pytest.raises(kingdoms.DataError, match=r"roster_toml.*vida"):
        Zinordia(seed=1, **content_options(roster=bad))
    with pytest.raises(kingdoms.DataError, match="cannot read"):
        content_options(roster=tmp_path / "missing.toml")
    with pytest.raises(kingdoms.DataError, match="not a directory"):
        content_options(maps=tmp_path / "missing")


def test_own_terrain_kinds_from_a_file(tmp_path: Path) -> None:
    # ZN-2.9: the terrain kinds are data a user can replace (forests defending by 2 here).
    kinds = reference_files()["terrain.toml"]
    terrain = tmp_path / "terrain.toml"
    terrain.write_text(kinds.replace("defence = 1", "defence = 2"))
    opts = content_options(terrain=terrain)
    assert opts == {"terrain_toml": terrain.read_text()}
    g = Zinordia(seed=1, **opts)
    assert g.to_dict()["options"]["terrain_toml"] == terrain.read_text()
    assert kingdoms.from_dict(g.to_dict()).to_dict() == g.to_dict()
    assert "terrain_toml" not in Zinordia(seed=1).to_dict()["options"]
    terrain.write_text(kinds.replace("cost = 2", "cost = 12", 1))
    with pytest.raises(kingdoms.DataError, match=r"terrain_toml, kind \"forest\", field cost"):
        Zinordia(seed=1, **content_options(terrain=terrain))
    terrain.write_text(kinds.replace("[kinds.hill]", "[kinds.mound]"))
    with pytest.raises(
        kingdoms.DataError, match=r"map \"arena\".*\"hill\" is not a kind of terrain_toml"
    ):
        Zinordia(seed=1, **content_options(terrain=terrain))


def test_pictures_show_the_board_and_hide_picks() -> None:
    g = Zinordia(seed=5)
    g.apply("pick ignara")
    whole = g.svg()
    ET.fromstring(whole)
    assert "ignara" in whole
    assert "ignara" not in g.svg(1)
    g = play_out(Zinordia(seed=5), seed=5, limit=60)
    svg = g.svg()
    root = ET.fromstring(svg)
    stars = [e for e in root.iter() if e.get("class") == "star"]
    on_board = [s for s in g.to_dict()["stars"] if s["zone"] is not None]
    assert len(stars) == len(on_board)
    zones = [e for e in root.iter() if e.get("class") == "zone"]
    assert len(zones) == len(kingdoms.hex.HexMap.from_text(Zinordia.map_text()).zones())


def test_map_text_follows_the_options() -> None:
    duel = kingdoms.hex.HexMap.from_text(Zinordia.map_text())
    teams = kingdoms.hex.HexMap.from_text(Zinordia.map_text(mode="teams"))
    assert duel != teams
    with pytest.raises(kingdoms.RulesOptionError):
        Zinordia.map_text(mode="chess")


def test_zn_2_9_the_picture_draws_terrain() -> None:
    terrain = tomllib.loads(reference_files()["terrain.toml"])["kinds"]
    assert terrain["forest"]["defence"] == 1 and terrain["hill"]["attack"] == 1
    m = kingdoms.hex.HexMap.from_text(Zinordia.map_text())
    want = {f"{h.q},{h.r}": m.terrain(h) for h in m.zones()}
    assert {"forest", "hill"} <= set(want.values())
    root = ET.fromstring(Zinordia(seed=2).svg())
    zones = {e.get("data-hex"): e for e in root.iter() if e.get("class") == "zone"}
    fills = {}
    for h, e in zones.items():
        assert e.get("data-terrain") == want[h]
        fills.setdefault(want[h], set()).add(next(iter(e)).get("fill"))
    assert len(fills["forest"]) == 1 and len(fills["hill"]) == 1
    assert fills["forest"] != fills["hill"] != fills["plain"]
    assert fills["forest"] != fills["plain"]


def test_map_text_of_a_game_uses_its_own_options() -> None:
    teams = Zinordia(seed=1, mode="teams")
    assert teams.map_text() == Zinordia.map_text(mode="teams")
    assert teams.map_text() != Zinordia.map_text()
    assert Zinordia(seed=1).map_text() == Zinordia.map_text()
    with pytest.raises(TypeError, match="own"):
        teams.map_text(mode="duel")


def test_doc_examples_run() -> None:
    import doctest
    import re

    import kingdoms.zinordia

    assert doctest.testmod(kingdoms.zinordia).failed == 0
    doc = Path(__file__).resolve().parent.parent / "docs" / "zinordia.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), re.DOTALL)
    assert blocks
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner()
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"docs/zinordia.md[{i}]", str(doc), 0)
        runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


def test_reactions_interrupt_suspends_an_ability_in_saved_states_undo_and_replay() -> None:
    """ZN-9.5 with ``reactions_interrupt=True``: random games reach states where the rest of
    an ability waits for a reaction (``resume.kind == "resolution"``); such a state saves
    and loads (dict and position), ``undo`` comes back to it exactly, and the record
    replays to the same end."""
    suspended = 0
    for seed in range(6):
        g = Zinordia(seed=seed, reactions_interrupt=True)
        rng = random.Random(seed)
        marks: list[tuple[int, dict[str, object]]] = []
        while not g.is_terminal:
            d = g.to_dict()
            if d["resume"]["kind"] == "resolution":
                suspended += 1
                assert kingdoms.from_dict(d).to_dict() == d
                text = g.position()
                again = kingdoms.new_game("zinordia", position=text, reactions_interrupt=True)
                assert again.position() == text and " resolution:" in text
                # A normal decision: the reacting player's reactions, or decline.
                assert all(
                    str(a).startswith("react ") or str(a) == "decline" for a in g.legal_actions()
                )
                marks.append((g.ply or 0, d))
            g.apply(rng.choice(g.legal_actions()))
        end = g.to_dict()
        assert kingdoms.replay(g.record()).to_dict() == end
        for ply, d in marks[:3]:
            back = g.clone()
            back.undo(to_ply=ply)
            assert back.to_dict() == d
    assert suspended > 0


def test_play_zinordia_screens_show_coordinates_ability_names_and_the_legend(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A whole game through ``kingdoms play zinordia`` (always the first move against a random
    player): the screens show zone coordinates to type, the Stars' ability names and costs,
    the initiative, and the map's key; the picture names the sides by letter, with a legend."""
    import io
    import re

    from kingdoms.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5000))
    assert main(["play", "zinordia", "--ai", "random", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "Game over" in out
    assert re.search(r"^ *(s|p)?-?\d+,-?\d+ ", out, re.MULTILINE), "coordinates on the map"
    assert "Key: q,r an empty zone" in out
    assert "s a start zone, p a privilege zone" in out, "zones marked during placement"
    assert "Initiative:" in out and "turn order" in out
    roster = tomllib.loads(reference_files()["roster.toml"])
    names = [a["name"] for s in roster["stars"] for a in s["abilities"]]
    assert sum(n in out for n in names) >= 6, "ability names on the sheets"
    assert re.search(r"Armadura \d+/\d+", out) and "Âmago, range" in out
    g = Zinordia(seed=4)
    while not g.is_terminal:
        g.apply(g.legal_actions()[0])
    svg = g.svg()
    assert "V Vida" in svg and "Ar Armadura" in svg
    assert "team" not in svg.split("</text>")[0], "sides by letter in the title"
    assert re.search(r">-?\d+,-?\d+<", svg), "coordinates on the zones"


def test_actions_read_with_names_where_shown_in_full() -> None:
    from kingdoms._cli_play import seen_move
    from kingdoms._svg import replay

    g = Zinordia(seed=3)
    pick = g.legal_actions()[0]
    assert g.action_text(pick).startswith("pick ") and g.action_text(pick) != str(pick)
    assert seen_move(g, pick, 1) == "pick (secret)"
    rng = random.Random(3)
    named = None
    for _ in range(400):
        if g.is_terminal:
            break
        for a in g.legal_actions():
            text = g.action_text(a)
            if str(a).startswith("use ") and " → " in text:
                named = (g.clone(), a, text)
                break
        if named:
            break
        g.apply(rng.choice(g.legal_actions()))
    assert named is not None
    before, a, text = named
    q, r = str(a).split()[2].split(",")[:2]
    target = next(s for s in before.to_dict()["stars"] if s["zone"] == f"{q},{r}")
    roster = tomllib.loads(reference_files()["roster.toml"])["stars"]
    names = {s["id"]: s["name"] for s in roster}
    abilities = {ab["name"] for s in roster for ab in s["abilities"]}
    assert text.split(" → ")[0].removeprefix("use ") in abilities
    assert f"→ {names[target['star']]} at {q},{r}" in text
    assert before.parse_action(str(a)) == a  # the notation is unchanged
    assert seen_move(before, a, None) == text
    assert seen_move(before, a, before.current_player) == text
    before.apply(a)
    page = replay.replay_html(before.record())
    assert html.escape(text) in page
