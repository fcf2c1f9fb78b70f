"""Files and values that come from data, not from the caller (issue 51): content folders,
data-file error messages, and pickled values that must come back equal and checked."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import kingdoms
import pytest
from kingdoms import arte, strifull, zinordia
from kingdoms.agents import Random

LONG = "A" * 300 + "\\u001b[2J<script>alert(1)</script>"


# ---- content folders ----


def test_content_options_read_only_regular_files_inside_the_folder(tmp_path: Path) -> None:
    maps = tmp_path / "maps"
    maps.mkdir()
    ref = zinordia.reference_files()
    name = next(k for k in ref if k.startswith("maps/"))
    (maps / "good.toml").write_text(ref[name], encoding="utf-8")
    assert set(zinordia.content_options(maps=maps)["maps_toml"]) == {"good"}
    (tmp_path / "outside.toml").write_text("secret = 1\n", encoding="utf-8")
    for target, match in [
        ("/dev/zero", "a link out of its folder"),
        (str(tmp_path / "outside.toml"), "a link out of its folder"),
    ]:
        link = maps / "evil.toml"
        link.symlink_to(target)
        with pytest.raises(kingdoms.DataError, match=match):
            zinordia.content_options(maps=maps)
        link.unlink()
    os.mkfifo(maps / "pipe.toml")  # inside the folder, but not a regular file
    with pytest.raises(kingdoms.DataError, match="not a regular file"):
        zinordia.content_options(maps=maps)
    with pytest.raises(kingdoms.DataError, match="not a regular file"):
        zinordia.content_options(roster="/dev/zero")
    big = tmp_path / "big.toml"
    big.write_bytes(b"#" * (2 << 20))
    with pytest.raises(kingdoms.DataError, match="larger than"):
        zinordia.content_options(modes=big)


def test_the_one_reader_is_exposed_and_refuses_what_is_not_a_regular_file(
    tmp_path: Path,
) -> None:
    from kingdoms._kingdoms import read_data_bytes, read_data_file

    p = tmp_path / "a.toml"
    p.write_text("x = 1\n", encoding="utf-8")
    assert read_data_file(p) == "x = 1\n"
    assert read_data_bytes(p, 6) == b"x = 1\n"
    with pytest.raises(kingdoms.DataError, match="larger than the limit of 5"):
        read_data_bytes(p, 5)
    for bad in ("/dev/zero", tmp_path):
        with pytest.raises(kingdoms.DataError):
            read_data_file(bad)


# ---- data-file errors quote no content ----


def _bounded(message: str) -> None:
    assert "A" * 41 not in message, message
    assert not any(c < " " for c in message), repr(message)
    assert "<script>" not in message or "A" * 40 not in message
    assert len(message) < 400, message


@pytest.mark.parametrize(
    "load",
    [
        lambda: arte.card_set(cards_toml=f'name="x"\n[[terrain]]\nname="t"\nfavours="{LONG}"\n'),
        lambda: arte.card_set(cards_toml=f'name="x"\n"{LONG}"=1\n'),
        lambda: strifull.card_set(cards_toml=f'[[faction]]\n"{LONG}"=3\n'),
        lambda: strifull.card_set(cards_toml=f'[[faction]]\nid="{LONG}"\nname=3\n'),
        lambda: zinordia.Zinordia(seed=1, roster_toml=f'[[stars]]\n"{LONG}"=1\n'),
        lambda: zinordia.Zinordia(seed=1, modes_toml=f'[[modes]]\nid="{LONG}"\nplayers="{LONG}"\n'),
        lambda: zinordia.Zinordia(seed=1, maps_toml={"m": f'"{LONG}"="x"\n'}),
    ],
    ids=["arte-type", "arte-key", "strifull-key", "strifull-id", "roster-key", "modes", "map"],
)
def test_data_errors_name_the_place_never_the_content(load: object) -> None:
    with pytest.raises(kingdoms.DataError) as err:
        load()  # type: ignore[operator]
    _bounded(str(err.value))


def test_a_hostile_card_file_is_not_quoted(tmp_path: Path) -> None:
    p = tmp_path / "cards.toml"
    p.write_text(f'name="x"\n[[terrain]]\nname="t"\nfavours="{LONG}"\n', encoding="utf-8")
    with pytest.raises(kingdoms.DataError, match="cards.toml") as err:
        arte.card_set(cards_file=p)
    _bounded(str(err.value))


# ---- pickles ----


@pytest.mark.parametrize("name", kingdoms.games())
def test_a_determinized_copy_pickles_to_an_equal_game(name: str) -> None:
    g = kingdoms.new_game(name, seed=3)
    g.apply(g.legal_actions()[0])
    copy = g.resample_hidden(g.current_player or 0, 5)
    back = pickle.loads(pickle.dumps(copy))
    assert back == copy and back.to_dict() == copy.to_dict()
    with pytest.raises(kingdoms.KingdomsError, match="no history"):
        back.record()
    assert pickle.loads(pickle.dumps(g)) == g


def test_tournament_results_and_ratings_pickle() -> None:
    t = kingdoms.tournament(
        "battleline", [Random(seed=1), Random(seed=2)], games=4, seed=1, records=True
    )
    back = pickle.loads(pickle.dumps(t))
    assert back == t and back.table() == t.table() and back.to_dict() == t.to_dict()
    assert [pickle.loads(pickle.dumps(e)) for e in t.elo] == t.elo
    other = kingdoms.tournament("battleline", [Random(seed=1), Random(seed=2)], games=4, seed=2)
    assert other != t


def test_simulation_stats_compare_by_value() -> None:
    s = kingdoms.simulate("battleline", 3, 1)
    assert pickle.loads(pickle.dumps(s)) == s
    assert s != kingdoms.simulate("battleline", 4, 1) and s != "s"
    same = kingdoms.SimulationStats(s.games, s.wins, s.draws, s.plies, s.seconds)
    assert same == s


@pytest.mark.parametrize("name", kingdoms.games())
def test_an_unpickled_action_whose_id_and_notation_disagree_is_refused(name: str) -> None:
    g = kingdoms.new_game(name, seed=4)
    first, second = g.legal_actions()[:2]
    assert pickle.loads(pickle.dumps(first)) == first
    g.apply(pickle.loads(pickle.dumps(first)))  # an honest pickle plays
    # what a pickle naming one action's id with another's notation unpickles to
    restore, (game, ident, _) = first.__reduce__()
    forged = restore(game, ident, str(second))
    assert pickle.loads(pickle.dumps(forged)).id == first.id
    h = kingdoms.new_game(name, seed=4)
    before = h.to_json()
    with pytest.raises(kingdoms.ArgumentError, match="not the notation"):
        h.apply(forged)
    assert h.to_json() == before
