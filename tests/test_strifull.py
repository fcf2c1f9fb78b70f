"""STRIFULL through the Python API: hand-built positions (``Strifull.from_dict``), rules with
their ids (docs/rules/strifull.md), options, card data and error messages. The generic
protocol properties are in test_protocol.py; the exhaustive rule tests in Rust
(rust/core/src/strifull/tests.rs)."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import kingdoms
import pytest
from kingdoms.strifull import ELEMENTS, Strifull, card_set, reference_files


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


def targets(g: Strifull, attacker: str) -> list[str]:
    prefix = f"attack {attacker} "
    return [str(a)[len(prefix) :] for a in g.legal_actions() if str(a).startswith(prefix)]


def attack_with_dice(pos: dict[str, Any], action: str, dice: list[int]) -> Strifull:
    """Apply `action` from `pos` with an RNG state that rolls `dice` first (found by trying
    the RNG states of seeded games)."""
    for seed in range(20_000):
        trial = dict(pos, rng=Strifull(seed=seed).to_dict()["rng"])
        g = Strifull.from_dict(trial)
        g.apply(action)
        combat = g.to_dict()["last_combat"]
        rolls = combat["dice"] + [r for side in combat["survival_rolls"] for r in side]
        if rolls[: len(dice)] == dice:
            return g
    raise AssertionError(f"no RNG state rolls {dice}")


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


def test_sk_1_2_bad_decks_and_leaders_are_rules_option_errors() -> None:
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


def test_sk_1_3_random_and_explicit_decks() -> None:
    g = Strifull(seed=9, decks=["random", {"tempestiva_vento": 3, **_magos_counts(27)}])
    decks = [s["deck"] for s in g.to_dict()["sides"]]
    assert all(sum(d.values()) == 30 and max(d.values()) <= 3 for d in decks)
    assert decks[1]["tempestiva_vento"] == 3


def _magos_counts(n: int) -> dict[str, int]:
    ids = [t["id"] for t in card_set()["troops"] if t["faction"] == "magos"]
    ids.remove("tempestiva_vento")
    out: dict[str, int] = {}
    for i in range(n):
        out[ids[i % len(ids)]] = out.get(ids[i % len(ids)], 0) + 1
    return out


# ---- attacks and combat ----------------------------------------------------------------------


def test_sk_5_2_and_5_3_frontal_and_flank_targets() -> None:
    brigades = ["tempestiva", "sentinelas", "arcanistas"]
    p1 = {
        f"d{c}{r}": f"{brigades[r - 1]}_{e}"
        for r in (1, 2, 3)
        for c, e in zip("ABC", ["agua", "terra", "vento"])
    }
    p1.update({"aA1": "adeptos_fogo", "aA2": "adeptos_fogo", "aA3": "adeptos_vento"})
    pos = position({"aB1": "martires_fogo", "dA1": "martires_agua"}, p1)
    pos["sides"][1]["live_rows"] = [True, True, True]
    p1_defence_full = Strifull.from_dict(pos)
    assert targets(p1_defence_full, "aB1") == ["dB1"], "frontal only"
    del pos["sides"][1]["field"]["dB1"]
    opened = Strifull.from_dict(pos)
    assert targets(opened, "aB1") == ["dA1", "dC1", "dB2"], "frontal dB2, flanks around dB1"
    with pytest.raises(kingdoms.IllegalActionError) as info:
        opened.apply("attack aB1 dA3")
    assert info.value.rule == "SK-5.3"


def test_sk_6_5_the_rulebook_example() -> None:
    """ATK 10 against DEF 8: advantage 2; dice 3 and 6; 5 against 6, the defender wins."""
    pos = position(
        {"aA1": "a0", "aB1": "a1", "dA1": "a1"},
        {"aA1": "b1", "dA1": "b0"},
        leaders=("al", "bl"),
        elements=("water", "water"),
        cards_toml=EXAMPLE_CARDS,
    )
    g = attack_with_dice(pos, "attack aA1 dA1", [3, 6])
    c = g.to_dict()["last_combat"]
    assert (c["values"], c["dice"], c["totals"], c["result"]) == (
        [10, 8],
        [3, 6],
        [5, 6],
        "defender",
    )
    assert g.to_dict()["sides"][0]["graveyard"] == ["a0"]


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


def test_sk_6_3_and_6_4_elemental_bonuses_add_up() -> None:
    # Mártir da Chama (fire 4/3) with a fire leader in its row, against a wind troop (DEF 3).
    pos = position(
        {"aA1": "martires_fogo", "aB1": "vigilias_vento", "dA1": "martires_agua"},
        {"aA1": "adeptos_fogo", "dA1": "arcanistas_vento", "dB1": "adeptos_terra"},
        elements=("fire", "earth"),
    )
    g = Strifull.from_dict(pos)
    g.apply("attack aA1 dA1")
    assert g.to_dict()["last_combat"]["values"] == [6, 3]


def test_sk_6_6_a_tie_eliminates_both() -> None:
    pos = position(**SIMPLE, elements=("earth", "wind"))  # 4 against 4
    g = attack_with_dice(pos, "attack aA1 dA1", [2, 2])
    c = g.to_dict()["last_combat"]
    assert c["result"] == "tie" and c["fell"] == [True, True]


def test_sk_6_8_ella_de_belberg_saves_on_a_six() -> None:
    pos = position(
        {"aA1": "vigilias_vento", "dA1": "vigilias_terra", "dB1": "vigilias_terra"},
        {"aA1": "adeptos_fogo", "aB1": "adeptos_fogo", "dA1": "adeptos_agua"},
        player=1,
        elements=("wind", "wind"),
        leaders=("ella_de_belberg", "lyra"),
    )
    saved = attack_with_dice(pos, "attack aA1 dA1", [6, 1, 6])
    assert saved.to_dict()["last_combat"]["survived"] == [False, True]
    assert saved.to_dict()["sides"][0]["field"]["dA1"]["card"] == "vigilias_terra"
    lost = attack_with_dice(pos, "attack aA1 dA1", [6, 1, 5])
    assert "dA1" not in lost.to_dict()["sides"][0]["field"]


def test_sk_7_1_and_8_1_the_last_row_falls_and_the_game_ends() -> None:
    pos = position(
        {"aA1": "a0", "dA1": "a1"},
        {"aA1": "b1", "dA1": "b1"},
        leaders=("al", "bl"),
        elements=("water", "water"),
        cards_toml=EXAMPLE_CARDS,
    )
    g = Strifull.from_dict(pos)
    g.apply("attack aA1 dA1")  # 10 against 1: advantage 9 always wins
    d = g.to_dict()
    assert d["last_combat"]["rows_lost"] == [[], [1]]
    assert d["sides"][1]["live_rows"] == [False, False, False]
    assert d["sides"][1]["field"] == {}
    assert g.is_terminal and g.winner == 0 and g.returns() == [1.0, -1.0]
    with pytest.raises(kingdoms.IllegalActionError) as info:
        g.apply("pass")
    assert info.value.rule == "SK-8.1"


def test_sk_4_7_the_attack_is_not_optional_and_illegal_actions_change_nothing() -> None:
    g = Strifull.from_dict(position(**SIMPLE))
    before = g.to_dict()
    for text, rule in [("pass", "SK-4.7"), ("leader 2", "SK-4.7"), ("attack aA1 dC3", "SK-5.2")]:
        with pytest.raises(kingdoms.IllegalActionError) as info:
            g.apply(text)
        assert info.value.rule == rule, text
        assert g.to_dict() == before
    with pytest.raises(kingdoms.NotationError):
        g.apply("attack aA1")
    with pytest.raises(kingdoms.NotationError, match="defence zone"):
        g.parse_action("attack aA1 aB1")


# ---- setup and information -------------------------------------------------------------------


def test_sk_3_setup_sequence_and_secret_choices() -> None:
    g = Strifull(seed=4)
    g.apply("swap aA1 dC3")
    g.apply("swap aB2 pile")
    assert g.view(0)["sides"][0]["pile"][-1] is not None, "the owner knows the card put under"
    assert g.view(1)["sides"][0]["pile"][-1] is None
    g.apply("pass")
    assert [str(a) for a in g.legal_actions()] == [f"element {e}" for e in ELEMENTS]
    g.apply("element water")
    g.apply("leader 2")
    assert g.current_player == 1
    assert g.view(1)["sides"][0]["element"] is None, "secret until both are set up"
    for text in ("pass", "element fire", "leader 3"):
        g.apply(text)
    d = g.to_dict()
    assert d["turn"] == 1 and d["first"]["player"] == g.current_player
    assert g.view(1)["sides"][0]["element"] == "water"


def test_sk_10_views_hide_face_down_cards_and_the_future() -> None:
    g = Strifull(seed=8)
    for _ in range(40):
        g.apply(g.legal_actions()[-1])
    for p in (0, 1):
        v = g.view(p)
        assert v["rng"] is None
        full = g.to_dict()["sides"][1 - p]["field"]
        for cell, c in v["sides"][1 - p]["field"].items():
            assert c["card"] == (full[cell]["card"] if full[cell]["revealed"] else None)
        r = g.resample_hidden(p, 11)
        assert r.view(p) == v and r.render(p) == g.render(p)


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
