"""Arte da Guerra through the Python API: options and card data, secret deployment, views,
conversion and a full game. Each rule is tested once, in Rust, by its id
(rust/core/src/arte/tests/, docs/rules/arte-da-guerra.md)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import kingdoms
import numpy as np
import pytest
from kingdoms.arte import UNIT_TYPES, Arte, card_set, reference_files

# Every terrain favours nothing and every unit card is one guerreiro: each unit scores 1, and
# only the row-2 bonus (+1 per guerreiro on attack) separates attack from defence.
PLAIN_SET = """
[[terrain]]
name = "Waste"
favours = {}
copies = 9

[[unit]]
units = ["guerreiro"]
copies = 27
"""


def play_until(g: Arte, done: Any, seed: int = 0) -> Arte:
    rng = random.Random(seed)
    while not done(g):
        g.apply(rng.choice(g.legal_actions()))
    return g


def phase(g: Arte) -> str:
    return str(g.to_dict()["phase"])


def test_construction_options_and_card_sets(tmp_path: Path) -> None:
    g = Arte(seed=3)
    assert g.name == "arte" and isinstance(g, kingdoms.Game)
    assert g.options == {
        "cards_file": None,
        "cards_toml": None,
        "draft_order": "continuous",
        "deployment": "simultaneous",
        "ranged_scoring": "ranged_defender",
        "sudden_death_row": "chosen",
    }
    assert kingdoms.new_game("arte", seed=3) == g
    with pytest.raises(kingdoms.RulesOptionError):
        Arte(seed=1, deployment="sideways")
    with pytest.raises(kingdoms.RulesOptionError):
        Arte(seed=1, cards_file="a.toml", cards_toml=PLAIN_SET)
    # The reference set as text or as a file is the same game as the default.
    text = Arte.reference_cards_toml()
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    for game in (Arte(seed=3, cards_toml=text), Arte(seed=3, cards_file=str(path))):
        d, ref = game.to_dict(), g.to_dict()
        del d["options"], ref["options"]
        assert d == ref
    assert UNIT_TYPES == ("cavaleiro", "guerreiro", "arqueiro", "mago")


def test_card_data_is_validated_with_file_card_and_field(tmp_path: Path) -> None:
    cards = Arte.card_set()
    assert len(cards["terrain"]) == 12 and len(cards["units"]) == 36
    assert cards["units"][0]["id"] == "U1"
    assert all(1 <= len(u["units"]) <= 3 for u in cards["units"])
    bad = tmp_path / "bad.toml"
    bad.write_text(PLAIN_SET.replace('["guerreiro"]', '["guerreiro", "elfo"]'), encoding="utf-8")
    with pytest.raises(kingdoms.DataError, match=r"bad\.toml: unit\[0\]\.units\[1\]"):
        Arte(seed=1, cards_file=str(bad))
    with pytest.raises(kingdoms.DataError, match=r"cards_toml: terrain\[0\] \(\"Waste\"\)\.favour"):
        Arte.card_set(cards_toml=PLAIN_SET.replace("favours", "favour"))
    with pytest.raises(kingdoms.DataError, match="at least 27"):
        Arte.card_set(cards_toml=PLAIN_SET.replace("copies = 27", "copies = 26"))
    with pytest.raises(kingdoms.DataError, match="cannot read"):
        Arte.card_set(cards_file=str(tmp_path / "missing.toml"))
    assert isinstance(kingdoms.DataError("x"), ValueError)


def test_module_card_set_helpers_match_strifulls(tmp_path: Path) -> None:
    # kingdoms.arte.card_set / reference_files, the same shape as kingdoms.strifull's.
    files = reference_files()
    assert list(files) == ["reference.toml"] and files["reference.toml"].strip()
    path = tmp_path / "reference.toml"
    path.write_text(files["reference.toml"], encoding="utf-8")
    assert card_set() == Arte.card_set() == card_set(path)
    with pytest.raises(kingdoms.DataError, match=r"cards_toml: terrain\[0\]"):
        card_set(cards_toml=PLAIN_SET.replace("favours", "favour"))


def test_secret_deployment_and_observation() -> None:
    g = play_until(Arte(seed=5), lambda g: phase(g) == "deploy")
    first = g.current_player
    assert first is not None
    g.apply(g.legal_actions()[0])
    other = 1 - first
    assert g.view(other)["players"][first]["deploying"] == [{"card": None, "cell": None}]
    assert g.view(first)["players"][first]["deploying"][0]["card"] is not None
    obs = g.observation_tensor(other)
    assert obs.shape == (49, 52) and list(obs.shape) == g.observation_shape
    assert obs.dtype == np.float32
    for s in range(5):
        assert np.array_equal(g.resample_hidden(other, s).observation_tensor(other), obs)
    assert "face down" in g.render(other)


def test_full_games_end_with_a_winner_and_sudden_death_when_tied() -> None:
    sudden = 0
    for seed in range(40):
        opts: dict[str, Any] = {"deployment": "alternating"} if seed % 2 else {}
        g = play_until(Arte(seed=seed, **opts), lambda g: g.is_terminal, seed)
        d = g.to_dict()
        assert g.winner in (0, 1)
        v = [len(p["victory"]) for p in d["players"]]
        if v[0] != v[1]:
            assert g.winner == (0 if v[0] > v[1] else 1)
        else:
            sudden += 1
            assert all(p["pick"] is not None for p in d["players"])
        assert sorted(g.returns()) == [-1.0, 1.0]
        assert g.evaluate(g.winner) == 1.0
    assert sudden > 0, "random play reaches sudden death now and then"


def test_sudden_death_pick_is_secret() -> None:
    for seed in range(300):
        g = play_until(Arte(seed=seed), lambda g: phase(g) == "sudden_death" or g.is_terminal, seed)
        if g.is_terminal:
            continue
        attacker = g.current_player
        assert attacker is not None
        g.apply(g.legal_actions()[-1])
        assert g.view(1 - attacker)["players"][attacker]["pick"] == {"card": None, "row": None}
        assert g.view(attacker)["players"][attacker]["pick"]["card"] is not None
        with pytest.raises(kingdoms.IllegalActionError) as info:
            g.apply("pass")
        assert info.value.rule == "AG-1.5"
        return
    pytest.fail("no sudden death in 300 random games")


def test_simulate_and_notation_errors() -> None:
    s = kingdoms.simulate("arte", 200, 1, threads=1, ranged_scoring="exception")
    assert s.games == 200 and sum(s.wins) == 200 and s.draws == 0
    g = Arte(seed=1)
    for bad in ["deploy U1 d4", "place U1 1", "take U99", "hide"]:
        with pytest.raises(kingdoms.NotationError):
            g.parse_action(bad)
    assert g.num_actions == 20 + 2 * 48 + 3 * 12 + 12 * 36
    assert str(g.id_to_action(0)) == "pass" and str(g.id_to_action(1)) == "take ?"
    assert g.describe_action("deploy U12 b2") == {
        "kind": "deploy",
        "card": "U12",
        "cell": "b2",
        "row": 2,
        "column": "b",
    }
    assert -1.0 <= g.evaluate(0) <= 1.0
