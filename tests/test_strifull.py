"""STRIFULL through the Python API: hand-built positions (``Strifull.from_dict``), options,
card data, conversion and error messages. Each rule is tested once, in Rust, by its id
(rust/core/src/strifull/tests/); the generic protocol properties are in test_protocol.py."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import kingdoms
import pytest
from kingdoms.strifull import Strifull, card_set, reference_files


def position(
    p0: dict[str, str],
    p1: dict[str, str],
    *,
    live: tuple[list[bool], list[bool]] = ([True, False, False], [True, False, False]),
    step: str = "attack",
    player: int = 0,
    leaders: tuple[str, str] = ("ella_de_belberg", "teodoro"),
    elements: tuple[str, str] = ("earth", "earth"),
    leader_rows: tuple[int, int] = (1, 1),
    rng_seed: int = 1,
    **options: Any,
) -> dict[str, Any]:
    """A hand-built position dict: fields given as {cell: troop id} (face down; a trailing
    '!' on the id means face up)."""
    base = Strifull(seed=rng_seed, **options).to_dict()

    def field(cells: dict[str, str]) -> dict[str, Any]:
        return {c: {"card": t.rstrip("!"), "revealed": t.endswith("!")} for c, t in cells.items()}

    return {
        "options": base["options"],
        "step": step,
        "player": player,
        "turn": 1,
        "turn_player": player,
        "first": None,
        "pending": [],
        "ability_used": False,
        "turn_mod": None,
        "last_combat": None,
        "winner": None,
        "draw": False,
        "rng": base["rng"],
        "sides": [
            {
                "leader": leaders[p],
                "element": elements[p],
                "leader_row": leader_rows[p],
                "live_rows": live[p],
                "field": field(cells),
            }
            for p, cells in enumerate([p0, p1])
        ],
    }


SIMPLE: dict[str, Any] = {
    "p0": {"aA1": "martires_fogo", "aB1": "vigilias_vento", "dA1": "martires_agua"},
    "p1": {"aA1": "adeptos_fogo", "dA1": "adeptos_terra", "dB1": "adeptos_terra"},
}


# ---- construction and options ----------------------------------------------------------------


def test_default_game_is_inquisition_against_the_mages() -> None:
    g = Strifull(seed=3)
    d = g.to_dict()
    assert [s["faction"] for s in d["sides"]] == ["inquisicao", "magos"]
    assert [s["leader"] for s in d["sides"]] == ["ella_de_belberg", "teodoro"]
    assert g.num_actions == 405
    assert g.observation_shape == [38, 40]
    assert g.options["tie_is_defeat"] is True
    assert g.current_player == 0
    assert "pass" in [str(a) for a in g.legal_actions()]
    assert isinstance(kingdoms.new_game("strifull", seed=3), Strifull)


# ---- attacks and combat ----------------------------------------------------------------------


def test_bad_decks_and_leaders_are_rules_option_errors() -> None:
    with pytest.raises(kingdoms.RulesOptionError, match="4 copies"):
        Strifull(seed=1, decks=[["martires_fogo"] * 4 + ["guarda_fogo"] * 26, "recommended"])
    with pytest.raises(kingdoms.RulesOptionError, match="30 troops"):
        Strifull(seed=1, decks=[["martires_fogo"], "recommended"])
    with pytest.raises(kingdoms.RulesOptionError, match="leads"):
        Strifull(seed=1, leaders=["teodoro", None])
    with pytest.raises(kingdoms.RulesOptionError, match="unknown faction"):
        Strifull(seed=1, factions=["templarios", "magos"])
    with pytest.raises(kingdoms.RulesOptionError):
        Strifull(seed=1, mutual_wipeout="coin_flip")


def test_illegal_actions_raise_with_their_rule_and_change_nothing() -> None:
    # The rules themselves are tested in Rust by id (rust/core/src/strifull/tests/).
    g = Strifull.from_dict(position(**SIMPLE))
    before = g.to_dict()
    with pytest.raises(kingdoms.IllegalActionError) as info:
        g.apply("pass")
    assert info.value.rule == "SK-4.7"
    assert g.to_dict() == before
    with pytest.raises(kingdoms.NotationError):
        g.apply("attack aA1")
    with pytest.raises(kingdoms.NotationError, match="defence zone"):
        g.parse_action("attack aA1 aB1")


# ---- setup and information -------------------------------------------------------------------


# ---- serialization, records, errors ----------------------------------------------------------


def test_hand_built_positions_round_trip_and_bad_ones_name_the_path() -> None:
    pos = position(**SIMPLE)
    g = Strifull.from_dict(pos)
    assert Strifull.from_dict(g.to_dict()) == g
    bad = copy.deepcopy(pos)
    bad["sides"][0]["field"]["aB1"] = {"card": "adeptos_fogo"}
    with pytest.raises(kingdoms.StateError, match=r"\$\.sides\[0\]\.field\.aB1\.card"):
        Strifull.from_dict(bad)
    bad = copy.deepcopy(pos)
    bad["sides"][1]["live_rows"] = [True, True, False]
    with pytest.raises(kingdoms.StateError, match="empty half"):
        Strifull.from_dict(bad)


EXAMPLE_CARDS = "\n".join(
    [
        f'[[faction]]\nid = "{f}"\nname = "{f}"\nrecommended = ['
        + ", ".join(f'"{f}{i}"' for i in range(10) for _ in range(3))
        + f']\n[[brigade]]\nid = "{f}b"\nfaction = "{f}"\nname = "B"\n'
        f'[[leader]]\nid = "{f}l"\nfaction = "{f}"\nname = "L"\n'
        + "".join(
            f'[[troop]]\nid = "{f}{i}"\nbrigade = "{f}b"\nname = "T{i}"\nelement = "fire"\n'
            f"atk = {10 if i == 0 else 1}\ndef = {8 if i == 0 else 1}\n"
            for i in range(10)
        )
        for f in "ab"
    ]
)


def test_records_replay_with_user_cards() -> None:
    g = Strifull(seed=5, cards_toml=EXAMPLE_CARDS)
    while not g.is_terminal:
        g.apply(g.legal_actions()[len(g.legal_actions()) // 2])
    assert kingdoms.replay(g.record()) == g


def test_simulate_with_options() -> None:
    s = kingdoms.simulate("strifull", 50, 1, threads=1, leaders=["aurelio", "corvin"])
    assert s.games == 50 and sum(s.wins) + s.draws == 50


# ---- card data -------------------------------------------------------------------------------


def test_reference_cards() -> None:
    cs = card_set()
    assert {f["id"] for f in cs["factions"]} == {"inquisicao", "magos"}
    assert len(cs["troops"]) == 40 and len(cs["leaders"]) == 6
    tempestiva = next(t for t in cs["troops"] if t["id"] == "tempestiva_vento")
    assert (tempestiva["atk"], tempestiva["def"]) == (6, 3)
    assert tempestiva["abilities"][0]["to"] == "enemies"
    ella = next(t for t in cs["leaders"] if t["id"] == "ella_de_belberg")
    assert ella["abilities"][0] == {
        "when": "on_defeat",
        "effect": "survive",
        "to": "ally",
        "zone": "defence",
        "row": "leader",
        "roll": 6,
        "summary": "on_defeat: survive on 6+ to ally, zone defence, leader's row",
    }
    assert set(reference_files()) == {"inquisicao.toml", "magos.toml"}


def test_user_card_files_load_from_a_directory(tmp_path: Path) -> None:
    for name, text in reference_files().items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert card_set(tmp_path) == card_set()
    g = Strifull(seed=2, cards_file=str(tmp_path))
    # The game carries the set's text, never the path (issue 11).
    assert g.to_dict()["options"]["cards_file"] is None
    assert "tempestiva_vento" in g.to_dict()["options"]["cards_toml"]
    assert Strifull.from_dict(g.to_dict()) == g


def test_card_errors_name_file_card_and_field(tmp_path: Path) -> None:
    text = reference_files()["magos.toml"].replace("atk = 6\n", "atk = 6\nattack = 1\n", 1)
    path = tmp_path / "broken.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(
        kingdoms.DataError, match='broken.toml: troop "tempestiva_vento", field "attack"'
    ):
        card_set(path)
    with pytest.raises(kingdoms.DataError, match='troop "x", ability 1, field "roll"'):
        card_set(
            cards_toml=EXAMPLE_CARDS
            + '[[troop]]\nid = "x"\nbrigade = "ab"\nname = "X"\nelement = "fire"\natk = 1\n'
            'def = 1\n[[troop.ability]]\nwhen = "on_defeat"\neffect = "survive"\n'
        )
    with pytest.raises(kingdoms.DataError, match="line 2"):
        card_set(cards_toml="[[faction]]\nid = = 3\n")
    with pytest.raises(kingdoms.DataError, match="cannot read"):
        Strifull(seed=1, cards_file=str(tmp_path / "missing.toml"))
    assert issubclass(kingdoms.DataError, ValueError)
